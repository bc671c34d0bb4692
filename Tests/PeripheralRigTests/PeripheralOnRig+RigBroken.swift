import PhoneLinks
import DBus
import Foundation
import HILTestSupport
import Testing

/// A rig whose computer adapter no longer powers on (in the 20-repeat, btvirt's emulated controller answered every
/// power-on with a timeout for the rest of the guest's life) stops `hil run` at once, with its results so far and
/// exit status 125, instead of erroring through every later scenario. The kernel's rfkill soft block makes an adapter
/// refuse to power on the same way, on purpose; it is lifted and the adapter powered on again after.
extension PeripheralOnRig {
    @Test("an adapter that no longer powers on stops hil run after the scenario that found it: exit 125, results kept")
    func rigBrokenStopsTheRun() async throws {
        let adapter = RigGuest.peripheralAdapter
        let folder = "/sys/class/bluetooth/\(adapter)"
        let rfkill = try #require(try FileManager.default.contentsOfDirectory(atPath: folder).first { $0.hasPrefix("rfkill") },
                                  "\(folder) has no rfkill switch")
        let soft = "\(folder)/\(rfkill)/soft"
        let output = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: output) }
        try "1".write(toFile: soft, atomically: false, encoding: .utf8)
        let run: (status: Int32, output: String)
        do {
            defer { try? "0".write(toFile: soft, atomically: false, encoding: .utf8) }
            run = try await runCapturing(try RigGuest.hilBinary(), [
                // --capture never: the broken scenario's timeline would cost tshark's start (about 7 s in the guest).
                "run", "--capture", "never", "--output", output, "Scenarios/cursor/swipe-right.json", "Scenarios/clicks/tap-and-double-tap.json",
            ], in: packageRoot)
        }
        // The rig's own power-on (3 tries): right after the unblock bluetoothd may be powering the adapter on
        // itself, and a Set Powered then answers org.bluez.Error.Busy (seen once under load).
        let central = BlueZCentral(connection: try await DBusConnection.connect(.system), adapter: RigGuest.centralAdapter)
        _ = try await BLEPhoneLink.powerOn(adapter, central)
        try await central.waitUntilPowered(adapter, true)

        #expect(run.status == 125, "\(run.output.suffix(4000))")
        #expect(run.output.contains("hil run: stopped because the rig broke: the computer's adapter \(adapter) no longer powers on"), "\(run.output.suffix(4000))")
        #expect(run.output.contains("1 scenario run(s) not done"), "\(run.output.suffix(4000))")
        #expect(!run.output.contains("[2/2]"), "the second scenario ran on a broken rig:\n\(run.output.suffix(4000))")
        let results = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output + "/results.json"))) as? [String: Any])
        let scenarios = try #require(results["scenarios"] as? [[String: Any]])
        #expect(scenarios.count == 1)
        #expect(scenarios.first?["outcome"] as? String == "error")
        #expect((scenarios.first?["message"] as? String)?.contains("rig: the computer's adapter did not power on again") == true,
                "\(scenarios.first?["message"] ?? "no message")")
    }
}
