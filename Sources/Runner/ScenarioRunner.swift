import Central
import DBus
import Evdev
import InputCodes
import Foundation
import GestureModel
import GestureScript
import RemoteTouchProtocol
public import Scenario
import Verifier

/// Runs scenarios over the real link inside a rig that is up: a fresh `hil peripheral` per scenario on the
/// peripheral adapter, the phone's gesture model driven in real time on the central adapter, and the uinput
/// device's frames judged step by step.
public struct ScenarioRunner: Sendable {
    public struct Context: Sendable {
        /// The `hil` executable (for the peripheral).
        public var hil: String
        public var peripheralAdapter: String
        public var centralAdapter: String
        public var uinputName: String
        /// Multiplies every deadline and latency limit (the rig's `latencyScale`).
        public var latencyScale: Double
        /// Overrides each scenario's write path when set.
        public var writePath: RunSettings.WritePath?
        /// Where each scenario's peripheral log goes (a folder per scenario).
        public var workDirectory: String
        /// End a scenario at its first failed step (the rest are reported as not run): `hil run --fail-fast`.
        public var failFast = false
        /// The rig's controllers are btvirt's emulated ones (see `EmulatedRadio`).
        public var emulatedControllers = false

        public init(hil: String, peripheralAdapter: String, centralAdapter: String, uinputName: String, latencyScale: Double,
                    writePath: RunSettings.WritePath?, workDirectory: String)
        {
            self.hil = hil
            self.peripheralAdapter = peripheralAdapter
            self.centralAdapter = centralAdapter
            self.uinputName = uinputName
            self.latencyScale = latencyScale
            self.writePath = writePath
            self.workDirectory = workDirectory
        }
    }

    public let context: Context

    public init(context: Context) {
        self.context = context
    }

    /// Runs one scenario; never throws: rig and device failures become an `error` result with the reason.
    public func run(_ scenario: Scenario, number: Int) async -> ScenarioResult {
        let start = ContinuousClock.now
        let folder = "\(context.workDirectory)/\(String(format: "%03d", number))-\(Self.slug(scenario.name))"
        var result = ScenarioResult(
            file: scenario.file, name: scenario.name, requirements: scenario.script.requirements, outcome: .error, steps: [],
            message: "", durationMs: 0)
        var peripheral: PeripheralUnderTest?
        /// Earlier generations of the computer (stopped by restartPeripheral steps).
        var earlier: [PeripheralUnderTest] = []
        var collector: FrameCollector?
        var central: BlueZCentral?
        var remote: BlueZCentral.Peripheral?
        var acquired: Int32?
        var sends: [StageBreakdown.Send] = []
        var windows: [Int: StepWindow] = [:]
        func phase(_ name: String) {
            result.phases.append(.init(name: name, atMs: (ContinuousClock.now - start).milliseconds))
        }
        defer {
            if let acquired { close(acquired) }
            collector?.stop()
        }
        if scenario.run.uinput == .denied {
            return refusal(scenario, folder: folder, start: start, result: result)
        }
        do {
            // The phone scans first, then the computer starts advertising (see BlueZCentral.startDiscovery).
            let bluez = BlueZCentral(connection: try await DBusConnection.connect(.system), adapter: context.centralAdapter)
            central = bluez
            try await bluez.startDiscovery()
            peripheral = try PeripheralUnderTest(
                hil: context.hil, adapter: context.peripheralAdapter, uinputName: context.uinputName, folder: folder,
                lockoutSeconds: scenario.run.lockoutSeconds)
            phase("peripheral registered")
            let node = try EvdevReader.waitForDevice(named: context.uinputName, timeout: .seconds(10))
            collector = FrameCollector(reader: try EvdevReader(devnode: node, grab: true))
            phase("uinput device open")
            let link = try await bluez.connectToRemoteTouch(scanning: true)
            remote = link
            phase("connected")
            result.message += rememberDevice(link, scenario: scenario, folder: folder, outcome: &result.outcome)
            if scenario.run.pairing == .pair {
                _ = try await bluez.read(link.pairing)
                let code = try await Self.poll(for: "the pairing code", timeout: .seconds(5)) { peripheral?.pairingCode() }
                try await bluez.write(link.pairing, Array(code.utf8), withResponse: true)
            }
            phase("paired")
            let path = context.writePath ?? scenario.run.writePath
            let devicesOutcome = result.outcome
            let statuses = StatusWatcher()
            await statuses.watch(bluez, link)
            defer { statuses.stop() }
            // A restartPeripheral step starts the computer again on the same state folder: a new process, a new
            // uinput device to read.
            var restartNotes = ""
            defer { result.message += restartNotes }
            let restart = { (whileStopped: () async throws -> Void) async throws -> FrameCollector in
                guard let old = peripheral else { throw RunnerError("no computer to restart") }
                collector?.stop()
                let status = old.stop()
                earlier.append(old)
                try? FileManager.default.removeItem(atPath: old.codeFile)
                try await whileStopped()
                peripheral = try PeripheralUnderTest(
                    hil: context.hil, adapter: context.peripheralAdapter, uinputName: context.uinputName, folder: folder,
                    lockoutSeconds: scenario.run.lockoutSeconds, generation: earlier.count + 1)
                if status != 0 { restartNotes += "the computer exited \(status) when stopped for its restart\n" }
                let node = try EvdevReader.waitForDevice(named: context.uinputName, timeout: .seconds(10))
                collector = FrameCollector(reader: try EvdevReader(devnode: node, grab: true))
                return collector!
            }
            (result.steps, sends, windows) = try await drive(
                scenario, central: bluez, link: link, collector: collector!, folder: folder, statuses: statuses,
                shownCode: { peripheral?.pairingCode() }, peripheralLog: { peripheral?.log ?? "" },
                receipts: { StageBreakdown.receipts((peripheral.flatMap { try? String(contentsOfFile: $0.receiptsFile, encoding: .utf8) }) ?? "") },
                restart: restart
            ) { link async throws -> Int32? in
                guard path == .fd else { return nil }
                let fd = try await bluez.acquireWrite(link.command).fd
                acquired = fd
                return fd
            }
            phase("steps done")
            result.outcome = devicesOutcome == .failed ? .failed : Self.outcome(result.steps)
            // Nothing may be held at the end of a scenario (EVIOCGKEY: the kernel's view).
            try await Task.sleep(for: .milliseconds(50))
            let held = collector!.heldKeys()
            if !held.isEmpty {
                result.outcome = .failed
                result.message += "held at the end of the scenario: \(held.joined(separator: ", "))\n"
            }
            if collector!.dropped {
                result.outcome = .inconclusive
                result.message += "the kernel dropped events (SYN_DROPPED): the verdict is inconclusive\n"
            }
            enforceLimits(scenario.limits, &result)
            result.statusNotifications = statuses.count
        } catch {
            result.outcome = .error
            result.message += "\(error)\n"
        }
        // The next scenario is a new phone: forget the computer (the link goes at once, and no cached services
        // or connection state carry over).
        phase("checks done")
        if let peripheral {
            if !peripheral.isRunning && result.outcome != .error {
                result.outcome = .error
            }
            if !peripheral.isRunning {
                result.message += "the device under test (hil peripheral) exited during the scenario; its last lines:\n\(peripheral.lastLines(15))\n"
            }
            peripheral.stop()
            phase("peripheral stopped")
            let receipts = (earlier + [peripheral]).flatMap {
                StageBreakdown.receipts((try? String(contentsOfFile: $0.receiptsFile, encoding: .utf8)) ?? "")
            }
            addStages(to: &result.steps, sends: sends, receipts: receipts)
            judgeReceived(scenario, &result, receipts: receipts, windows: windows)
        }
        var tornDown = true
        if let central, let remote {
            // The next scenario is a new phone: the link goes, and the phone forgets the computer so no cached
            // services or connection state carry over. Powering the peripheral's adapter off drops the link at
            // once, where BlueZ's Disconnect (and RemoveDevice on a live link) give profiles 2 s first.
            do {
                try await central.setPowered(context.peripheralAdapter, false)
                try await waitUntilDisconnected(central, remote, what: "the end of the scenario", within: .seconds(30))
                try await central.forget(remote)
                let tries = try await Self.powerOn(context.peripheralAdapter, central)
                if tries > 1 { result.message += "rig: \(context.peripheralAdapter) powered on at try \(tries) after the scenario (the emulated controller timed out a command; dmesg has it)\n" }
            } catch {
                tornDown = false
                _ = try? await Self.powerOn(context.peripheralAdapter, central)
                if result.outcome == .passed { result.outcome = .error }
                result.message += "tearing the link down failed: \(error)\n"
            }
            phase("link down, computer forgotten")
        }
        // After an error the next scenario still gets a clean phone: its adapter is powered off and on, which
        // drops a connection attempt left pending (BlueZ then answers every Connect with "Operation already in
        // progress", and one error became every later scenario's), and it forgets every device it knew.
        if let central, result.outcome == .error || !tornDown {
            do {
                try await central.setPowered(context.centralAdapter, false)
                try await central.waitUntilPowered(context.centralAdapter, false)
                let forgotten = try await central.forgetAllDevices()
                _ = try await Self.powerOn(context.centralAdapter, central)
                result.message += "rig: after the error the phone's adapter \(context.centralAdapter) was powered off and on and \(forgotten) device(s) forgotten, for the next scenario\n"
            } catch {
                _ = try? await Self.powerOn(context.centralAdapter, central)
                result.message += "rig: resetting the phone's adapter after the error failed, the next scenario may be affected: \(error)\n"
            }
            phase("phone reset after the error")
        }
        result.durationMs = (ContinuousClock.now - start).milliseconds
        return result
    }

