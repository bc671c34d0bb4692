import Synchronization

/// A method call a task waits on, as its cancellation handler sees it: the serial once the loop sent it, and whether
/// the task was cancelled (before the send, the loop then does not send it).
final class PendingCall: Sendable {
    private let state = Mutex<(serial: UInt32?, cancelled: Bool)>((nil, false))
    let what: String

    init(what: String) {
        self.what = what
    }

    var serial: UInt32? { state.withLock { $0.serial } }
    var isCancelled: Bool { state.withLock { $0.cancelled } }

    func sent(_ serial: UInt32) { state.withLock { $0.serial = serial } }
    func cancel() { state.withLock { $0.cancelled = true } }

    /// What the waiting task gets: `DBusError.cancelledName`, naming the call.
    var cancelled: DBusError {
        DBusError(name: DBusError.cancelledName, message: "the wait for the reply to \(what) was cancelled")
    }
}
