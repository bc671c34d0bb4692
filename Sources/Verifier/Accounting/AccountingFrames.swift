import Foundation
package import InputCodes
import Records

/// The frames half of `CommandAccounting`: the writes the computer took, in the order it applied them, through
/// docs/protocol.md's computer (`ContractComputer`) and the kernel's filtering (`KernelView`), with the releases when
/// the link went and a fresh device after a restart, must be exactly the frames its input device showed.
struct AccountingFrames {
    let record: AccountingRecord
    let origin: UInt64
    /// When each step sent a write or saw an event, in time order: the step a time falls in.
    private let marks: [(at: UInt64, step: Int)]

    init(record: AccountingRecord, origin: UInt64) {
        self.record = record
        self.origin = origin
        marks = (record.sends.map { ($0.at, $0.step) } + record.events.map { ($0.at, $0.step) }).sorted { $0.0 < $1.0 }
    }

    /// One expected frame and where it comes from.
    struct Expected {
        var events: [InputEvent]
        /// "{"cursorMove":…} received at +1.234 s", "the link going down at +2.5 s".
        var cause: String
        var step: Int?
    }

    func problems() -> [AccountingProblem] {
        let (expected, undefined) = expectedFrames()
        if let undefined { return [undefined] }
        let actual = record.frames
        var index = 0
        while index < min(expected.count, actual.count) {
            if !Self.same(expected[index].events, actual[index].events) {
                return [divergence(at: index, expected, actual)]
            }
            index += 1
        }
        if expected.count > actual.count {
            let missing = expected[actual.count]
            return [AccountingProblem(step: missing.step, "the input device showed \(actual.count) frame(s) where docs/protocol.md gives \(expected.count): none came for \(describe(missing.events)) from \(missing.cause)" + totals(expected, actual))]
        }
        if actual.count > expected.count {
            let extra = actual[expected.count]
            return [AccountingProblem(step: step(at: extra.time.nanoseconds), "the input device showed \(describe(extra.events)) at \(stamp(extra.time.nanoseconds)), which no write the computer took explains (docs/protocol.md gives \(expected.count) frame(s), it showed \(actual.count))" + totals(expected, actual))]
        }
        return []
    }

    /// Everything the computer must show, in the order it applied the writes it took.
    /// And the first write the computer took that the document does not define, if any.
    func expectedFrames() -> ([Expected], undefined: AccountingProblem?) {
        enum Item {
            case receipt(ReceiptLine)
            case event(AccountingRecord.Event, step: Int)
        }
        // A write is applied when its first frame was written; one that writes none (a mode change) when it was
        // received, and not before the write before it in the receipts, which the computer records in the order it
        // handled them (a tcp batch's writes share one received time).
        var items: [(at: UInt64, order: Int, item: Item)] = []
        var previous: UInt64?
        for (position, receipt) in record.receipts.enumerated() {
            let at = receipt.written?.first ?? max(previous ?? 0, receipt.received)
            previous = at
            if receipt.written != nil { items.append((at, position, .receipt(receipt))) }
        }
        for (position, event) in record.events.enumerated() {
            items.append((event.at, record.receipts.count + position, .event(event.event, step: event.step)))
        }
        items.sort { ($0.at, $0.order) < ($1.at, $1.order) }
        var computer = ContractComputer()
        var kernel = KernelView()
        var frames: [Expected] = []
        for (at, _, item) in items {
            switch item {
            case .receipt(let receipt):
                let cause = "\(receipt.payload) received at \(stamp(receipt.received))"
                guard let payload = ContractPayload(text: receipt.payload) else {
                    return (frames, AccountingProblem(step: step(at: receipt.received), "the computer took \(cause), which is no write docs/protocol.md defines: it must refuse it"))
                }
                for events in kernel.pass(computer.frames(for: payload)) {
                    frames.append(Expected(events: events, cause: cause, step: step(at: receipt.received)))
                }
            case .event(.linkDown, let step):
                for events in kernel.pass(computer.releaseAll()) {
                    frames.append(Expected(events: events, cause: "the link going down at \(stamp(at)) (everything held is released)", step: step))
                }
            case .event(.computerRestarted, _):
                computer = ContractComputer()
                kernel = KernelView()
            case .event:
                break
            }
        }
        return (frames, nil)
    }

    /// The first frame that is not the document's, with what it should have been and the totals over the scenario.
    private func divergence(at index: Int, _ expected: [Expected], _ actual: [EvdevFrame]) -> AccountingProblem {
        let wanted = expected[index]
        let got = actual[index]
        let text = "frame \(index + 1) of the input device is not what docs/protocol.md makes of the writes the computer took: "
            + "expected \(describe(wanted.events)) from \(wanted.cause), got \(describe(got.events)) at \(stamp(got.time.nanoseconds))"
        return AccountingProblem(step: wanted.step ?? step(at: got.time.nanoseconds), text + totals(expected, actual))
    }

    /// "; over the scenario REL_X 1190, expected 1200" for every code whose sum differs (key codes: presses).
    private func totals(_ expected: [Expected], _ actual: [EvdevFrame]) -> String {
        func sums(_ frames: [[InputEvent]]) -> [EventCode: Int] {
            var sums: [EventCode: Int] = [:]
            for event in frames.joined() {
                if event.code.type == .key { if event.value == 1 { sums[event.code, default: 0] += 1 } } else { sums[event.code, default: 0] += Int(event.value) }
            }
            return sums
        }
        let wanted = sums(expected.map(\.events))
        let got = sums(actual.map(\.events))
        let differing = Set(wanted.keys).union(got.keys).filter { wanted[$0] != got[$0] }.sorted { $0.code < $1.code }
        guard !differing.isEmpty else { return "" }
        return "; over the scenario " + differing.map { code in
            let what = code.type == .key ? " presses" : ""
            return "\(code)\(what) \(got[code] ?? 0), expected \(wanted[code] ?? 0)"
        }.joined(separator: ", ")
    }

    static func same(_ lhs: [InputEvent], _ rhs: [InputEvent]) -> Bool {
        lhs.count == rhs.count && lhs.allSatisfy { event in lhs.filter { $0 == event }.count == rhs.filter { $0 == event }.count }
    }

    private func describe(_ events: [InputEvent]) -> String { InputFrame(events).description }

    /// The step that was running at `time`: the last one that sent a write or saw an event at or before it.
    private func step(at time: UInt64) -> Int? {
        var low = 0
        var high = marks.count
        while low < high {
            let middle = (low + high) / 2
            if marks[middle].at <= time { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? nil : marks[low - 1].step
    }

    func stamp(_ time: UInt64) -> String { Self.stamp(time, origin: origin) }

    /// "+1.234 s" from the scenario's start.
    static func stamp(_ time: UInt64, origin: UInt64) -> String {
        "+" + String(format: "%.3f", (Double(time) - Double(origin)) / 1e9) + " s"
    }
}