    /// Splits each judged step's latency into stages with the peripheral's receipts (written when it stopped).
    private func addStages(to steps: inout [StepResult], sends: [StageBreakdown.Send], receipts: [StageBreakdown.Receipt]) {
        let alignment = StageBreakdown.align(sends, receipts)
        for index in steps.indices {
            guard let first = steps[index].firstSendNs, let completed = steps[index].completedNs else { continue }
            steps[index].stages = StageBreakdown.stages(
                firstSend: first, completed: completed, sends: sends, receipts: receipts, alignment: alignment)
        }
    }

    /// The commands the computer received while each step ran, from its receipts, against the step's `received`
    /// expectation (R11.2: what actually crossed the link).
    private func judgeReceived(_ scenario: Scenario, _ result: inout ScenarioResult, receipts: [StageBreakdown.Receipt],
                               windows: [Int: StepWindow])
    {
        for position in result.steps.indices {
            let index = result.steps[position].index
            guard let wanted = scenario.receivedExpectations[index] else { continue }
            guard let window = windows[index] else { continue }
            let problems = Self.judgeReceived(wanted, receipts: receipts, from: window.start.nanoseconds, to: window.end.nanoseconds)
            if problems.isEmpty {
                if result.steps[position].outcome == .unchecked { result.steps[position].outcome = .passed }
            } else {
                result.steps[position].outcome = .failed
                result.steps[position].message += (result.steps[position].message.isEmpty ? "" : "\n") + problems.joined(separator: "\n")
            }
        }
        if result.outcome == .passed && result.steps.contains(where: { $0.outcome == .failed }) { result.outcome = .failed }
    }

    /// Problems with the count of each command kind received in `from...to` (ns).
    static func judgeReceived(_ wanted: [String: Int], receipts: [StageBreakdown.Receipt], from: UInt64, to: UInt64) -> [String] {
        var counts: [String: Int] = [:]
        for receipt in receipts where receipt.received >= from && receipt.received <= to {
            if let command = try? Command.decode(Array(receipt.payload.utf8)) { counts[command.name, default: 0] += 1 }
            if receipt.written == nil { counts["refused", default: 0] += 1 }
        }
        return wanted.keys.sorted().compactMap { name in
            let got = counts[name] ?? 0
            return got == wanted[name] ? nil : "the computer received \(got) \(name) command(s) during the step, expected \(wanted[name]!)"
        }
    }

    // MARK: The phone's remembered computers (R6)

