import ArgumentParser
import Foundation
import Rig

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

            Exit status: 0; 64 when no rig has the name --rig gives.
            """
    )

    @Option(help: ArgumentHelp("The rig file's name.", valueName: "name"))
    var rig: String

    @Option(help: ArgumentHelp("The folder of rig files (default: the project's Rigs/).", valueName: "dir"))
    var rigs: String?

    @Option(help: ArgumentHelp("The main.conf to start from; every line but the four [LE] keys is kept. A missing file starts from none.",
                               valueName: "file"))
    var base = RigDefinition.systemMainConf

    func run() throws {
        let catalog = try RigOptions.catalog(rigs)
        guard let definition = catalog.rigs.first(where: { $0.name == rig }) else {
            throw ValidationError("no rig file names a rig \(rig); the rigs there: \(catalog.rigs.map(\.name).joined(separator: ", "))")
        }
        let text = FileManager.default.fileExists(atPath: base) ? try String(contentsOfFile: base, encoding: .utf8) : ""
        print(definition.bluetoothdMainConf(base: text), terminator: "")
    }
}
