import PhoneLinks
import CommandMapping
import DBus
import Evdev
import Foundation
import HILTestSupport
import InputCodes
import Processes
import RemoteTouchProtocol
import Testing

/// Every command case, as the real phone app encodes it.
private let everyCommand: [Command] = [
    .cursorMove(delta: Point(x: 10, y: -5)), .tap(type: .single), .tap(type: .double), .button(action: .back),
    .button(action: .forward), .mediaControl(action: .playPause), .mediaControl(action: .volumeUp),
    .mediaControl(action: .volumeDown), .pinch(scale: 1.25), .scroll(dx: 0, dy: 12), .scroll(dx: -10, dy: 0), .rightClick,
    .dragStart, .dragMove(delta: Point(x: 4, y: 2)), .dragEnd, .systemGesture(gesture: .missionControl),
    .systemGesture(gesture: .spaceRight), .keyPress(key: .c, modifiers: [.command]), .text(string: "Hi!"),
]

/// Reads frames until `count` arrived or `timeout` passed.
private func frames(_ reader: EvdevReader, count: Int, timeout: Duration = .seconds(3)) throws -> [InputFrame] {
    var result: [InputFrame] = []
    let deadline = ContinuousClock.now + timeout
    while result.count < count, ContinuousClock.now < deadline {
        if let frame = try reader.nextFrame(timeout: deadline - ContinuousClock.now) { result.append(frame.frame) }
    }
    return result
}

/// Asserts nothing arrives within `quiet`.
private func expectSilence(_ reader: EvdevReader, for quiet: Duration = .milliseconds(300), _ why: String) throws {
    if let frame = try reader.nextFrame(timeout: quiet) {
        Issue.record("expected no events (\(why)), got \(frame)")
    }
}

/// `hil peripheral` running as its own process, its output collected in a file.
private final class PeripheralProcess {
    let process: ChildProcess
    let output: String

    init(arguments: [String], output: String) throws {
        self.output = output
        // In our process group and signalled alone, as a person's Ctrl-C would reach it.
        process = try ChildProcess(try RigGuest.hilBinary(), ["peripheral"] + arguments, output: .file(output), ownProcessGroup: false)
    }

    var log: String { (try? String(contentsOfFile: output, encoding: .utf8)) ?? "" }

    var isRunning: Bool { process.termination == nil }

    /// Waits until the log shows `text` after `offset` characters; returns when (or nil after `timeout`).
    func wait(for text: String, after offset: Int = 0, timeout: Duration = .seconds(20)) -> ContinuousClock.Instant? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if log.dropFirst(offset).contains(text) { return .now }
            guard isRunning else { return nil }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return nil
    }

    /// Ctrl-C, as a person stops it; returns the exit status.
    func interrupt() -> Int32 {
        process.signal(SIGINT)
        return process.wait()
    }
}

/// What `bluetoothctl COMMAND` prints, for failure reports.
private func bluetoothctl(_ command: String) -> String {
    guard let run = try? ChildProcess.runBlocking("/usr/bin/sh", arguments: ["-c", "bluetoothctl \(command) 2>&1 | head -40"],
                                                  errors: .inherited, timeout: .seconds(30))
    else { return "(bluetoothctl did not start or answer in 30 s)" }
    return "$ bluetoothctl \(command)\n" + run.standardOutput
}

/// A process's command line, word by word (/proc/PID/cmdline).
private func commandLine(of pid: Int32) -> [String] {
    guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return [] }
    return data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
}

/// The pid of a running program, by its /proc comm name.
private func pid(of name: String) -> Int32? {
    for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] where entry.allSatisfy(\.isNumber) {
        if (try? String(contentsOfFile: "/proc/\(entry)/comm", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) == name {
            return Int32(entry)
        }
    }
    return nil
}

