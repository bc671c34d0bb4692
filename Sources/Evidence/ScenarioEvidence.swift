import Foundation
package import InputCodes
package import Records
package import ScenarioDriver

/// What a scenario's timeline is made of, besides the packets: the phone's sends, the computer's receipts (with
/// their uinput write times), the evdev frames, and when each step ran. All on CLOCK_MONOTONIC.
package struct ScenarioEvidence: Sendable {
    package var device: String
    /// Every frame of the uinput device; nil when the computer never started.
    package var frames: [EvdevFrame]?
    package var droppedCount = 0
    package var sends: [StageBreakdown.Send] = []
    package var receipts: [ReceiptLine] = []
    /// When each step ran, by step index: CLOCK_MONOTONIC ns.
    package var windows: [Int: ClosedRange<UInt64>] = [:]

    package init(
        device: String, frames: [EvdevFrame]? = nil, droppedCount: Int = 0, sends: [StageBreakdown.Send] = [],
        receipts: [ReceiptLine] = [], windows: [Int: ClosedRange<UInt64>] = [:]
    ) {
        self.device = device
        self.frames = frames
        self.droppedCount = droppedCount
        self.sends = sends
        self.receipts = receipts
        self.windows = windows
    }

    /// Labels longer than this are cut (a text command can be long); the full payloads are in commands.log.
    package static let labelLimit = 160

    package func timeline(_ result: ScenarioResult, packets: [TraceTimeline.Mark], origin: MonotonicTime) -> TraceTimeline {
        var marks = packets
        for (index, window) in windows {
            let step = result.steps.first { $0.index == index }
            let verdict = step.map { " \($0.outcome.rawValue)" } ?? ""
            marks.append(.init(.steps, at: window.lowerBound, end: window.upperBound,
                               label: "steps[\(index)] \(step?.kind ?? "")\(verdict)", flagged: step?.outcome == .failed))
        }
        for send in sends {
            marks.append(.init(.phone, at: send.at, label: Self.cut(send.payload)))
        }
        for receipt in receipts {
            marks.append(.init(.computer, at: receipt.received, label: Self.cut(receipt.payload), flagged: receipt.written == nil))
            for (number, written) in (receipt.written ?? []).enumerated() {
                marks.append(.init(.uinput, at: written, label: "frame \(number + 1) of \(Self.cut(receipt.payload))"))
            }
        }
        for frame in frames ?? [] {
            marks.append(.init(.evdev, at: frame.time.nanoseconds, label: frame.frame.description))
        }
        var notes: [String] = []
        if frames == nil { notes.append("No evdev frames: the computer did not start.") }
        return TraceTimeline(scenario: result.name, origin: origin.nanoseconds, marks: marks, notes: notes)
    }

    package static func cut(_ text: String) -> String {
        text.count <= labelLimit ? text : String(text.prefix(labelLimit)) + "…"
    }
}
