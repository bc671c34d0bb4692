import ArgumentParser
import Rig

/// `--radio-interval` (hil run, hil bench): the vm rig's radio model for this run, over the rig file's "radio".
struct RadioOptions: ParsableArguments {
    @Option(
        name: .customLong("radio-interval"),
        help: ArgumentHelp(
            "The vm rig's radio for this run: 0 or immediate (btvirt delivers at once), or a connection interval in ms.",
            discussion: "7.5 to 4000 in steps of 1.25: each ACL packet waits for its link's next connection event (Rigs/README.md, \"The radio model\"). Overrides the rig file's \"radio\"; refused on a rig that is not vm.",
            valueName: "ms"),
        transform: RadioOptions.parse)
    var radioInterval: RigDefinition.Radio?

    static func parse(_ text: String) throws -> RigDefinition.Radio {
        do {
            return try RigDefinition.Radio(intervalArgument: text)
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// `rig` with the radio `--radio-interval` asks for; `rig` itself without it.
    /// - Throws: `ValidationError` when the rig is not a vm rig (its radio is real, or btvirt's own).
    func applied(to rig: RigDefinition) throws -> RigDefinition {
        guard let radio = radioInterval else { return rig }
        guard rig.kind == .vm else {
            throw ValidationError("--radio-interval: rig \(rig.name) is a \(rig.kind.rawValue) rig; the radio model runs in the vm rig only "
                                  + "(Rigs/vm/guest-run.sh). Run with --rig vm, or leave --radio-interval out")
        }
        var changed = rig
        changed.radio = radio
        return changed
    }
}
