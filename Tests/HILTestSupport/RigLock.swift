import Foundation

/// One rig at a time per test process: test suites run in parallel, and two or three TCG guests on a 2-core
/// machine starve each other into timing failures that say nothing about the code.
public enum RigLock {
    private static let lock = NSLock()

    public static func exclusive<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
