package import InputCodes
package import Records

/// Which of the computer's receipts belong to a step, for counting what it received (`expect.received`, R11.2).
///
/// A write the phone sent during the step is the step's, however late the computer received it: its receipt is
/// found through the send it is aligned with (`StageBreakdown.align`), not by when it arrived, so a verdict does
/// not depend on whether the last write of a step crossed the link before the step's window closed (a busy
/// machine delays it by tens of milliseconds). A receipt no send of the phone explains (a forged packet from
/// another host, malformed writes) is the step's when it arrived in the step's window or before the next step
/// started.
package enum StepReceipts {
    /// The receipts of the step whose window is `window`, given every send, every receipt, their alignment (send
    /// index → receipt index) and when the next step started (nil for the last step: until the end).
    package static func during(_ window: ScenarioDriver.StepWindow, nextStart: MonotonicTime?, sends: [StageBreakdown.Send],
                               receipts: [StageBreakdown.Receipt], alignment: [Int: Int]) -> [StageBreakdown.Receipt]
    {
        let start = window.start.nanoseconds
        var taken = Set<Int>()
        for (send, receipt) in alignment where (start...window.end.nanoseconds).contains(sends[send].at) {
            taken.insert(receipt)
        }
        let explained = Set(alignment.values)
        let end = max(window.end.nanoseconds, nextStart.map { $0.nanoseconds - 1 } ?? .max)
        for (index, receipt) in receipts.enumerated() where !explained.contains(index) && (start...end).contains(receipt.received) {
            taken.insert(index)
        }
        return taken.sorted().map { receipts[$0] }
    }
}
