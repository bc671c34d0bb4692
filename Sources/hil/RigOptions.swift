import ArgumentParser
import Rig

/// `--rig` and `--rigs`, shared by every command that needs a rig.
struct RigOptions: ParsableArguments {
    @Option(help: "The rig: auto (hardware, else virtual, else vm — whichever can run here), or a rig name.")
    var rig: String = "auto"

    @Option(help: ArgumentHelp("Folder of rig files.", discussion: "Default: $HIL_RIGS, else the project's Rigs/ folder.", valueName: "dir"))
    var rigs: String?

    func catalog() throws -> RigCatalog {
        guard let folder = rigs ?? RigCatalog.locate() else {
            throw ValidationError("cannot find the Rigs/ folder; run from the project folder, or pass --rigs DIR")
        }
        return try RigCatalog(directory: folder)
    }
}
