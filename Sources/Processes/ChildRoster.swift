import Synchronization

/// The child processes one owner started and may have to signal all at once: a run's computers under test, which its
/// interrupt stops. Each owner keeps a roster of its own, so interrupting one run never reaches the children of
/// another in the same process (in one test process, a run session's interrupt used to stop every computer that
/// any test had started).
package final class ChildRoster: Sendable, Equatable {
    private let children = Mutex<[Int32: ChildProcess]>([:])

    package init() {}

    /// Adds a child; it stays until `remove` (its owner stopped it or saw it exit).
    package func add(_ child: ChildProcess) {
        children.withLock { $0[child.pid] = child }
    }

    package func remove(_ child: ChildProcess) {
        _ = children.withLock { $0.removeValue(forKey: child.pid) }
    }

    /// Sends `signal` to every child on the roster.
    package func signalAll(_ signal: Int32) {
        for child in children.withLock({ Array($0.values) }) { child.signal(signal) }
    }

    /// The children on the roster now.
    package var pids: Set<Int32> { children.withLock { Set($0.keys) } }

    /// The same roster: rosters are told apart by identity.
    package static func == (lhs: ChildRoster, rhs: ChildRoster) -> Bool { lhs === rhs }
}
