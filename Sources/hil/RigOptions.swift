import ArgumentParser
import Foundation
import Rig
import RigControl

/// `--rig` and `--rigs`, declared once for every command that takes a rig (run, bench, soak, doctor, rig exec,
/// vm exec).
struct RigOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "The rig: auto, or a rig name from the rig files.",
        discussion: "auto: the first of hardware, virtual and vm that can run here, and why the others cannot; for hil vm exec, which runs only vm rigs, auto is the rig named vm.",
        valueName: "name"))
    var rig: String = "auto"

    @Option(help: ArgumentHelp("Folder of rig files.", discussion: "Default: $HIL_RIGS, else the project's Rigs/ folder.", valueName: "dir"))
    var rigs: String?

    func catalog() throws -> RigCatalog {
        try Self.catalog(rigs)
    }

    /// Outside a rig: brings the chosen rig up and runs this same `hil` command line in it (`RigReexec`: every
    /// option passes on as typed), with `--rig`, `--rigs` and `--output` replaced by what they are inside (in the vm
    /// rig the output goes to the guest's share and is copied back to `output`), plus `replacing`; exits with the
    /// command's status, and says how long the image, the rig's bring-up and the command took. Used by run, bench
    /// and soak.
    /// `radio` (hil run and bench's `--radio-interval`) replaces the chosen rig's radio model, in a vm rig only.
    func runInRig(output: String, timeout: Duration, replacing extra: [(option: String, value: String)] = [],
                  radio: RadioOptions? = nil, commandLine: [String] = CommandLine.arguments) throws
    {
        let catalog = try catalog()
        let facts = HostFacts.probe()
        var chosen = try RigExecution.choose(rig, from: catalog, facts: facts)
        if let radio, radio.changesTheRadio {
            chosen = try radio.applied(to: chosen)
            printError("hil: radio \(chosen.radio.summary) (--radio-interval, --radio-error-rate: over the rig file's)")
        }
        let destination = URL(fileURLWithPath: output).standardizedFileURL.path
        let inVM = chosen.kind == .vm
        let command = RigReexec(commandLine: commandLine, executable: RunCommand.executable).command(replacing: [
            ("--rig", chosen.name), ("--rigs", catalog.directory), ("--output", inVM ? "/hil/share/results" : destination),
        ] + extra)
        try RigExecution.run(
            chosen, catalog: catalog, facts: facts, command: command,
            options: .init(timeout: timeout, timing: true, resultsDestination: inVM ? destination : nil))
    }

    /// The rig files of `folder`, or of the project's Rigs/ folder; a bad file exits 64 (invalid input) with every
    /// problem, and so does a folder that is not there, whether --rigs named it or none was found (the same cause,
    /// one status).
    static func catalog(_ folder: String?) throws -> RigCatalog {
        guard let folder = folder ?? RigCatalog.locate() else {
            throw RigExecution.fail(RigError(
                .rigFile, "cannot find the Rigs/ folder: none in the folder hil runs in, beside its executable, or above either",
                hint: "run from the project folder, or pass --rigs DIR (or set HIL_RIGS)"))
        }
        do {
            return try RigCatalog(directory: folder)
        } catch {
            throw RigExecution.fail(error)
        }
    }

    /// This process's `HIL_*` variables; a malformed one exits 64 (invalid input) with the variable named.
    static func environment() throws -> RigEnvironment {
        do {
            return try RigEnvironment.current()
        } catch {
            throw RigExecution.fail(error)
        }
    }

    /// True when this `hil` runs inside a rig (`HIL_RIG` set), so run, bench and soak do the work here.
    static func insideRig() throws -> Bool {
        try environment().isInsideRig
    }

    /// The adapter the computer uses unless told otherwise: `HIL_PERIPHERAL_ADAPTER`, else hci0.
    static func peripheralAdapter() throws -> String {
        try environment().peripheralAdapter
    }
}
