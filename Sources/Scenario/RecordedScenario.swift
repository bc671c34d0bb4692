import GestureModel
package import GestureScript
import StrictJSON
package import Verifier

/// A scenario made from a recorded session (`hil record`, docs/recording.md): `send` steps of what the computer
/// received, each with the expectation derived from the frames that came out, and `wait` steps for the idle time
/// between them. Written in the scenario format this module reads (`text`), one send item a line.
package struct RecordedScenario: Sendable {
    package enum Step: Sendable {
        case send([SendItem], expect: StepExpectation)
        case wait(Duration)
    }

    package var name: String
    package var description: String
    /// Where it replays: `run.transport`; with hid reports or udp packets also `run.transports`, that one only.
    package var transport: Transport
    package var steps: [Step]

    package init(name: String, description: String, transport: Transport, steps: [Step]) {
        self.name = name
        self.description = description
        self.transport = transport
        self.steps = steps
    }

    /// Whether a send item is a hid report or a udp packet: then the scenario applies to its transport only.
    package var hasRawItems: Bool {
        steps.contains { step in
            guard case .send(let items, _) = step else { return false }
            return items.contains { if case .command = $0.payload { false } else { true } }
        }
    }

    /// How many send items, over all steps.
    package var itemCount: Int {
        steps.reduce(0) { count, step in
            if case .send(let items, _) = step { count + items.count } else { count }
        }
    }

    /// The run settings' JSON.
    var run: JSONValue {
        var run = JSONObject([("transport", .string(transport.rawValue))])
        if hasRawItems { run.set("transports", [.string(transport.rawValue)]) }
        return .object(run)
    }

    /// The scenario file's text: pretty at the top, each send item and each expectation on a line of its own.
    package var text: String {
        let compact = JSONWriter()
        var lines = [
            "{",
            "  \"name\": \(compact.string(.string(name))),",
            "  \"description\": \(compact.string(.string(description))),",
            "  \"run\": \(compact.string(run)),",
            "  \"steps\": [",
        ]
        for (index, step) in steps.enumerated() {
            let comma = index == steps.count - 1 ? "" : ","
            switch step {
            case .wait(let duration):
                lines.append("    {\"wait\": {\"ms\": \(JSONWriter.numberText(duration.milliseconds))}}\(comma)")
            case .send(let items, let expect):
                lines.append("    {\"send\": [")
                for (itemIndex, item) in items.enumerated() {
                    lines.append("      \(compact.string(item.json))\(itemIndex == items.count - 1 ? "" : ",")")
                }
                lines.append("     ],")
                lines.append("     \"expect\": \(compact.string(expect.json))}\(comma)")
            }
        }
        lines += ["  ]", "}"]
        return lines.joined(separator: "\n") + "\n"
    }
}
