import ArgumentParser
import Foundation
import Rig
import System

/// Prints the bluetoothd main.conf that carries a rig file's LE connection parameters and ATT bearers.
struct RigMainConfCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "main-conf",
        abstract: "Print bluetoothd's main.conf with the rig file's LE connection parameters in [LE] and its ATT bearers in [GATT].",
        discussion: """
            The vm and virtual rigs start their own bluetoothd with this file, so the central asks for the rig file's \
            "connection" (the radio's interval pinned when the radio model times connection events) and the computer \
            serves "gattChannels" ATT bearers (1 unless the rig file says otherwise: docs/protocol.md, "Order"). A rig on the \
            system's bluetoothd ("bluetoothd": "system", the hardware rig) cannot be configured by hil: \
            Rigs/hardware/install.sh writes this into /etc/bluetooth/main.conf and restarts bluetooth.

            Example: hil rig main-conf --rig hardware > main.conf

            Exit status 0 when it printed the file; 64 (invalid input) when no rig has the name --rig gives, a rig \
            file or the rig folder cannot be read, or --base cannot be read (a folder, no permission), each named \
            with the system's words.
            """
    )

    @Option(help: ArgumentHelp("The rig file's name.", valueName: "name"))
    var rig: String

    @Option(help: ArgumentHelp("The folder of rig files.", discussion: "Default: $HIL_RIGS, else the project's Rigs/ folder.",
                               valueName: "dir"))
    var rigs: String?

    @Option(help: ArgumentHelp("The main.conf to start from; every line but the four [LE] keys is kept. A missing file starts from none.",
                               valueName: "file"))
    var base = RigDefinition.systemMainConf

    func run() throws {
        let catalog = try RigOptions.catalog(rigs)
        guard let definition = catalog.rigs.first(where: { $0.name == rig }) else {
            throw ValidationError("no rig file names a rig \(rig); the rigs there: \(catalog.rigs.map(\.name).joined(separator: ", "))")
        }
        print(definition.bluetoothdMainConf(base: try Self.baseText(base)), terminator: "")
    }

    /// The text of the main.conf to start from: none when it is not there; otherwise its bytes, or why they cannot be
    /// read in the system's words (`/tmp: is a folder, not a file`), never Foundation's error text.
    static func baseText(_ path: String) throws -> String {
        guard FileManager.default.fileExists(atPath: path) else { return "" }
        switch FileAccess.read(path) {
        case .success(let data):
            guard let text = String(data: data, encoding: .utf8) else {
                printError("hil rig main-conf: --base \(path): not UTF-8 text, so not a main.conf")
                throw ExitCause.invalidInput.exit
            }
            return text
        case .failure(let problem):
            printError("hil rig main-conf: --base \(path): \(problem.reason)")
            throw ExitCause.invalidInput.exit
        }
    }
}
