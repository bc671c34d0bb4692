import Foundation
import HILTestSupport
import Testing

/// Every suite that runs inside the rig (enabled only there: `.inSharedGuest`), run from the host in one guest: the
/// vm boots once for all of them, the way BlueZ's test-runner and the kernel's HID selftests (vmtest.sh) do, instead
/// of once per suite (about 20 s a boot). One after another (`--no-parallel`): they share the rig's adapters, and one
/// of them blocks hci0 on purpose. Each suite's verdict is checked on its own, with the run's output when it did not
/// pass; a rig that cannot come up fails here with the reason. A mixed suite's tests that boot a guest of their own
/// (`.bootsItsOwnGuest`) run from the host.
@Suite("The in-rig suites, in one guest", .serialized, .tags(.rig))
struct InRigSuitesOnRig {
    /// The in-rig suites: their type (for the filter) and display name (for the verdict line).
    static let suites: [(type: String, name: String)] = [
        ("EvdevOnRig", "uinput to evdev in a real kernel (EvdevOnRig)"),
        ("PeripheralOnRig", "PeripheralOnRig"),
        ("StrangerPhoneOnRig", "StrangerPhoneOnRig"),
        ("SuiteRunOnRig", "hil run, end to end: the shipped suite passes, every mutant fails"),
        ("TCPTransportOnRig", "hil run --transport tcp, end to end"),
        ("CapturesOnRig", "hil run's captures, end to end: a failure's evidence, decoded by tshark"),
        ("RecordOnRig", "hil record: sessions recorded from the virtual phone replay and pass on each transport; mutated ones fail"),
        ("BenchEndToEndOnRig", "hil bench, end to end"),
        ("CalibrateEndToEndOnRig", "hil calibrate, end to end"),
        ("DeviceKilledOnRig", "hil run, the device under test killed"),
        ("BumblePhoneOnRig", "hil run --phone bumble, end to end"),
        ("RunInterruptOnRig", "hil run, interrupted"),
        ("VMGuestOnRig", "vm rig, end to end"),
        ("TwoHostsOnRig", "vm rig, the network transports' two hosts and the attacker"),
        ("RadioBtvirtOnRig", "btvirt's server through the radio bridge: a real link, ACL data at its connection events"),
    ]

    /// All of them held the rig 1766 s, boot included, in a fresh-clone CI (Dec 7, `06a2122`, SuiteRunOnRig 944 s of it
    /// with most of the nightly suite, since cut to its per-commit areas); the job gets a margin over that.
    static let timeoutSeconds = 2700

    @Test("uinput, the peripheral, the shipped suite, tcp, captures, recordings and the bench end to end, in one guest boot")
    func allInOneGuest() async throws {
        let filter = Self.suites.map { "\($0.type)/" }.joined(separator: "|")
        let (status, output) = try await RigGuest.run(filter: filter, timeout: Self.timeoutSeconds)
        let (passed, summary) = testRunPassed(status, output)
        for suite in Self.suites {
            #expect(output.contains("Suite \"\(suite.name)\" passed"),
                    "in-rig suite \(suite.type) did not pass (exit status \(status), summary: \(summary)):\n\(Self.excerpt(output, suite.name))")
        }
        #expect(passed, "in-rig tests '\(filter)' did not pass (exit status \(status), summary: \(summary)):\n\(output.suffix(6000))")
    }

    /// The lines about a suite's failures, or the run's end when it never reported.
    static func excerpt(_ output: String, _ name: String) -> String {
        let lines = output.split(separator: "\n").filter { $0.contains("✘") || $0.contains(name) }
        return lines.isEmpty ? String(output.suffix(6000)) : lines.suffix(60).joined(separator: "\n")
    }
}
