import ArgumentParser
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