/// Drives the real peripheral over a real LE link from the rig's central adapter and checks the evdev events.
/// Runs inside the rig (`PeripheralRigTests` starts it there).
@Suite("PeripheralOnRig", .serialized, .tags(.rig), .enabled(if: RigGuest.isInsideRig, "needs BlueZ and uinput: runs inside the rig via InRigSuitesOnRig"))
struct PeripheralOnRig {
    @Test("pair, write every command in every mode, refusals, status, the fd path, release on disconnect")
    func endToEnd() async throws {
        let state = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: state) }
        let uinputName = "RemoteTouch HIL test \(getpid())"
        let peripheral = try PeripheralProcess(arguments: [
            "--adapter", RigGuest.peripheralAdapter, "--state-dir", state, "--pairing-code-file", state + "/code",
            "--uinput-name", uinputName, "--lockout", "2s",
        ], output: state + "/output.log")
        defer { if peripheral.isRunning { _ = peripheral.interrupt() } }
        let node = try await EvdevReader.waitForDevice(named: uinputName, timeout: .seconds(20))
        let reader = try EvdevReader(devnode: node, grab: true)
        try #require(peripheral.wait(for: "registered on \(RigGuest.peripheralAdapter)") != nil, "hil peripheral did not register:\n\(peripheral.log)")
        do {
            try await drive(peripheral, reader: reader, state: state)
        } catch {
            Issue.record("\(error)\nhil peripheral's output:\n\(peripheral.log)\nbluetoothd's view:\n\(bluetoothctl("show \(RigGuest.peripheralAdapter)"))\n\(bluetoothctl("show \(RigGuest.centralAdapter)"))\n\(bluetoothctl("devices"))\nrestarted bluetoothd:\n\((try? String(contentsOfFile: state + "/bluetoothd-restarted.log", encoding: .utf8))?.split(separator: "\n").filter { $0.contains("dvertis") || $0.contains("rror") || $0.contains("ower") }.suffix(40).joined(separator: "\n") ?? "none")")
        }
    }

    private func drive(_ peripheral: PeripheralProcess, reader: EvdevReader, state: String) async throws {
        let session = try await PhoneSession(peripheral: peripheral, reader: reader, state: state)
        defer { session.collector.cancel() }
        try await session.unpairedIsRefused()
        try await session.pairsAfterALockout()
        try await session.everyCommandInEveryMode()
        try await session.malformedWrites()
        try await session.fdPath()
        try await session.dragReleasedOnDisconnectThenFoundAgain()
        session.checkStatuses()
        try await session.bluetoothdRestart()

        #expect(peripheral.interrupt() == 0, "hil peripheral did not stop cleanly:\n\(peripheral.log)")
        let summary = peripheral.log.split(separator: "\n").last { $0.contains("handled ") } ?? "no summary"
        print("peripheral \(summary)")
        #expect(summary.contains("receipt → uinput write"))
    }
}

/// The phone's side of `PeripheralOnRig.endToEnd`: a central connected to the peripheral, its status notifications
/// collected from the start (refusals are reported there: bluetoothd acknowledges writes it forwards through the
/// acquired socket itself, so the status is the only channel for the reason), and each part of the test.
private struct PhoneSession {
    let peripheral: PeripheralProcess
    let reader: EvdevReader
    let state: String
    let central: BlueZCentral
    let remote: BlueZCentral.Peripheral
    let received = Locked<[StatusData]>([])
    let undecodable = Locked<[String]>([])
    let collector: Task<Void, Never>

    init(peripheral: PeripheralProcess, reader: EvdevReader, state: String) async throws {
        self.peripheral = peripheral
        self.reader = reader
        self.state = state
        central = BlueZCentral(connection: try await DBusConnection.connect(.system), adapter: RigGuest.centralAdapter)
        print("central: discovering the peripheral")
        remote = try await central.connectToRemoteTouch()
        let statuses = try await central.notifications(remote.status)
        let (received, undecodable) = (received, undecodable)
        collector = Task {
            for await value in statuses {
                if let status = try? StatusData.decode(value) {
                    received.value.append(status)
                } else {
                    undecodable.value.append(String(decoding: value, as: UTF8.self))
                }
            }
        }
    }

    func json(_ command: Command) -> [UInt8] { command.encoded() }

