import Foundation
import Runner
import Synchronization
import Testing
import Records

@Suite("A run's results written as it goes: checkpoints, the interrupt's write, the end's")
struct LiveResultsTests {
    /// The writes a fake writer saw: how many results each held, in order.
    private final class Writes: Sendable {
        let counts = Mutex<[Int]>([])
        func record(_ results: [ScenarioResult]) { counts.withLock { $0.append(results.count) } }
        var all: [Int] { counts.withLock { $0 } }
    }

    private static func result(_ number: Int) -> ScenarioResult {
        ScenarioResult(file: "\(number).json", name: "scenario \(number)", requirements: [], outcome: .passed, steps: [], message: "", durationMs: 1)
    }

    private static func eventually(_ condition: () -> Bool) async throws -> Bool {
        for _ in 0..<250 where !condition() { try await Task.sleep(for: .milliseconds(20)) }
        return condition()
    }

    @Test("results come out in the run's order, whichever lane finished first")
    func order() throws {
        let writes = Writes()
        let live = LiveResults(minimumInterval: .seconds(3600), write: { writes.record($0) }, report: { _ in })
        live.add(Self.result(3), number: 3)
        live.add(Self.result(1), number: 1)
        live.add(Self.result(2), number: 2)
        #expect(live.results.map(\.name) == ["scenario 1", "scenario 2", "scenario 3"])
        #expect(writes.all.isEmpty, "no checkpoint is due before the interval")
        #expect(try live.writeNow(final: true) == 3)
        #expect(writes.all == [3])
    }

    @Test("a checkpoint is written while the run goes, and never after the final write")
    func checkpoints() async throws {
        let writes = Writes()
        let live = LiveResults(minimumInterval: .zero, write: { writes.record($0) }, report: { _ in })
        live.add(Self.result(1), number: 1)
        #expect(try await Self.eventually { live.written == 1 }, "no checkpoint was written: \(writes.all)")
        try await Task.sleep(for: .milliseconds(50))
        live.add(Self.result(2), number: 2)
        #expect(try live.writeNow(final: true) == 2)
        let seen = writes.all.count
        live.add(Self.result(3), number: 3)
        try await Task.sleep(for: .milliseconds(200))
        #expect(writes.all.count == seen, "a checkpoint came after the final write: \(writes.all)")
        #expect(writes.all == writes.all.sorted(), "a later write held fewer results: \(writes.all)")
    }

    @Test("after an interrupt's write, the end writes nothing more when nothing was added; a failed write is tried again")
    func unlessCurrent() throws {
        let writes = Writes()
        let failing = Mutex(true)
        let live = LiveResults(minimumInterval: .seconds(3600), write: { results in
            if failing.withLock({ $0 }) { throw CocoaError(.fileWriteNoPermission) }
            writes.record(results)
        }, report: { _ in })
        live.add(Self.result(1), number: 1)
        #expect(throws: (any Error).self) { try live.writeNow() }
        failing.withLock { $0 = false }
        #expect(try live.writeNow(final: true, unlessCurrent: true) == 1, "the interrupt's write failed, so the end writes")
        #expect(try live.writeNow(final: true, unlessCurrent: true) == 1)
        #expect(writes.all == [1])
    }

    @Test("a checkpoint that fails is reported and the run goes on")
    func checkpointFailure() async throws {
        let reported = Mutex<[String]>([])
        let live = LiveResults(minimumInterval: .zero, write: { _ in throw CocoaError(.fileWriteOutOfSpace) },
                               report: { error in reported.withLock { $0.append("\(error)") } })
        live.add(Self.result(1), number: 1)
        #expect(try await Self.eventually { !reported.withLock { $0 }.isEmpty })
        #expect(live.written == 0 && live.count == 1)
    }
}
