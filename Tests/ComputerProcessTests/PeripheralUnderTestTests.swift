import ComputerProcess
import Foundation
import Processes
import RigControl
import Testing

/// The computer under test as a process, with a stand-in for `hil` (a shell script given the same arguments): what it
/// is started with, when it counts as serving, and what a computer that exits or never serves says.
@Suite("PeripheralUnderTest: the computer's process, its ready file, its failures")
struct PeripheralUnderTestTests {
    /// A folder with `hil`, a script that runs `body` with hil peripheral's arguments as $@.
    func fakeHil(_ body: String) throws -> (hil: String, folder: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("put-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let hil = folder + "/hil"
        try "#!/bin/sh\n\(body)\n".write(toFile: hil, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: hil)
        return (hil, folder)
    }

    /// Writes the ready file hil peripheral writes once every endpoint serves (`--ready-file PATH`).
    static let serves = """
        while [ $# -gt 0 ]; do [ "$1" = --ready-file ] && ready=$2; shift; done
        printf '{"ready":true,"pid":%d,"adapter":"hci0","uinputDevice":null,"endpoints":["ble"],"registrations":1}\\n' $$ > "$ready"
        echo serving; exec sleep 30
        """

    @Test("BLE alone passes no --transport; a network endpoint passes the endpoints and the computer host's namespace and bus")
    func arguments() {
        let launch = PeripheralUnderTest.Launch(hil: "hil", adapter: "hci0", uinputName: "u", folder: "/tmp/x")
        #expect(launch.transportArguments.isEmpty)
        let hosts = NetworkHosts(phoneNetns: "hil-phone", phoneBus: "unix:path=/p", computerNetns: "hil-computer", computerBus: "unix:path=/c")
        #expect(launch.serving(["tcp"], on: hosts, alsoBLE: true).transportArguments
            == ["--transport", "ble,tcp", "--netns", "hil-computer", "--avahi-bus", "unix:path=/c"])
        #expect(launch.serving(["udp"], on: hosts).endpoints == ["udp"])
    }

    @Test("it serves once its ready file lists every endpoint; its output is kept; it stops when asked")
    func serves() async throws {
        let (hil, folder) = try fakeHil(Self.serves)
        let launch = PeripheralUnderTest.Launch(hil: hil, adapter: "hci0", uinputName: "u", folder: folder)
        // start returns only once the ready file lists "ble"; it still runs (no other test's interrupt reaches it).
        let computer = try await PeripheralUnderTest.start(launch, timeout: .seconds(10))
        #expect(computer.log.contains("serving"))
        #expect(computer.isRunning)
        _ = await computer.stop()
        #expect(!computer.isRunning)
    }

    @Test("an interrupt stops the computers on its roster, and no other: one run's Ctrl-C never reaches another's")
    func roster() async throws {
        let (hil, first) = try fakeHil(Self.serves)
        let (_, second) = try fakeHil(Self.serves)
        let (_, third) = try fakeHil(Self.serves)
        let (mine, theirs) = (ChildRoster(), ChildRoster())
        let interrupted = try await PeripheralUnderTest.start(
            PeripheralUnderTest.Launch(hil: hil, adapter: "hci0", uinputName: "u", folder: first, roster: mine), timeout: .seconds(10))
        let other = try await PeripheralUnderTest.start(
            PeripheralUnderTest.Launch(hil: hil, adapter: "hci0", uinputName: "u", folder: second, roster: theirs), timeout: .seconds(10))
        let unlisted = try await PeripheralUnderTest.start(
            PeripheralUnderTest.Launch(hil: hil, adapter: "hci0", uinputName: "u", folder: third), timeout: .seconds(10))
        #expect(mine.pids == [interrupted.child.pid] && theirs.pids == [other.child.pid])

        mine.signalAll(SIGINT)
        #expect(await interrupted.waitForExit(timeout: .seconds(5)) != nil, "the interrupted computer exits")
        #expect(mine.pids.isEmpty, "and leaves its roster")
        #expect(other.isRunning && unlisted.isRunning)
        _ = await other.stop()
        _ = await unlisted.stop()
    }

    @Test("one that exits before it serves is an error with its last lines; one that never serves is too, in time")
    func failures() async throws {
        let (exits, folder) = try fakeHil("echo 'uinput: permission denied (R10)'; exit 1")
        let error = await #expect(throws: ComputerError.self) {
            _ = try await PeripheralUnderTest.start(PeripheralUnderTest.Launch(hil: exits, adapter: "hci0", uinputName: "u", folder: folder),
                                                    timeout: .seconds(10))
        }
        #expect(error?.code == .computer)
        #expect(error?.what.contains("before it served on hci0") == true && error?.what.contains("uinput: permission denied (R10)") == true,
                "\(String(describing: error))")

        // A computer that would never end by itself: the start gives up at its timeout and stops it. (Not a bound on
        // how long that takes, which a loaded machine stretches by seconds; waiting for it to end would take an hour.)
        let (silent, other) = try fakeHil("echo $$ > \"$(dirname \"$0\")/pid\"; echo 'registering'; exec sleep 3600")
        let start = ContinuousClock.now
        let late = await #expect(throws: ComputerError.self) {
            _ = try await PeripheralUnderTest.start(PeripheralUnderTest.Launch(hil: silent, adapter: "hci0", uinputName: "u", folder: other),
                                                    timeout: .milliseconds(500))
        }
        #expect(ContinuousClock.now - start < .seconds(600), "it gives up at its timeout, not when the process ends")
        #expect(late?.what.contains("did not serve on hci0 within") == true && late?.what.contains("registering") == true,
                "\(String(describing: late))")
        let pid = try #require(Int32(try String(contentsOfFile: other + "/pid", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(kill(pid, 0) == -1 && errno == ESRCH, "the computer (pid \(pid)) was stopped, and reaped")
    }
}
