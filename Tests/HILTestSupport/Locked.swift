import Foundation

/// A value shared between a test and the handlers or tasks it starts.
package final class Locked<Value: Sendable>: @unchecked Sendable {
    // Safety: every access goes through `lock`.
    private let lock = NSLock()
    private var stored: Value

    package init(_ value: Value) {
        stored = value
    }

    package var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
