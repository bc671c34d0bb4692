import ArgumentParser

@main
struct HIL: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hil",
        abstract: "RemoteTouch hardware-in-the-loop rig: replays phone gestures and checks the input events they cause.",
        discussion: """
            The phone (BLE central) turns gestures into JSON commands; the computer (BLE peripheral) turns them \
            into cursor, click, key and media events. `hil` emulates the phone, runs the computer side on real \
            BlueZ and uinput, and verifies what comes out.
            """,
        version: "0.1.0",
        subcommands: [RunCommand.self, LabCommand.self, RecordCommand.self, BenchCommand.self, CalibrateCommand.self, SoakCommand.self, ReportCommand.self, ValidateCommand.self, ReplayCommand.self, DecodeCommand.self, DoctorCommand.self, RigCommand.self, VMCommand.self, PeripheralCommand.self, RadioCommand.self, MutantsCommand.self]
    )
}
