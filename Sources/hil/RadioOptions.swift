import ArgumentParser
import Rig

/// `--radio-interval` (hil run, hil bench): the vm rig's radio model for this run, over the rig file's "radio".
struct RadioOptions: ParsableArguments {
    @Option(
        name: .customLong("radio-interval"), parsing: .unconditional,
        help: ArgumentHelp(
            "The vm rig's radio for this run: 0 or immediate (btvirt delivers at once), or a connection interval in ms. Range: 7.5 to 4000 ms in steps of 1.25.",
            discussion: "Each ACL packet waits for its link's next connection event (Rigs/README.md, \"The radio model\"). Overrides the rig file's \"radio\"; refused on a rig that is not vm.",
            valueName: "ms"),
        transform: RadioOptions.parse)
    var radioInterval: RigDefinition.Radio?

    @Option(
        name: .customLong("radio-error-rate"), parsing: .unconditional,
        help: ArgumentHelp(
            "The vm rig's radio loses this share of transmissions, each sent again by the link layer. Range: 0 to under 1.",
            discussion: "Nothing is lost, packets come later: in the same connection event, or the next after two failures in a row (Rigs/README.md, \"The radio model\"). Needs the connection-event radio: the rig file's, or --radio-interval's. Overrides the rig file's \"radio.packetErrorRate\".",
            valueName: "P"),
        transform: RadioOptions.parseErrorRate)
    var radioErrorRate: Double?

    static func parseErrorRate(_ text: String) throws -> Double {
        do {
            return try RigDefinition.Radio.errorRate(argument: text)
        } catch {
            throw ValidationError(error.description)
        }
    }

    static func parse(_ text: String) throws -> RigDefinition.Radio {
        do {
            return try RigDefinition.Radio(intervalArgument: text)
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// Whether the command line changes the rig file's radio (so the rig is booted with `applied(to:)`'s).
    var changesTheRadio: Bool { radioInterval != nil || radioErrorRate != nil }

    /// `rig` with the radio `--radio-interval` asks for; `rig` itself without it.
    /// - Throws: `ValidationError` when the rig is not a vm rig (its radio is real, or btvirt's own).
    func applied(to rig: RigDefinition) throws -> RigDefinition {
        guard radioInterval != nil || radioErrorRate != nil else { return rig }
        let option = radioInterval != nil ? "--radio-interval" : "--radio-error-rate"
        guard rig.kind == .vm else {
            throw ValidationError("\(option): rig \(rig.name) is a \(rig.kind.rawValue) rig; the radio model runs in the vm rig only "
                                  + "(Rigs/vm/guest-run.sh). Run with --rig vm, or leave \(option) out")
        }
        var changed = rig
        if let radio = radioInterval { changed.radio = radio }
        if let rate = radioErrorRate {
            guard changed.radio.model == .connectionEvents else {
                throw ValidationError("--radio-error-rate: the radio of rig \(rig.name) delivers at once, with no air to lose packets in; add --radio-interval 15 (or another interval)")
            }
            changed.radio.packetErrorRate = rate
        }
        return changed
    }
}
