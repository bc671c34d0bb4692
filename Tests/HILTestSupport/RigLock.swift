import Foundation
import Testing

/// One rig at a time per test process: test suites run in parallel, and two or three TCG guests on a 2-core
/// machine starve each other into timing failures that say nothing about the code.
///
/// Waiting for the rig, and running a guest, takes minutes, so neither may hold one of Swift's cooperative
/// threads (there are as many as cores, 2 here): the body runs on a thread of its own and the caller is
/// suspended. Blocking the pool instead had every other test of the run (the loopback endpoint tests among them)
/// wait for the rig suites, and a session left that long without a ping was released under a test in CI.
package enum RigLock {
    private static let lock = NSLock()

    /// Runs `body` holding the lock, on a new thread, and returns what it returned. `body` must not record test
    /// issues (`#expect`): it runs outside the test's task; return what it saw and check that in the caller.
    /// Prints how long the test waited for the rig and then held it (`rig lock: …`), so a CI log shows where the rig
    /// tests' time goes without the waits that overlap.
    package static func exclusive<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        let name = Test.current?.displayName ?? Test.current?.name ?? "?"
        return try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                let asked = ContinuousClock.now
                lock.lock()
                let got = ContinuousClock.now
                defer {
                    lock.unlock()
                    print("rig lock: \"\(name)\" waited \(seconds(got - asked)) s, held \(seconds(.now - got)) s")
                    fflush(nil)
                }
                continuation.resume(with: Result { try body() })
            }
            thread.name = "rig-lock"
            thread.start()
        }
    }
}

private func seconds(_ duration: Duration) -> String {
    String(format: "%.1f", Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18)
}