    /// Seeds the phone's device store with `run.knownDevices` older computers, remembers the one just
    /// connected (evicting the least recently used beyond 5), saves it, and checks `expectDevices`.
    private func rememberDevice(_ link: BlueZCentral.Peripheral, scenario: Scenario, folder: String,
                                outcome: inout ScenarioResult.Outcome) -> String
    {
        let now = Date().timeIntervalSince1970
        var store = DeviceStore()
        for index in 0..<scenario.run.knownDevices {
            store.remember(address: String(format: "02:00:00:00:00:%02X", index + 1), name: "known \(index + 1)",
                           at: now - 1000 + Double(index))
        }
        let evicted = store.remember(address: link.address, name: "RemoteTouch", at: now)
        try? store.json().write(toFile: folder + "/devices.json", atomically: true, encoding: .utf8)
        guard let expectation = scenario.devicesExpectation else { return "" }
        var problems: [String] = []
        if let count = expectation.count, store.devices.count != count {
            problems.append("the phone remembers \(store.devices.count) computers, expected \(count)")
        }
        for address in expectation.evicted where store.devices.contains(where: { $0.address == address }) {
            problems.append("\(address) should have been evicted (evicted: \(evicted?.address ?? "none"))")
        }
        if !store.devices.contains(where: { $0.address == link.address }) {
            problems.append("the connected computer \(link.address) is not remembered")
        }
        if problems.isEmpty { return "" }
        outcome = .failed
        return "devices (R6): " + problems.joined(separator: "; ") + "\n"
    }

    // MARK: Driving

    private struct Segment {
        var step: Int
        var expectation: StepExpectation?
        var startedAt: MonotonicTime
        var firstSend: MonotonicTime?
        var commands = 0
        /// Commands the phone did not send because the link was down.
        var unsent = 0
        /// What the step's driving observed, added to its message.
        var note = ""
        var lastStep: Int
    }

