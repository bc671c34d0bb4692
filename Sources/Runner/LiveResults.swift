import Foundation
import Synchronization
package import Records

/// A run's results as they come in, written out while the run goes, so a run that is stopped before it can write
/// them at its end (the vm rig's 30 s grace after an interrupt or a timeout, a guest that is killed) still leaves
/// what was judged. Writing about 1000 results takes seconds in the TCG guest (12 s to read and write them back
/// there), so a checkpoint is written at most once per `minimumInterval`, and never sooner than ten times the
/// last write took (the writing costs at most a tenth of the run), on a thread of its own so no lane waits for it.
///
/// Every write (a checkpoint, the interrupt's, the end's) takes its snapshot under one lock, so the file only grows:
/// a checkpoint that ends late never puts back fewer results than a write before it.
package final class LiveResults: Sendable {
    package typealias Write = @Sendable ([ScenarioResult]) throws -> Void

    private struct Schedule {
        var nextDue: ContinuousClock.Instant
        var inFlight = false
        var closed = false
    }

    private let write: Write
    private let report: @Sendable (any Error) -> Void
    private let minimumInterval: Duration
    private let collected = Mutex<[(number: Int, result: ScenarioResult)]>([])
    private let schedule: Mutex<Schedule>
    /// Held for each write, with the count of results in the file.
    private let file = Mutex<Int>(0)

    /// `write` writes the files (results.json, junit.xml); `report` hears a checkpoint's failure (the run goes on).
    package init(minimumInterval: Duration = .seconds(60), write: @escaping Write, report: @escaping @Sendable (any Error) -> Void) {
        self.write = write
        self.report = report
        self.minimumInterval = minimumInterval
        schedule = Mutex(Schedule(nextDue: .now + minimumInterval))
    }

    /// Adds a judged scenario run (`number`: its place in the run, which orders the results) and writes a
    /// checkpoint when one is due.
    package func add(_ result: ScenarioResult, number: Int) {
        collected.withLock { $0.append((number, result)) }
        checkpointIfDue()
    }

    /// The results so far, in the order of the run's list, whichever lane ran them.
    package var results: [ScenarioResult] {
        collected.withLock { $0 }.sorted { $0.number < $1.number }.map(\.result)
    }

    package var count: Int { collected.withLock { $0.count } }

    /// How many results the file holds.
    package var written: Int { file.withLock { $0 } }

    /// Writes every result so far now, after a write under way; returns how many the file holds. With `final`, no
    /// checkpoint is written after this. With `unlessCurrent`, nothing is written when the file already holds every
    /// result (after an interrupt, whose write came first: in the vm rig's grace, writing about 1000 results again
    /// takes seconds it may not have).
    @discardableResult
    package func writeNow(final: Bool = false, unlessCurrent: Bool = false) throws -> Int {
        if final { schedule.withLock { $0.closed = true } }
        return try writeSnapshot(checkpoint: false, unlessCurrent: unlessCurrent)
    }

    /// Under the file's lock, so writes never interleave and the file only grows. A checkpoint that finds the run's
    /// final write begun writes nothing.
    private func writeSnapshot(checkpoint: Bool, unlessCurrent: Bool) throws -> Int {
        try file.withLock { written in
            if checkpoint && schedule.withLock({ $0.closed }) { return written }
            let snapshot = results
            if unlessCurrent && snapshot.count == written { return written }
            try write(snapshot)
            written = snapshot.count
            return written
        }
    }

    private func checkpointIfDue() {
        let due = schedule.withLock { schedule in
            guard !schedule.closed, !schedule.inFlight, ContinuousClock.now >= schedule.nextDue else { return false }
            schedule.inFlight = true
            return true
        }
        guard due else { return }
        Thread.detachNewThread { [self] in
            let started = ContinuousClock.now
            do {
                _ = try writeSnapshot(checkpoint: true, unlessCurrent: false)
            } catch {
                report(error)
            }
            let took = ContinuousClock.now - started
            schedule.withLock { schedule in
                schedule.inFlight = false
                schedule.nextDue = .now + max(minimumInterval, took * 10)
            }
        }
    }
}
