package import GestureScript
import StrictJSON
import Verifier

extension Scenario {
    /// The link's supervision timeout on the shipped rigs and in `hil replay` (a rig file's
    /// `connection.supervisionTimeoutMs`): a radio blackout longer than this ends the link, a shorter one does not.
    package static let supervisionTimeoutMs = 2000.0

    /// What no rig can make pass, each with its JSON path, for `hil validate`, `hil replay`, `hil run` and `hil record`
    /// alike (`ScenarioValidity` in hil): a link that "stays up" through a step that takes it down; a radio blackout
    /// judged against the wrong side of the supervision timeout; an outage of 0 ms; a step bound to some transports in
    /// a scenario that applies to others; text a US layout cannot type (the computer refuses all of it).
    package var feasibilityProblems: [ScriptError.Problem] {
        var problems: [ScriptError.Problem] = []
        func problem(_ path: JSONPath, _ text: String) {
            problems.append(ScriptError.Problem("\(path): \(text)", at: positions?.location(of: path)))
        }
        let steps = JSONPath.root.appending("steps")
        for (index, step) in script.steps.enumerated() {
            let at = steps.appending(index)
            if let link = expectations[index].link { linkProblems(step, link, at: at, problem) }
            switch step {
            case .linkDrop(let outage, _) where outage == .zero:
                problem(at.appending("linkDrop").appending("forMs"), "an outage of 0 ms takes nothing down: give how long the link is down")
            case .partition(let outage) where outage == .zero:
                problem(at.appending("partition").appending("forMs"), "a partition of 0 ms cuts nothing: give how long the network drops everything")
            case .text(let string):
                if let why = Self.untypeable(string) { problem(at.appending("text"), why) }
            case .send(let items):
                for (item, send) in items.enumerated() {
                    if case .command(.text(let string)) = send.payload, let why = Self.untypeable(string) {
                        problem(at.appending("send").appending(item).appending("command"), why)
                    }
                }
            default:
                break
            }
            if let (needed, kind) = Self.transportsNeeded(step) {
                let applies = run.transports ?? Transport.allCases
                if let other = applies.first(where: { !needed.contains($0) }) {
                    let list = needed.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
                    problem(at.appending(step.name), "\(kind) runs on \(needed.map(\.rawValue).joined(separator: " and ")) only, and this scenario applies to \(other.rawValue)\(run.transports == nil ? " (it names no run.transports: every transport)" : ""): set \"run\": {\"transports\": [\(list)]}")
                }
            }
        }
        return problems
    }

    /// A link expectation no rig can meet on `step`.
    private func linkProblems(_ step: ScriptStep, _ link: LinkExpectation, at path: JSONPath,
                              _ problem: (JSONPath, String) -> Void)
    {
        let at = path.appending("expect").appending("link")
        if case .radioBlackout(let length) = step {
            let ms = Double(length.components.seconds) * 1000 + Double(length.components.attoseconds) / 1e15
            let timeout = Self.supervisionTimeoutMs
            if ms > timeout, link.outcome == .stayedUp {
                problem(at, "a blackout of \(Judge.format(ms)) ms is longer than the links' \(Judge.format(timeout)) ms supervision timeout, so the link ends (reason 0x08): expect \"reconnected\" (or \"disconnected\"), not \"stayedUp\"")
            } else if ms < timeout, link.outcome != .stayedUp {
                problem(at, "a blackout of \(Judge.format(ms)) ms is shorter than the links' \(Judge.format(timeout)) ms supervision timeout, so the link lives through it: expect \"stayedUp\", not \"\(link.outcome.rawValue)\"")
            }
            return
        }
        if link.outcome == .stayedUp {
            problem(at, "a \(step.name) step takes the link down by definition, so it cannot stay up: expect \"reconnected\" or \"disconnected\" (\"stayedUp\" is a radio blackout's, shorter than the supervision timeout)")
        }
    }

    /// The transports a step can run on, and what to call it in a message; nil for a step every transport takes.
    private static func transportsNeeded(_ step: ScriptStep) -> (needed: [Transport], kind: String)? {
        switch step {
        case .radio, .radioBlackout: ([.ble, .hid], "a radio step (the vm rig's emulated radio)")
        case .restartBluetoothd: ([.ble, .hid], "restartBluetoothd (the BLE stack)")
        case .network: ([.tcp, .udp], "a network step (netem between the hosts)")
        case .partition: ([.tcp, .udp], "a partition (the network between the hosts)")
        case .otherPhone: ([.tcp, .udp], "otherPhone (a session on a network control port)")
        case .forgedPackets: ([.udp], "forgedPackets (the udp transport's movement port)")
        default: nil
        }
    }

    /// Why a `text` cannot be typed (docs/protocol-keys.md, "Text": a character the US layout lacks refuses all of it).
    private static func untypeable(_ string: String) -> String? {
        guard let (offset, character) = string.enumerated().first(where: { ContractTables.stroke($0.element) == nil }) else { return nil }
        let scalars = character.unicodeScalars.map { "U+" + String($0.value, radix: 16, uppercase: true) }.joined(separator: " ")
        return "character \(offset) \"\(character)\" (\(scalars)) cannot be typed on a US layout (docs/protocol-keys.md, \"Text\"): the computer refuses the whole text and types nothing"
    }
}