    /// - Parameter acquire: opens the fd write path (after the connect-time mode sync), or returns nil for D-Bus.
    private func drive(_ scenario: Scenario, central: BlueZCentral, link: BlueZCentral.Peripheral, collector: FrameCollector,
                       folder: String, statuses: StatusWatcher, shownCode: () -> String?, peripheralLog: () -> String,
                       receipts: () -> [StageBreakdown.Receipt],
                       restart: (_ whileStopped: () async throws -> Void) async throws -> FrameCollector,
                       acquire: (BlueZCentral.Peripheral) async throws -> Int32?) async throws -> ([StepResult], [StageBreakdown.Send], [Int: StepWindow])
    {
        // A restart of bluetoothd or of the computer makes the phone find its service again: new object paths;
        // a restarted computer has a new uinput device.
        var link = link
        var collector = collector
        let script = scenario.script
        var processor = GestureProcessor(settings: script.settings, at: .zero)
        let clock = ContinuousClock()
        let origin = clock.now
        var results: [StepResult] = []
        var segment: Segment?
        var fd: Int32?
        var activityAtEnd: [Int: Activity] = [:]
        /// When each step began and ended (CLOCK_MONOTONIC), for the status notifications it expects (R5).
        var windows: [Int: StepWindow] = [:]
        /// Every command with the CLOCK_MONOTONIC time it was handed to the link.
        var commandLog = ""
        var sends: [StageBreakdown.Send] = []
        defer { try? commandLog.write(toFile: folder + "/commands.log", atomically: true, encoding: .utf8) }

        /// False after the user disconnected or the phone gave up reconnecting: the phone sends nothing then.
        var linkUp = true
        func send(_ outputs: [GestureOutput]) async throws {
            for output in outputs {
                guard let command = output.command else { continue }
                let bytes = command.encoded()
                let at = MonotonicTime.now()
                guard linkUp else {
                    commandLog.append("\(at) not sent, the link is down: \(String(decoding: bytes, as: UTF8.self))\n")
                    segment?.unsent += 1
                    continue
                }
                commandLog.append("\(at) \(String(decoding: bytes, as: UTF8.self))\n")
                sends.append(.init(at: at.nanoseconds, payload: String(decoding: bytes, as: UTF8.self)))
                if let fd {
                    try AcquiredSocket.write(fd, bytes, what: command.name)
                } else {
                    try await central.write(link.command, bytes, withResponse: scenario.run.confirmedWrites)
                }
                if segment?.firstSend == nil { segment?.firstSend = at }
                segment?.commands += 1
            }
        }
        /// A hostile phone: `count` malformed payloads as fast as the link takes them, on the current write path.
        func sendMalformed(_ count: Int) async throws {
            let started = MonotonicTime.now()
            for bytes in MalformedPayloads().prefix(count) {
                let at = MonotonicTime.now()
                if let fd {
                    try AcquiredSocket.write(fd, bytes, what: "malformed write \(segment?.commands ?? 0)")
                } else {
                    try await central.write(link.command, bytes, withResponse: false)
                }
                commandLog.append("\(at) malformed: \(bytes.count) bytes\n")
                if segment?.firstSend == nil { segment?.firstSend = at }
                segment?.commands += 1
            }
            // The link queues what the phone wrote faster than it carries: wait until the computer has received the
            // backlog, from its receipts (flushed every 250 ms): all `count`, or none new for 3 s (at most 60 s),
            // so the step's checks cover every write. (Its error statuses are no measure: under a flood the
            // notify socket fills and the surplus is dropped.)
            let sentAll = MonotonicTime.now()
            let giveUp = ContinuousClock.now + .seconds(60)
            var seen = -1
            var quietSince = ContinuousClock.now
            while ContinuousClock.now < giveUp {
                let received = receipts().filter { $0.received >= started.nanoseconds }.count
                if received >= count { break }
                if received != seen {
                    seen = received
                    quietSince = .now
                } else if ContinuousClock.now - quietSince > .seconds(3) {
                    break
                }
                try await Task.sleep(for: .milliseconds(100))
            }
            let answered = statuses.received(from: started, to: .now()).filter { $0.status.error != nil }.count
            segment?.note = "\(count) malformed writes sent in \(Self.format(Double(sentAll.nanoseconds - started.nanoseconds) / 1e6)) ms; \(answered) error status notification(s) came back"
        }
        func sleep(until time: Duration) async throws {
            try await Task.sleep(until: origin + time, clock: clock)
        }
        /// Sends, each at its time, what the phone's timers have to send before `limit` (paced motion, a pending
        /// single tap); with no limit, everything it still has to send.
        func runTimers(before limit: Duration? = nil) async throws {
            while let deadline = processor.nextSendDeadline, limit.map({ deadline < $0 }) ?? true {
                try await sleep(until: deadline)
                try await send(processor.advance(to: deadline))
            }
        }
        func appendUnchecked(_ indices: ClosedRange<Int>, commandsOfFirst: Int) {
            for index in indices {
                results.append(StepResult(index: index, kind: script.steps[index].name, outcome: .unchecked, latencyMs: nil,
                                          commands: index == indices.lowerBound ? commandsOfFirst : 0, message: ""))
            }
        }
        /// Sends what the phone's timers still have to send (it belongs to this segment), then judges the segment.
        func judgeSegment() async throws {
            guard segment != nil else { return }
            try await runTimers()
            guard let closing = segment else { return }
            guard let expectation = closing.expectation else {
                appendUnchecked(closing.step...closing.lastStep, commandsOfFirst: closing.commands)
                return
            }
            var scaled = expectation
            scaled.withinMs *= context.latencyScale
            if let forMs = scaled.absentForMs { scaled.absentForMs = forMs * context.latencyScale }
            let sentAt = closing.firstSend ?? closing.startedAt
            let deadline = sentAt.nanoseconds + UInt64(scaled.withinMs * 1_000_000)
            // Feed frames as they arrive until the match is complete and has settled for 50 ms (so an overshoot
            // or a stray event is seen), or the deadline passed; then judge everything that arrived.
            var matcher = StepMatcher(scaled, sentAt: sentAt)
            var fed = 0
            func feedNewFrames() {
                let frames = collector.frames(since: closing.startedAt)
                for frame in frames.dropFirst(fed) { matcher.feed(frame) }
                fed = frames.count
            }
            while true {
                feedNewFrames()
                let now = MonotonicTime.now()
                if let met = matcher.metBy, !scaled.isAbsenceOnly, now.nanoseconds > met.time.nanoseconds + 50_000_000 { break }
                if now.nanoseconds > deadline + 20_000_000 { break }
                try await Task.sleep(for: .milliseconds(5))
            }
            feedNewFrames()
            let verdict = matcher.verdict()
            let outcome: StepResult.Outcome = collector.dropped ? .inconclusive : (verdict.outcome == .passed ? .passed : .failed)
            let unsent = closing.unsent == 0 ? "" : "\(closing.unsent) command(s) not sent: the link was down"
            var step = StepResult(
                index: closing.step, kind: script.steps[closing.step].name, outcome: outcome,
                latencyMs: verdict.latency?.milliseconds, commands: closing.commands,
                message: [verdict.message, unsent, closing.note].filter { !$0.isEmpty }.joined(separator: "\n"))
            if let latency = verdict.latency, let first = closing.firstSend {
                step.firstSendNs = first.nanoseconds
                step.completedNs = first.nanoseconds + UInt64(max(0, latency.components.seconds)) * 1_000_000_000
                    + UInt64(max(0, latency.components.attoseconds / 1_000_000_000))
            }
            results.append(step)
            if closing.lastStep > closing.step {
                appendUnchecked((closing.step + 1)...closing.lastStep, commandsOfFirst: 0)
            }
        }

        // The phone sends its mode on connect, as a confirmed write: bluetoothd acquires the command socket
        // on the first write, and BlueZ 5.66 corrupts that first value if a second write arrives before the
        // acquisition completes (seen as `{"button":…}ntation"}}`); a write with response waits it out.
        for output in processor.resync(at: .zero) {
            guard let command = output.command else { continue }
            try await central.write(link.command, command.encoded(), withResponse: true)
        }
        fd = try await acquire(link)
        var time = Duration.zero
        for (index, step) in script.steps.enumerated() {
            let stepStart = MonotonicTime.now()
            defer { windows[index] = StepWindow(start: stepStart, end: .now()) }
            if case .pair(let code) = step {
                try await judgeSegment()
                segment = nil
                results.append(try await pair(index, code: code, scenario: scenario, central: central, link: link, shownCode: shownCode))
                time = max(time, clock.now - origin)
                continue
            }
            if step.isLinkAction {
                // Judge what came before, then act on the link and judge the step's link expectation.
                try await judgeSegment()
                segment = nil
                let outcome: LinkOutcome
                if case .linkDrop(let outage, let side) = step, linkUp {
                    outcome = try await dropLink(for: outage, side: side, scenario: scenario, central: central, link: link, collector: collector)
                } else if case .disconnect = step, linkUp {
                    outcome = try await disconnect(central: central, link: link, collector: collector)
                } else if case .reconnect(let timeout) = step, !linkUp {
                    outcome = try await reconnect(timeout: timeout, central: central, link: link)
                } else if case .restartBluetoothd = step, linkUp {
                    let found: BlueZCentral.Peripheral?
                    (outcome, found) = try await restartBluetoothd(central: central, collector: collector, peripheralLog: peripheralLog)
                    if let found { link = found }
                } else if case .restartPeripheral = step, linkUp {
                    let found: BlueZCentral.Peripheral?
                    (outcome, found, collector) = try await restartPeripheral(central: central, link: link, collector: collector, restart: restart)
                    if let found { link = found }
                } else {
                    outcome = LinkOutcome(connected: linkUp, attempts: 0, elapsedMs: 0, summary: "",
                                          refusal: "the link is \(linkUp ? "up" : "down") already: nothing to \(step.name)")
                }
                if outcome.refusal == nil {
                    // The link went down (and maybe came back): the acquired socket is gone with it.
                    if let old = fd { close(old) }
                    fd = nil
                    if outcome.connected {
                        // As the phone does after reconnecting: tell the computer its mode again (confirmed, see
                        // below; while idle the phone may hold it back, R11.2, and its timers send it later), take
                        // a new socket, and listen to status again.
                        for output in processor.resync(at: max(time, clock.now - origin)) {
                            guard let command = output.command else { continue }
                            let bytes = command.encoded()
                            let at = MonotonicTime.now()
                            try await central.write(link.command, bytes, withResponse: true)
                            commandLog.append("\(at) \(String(decoding: bytes, as: UTF8.self))\n")
                            sends.append(.init(at: at.nanoseconds, payload: String(decoding: bytes, as: UTF8.self)))
                        }
                        fd = try await acquire(link)
                        await statuses.watch(central, link)
                    }
                }
                linkUp = outcome.connected
                results.append(judgeLink(index, step: step, outcome, scenario: scenario))
                time = max(time, clock.now - origin)
                continue
            }
            let expectation = scenario.expectations[index]
            if expectation != nil || segment == nil {
                try await judgeSegment()
                // Judging may have taken real time: the gesture timeline moves on from now.
                time = max(time, clock.now - origin)
                segment = Segment(step: index, expectation: expectation, startedAt: .now(), lastStep: index)
            } else {
                segment?.lastStep = index
            }
            if case .malformedWrites(let count) = step, linkUp {
                try await sendMalformed(count)
            }
            for input in step.inputs(startingAt: time) {
                try await runTimers(before: input.time)
                try await sleep(until: input.time)
                try await send(processor.handle(input.input, at: input.time))
            }
            time += step.duration()
            try await runTimers(before: time)
            try await sleep(until: time)
            // Let every timer that fell due run, the idle timer included (R11); the next step starts from there.
            time = max(time, clock.now - origin)
            try await send(processor.advance(to: time))
            activityAtEnd[index] = processor.activity
            // --fail-fast: a failed verdict is known once its segment is judged (when the next judged step begins);
            // what is open is left unjudged and the rest is not run.
            if context.failFast, results.contains(where: { $0.outcome == .failed }) {
                segment = nil
                for skipped in 0..<script.steps.count where !results.contains(where: { $0.index == skipped }) {
                    let why = skipped <= index ? "not judged" : "not run"
                    results.append(StepResult(index: skipped, kind: script.steps[skipped].name, outcome: .unchecked, latencyMs: nil,
                                              commands: 0, message: "\(why): an earlier step failed (--fail-fast)"))
                }
                results.sort { $0.index < $1.index }
                break
            }
        }
        try await judgeSegment()
        // The status notifications each step that names some received (R5).
        for position in results.indices {
            let index = results[position].index
            guard let expectation = scenario.statusExpectations[index], let window = windows[index] else { continue }
            let problems = Self.judge(expectation, statuses.received(from: window.start, to: window.end), scale: context.latencyScale)
            if problems.isEmpty {
                if results[position].outcome == .unchecked { results[position].outcome = .passed }
            } else {
                results[position].outcome = .failed
                results[position].message += (results[position].message.isEmpty ? "" : "\n") + problems.joined(separator: "\n")
            }
        }
        // The phone's state at the end of each step that names one (R11).
        for position in results.indices {
            let index = results[position].index
            guard let wanted = scenario.phoneExpectations[index] else { continue }
            let actual = activityAtEnd[index]
            if actual == wanted {
                if results[position].outcome == .unchecked { results[position].outcome = .passed }
            } else {
                results[position].outcome = .failed
                results[position].message += (results[position].message.isEmpty ? "" : "\n")
                    + "the phone is \(actual?.rawValue ?? "unknown") at the end of the step, expected \(wanted.rawValue)"
            }
        }
        return (results, sends, windows)
    }

