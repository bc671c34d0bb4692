import ArgumentParser
import BumblePhone
import Foundation
import Rig
import Scenario

/// `hil run --phone bluez|bumble[:PROFILE]`: the phone that drives ble and hid (`PhoneChoice`).
struct PhoneOption: ExpressibleByArgument, Sendable {
    var choice: PhoneChoice

    init(_ choice: PhoneChoice) {
        self.choice = choice
    }

    init?(argument: String) {
        guard let choice = try? PhoneChoice(parsing: argument) else { return nil }
        self.choice = choice
    }

    static let help = ArgumentHelp(
        "The phone that drives ble and hid: bluez, or bumble[:PROFILE] (bluez-like, minimal, ios-like, android-like).",
        discussion: "bluez: the rig's BlueZ phone, on the computer's own bluetoothd. bumble: a second, independent host stack (Bumble, Rigs/bumble/phone.py) on the phone's adapter, behind the same radio; its profile sets the ATT MTU, EATT, write style, connection parameters and queue (docs/bumble-phone.md). A scenario's run.phone picks its own profile and fields. `bash Rigs/setup.sh` installs Bumble.",
        valueName: "phone")

    /// The checkout's Bumble phone (beside the rig files' folder: `--rigs`, else the project's Rigs/), or why it cannot
    /// run: stops the run before a rig boots.
    static func program(rigs given: String? = nil) -> (BumbleHost.Program?, String?) {
        guard let rigs = given.map({ URL(fileURLWithPath: $0).standardizedFileURL.path }) ?? RigCatalog.locate() else {
            return (nil, "cannot find the project's Rigs/ folder, where Rigs/bumble/phone.py is")
        }
        let program = BumbleHost.Program(projectRoot: (rigs as NSString).deletingLastPathComponent)
        return (program, program.missing)
    }
}
