package import InputCodes

/// Which of the computer's receipts belong to a step, for counting what it received (`expect.received`, R11.2).
///
/// A write the phone sent during the step is the step's, however late the computer received it: its receipt is
/// found through the send it is aligned with (`StageBreakdown.align`), not by when it arrived, so a verdict does
/// not depend on whether the last write of a step crossed the link before the step's window closed (a busy
/// machine delays it by tens of milliseconds). A receipt no send of the phone explains (a forged packet from
/// another host, malformed writes) is the step's when it arrived in the step's window or before the next step
/// started.
///
/// Built once a run's receipts are in, with the aligned sends and the unexplained receipts each sorted by time, so
/// that each step's receipts are found by a search: going through every send and receipt for each step made a long
/// replay quadratic (issue 39).
package struct StepReceipts: Sendable {
    /// The sends that have a receipt, by time: when each was sent and its receipt's index.
    private let explained: [(sent: UInt64, receipt: Int)]
    /// The receipts no send explains, by when they arrived: that time and the receipt's index.
    private let unexplained: [(received: UInt64, receipt: Int)]
    private let receipts: [StageBreakdown.Receipt]

    /// - Parameter alignment: send index → receipt index (`StageBreakdown.align`).
    package init(sends: [StageBreakdown.Send], receipts: [StageBreakdown.Receipt], alignment: [Int: Int]) {
        self.receipts = receipts
        var explained = alignment.keys.sorted().map { (sent: sends[$0].at, receipt: alignment[$0]!) }
        explained.sortUnlessSorted { $0.sent < $1.sent || ($0.sent == $1.sent && $0.receipt < $1.receipt) }
        self.explained = explained
        let taken = Set(alignment.values)
        var unexplained = receipts.indices.filter { !taken.contains($0) }
            .map { (received: receipts[$0].received, receipt: $0) }
        unexplained.sortUnlessSorted {
            $0.received < $1.received || ($0.received == $1.received && $0.receipt < $1.receipt)
        }
        self.unexplained = unexplained
    }

    /// The receipts of the step whose window is `window`, in the receipts' order, given when the next step started
    /// (nil for the last step: until the end).
    package func during(_ window: ScenarioDriver.StepWindow, nextStart: MonotonicTime?) -> [StageBreakdown.Receipt] {
        let start = window.start.nanoseconds
        let end = max(window.end.nanoseconds, nextStart.map { $0.nanoseconds - 1 } ?? .max)
        let sent = explained[explained.partitioningIndex { $0.sent >= start }...]
        let arrived = unexplained[unexplained.partitioningIndex { $0.received >= start }...]
        let taken = sent.prefix { $0.sent <= window.end.nanoseconds }.map(\.receipt)
            + arrived.prefix { $0.received <= end }.map(\.receipt)
        return Set(taken).sorted().map { receipts[$0] }
    }

    /// The receipts of the step whose window is `window`, given every send, every receipt, their alignment (send
    /// index → receipt index) and when the next step started. For many steps of one run, build a `StepReceipts` once
    /// and ask it for each.
    package static func during(_ window: ScenarioDriver.StepWindow, nextStart: MonotonicTime?, sends: [StageBreakdown.Send],
                               receipts: [StageBreakdown.Receipt], alignment: [Int: Int]) -> [StageBreakdown.Receipt]
    {
        StepReceipts(sends: sends, receipts: receipts, alignment: alignment).during(window, nextStart: nextStart)
    }
}
