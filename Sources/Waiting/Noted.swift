import Synchronization

/// What a wait notes on the way (the last error a check met, the candidates it turned down), for the message it
/// ends with: shared by the checks a wait runs, which may run on other tasks.
package final class Noted<Value: Sendable>: Sendable {
    private let state: Mutex<Value>

    package init(_ initial: Value) {
        state = Mutex(initial)
    }

    package var value: Value { state.withLock { $0 } }

    package func set(_ new: Value) { state.withLock { $0 = new } }

    package func update(_ change: (inout Value) -> Void) { state.withLock { change(&$0) } }
}