    /// When a step began and ended, on CLOCK_MONOTONIC.
    struct StepWindow {
        var start: MonotonicTime
        var end: MonotonicTime
    }

    // MARK: Pairing (R4), status (R5), refusing to start (R10)

    /// The phone asks to pair (reads the pairing characteristic, so the computer shows a code), enters `code`,
    /// and reads the pairing state again; judged by the step's pairing expectation.
    private func pair(_ index: Int, code: PairCode, scenario: Scenario, central: BlueZCentral, link: BlueZCentral.Peripheral,
                      shownCode: () -> String?) async throws -> StepResult
    {
        _ = try await central.read(link.pairing)
        let shown = shownCode()
        let digits: String
        switch code {
        case .shown: digits = shown ?? "000000"
        case .wrong:
            // The shown code with its last digit changed: wrong, and still 6 digits.
            let base = Array(shown ?? "000000")
            digits = String(base.dropLast()) + String((Int(String(base.last ?? "0"))! + 1) % 10)
        case .digits(let given): digits = given
        }
        var refusal: String?
        do {
            try await central.write(link.pairing, Array(digits.utf8), withResponse: true)
        } catch {
            refusal = error.dbusName ?? error.message
        }
        let statusBytes = try await central.read(link.pairing)
        let status: PairingStatus
        do {
            status = try PairingStatus.decode(statusBytes)
        } catch {
            throw RunnerError("the pairing characteristic's value is not a PairingStatus: \(error) (\(String(decoding: statusBytes, as: UTF8.self)))")
        }
        let which = switch code { case .shown: "the shown code"; case .wrong: "a wrong code"; case .digits: "the code" }
        let summary = "entered \(which) \(digits): \(refusal.map { "refused (\($0))" } ?? "accepted"); the computer reports \(status.state.rawValue), \(status.attemptsRemaining) attempt(s) left"
            + (status.secondsRemaining.map { ", \($0) s remaining" } ?? "")
        guard let expectation = scenario.pairingExpectations[index] else {
            return StepResult(index: index, kind: "pair", outcome: .unchecked, latencyMs: nil, commands: 0, message: summary)
        }
        var problems: [String] = []
        if status.state != expectation.state { problems.append("pairing state \(status.state.rawValue), expected \(expectation.state.rawValue)") }
        if let left = expectation.attemptsRemaining, left != status.attemptsRemaining {
            problems.append("\(status.attemptsRemaining) attempt(s) left, expected \(left)")
        }
        if let refused = expectation.refused, refused != (refusal != nil) {
            problems.append(refused ? "the computer accepted the code, expected a refusal" : "the computer refused the code (\(refusal!)), expected it accepted")
        }
        return StepResult(index: index, kind: "pair", outcome: problems.isEmpty ? .passed : .failed, latencyMs: nil, commands: 0,
                          message: (problems + [summary]).joined(separator: "\n"))
    }

    /// Problems with the status notifications a step received (R5).
    static func judge(_ expectation: StatusExpectation, _ received: [StatusWatcher.Notification], scale: Double) -> [String] {
        var problems: [String] = []
        if received.count < expectation.atLeast {
            problems.append("\(received.count) status notification(s) during the step, expected at least \(expectation.atLeast)")
        }
        if let every = expectation.everyMs {
            let tolerance = expectation.toleranceMs * scale
            for (earlier, later) in zip(received, received.dropFirst()) {
                let gap = Double(later.at.nanoseconds - earlier.at.nanoseconds) / 1_000_000
                if abs(gap - every) > tolerance {
                    problems.append("status notifications \(format(gap)) ms apart, expected \(format(every)) ± \(format(tolerance)) ms")
                }
            }
        }
        for notification in received {
            let level = notification.status.batteryLevel
            if !(0...100).contains(level) { problems.append("battery level \(level) is outside 0–100") }
            if let wanted = expectation.batteryLevel, wanted != level { problems.append("battery level \(level), expected \(wanted)") }
        }
        if !problems.isEmpty {
            problems.append("received: " + (received.isEmpty ? "none" : received.map { "battery \($0.status.batteryLevel)" }.joined(separator: ", ")))
        }
        return problems
    }

