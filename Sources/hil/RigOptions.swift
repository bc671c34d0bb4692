import ArgumentParser
import Foundation
import Rig

/// `--rig` and `--rigs`, shared by every command that needs a rig.
struct RigOptions: ParsableArguments {
    @Option(help: "The rig: auto (hardware, else virtual, else vm — whichever can run here), or a rig name.")
    var rig: String = "auto"

    @Option(help: ArgumentHelp("Folder of rig files.", discussion: "Default: $HIL_RIGS, else the project's Rigs/ folder.", valueName: "dir"))
    var rigs: String?

    func catalog() throws -> RigCatalog {
        try Self.catalog(rigs)
    }

    /// Outside a rig: brings the chosen rig up and runs `hil` with `arguments` in it, with `--rigs` and `--output`
    /// added (in the vm rig the output goes to the guest's share and is copied back to `output`); exits with the
    /// command's status. Used by run, bench and soak.
    func runInRig(_ arguments: [String], output: String, timeout: Duration) throws {
        let catalog = try catalog()
        let facts = HostFacts.probe()
        let chosen = try RigExecution.choose(rig, from: catalog, facts: facts)
        let destination = URL(fileURLWithPath: output).standardizedFileURL.path
        let inVM = chosen.kind == .vm
        let command = [RunCommand.executable] + arguments + ["--rigs", catalog.directory, "--output", inVM ? "/hil/share/results" : destination]
        try RigExecution.run(
            chosen, catalog: catalog, facts: facts, command: command,
            options: .init(timeout: timeout, resultsDestination: inVM ? destination : nil))
    }

    /// The rig files of `folder`, or of the project's Rigs/ folder; a bad file exits 125 with every problem.
    static func catalog(_ folder: String?) throws -> RigCatalog {
        guard let folder = folder ?? RigCatalog.locate() else {
            throw ValidationError("cannot find the Rigs/ folder; run from the project folder, or pass --rigs DIR")
        }
        do {
            return try RigCatalog(directory: folder)
        } catch {
            throw RigExecution.fail(error)
        }
    }
}
