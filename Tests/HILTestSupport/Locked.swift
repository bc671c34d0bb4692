import Foundation

/// A value shared between a test and the handlers or tasks it starts.
public final class Locked<Value: Sendable>: @unchecked Sendable {
    // Safety: every access goes through `lock`.
    private let lock = NSLock()
    private var stored: Value

    public init(_ value: Value) {
        stored = value
    }

    public var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