    /// Waits up to 5 s for an error status with `code` that arrives after the call.
    func nextError(_ code: String) async -> Bool {
        let seen = received.value.count
        let deadline = ContinuousClock.now + .seconds(5)
        while ContinuousClock.now < deadline {
            if received.value.dropFirst(seen).contains(where: { $0.error?.code == code }) { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    func unpairedIsRefused() async throws {
        // Unpaired: refused with a notPaired status, nothing injected.
        try? await central.write(remote.command, json(.tap(type: .single)), withResponse: true)
        #expect(await nextError("notPaired"), "no notPaired status for an unpaired central's write")
        try expectSilence(reader, "unpaired central")
    }

    func pairsAfterALockout() async throws {
        // Pairing: 3 wrong codes lock out, the lockout ends, the right code pairs.
        let first = try PairingStatus.decode(try await central.read(remote.pairing))
        #expect(first.state == .awaitingCode)
        #expect(first.secondsRemaining == 60)
        let shown = try String(contentsOfFile: state + "/code", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let wrong = shown == "000000" ? "000001" : "000000"
        // ATT carries only the error code to the central; the pairing state tells the rest.
        for (attempt, left) in [(1, 2), (2, 1), (3, 0)] {
            do {
                try await central.write(remote.pairing, Array(wrong.utf8), withResponse: true)
                Issue.record("wrong code \(attempt) accepted")
            } catch {
                #expect(error.dbusName == "org.bluez.Error.NotAuthorized", "\(error)")
            }
            let after = try PairingStatus.decode(try await central.read(remote.pairing))
            #expect(after.attemptsRemaining == left)
            #expect(after.state == (left > 0 ? .awaitingCode : .lockedOut))
        }
        try await Task.sleep(for: .milliseconds(2200))
        #expect(try PairingStatus.decode(try await central.read(remote.pairing)).state == .awaitingCode)
        let code = try String(contentsOfFile: state + "/code", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        try await central.write(remote.pairing, Array(code.utf8), withResponse: true)
        #expect(try PairingStatus.decode(try await central.read(remote.pairing)).state == .paired)
        #expect(peripheral.log.contains(" paired\n"), "the peripheral did not log the pairing")
    }

    func everyCommandInEveryMode() async throws {
        // Every command in every mode: exactly the frames the mapping table gives. One expected mapper for the
        // whole run mirrors the peripheral's, whose wheel remainders carry over from command to command.
        var expected = CommandMapper(mode: .basicMouse)
        for mode in ControlMode.allCases {
            _ = try expected.map(.modeChange(mode: mode))
            try await central.write(remote.command, json(.modeChange(mode: mode)), withResponse: true)
            for command in everyCommand {
                let want = try expected.map(command)
                try await central.write(remote.command, json(command), withResponse: true)
                let got = try frames(reader, count: want.count)
                #expect(got == want, "\(mode.rawValue): \(String(decoding: json(command), as: UTF8.self))")
            }
        }
        try expectSilence(reader, "after the last command")
    }

    func malformedWrites() async throws {
        // Malformed writes, over the phone's write-without-response socket: an invalidCommand status each,
        // nothing injected, and the next command works.
        let (fd, mtu) = try await central.acquireWrite(remote.command)
        #expect(mtu >= 515, "MTU \(mtu): 512-byte values need an ATT MTU of at least 515")
        // 510 bytes: the largest value BlueZ 5.66 passes on (512 is refused with Invalid Length on a request
        // and dropped on a command before any application sees it).
        for bad in [Array(#"{"tap":{"type":"single"}"#.utf8), (0..<510).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) },
                    Array(#"{"cursorMove":{"delta":[NaN,1]}}"#.utf8)] {
            #expect(write(fd, bad, bad.count) == bad.count)
            #expect(await nextError("invalidCommand"), "no invalidCommand status after a \(bad.count)-byte malformed write")
        }
        close(fd)  // while it is acquired, BlueZ refuses WriteValue on the characteristic
        try expectSilence(reader, "malformed writes")
        try await central.write(remote.command, json(.cursorMove(delta: Point(x: 3, y: 3))), withResponse: false)
        #expect(try frames(reader, count: 1) == [InputFrame([InputEvent(.relX, 3), InputEvent(.relY, 3)])])
    }

    func fdPath() async throws {
        // The fd path: AcquireWrite, one packet per command.
        let (fd2, _) = try await central.acquireWrite(remote.command)
        let packet = json(.cursorMove(delta: Point(x: -7, y: 1)))
        #expect(write(fd2, packet, packet.count) == packet.count)
        #expect(try frames(reader, count: 1) == [InputFrame([InputEvent(.relX, -7), InputEvent(.relY, 1)])])
        close(fd2)
    }

    func dragReleasedOnDisconnectThenFoundAgain() async throws {
        // A drag holds BTN_LEFT; dropping the link releases it.
        try await central.write(remote.command, json(.dragStart), withResponse: true)
        #expect(try frames(reader, count: 1) == [InputFrame([.press(.btnLeft)])])
        #expect(try reader.heldKeys() == [.btnLeft])
        try await central.disconnect(remote)
        #expect(try frames(reader, count: 1, timeout: .seconds(10)) == [InputFrame([.release(.btnLeft)])])
        #expect(try reader.heldKeys().isEmpty)

        // Still advertising after the disconnect: the central finds it again and it works.
        print("central: reconnecting after a disconnect")
        let back = try await central.connectToRemoteTouch()
        try await central.write(back.command, json(.tap(type: .single)), withResponse: true)
        #expect(try frames(reader, count: 2) == [InputFrame([.press(.btnLeft)]), InputFrame([.release(.btnLeft)])])
        try await central.disconnect(back)
    }

    func checkStatuses() {
        let statusCount = received.value.count
        #expect(statusCount >= 3, "status notifications: \(statusCount)")
        #expect(received.value.allSatisfy { (0...100).contains($0.batteryLevel) })
        #expect(undecodable.value.isEmpty, "undecodable status notifications: \(undecodable.value)")
    }

    func bluetoothdRestart() async throws {
        // bluetoothd restarts: the peripheral registers everything again, and its advertisement is active.
        // (That a phone then finds it and the next gestures work, within 5 s, is Scenarios-nightly/faults/bluetoothd-restart.json.)
        let bluetoothd = try #require(pid(of: "bluetoothd"), "no bluetoothd running in the rig")
        // Started again as it ran (the rig's `-f` main.conf: one ATT bearer, the rig's intervals), with -d for this
        // test's diagnosis: a bluetoothd started without them reads the system's main.conf and serves EATT to every
        // suite after this one in the guest (StrangerPhoneOnRig saw its moves overtaken).
        let arguments = Array(commandLine(of: bluetoothd).dropFirst()).filter { $0 != "-d" } + ["-d"]
        let before = peripheral.log.count
        kill(bluetoothd, SIGTERM)
        while kill(bluetoothd, 0) == 0 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(peripheral.wait(for: "bluetoothd left the bus", after: before) != nil)
        let restartedAt = ContinuousClock.now
        _ = try ChildProcess("/usr/libexec/bluetooth/bluetoothd", arguments, output: .file(state + "/bluetoothd-restarted.log"),
                             ownProcessGroup: false)
        let registeredAt = try #require(peripheral.wait(for: "registered again", after: before), "no re-registration:\n\(peripheral.log.dropFirst(before))")
        print("bluetoothd restart → peripheral registered again after \(registeredAt - restartedAt)")
        #expect(registeredAt - restartedAt < .seconds(5))
        let active = try await central.connection.call(
            destination: "org.bluez", path: "/org/bluez/\(RigGuest.peripheralAdapter)", interface: "org.freedesktop.DBus.Properties",
            member: "Get", [.string("org.bluez.LEAdvertisingManager1"), .string("ActiveInstances")])
        #expect((active.first?.unwrapped.integerValue ?? 0) >= 1, "no active advertisement after the restart: \(active)")
    }
}