    /// R10: the computer started without permission to open uinput must refuse to start, saying why, and
    /// never register with bluetoothd (it would run while dropping every command).
    private func refusal(_ scenario: Scenario, folder: String, start: ContinuousClock.Instant, result: ScenarioResult) -> ScenarioResult {
        var result = finishRefusal(scenario, folder: folder, result: result)
        result.durationMs = (ContinuousClock.now - start).milliseconds
        return result
    }

    private func finishRefusal(_ scenario: Scenario, folder: String, result: ScenarioResult) -> ScenarioResult {
        var result = result
        let node: DeniedUinputNode
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            node = try DeniedUinputNode()
        } catch {
            result.message = "\(error)\n"
            return result
        }
        defer { node.remove() }
        let peripheral: PeripheralUnderTest
        do {
            peripheral = try PeripheralUnderTest(
                hil: context.hil, adapter: context.peripheralAdapter, uinputName: context.uinputName, folder: folder,
                uinputPath: node.path, launcher: node.launcher, expectRegistration: false)
        } catch {
            result.message = "\(error)\n"
            return result
        }
        guard let status = peripheral.waitForExit(timeout: .seconds(10)) else {
            peripheral.stop()
            result.outcome = .failed
            result.message = "the computer kept running for 10 s without permission to use uinput (R10: it must refuse to start); its last lines:\n\(peripheral.lastLines(10))\n"
            return result
        }
        let output = peripheral.log
        var problems: [String] = []
        if status == 0 { problems.append("the computer exited with status 0; a refusal exits non-zero") }
        if output.contains("registered on") { problems.append("the computer registered with bluetoothd before refusing") }
        for text in scenario.expectedRefusal ?? [] where !output.contains(text) {
            problems.append("the refusal does not mention \(text.debugDescription)")
        }
        result.outcome = problems.isEmpty ? .passed : .failed
        result.message = problems.isEmpty
            ? "refused to start (exit \(status)): \(output.split(separator: "\n").last.map(String.init) ?? "")\n"
            : (problems + ["its output:", peripheral.lastLines(10)]).joined(separator: "\n") + "\n"
        result.steps = scenario.script.steps.enumerated().map { index, step in
            StepResult(index: index, kind: step.name, outcome: .unchecked, latencyMs: nil, commands: 0, message: "not run: the computer refused to start")
        }
        return result
    }

    /// What a link step did: whether the phone ends up connected, its tries, when it reached that (from the
    /// step's start), and a refusal when the step could not act (e.g. `reconnect` while connected).
    struct LinkOutcome {
        var connected: Bool
        var attempts: Int
        var elapsedMs: Double
        var summary: String
        var refusal: String?
        /// What the uinput device still held after the link went down (a failure: R12 releases everything).
        var stillHeld: [String] = []
        /// restartBluetoothd: from bluetoothd's start until the computer's advertisement was active again.
        var servingMs: Double?
    }

    /// The computer's app stops and starts again on the same state folder. While it is down the phone, its
    /// service gone, disconnects, forgets the computer (its cached services are stale: reading them after
    /// the restart fails with UnknownObject) and scans, so the restarted computer's first advertisement is
    /// seen (see `startDiscovery`); then it connects (one try).
    private func restartPeripheral(central: BlueZCentral, link: BlueZCentral.Peripheral, collector: FrameCollector,
                                   restart: (_ whileStopped: () async throws -> Void) async throws -> FrameCollector) async throws
        -> (LinkOutcome, BlueZCentral.Peripheral?, FrameCollector)
    {
        let start = ContinuousClock.now
        let heldBefore = collector.heldKeys()
        var phoneMs = 0.0
        let fresh = try await restart {
            let phoneStart = ContinuousClock.now
            if await central.isConnected(link) {
                try await central.disconnect(link)
                try await waitUntilDisconnected(central, link, what: "the phone's disconnect while the computer restarted")
            }
            try await central.forget(link)
            try await central.startDiscovery()
            phoneMs = (ContinuousClock.now - phoneStart).milliseconds
        }
        let registeredMs = (ContinuousClock.now - start).milliseconds - phoneMs
        let held = heldBefore.isEmpty ? "" : "\n\(heldBefore.joined(separator: ", ")) held when it stopped, gone with its uinput device"
        var found: BlueZCentral.Peripheral?
        var failure = ""
        do {
            found = try await central.connectToRemoteTouch(timeout: .seconds(Int64(10 * context.latencyScale)), scanning: true)
        } catch {
            failure = ": \(error)"
        }
        let elapsedMs = (ContinuousClock.now - start).milliseconds
        return (LinkOutcome(
            connected: found != nil, attempts: 1, elapsedMs: elapsedMs,
            summary: "the computer stopped and registered again in \(Self.format(registeredMs)) ms (the same state folder; the phone disconnected and forgot it meanwhile, \(Self.format(phoneMs)) ms); the phone shows \(found != nil ? "connected" : "disconnected") after \(Self.format(elapsedMs)) ms\(failure)\(held)"),
            found, fresh)
    }

    /// bluetoothd stops and starts again. The computer must notice, let go of what it holds, register its
    /// application and advertisement again and serve; the phone (whose Bluetooth stack restarted too: one
    /// bluetoothd serves both adapters in a rig) scans as soon as its adapter is back and connects.
    private func restartBluetoothd(central: BlueZCentral, collector: FrameCollector, peripheralLog: () -> String) async throws
        -> (LinkOutcome, BlueZCentral.Peripheral?)
    {
        let start = ContinuousClock.now
        let heldBefore = collector.heldKeys()
        let daemon = try BluetoothDaemon.running()
        let logBefore = peripheralLog().utf8.count
        try await daemon.restart()
        let startedAt = ContinuousClock.now
        let stoppedMs = (startedAt - start).milliseconds
        let released = await releaseAfterDrop(heldBefore: heldBefore, collector: collector, downAt: startedAt)
        // Scan as soon as the phone's adapter is powered (before the computer advertises, see startDiscovery),
        // and watch the computer's adapter until its advertisement is active.
        var scanning = false
        var servingAt: ContinuousClock.Instant?
        let giveUp = startedAt + .seconds(Int64(15 * context.latencyScale))
        while servingAt == nil, ContinuousClock.now < giveUp {
            if !scanning, await central.isPowered(central.adapter) {
                scanning = (try? await central.startDiscovery()) != nil
            }
            if let active = await central.activeAdvertisements(on: context.peripheralAdapter), active >= 1 { servingAt = .now }
            try await Task.sleep(for: .milliseconds(10))
        }
        let servingMs = servingAt.map { ($0 - startedAt).milliseconds }
        var found: BlueZCentral.Peripheral?
        var failure = ""
        if servingAt != nil {
            do {
                found = try await central.connectToRemoteTouch(timeout: .seconds(Int64(15 * context.latencyScale)), scanning: scanning)
            } catch {
                failure = "; the phone could not connect again: \(error)"
            }
        } else {
            failure = "; the computer's advertisement was not active within \(Self.format((giveUp - startedAt).milliseconds)) ms of bluetoothd's start"
        }
        let elapsedMs = (ContinuousClock.now - start).milliseconds
        // The computer's own account: "registered again 412.3 ms after bluetoothd came back".
        let ownLines = String(decoding: peripheralLog().utf8.dropFirst(logBefore), as: UTF8.self)
        let registered = ownLines.split(separator: "\n").first { $0.contains("registered again") }
            .map { " (its log: \($0.split(separator: " ").drop { !$0.hasPrefix("registered") }.joined(separator: " ")))" } ?? ""
        let serving = servingMs.map { "advertising again \(Self.format($0)) ms after bluetoothd started\(registered)" } ?? "not advertising"
        return (LinkOutcome(
            connected: found != nil, attempts: found == nil ? 0 : 1, elapsedMs: elapsedMs,
            summary: "bluetoothd (pid \(daemon.pid)\(daemon.underSystemd ? ", bluetooth.service" : "")) stopped and started again in \(Self.format(stoppedMs)) ms; the computer was \(serving); the phone shows \(found != nil ? "connected" : "disconnected") after \(Self.format(elapsedMs)) ms\(failure)\n\(released.note)",
            stillHeld: released.stillHeld, servingMs: servingMs), found)
    }

    /// The keys and buttons the uinput device holds (EVIOCGKEY) once the link is down: the computer must let go
    /// of everything as it notices the drop. Polls for up to 2 s (times the latency scale); returns a line for
    /// the step's message and what was still held then.
    private func releaseAfterDrop(heldBefore: [String], collector: FrameCollector, downAt: ContinuousClock.Instant) async -> (note: String, stillHeld: [String]) {
        let giveUp = downAt + .milliseconds(Int(2000 * context.latencyScale))
        var held = collector.heldKeys()
        while !held.isEmpty, ContinuousClock.now < giveUp {
            try? await Task.sleep(for: .milliseconds(5))
            held = collector.heldKeys()
        }
        let after = (ContinuousClock.now - downAt).milliseconds
        if !held.isEmpty {
            return ("still held \(Self.format(after)) ms after the phone saw the link go down: \(held.joined(separator: ", "))", held)
        }
        if heldBefore.isEmpty { return ("nothing was held when the link went down", []) }
        return ("\(heldBefore.joined(separator: ", ")) held when the link went down, released within \(Self.format(after)) ms of the phone seeing it", [])
    }

    /// Powers the peripheral's adapter off for `outage` (the phone sees an unexpected disconnect) and runs the
    /// phone's reconnect policy in real time (R12).
    private func dropLink(for outage: Duration, side: LinkSide, scenario: Scenario, central: BlueZCentral,
                          link: BlueZCentral.Peripheral, collector: FrameCollector) async throws -> LinkOutcome
    {
        let clock = ContinuousClock()
        let start = clock.now
        let heldBefore = collector.heldKeys()
        let adapter = side == .computer ? context.peripheralAdapter : context.centralAdapter
        var silenceNote = ""
        if context.emulatedControllers, let problem = EmulatedRadio.silenceAdvertising(adapter) {
            silenceNote = "; rig: could not silence \(adapter)'s emulated advertiser first (\(problem)): a phone may connect to a ghost"
        }
        try await central.setPowered(adapter, false)
        let restore = Task { () -> (ContinuousClock.Instant, String) in
            try? await Task.sleep(for: outage)
            do {
                let tries = try await Self.powerOn(adapter, central)
                return (clock.now, tries > 1 ? "; rig: \(adapter) powered on at try \(tries) (the emulated controller timed out a command; dmesg has it)" : "")
            } catch {
                return (clock.now, "; rig: \(adapter) did not power on again: \(error)")
            }
        }
        try await waitUntilDisconnected(central, link, what: "the link drop")
        let released = await releaseAfterDrop(heldBefore: heldBefore, collector: collector, downAt: clock.now)
        var policy = ReconnectPolicy(interval: scenario.run.reconnectInterval, maxAttempts: scenario.run.maxReconnectAttempts)
        policy.linkLost(at: clock.now - start)
        var attempts = 0
        while let next = policy.nextAttemptAt {
            try await Task.sleep(until: start + next, clock: clock)
            attempts += 1
            do {
                try await central.reconnect(link, timeout: min(scenario.run.reconnectInterval, .seconds(10)))
                policy.connected()
            } catch {
                policy.attemptFailed(at: clock.now - start)
            }
        }
        // When the phone reached its verdict (connected, or gave up), not when the radio came back.
        let ended = clock.now
        let elapsedMs = (ended - start).milliseconds
        let (radioBack, powerNote) = await restore.value
        let back = policy.state == .connected ? ", \(Self.format((ended - radioBack).milliseconds)) ms after the radio came back" : ""
        return LinkOutcome(
            connected: policy.state == .connected, attempts: attempts, elapsedMs: elapsedMs,
            summary: "link dropped (\(side == .computer ? "the computer's" : "the phone's") adapter \(adapter) off) for \(Self.format(outage.milliseconds)) ms: \(attempts) tries every \(Self.format(scenario.run.reconnectInterval.milliseconds)) ms, phone shows \(policy.label) after \(Self.format(elapsedMs)) ms\(back)\(powerNote)\(silenceNote)\n\(released.note)",
            stillHeld: released.stillHeld)
    }

    /// The user disconnects on the phone: the central closes the link and does not try again.
    private func disconnect(central: BlueZCentral, link: BlueZCentral.Peripheral, collector: FrameCollector) async throws -> LinkOutcome {
        let start = ContinuousClock.now
        let heldBefore = collector.heldKeys()
        try await central.disconnect(link)
        try await waitUntilDisconnected(central, link, what: "the disconnect")
        let elapsedMs = (ContinuousClock.now - start).milliseconds
        let released = await releaseAfterDrop(heldBefore: heldBefore, collector: collector, downAt: .now)
        return LinkOutcome(connected: false, attempts: 0, elapsedMs: elapsedMs,
                           summary: "the user disconnected: link down after \(Self.format(elapsedMs)) ms, phone shows disconnected\n\(released.note)",
                           stillHeld: released.stillHeld)
    }

    /// The user asks to connect again (R12.4): one try within `timeout`.
    private func reconnect(timeout: Duration, central: BlueZCentral, link: BlueZCentral.Peripheral) async throws -> LinkOutcome {
        let start = ContinuousClock.now
        var failure = ""
        do {
            try await central.reconnect(link, timeout: timeout)
        } catch {
            failure = ": \(error)"
        }
        let elapsedMs = (ContinuousClock.now - start).milliseconds
        let connected = failure.isEmpty
        return LinkOutcome(connected: connected, attempts: 1, elapsedMs: elapsedMs,
                           summary: "the user reconnected: phone shows \(connected ? "connected" : "disconnected") after \(Self.format(elapsedMs)) ms\(failure)")
    }

    /// Powers an adapter on and waits until it is, trying up to 3 times: btvirt's emulated controller sometimes
    /// times out a command while the kernel powers it on with an advertisement to resume (dmesg: `Opcode 0x2006
    /// failed: -22`, `command 0x2006 tx timeout`, then `Opcode 0x0c03 failed: -110`), and that power-on fails.
    /// Returns the try that worked.
    static func powerOn(_ adapter: String, _ central: BlueZCentral) async throws -> Int {
        var lastError: (any Error)?
        for attempt in 1...3 {
            do {
                try await central.setPowered(adapter, true)
                try await central.waitUntilPowered(adapter, true, timeout: .seconds(10))
                return attempt
            } catch {
                lastError = error
                try? await Task.sleep(for: .milliseconds(500))
            }
        }
        throw RunnerError("\(adapter) did not power on in 3 tries: \(lastError.map { "\($0)" } ?? "")")
    }

    private func waitUntilDisconnected(_ central: BlueZCentral, _ link: BlueZCentral.Peripheral, what: String,
                                       within: Duration = .seconds(10)) async throws
    {
        let noticeBy = ContinuousClock.now + within
        while await central.isConnected(link) {
            guard ContinuousClock.now < noticeBy else { throw RunnerError("the central did not see \(what) within \(within)") }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Judges a link step's `link` expectation (R12): what the phone shows, its tries, and how long it took.
    private func judgeLink(_ index: Int, step: ScriptStep, _ outcome: LinkOutcome, scenario: Scenario) -> StepResult {
        if let refusal = outcome.refusal {
            return StepResult(index: index, kind: step.name, outcome: .failed, latencyMs: nil, commands: 0, message: refusal)
        }
        let shown = outcome.connected ? "connected" : "disconnected"
        var problems: [String] = []
        if !outcome.stillHeld.isEmpty {
            problems.append("the computer still holds \(outcome.stillHeld.joined(separator: ", ")) after the link went down (R12: a drop releases everything)")
        }
        guard let expectation = scenario.linkExpectations[index] else {
            return StepResult(index: index, kind: step.name, outcome: problems.isEmpty ? .unchecked : .failed, latencyMs: nil,
                              commands: 0, message: (problems + [outcome.summary]).joined(separator: "\n"))
        }
        let wanted = expectation.outcome == .reconnected ? "connected" : "disconnected"
        if shown != wanted { problems.append("the phone shows \(shown), expected \(wanted)") }
        if let most = expectation.attemptsAtMost, outcome.attempts > most { problems.append("\(outcome.attempts) tries, expected at most \(most)") }
        if let within = expectation.servingWithinMs {
            if let serving = outcome.servingMs {
                if serving > within * context.latencyScale {
                    problems.append("the computer served again \(Self.format(serving)) ms after bluetoothd started, expected within \(Self.format(within * context.latencyScale)) ms")
                }
            } else {
                problems.append("the computer did not serve again (no active advertisement), expected within \(Self.format(within * context.latencyScale)) ms")
            }
        }
        if let within = expectation.withinMs, outcome.elapsedMs > within * context.latencyScale {
            problems.append("\(Self.format(outcome.elapsedMs)) ms from the step's start, expected within \(Self.format(within * context.latencyScale)) ms")
        }
        return StepResult(index: index, kind: step.name, outcome: problems.isEmpty ? .passed : .failed,
                          latencyMs: nil, commands: 0,
                          message: problems.isEmpty ? outcome.summary : (problems + [outcome.summary]).joined(separator: "\n"))
    }

    // MARK: Verdicts

    private func enforceLimits(_ limits: LatencyLimits, _ result: inout ScenarioResult) {
        if let p95 = limits.p95Ms, let measured = result.latency(percentile: 0.95), measured > p95 * context.latencyScale {
            result.outcome = .failed
            result.message += "p95 latency \(Self.format(measured)) ms is over the limit \(Self.format(p95 * context.latencyScale)) ms (\(Self.format(p95)) × rig scale \(Self.format(context.latencyScale)))\n"
        }
        if let max = limits.maxMs, let measured = result.latency(percentile: 1), measured > max * context.latencyScale {
            result.outcome = .failed
            result.message += "max latency \(Self.format(measured)) ms is over the limit \(Self.format(max * context.latencyScale)) ms (\(Self.format(max)) × rig scale \(Self.format(context.latencyScale)))\n"
        }
    }

    private static func outcome(_ steps: [StepResult]) -> ScenarioResult.Outcome {
        if steps.contains(where: { $0.outcome == .inconclusive }) { return .inconclusive }
        if steps.contains(where: { $0.outcome == .failed }) { return .failed }
        return .passed
    }

    static func poll(for what: String, timeout: Duration, _ read: () -> String?) async throws -> String {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let value = read(), !value.isEmpty { return value }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw RunnerError("no \(what) within \(timeout)")
    }

    static func format(_ value: Double) -> String { String(format: "%.1f", value) }

    static func slug(_ name: String) -> String {
        String(name.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" }.prefix(40))
    }
}
