import Central
import DBus
import Evdev
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
        var collector: FrameCollector?
        var central: BlueZCentral?
        var remote: BlueZCentral.Peripheral?
        var acquired: Int32?
        func phase(_ name: String) {
            result.phases.append(.init(name: name, atMs: (ContinuousClock.now - start).milliseconds))
        }
        defer {
            if let acquired { close(acquired) }
            collector?.stop()
        }
        do {
            // The phone scans first, then the computer starts advertising (see BlueZCentral.startDiscovery).
            let bluez = BlueZCentral(connection: try await DBusConnection.connect(.system), adapter: context.centralAdapter)
            central = bluez
            try await bluez.startDiscovery()
            peripheral = try PeripheralUnderTest(
                hil: context.hil, adapter: context.peripheralAdapter, uinputName: context.uinputName, folder: folder)
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
            result.steps = try await drive(scenario, central: bluez, link: link, collector: collector!, folder: folder,
                                           statuses: statuses) { () async throws -> Int32? in
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
        }
        if let central, let remote {
            // The next scenario is a new phone: the link goes, and the phone forgets the computer so no cached
            // services or connection state carry over. Powering the peripheral's adapter off drops the link at
            // once, where BlueZ's Disconnect (and RemoveDevice on a live link) give profiles 2 s first.
            do {
                try await central.setPowered(context.peripheralAdapter, false)
                try await waitUntilDisconnected(central, remote, what: "the end of the scenario")
                try await central.forget(remote)
                try await central.setPowered(context.peripheralAdapter, true)
                try await central.waitUntilPowered(context.peripheralAdapter, true)
            } catch {
                try? await central.setPowered(context.peripheralAdapter, true)
                if result.outcome == .passed { result.outcome = .error }
                result.message += "tearing the link down failed, the next scenario may be affected: \(error)\n"
            }
            phase("link down, computer forgotten")
        }
        result.durationMs = (ContinuousClock.now - start).milliseconds
        return result
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
        var lastStep: Int
    }

    /// - Parameter acquire: opens the fd write path (after the connect-time mode sync), or returns nil for D-Bus.
    private func drive(_ scenario: Scenario, central: BlueZCentral, link: BlueZCentral.Peripheral, collector: FrameCollector,
                       folder: String, statuses: StatusWatcher, acquire: () async throws -> Int32?) async throws -> [StepResult]
    {
        let script = scenario.script
        var processor = GestureProcessor(settings: script.settings, at: .zero)
        let clock = ContinuousClock()
        let origin = clock.now
        var results: [StepResult] = []
        var segment: Segment?
        var fd: Int32?
        var activityAtEnd: [Int: Activity] = [:]
        /// Every command with the CLOCK_MONOTONIC time it was handed to the link.
        var commandLog = ""
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
                if let fd {
                    guard write(fd, bytes, bytes.count) == bytes.count else {
                        throw RunnerError("writing \(command.name) to the acquired command socket failed: \(String(cString: strerror(errno)))")
                    }
                } else {
                    try await central.write(link.command, bytes, withResponse: scenario.run.confirmedWrites)
                }
                if segment?.firstSend == nil { segment?.firstSend = at }
                segment?.commands += 1
            }
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
            results.append(StepResult(
                index: closing.step, kind: script.steps[closing.step].name, outcome: outcome,
                latencyMs: verdict.latency?.milliseconds, commands: closing.commands,
                message: [verdict.message, unsent].filter { !$0.isEmpty }.joined(separator: "\n")))
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
        fd = try await acquire()
        var time = Duration.zero
        for (index, step) in script.steps.enumerated() {
            if step.isLinkAction {
                // Judge what came before, then act on the link and judge the step's link expectation.
                try await judgeSegment()
                segment = nil
                let outcome: LinkOutcome
                if case .linkDrop(let outage) = step, linkUp {
                    outcome = try await dropLink(for: outage, scenario: scenario, central: central, link: link)
                } else if case .disconnect = step, linkUp {
                    outcome = try await disconnect(central: central, link: link)
                } else if case .reconnect(let timeout) = step, !linkUp {
                    outcome = try await reconnect(timeout: timeout, central: central, link: link)
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
                        // below), take a new socket, and listen to status again.
                        try await central.write(link.command, Command.modeChange(mode: processor.settings.mode).encoded(), withResponse: true)
                        fd = try await acquire()
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
        }
        try await judgeSegment()
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
        return results
    }

    /// What a link step did: whether the phone ends up connected, its tries, when it reached that (from the
    /// step's start), and a refusal when the step could not act (e.g. `reconnect` while connected).
    struct LinkOutcome {
        var connected: Bool
        var attempts: Int
        var elapsedMs: Double
        var summary: String
        var refusal: String?
    }

    /// Powers the peripheral's adapter off for `outage` (the phone sees an unexpected disconnect) and runs the
    /// phone's reconnect policy in real time (R12).
    private func dropLink(for outage: Duration, scenario: Scenario, central: BlueZCentral,
                          link: BlueZCentral.Peripheral) async throws -> LinkOutcome
    {
        let clock = ContinuousClock()
        let start = clock.now
        try await central.setPowered(context.peripheralAdapter, false)
        let restore = Task {
            try? await Task.sleep(for: outage)
            try? await central.setPowered(context.peripheralAdapter, true)
        }
        try await waitUntilDisconnected(central, link, what: "the link drop")
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
        let elapsedMs = (clock.now - start).milliseconds
        await restore.value
        return LinkOutcome(
            connected: policy.state == .connected, attempts: attempts, elapsedMs: elapsedMs,
            summary: "link dropped for \(Self.format(outage.milliseconds)) ms: \(attempts) tries every \(Self.format(scenario.run.reconnectInterval.milliseconds)) ms, phone shows \(policy.label) after \(Self.format(elapsedMs)) ms")
    }

    /// The user disconnects on the phone: the central closes the link and does not try again.
    private func disconnect(central: BlueZCentral, link: BlueZCentral.Peripheral) async throws -> LinkOutcome {
        let start = ContinuousClock.now
        try await central.disconnect(link)
        try await waitUntilDisconnected(central, link, what: "the disconnect")
        let elapsedMs = (ContinuousClock.now - start).milliseconds
        return LinkOutcome(connected: false, attempts: 0, elapsedMs: elapsedMs,
                           summary: "the user disconnected: link down after \(Self.format(elapsedMs)) ms, phone shows disconnected")
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

    private func waitUntilDisconnected(_ central: BlueZCentral, _ link: BlueZCentral.Peripheral, what: String) async throws {
        let noticeBy = ContinuousClock.now + .seconds(10)
        while await central.isConnected(link) {
            guard ContinuousClock.now < noticeBy else { throw RunnerError("the central did not see \(what) within 10 s") }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Judges a link step's `link` expectation (R12): what the phone shows, its tries, and how long it took.
    private func judgeLink(_ index: Int, step: ScriptStep, _ outcome: LinkOutcome, scenario: Scenario) -> StepResult {
        if let refusal = outcome.refusal {
            return StepResult(index: index, kind: step.name, outcome: .failed, latencyMs: nil, commands: 0, message: refusal)
        }
        let shown = outcome.connected ? "connected" : "disconnected"
        guard let expectation = scenario.linkExpectations[index] else {
            return StepResult(index: index, kind: step.name, outcome: .unchecked, latencyMs: nil, commands: 0, message: outcome.summary)
        }
        var problems: [String] = []
        let wanted = expectation.outcome == .reconnected ? "connected" : "disconnected"
        if shown != wanted { problems.append("the phone shows \(shown), expected \(wanted)") }
        if let most = expectation.attemptsAtMost, outcome.attempts > most { problems.append("\(outcome.attempts) tries, expected at most \(most)") }
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

    private static func poll(for what: String, timeout: Duration, _ read: () -> String?) async throws -> String {
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
