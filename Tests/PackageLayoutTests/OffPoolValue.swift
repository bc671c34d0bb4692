import Foundation
import Synchronization

/// A value computed once on a thread of its own and awaited by any number of tests. Reading every source of the
/// package takes seconds on a loaded machine; computed on one of the cooperative pool's threads (two here), it held
/// up every other test's next step, and their waits ran past their bounds.
final class OffPoolValue<Value: Sendable>: Sendable {
    private let state = Mutex<(result: Result<Value, any Error>?, waiters: [CheckedContinuation<Value, any Error>])>((nil, []))

    init(_ work: @escaping @Sendable () throws -> Value) {
        let thread = Thread { [self] in
            let result = Result(catching: work)
            let waiters = self.state.withLock { state in
                state.result = result
                defer { state.waiters = [] }
                return state.waiters
            }
            for waiter in waiters { waiter.resume(with: result) }
        }
        thread.name = "layout-index"
        thread.start()
    }

    /// The value, once computed; what computing it threw.
    func value() async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            let done = state.withLock { state -> Result<Value, any Error>? in
                if let result = state.result { return result }
                state.waiters.append(continuation)
                return nil
            }
            if let done { continuation.resume(with: done) }
        }
    }
}
