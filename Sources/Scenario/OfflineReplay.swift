import CommandMapping
import Foundation
import GestureModel
import InputCodes
import RemoteTouchProtocol
import Verifier

/// A scenario run offline: its steps through the phone's gesture model, each command through the mapping, and
/// each step's expectation checked against the resulting frames (with no link latency). A scenario that
/// contradicts the phone model or the mapping fails here, before it runs on a rig.
public struct OfflineReplay: Sendable {
    /// One line per command: its time, its JSON and the frames it maps to.
    public private(set) var lines: [String] = []
    /// Commands that cannot be mapped and expectations that do not hold, each with the reason.
    public private(set) var errors: [String] = []
    public private(set) var commandCount = 0
    public private(set) var frameCount = 0
    /// Steps whose expectation holds.
    public private(set) var checkedSteps = 0

    static func monotonic(_ duration: Duration) -> MonotonicTime {
        MonotonicTime(nanoseconds: UInt64(duration.components.seconds) * 1_000_000_000 + UInt64(duration.components.attoseconds / 1_000_000_000))
    }
    public private(set) var summary = ""

    public init(scenario: Scenario) {
        let script = scenario.script
        var processor = GestureProcessor(settings: script.settings)
        var mapper = CommandMapper()
        // The phone sends its mode on connect, so both sides agree before the first gesture.
        var outputs: [(step: Int, output: GestureOutput)] = processor.resync(at: .zero).map { (0, $0) }
        // Outputs belong to the step whose input caused them; timer outputs that fell due before a step
        // began (a single tap's 300 ms, paced motion) belong to the step before.
        var time = Duration.zero
        // As on a rig: after a user's disconnect, or a drop the phone gives up on, the phone sends nothing until
        // the link is back; when it is back, the phone re-sends its mode.
        var linkUp = true
        var unsent: Set<Int> = []
        // The computer refuses every command of a phone that has not paired (R4).
        var paired = scenario.run.pairing == .pair
        // The mode the phone sends on connect is refused too when it has not paired.
        var malformedSent: Set<Int> = []
        var refused: Set<Int> = paired ? [] : Set(outputs.indices.filter { outputs[$0].output.command != nil })
        /// Where the link went down: before which output, and the link step that took it down.
        var linkDowns: [(position: Int, step: Int)] = []
        func take(_ step: Int, _ produced: [GestureOutput]) {
            for output in produced {
                if !linkUp && output.command != nil { unsent.insert(outputs.count) }
                if linkUp && !paired && output.command != nil { refused.insert(outputs.count) }
                outputs.append((step, output))
            }
        }
        for (index, step) in script.steps.enumerated() {
            let isPair = if case .pair = step { true } else { false }
            if index > 0 && (scenario.expectations[index] != nil || step.isLinkAction || isPair) {
                // The rig judges the step before here, sending first everything the phone's timers still had
                // to send (paced motion, a pending single tap): those belong to the step before.
                while let deadline = processor.nextSendDeadline {
                    take(index - 1, processor.advance(to: deadline))
                    time = max(time, deadline)
                }
            }
            if case .malformedWrites = step, linkUp { malformedSent.insert(index) }
            if case .pair(let code) = step {
                // Paired when the step expects it, or, without an expectation, when it enters the shown code.
                if let expected = scenario.pairingExpectations[index] {
                    paired = paired || expected.state == .paired
                } else if code == .shown {
                    paired = true
                }
                continue
            }
            if step.isLinkAction {
                let wasUp = linkUp
                // The link goes down here (a drop, or the user's disconnect): the computer lets go of what it holds.
                if wasUp, step.name != "reconnect" { linkDowns.append((outputs.count, index)) }
                switch step {
                case .disconnect: linkUp = false
                case .linkDrop, .reconnect, .restartBluetoothd, .restartPeripheral: linkUp = scenario.linkExpectations[index]?.outcome != .disconnected
                default: break
                }
                if linkUp && (!wasUp || ["linkDrop", "restartBluetoothd", "restartPeripheral"].contains(step.name)) {
                    // The phone re-sends its mode, unless it is idle and sent within the idle interval (R11.2).
                    take(index, processor.resync(at: time))
                }
                continue
            }
            for input in step.inputs(startingAt: time) {
                let produced = processor.handle(input.input, at: input.time)
                take(index, produced.filter { $0.time >= time || index == 0 })
                take(index - 1, produced.filter { $0.time < time && index > 0 })
            }
            time += step.duration()
            take(index, processor.advance(to: time).filter { $0.time < time })
        }
        take(max(0, script.steps.count - 1), processor.advance(to: time + .seconds(1)))

        var totals: [EventCode: Int] = [:]
        var presses: [EventCode: Int] = [:]
        var stepFrames = [[EvdevFrame]](repeating: [], count: max(1, script.steps.count))
        func releaseOnLinkDown(before position: Int, at time: Duration) {
            for down in linkDowns where down.position == position {
                let frames = mapper.releaseAll()
                frameCount += frames.count
                stepFrames[down.step] += frames.map { EvdevFrame(frame: $0, time: Self.monotonic(time)) }
                let shown = frames.isEmpty ? "holds nothing" : "releases " + frames.map(\.description).joined(separator: " ")
                lines.append(String(format: "%9.1f ms", time.milliseconds) + "  the link goes down (steps[\(down.step)]): the computer \(shown)")
            }
        }
        for (position, (step, output)) in outputs.enumerated() {
            releaseOnLinkDown(before: position, at: output.time)
            let time = String(format: "%9.1f ms", output.time.milliseconds)
            guard let command = output.command else {
                lines.append("\(time)  [phone is now \(output.description.split(separator: "[").last.map { "[" + $0 } ?? "")")
                continue
            }
            if unsent.contains(position) {
                lines.append("\(time)  \(String(decoding: command.encoded(), as: UTF8.self))  →  not sent, the link is down")
                continue
            }
            if refused.contains(position) {
                lines.append("\(time)  \(String(decoding: command.encoded(), as: UTF8.self))  →  refused, the phone is not paired")
                continue
            }
            commandCount += 1
            let json = String(decoding: command.encoded(), as: UTF8.self)
            do {
                let frames = try mapper.map(command)
                frameCount += frames.count
                let at = Self.monotonic(output.time)
                stepFrames[step] += frames.map { EvdevFrame(frame: $0, time: at) }
                for event in frames.flatMap(\.events) {
                    if event.code.type == .rel { totals[event.code, default: 0] += Int(event.value) }
                    if event.code.type == .key && event.value == 1 { presses[event.code, default: 0] += 1 }
                }
                let shown = frames.isEmpty ? "(no events)" : frames.map(\.description).joined(separator: " ")
                lines.append("\(time)  \(json)  →  \(shown)")
            } catch {
                lines.append("\(time)  \(json)  →  REFUSED: \(error.message)")
                errors.append("command at \(time.trimmingCharacters(in: .whitespaces)) cannot be mapped: \(error.message)")
            }
        }
        releaseOnLinkDown(before: outputs.count, at: outputs.last?.output.time ?? .zero)
        // Each step's expectation against its frames and those of the steps without expectations that follow
        // it (a wait extends the step before); latency counts from the step's first command, as on a rig.
        for (index, step) in script.steps.enumerated() {
            guard let expectation = scenario.expectations[index] else { continue }
            // As on a rig, a link or pair step closes the segment too (what it causes is its own).
            let nextChecked = (index + 1..<script.steps.count).first {
                scenario.expectations[$0] != nil || script.steps[$0].isLinkAction || script.steps[$0].name == "pair"
            } ?? script.steps.count
            let owned = stepFrames[index..<nextChecked].flatMap { $0 }
            var matcher = StepMatcher(expectation, sentAt: owned.first?.time ?? MonotonicTime(nanoseconds: 0))
            for frame in owned { matcher.feed(frame) }
            let verdict = matcher.verdict()
            if verdict.outcome != .passed {
                errors.append("steps[\(index)] (\(step.name)) expectation does not hold offline:\n" + verdict.message)
            } else {
                checkedSteps += 1
            }
        }
        // What the computer receives during each step that says (R11.2): every command sent while the link is up.
        for (index, step) in script.steps.enumerated() {
            guard let wanted = scenario.receivedExpectations[index] else { continue }
            var counts: [String: Int] = [:]
            for (position, (owner, output)) in outputs.enumerated() where owner == index && !unsent.contains(position) {
                if let command = output.command { counts[command.name, default: 0] += 1 }
                if refused.contains(position) { counts["refused", default: 0] += 1 }
            }
            if case .malformedWrites(let count) = step, malformedSent.contains(index) { counts["refused", default: 0] += count }
            let problems = wanted.keys.sorted().filter { (counts[$0] ?? 0) != wanted[$0] }.map {
                "received \(counts[$0] ?? 0) \($0), expected \(wanted[$0]!)"
            }
            if problems.isEmpty {
                checkedSteps += 1
            } else {
                errors.append("steps[\(index)] (\(step.name)) expectation does not hold offline: " + problems.joined(separator: "; "))
            }
        }
        let motion = totals.sorted { $0.key.code < $1.key.code }.map { "\($0.key) \($0.value)" }
        let keys = presses.sorted { $0.key.code < $1.key.code }.map { "\($0.key)×\($0.value)" }
        summary = "\(commandCount) commands, \(frameCount) frames, \(checkedSteps) expectation(s) hold"
            + (motion.isEmpty ? "" : "; motion " + motion.joined(separator: ", "))
            + (keys.isEmpty ? "" : "; presses " + keys.joined(separator: ", "))
    }
}
