internal import CDBus
import Foundation
import Synchronization
import System

/// The one thread that owns a libdbus connection: it polls the connection's socket and a wake-up pipe, runs
/// queued work, reads, writes and dispatches. Nothing else touches the C connection.
///
/// Replies are matched to calls by serial in the connection's filter (no libdbus pending calls), and call
/// deadlines are kept here, so one poll timeout covers everything.
final class DBusLoop: @unchecked Sendable {
    // Safety: `connection` and `state` are used only on the loop thread (inside `run` and the jobs it runs,
    // and in the filter, which libdbus calls from `dispatch` on that thread). Other threads only append to
    // `jobs` (a Mutex) and write the wake-up pipe.
    private var connection: OpaquePointer?
    private var state = LoopState()
    private let jobs = Mutex<[@Sendable (DBusLoop) -> Void]>([])
    /// A self-pipe: writing a byte to `wakeWrite` ends the loop's poll. Both ends close with the loop.
    private let wake: FileDescriptor
    private let wakeWrite: FileDescriptor
    private let stopped = Atomic<Bool>(false)

    struct Pending {
        var continuation: CheckedContinuation<Result<DBusMessage, DBusError>, Never>
        var deadline: ContinuousClock.Instant
        var what: String
    }

    struct LoopState {
        var pending: [UInt32: Pending] = [:]
        var subscribers: [Int: (rule: DBusMatchRule, continuation: AsyncStream<DBusMessage>.Continuation)] = [:]
        var nextSubscriber = 1
        var objects = DBusObjectTree()
        var disconnectHandlers: [@Sendable (String) -> Void] = []
    }

    init() {
        let ends: (readEnd: FileDescriptor, writeEnd: FileDescriptor)
        do {
            ends = try FileDescriptor.pipe()
        } catch {
            fatalError("pipe() failed: \(error)")
        }
        for fd in [ends.readEnd.rawValue, ends.writeEnd.rawValue] {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        wake = ends.readEnd
        wakeWrite = ends.writeEnd
    }

    var isStopped: Bool { stopped.load(ordering: .acquiring) }

    /// Opens the connection on a new thread and starts the loop; returns our unique bus name.
    func start(_ bus: DBusConnection.Bus) async throws(DBusError) -> String {
        let result: Result<String, DBusError> = await withCheckedContinuation { continuation in
            let thread = Thread { [self] in
                let opened = open(bus)
                continuation.resume(returning: opened)
                if case .success = opened { run() }
            }
            thread.name = "dbus-loop"
            thread.start()
        }
        return try result.get()
    }

    /// Runs `job` on the loop thread, soon.
    func enqueue(_ job: @escaping @Sendable (DBusLoop) -> Void) {
        jobs.withLock { $0.append(job) }
        var one: UInt8 = 1
        _ = write(wakeWrite.rawValue, &one, 1)
    }

    /// Runs `job` on the loop thread and returns its result.
    func perform<T: Sendable>(_ job: @escaping @Sendable (DBusLoop) -> Result<T, DBusError>) async throws(DBusError) -> T {
        guard !isStopped else { throw DBusError(name: DBusError.disconnectedName, message: "the D-Bus connection is closed") }
        let result: Result<T, DBusError> = await withCheckedContinuation { continuation in
            enqueue { loop in continuation.resume(returning: job(loop)) }
        }
        return try result.get()
    }

    // MARK: On the loop thread

    private func open(_ bus: DBusConnection.Bus) -> Result<String, DBusError> {
        dbus_threads_init_default()
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        let raw: OpaquePointer?
        switch bus {
        case .system: raw = dbus_bus_get_private(DBUS_BUS_SYSTEM, &error)
        case .session: raw = dbus_bus_get_private(DBUS_BUS_SESSION, &error)
        case .address(let address):
            raw = dbus_connection_open_private(address, &error)
            if let raw, dbus_error_is_set(&error) == 0, dbus_bus_register(raw, &error) == 0 {
                dbus_connection_close(raw)
                dbus_connection_unref(raw)
                return .failure(Self.error(error, "cannot register on the bus at \(address)"))
            }
        }
        guard let raw, dbus_error_is_set(&error) == 0 else {
            return .failure(Self.error(error, "cannot connect to the \(bus) bus"))
        }
        // A bus restart must not kill the process (libdbus's default is exit()).
        dbus_connection_set_exit_on_disconnect(raw, 0)
        let filter: DBusHandleMessageFunction = { _, message, userData in
            guard let message, let userData else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
            let loop = Unmanaged<DBusLoop>.fromOpaque(userData).takeUnretainedValue()
            return loop.filter(message) ? DBUS_HANDLER_RESULT_HANDLED : DBUS_HANDLER_RESULT_NOT_YET_HANDLED
        }
        dbus_connection_add_filter(raw, filter, Unmanaged.passUnretained(self).toOpaque(), nil)
        connection = raw
        let name = dbus_bus_get_unique_name(raw).map { String(cString: $0) } ?? ""
        return .success(name)
    }

    private static func error(_ error: CDBus.DBusError, _ context: String) -> DBusError {
        guard let name = error.name else { return .failed(context) }
        let message = error.message.map { String(cString: $0) } ?? ""
        return DBusError(name: String(cString: name), message: "\(context): \(message)")
    }

    private func run() {
        guard let connection else { return }
        var fd: Int32 = -1
        dbus_connection_get_unix_fd(connection, &fd)
        while !isStopped {
            let timeout = pollTimeout()
            var fds = [
                pollfd(fd: fd, events: Int16(POLLIN) | (dbus_connection_has_messages_to_send(connection) != 0 ? Int16(POLLOUT) : 0), revents: 0),
                pollfd(fd: wake.rawValue, events: Int16(POLLIN), revents: 0),
            ]
            _ = poll(&fds, 2, timeout)
            if fds[1].revents != 0 {
                var drain = [UInt8](repeating: 0, count: 256)
                while read(wake.rawValue, &drain, drain.count) > 0 {}
            }
            let work = jobs.withLock { jobs in
                defer { jobs.removeAll() }
                return jobs
            }
            for job in work { job(self) }
            if isStopped { break }
            if dbus_connection_read_write(connection, 0) == 0 {
                shutDown(reason: "the bus closed the connection")
                break
            }
            while dbus_connection_dispatch(connection) == DBUS_DISPATCH_DATA_REMAINS {}
            expireDeadlines()
        }
        dbus_connection_close(connection)
        dbus_connection_unref(connection)
        self.connection = nil
    }

    private func pollTimeout() -> Int32 {
        guard let nearest = state.pending.values.map(\.deadline).min() else { return -1 }
        let left = nearest - ContinuousClock.now
        if left <= .zero { return 0 }
        let ms = left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1
        return Int32(min(ms, 60_000))
    }

    private func expireDeadlines() {
        let now = ContinuousClock.now
        for (serial, pending) in state.pending where pending.deadline <= now {
            state.pending[serial] = nil
            pending.continuation.resume(
                returning: .failure(DBusError(name: DBusError.noReplyName, message: "no reply to \(pending.what) in time")))
        }
    }

    /// Stops the loop: every waiting call fails with `Disconnected`, every subscription ends.
    func shutDown(reason: String) {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        for pending in state.pending.values {
            pending.continuation.resume(returning: .failure(DBusError(name: DBusError.disconnectedName, message: reason)))
        }
        state.pending.removeAll()
        for subscriber in state.subscribers.values { subscriber.continuation.finish() }
        state.subscribers.removeAll()
        for handler in state.disconnectHandlers { handler(reason) }
    }

    // MARK: Jobs' helpers (loop thread)

    /// Sends a message; returns its serial.
    func send(_ message: DBusMessage) -> Result<UInt32, DBusError> {
        guard let connection else { return .failure(DBusError(name: DBusError.disconnectedName, message: "not connected")) }
        let raw: OpaquePointer
        do {
            raw = try Marshal.raw(from: message)
        } catch {
            return .failure(error)
        }
        defer { dbus_message_unref(raw) }
        var serial: UInt32 = 0
        guard dbus_connection_send(connection, raw, &serial) != 0 else {
            return .failure(.failed("out of memory queueing a D-Bus message"))
        }
        return .success(serial)
    }

    func awaitReply(to serial: UInt32, timeout: Duration, what: String,
                    _ continuation: CheckedContinuation<Result<DBusMessage, DBusError>, Never>)
    {
        state.pending[serial] = Pending(continuation: continuation, deadline: .now + timeout, what: what)
    }

    /// The caller stopped waiting for the reply to `serial` (its task was cancelled): it gets `error` now, and the
    /// reply, if one comes, is dropped.
    func abandonReply(to serial: UInt32?, with error: DBusError) {
        guard let serial, let pending = state.pending.removeValue(forKey: serial) else { return }
        pending.continuation.resume(returning: .failure(error))
    }

    func subscribe(_ rule: DBusMatchRule, _ continuation: AsyncStream<DBusMessage>.Continuation) -> Int {
        let id = state.nextSubscriber
        state.nextSubscriber += 1
        state.subscribers[id] = (rule, continuation)
        return id
    }

    func unsubscribe(_ id: Int) {
        state.subscribers[id] = nil
    }

    func onDisconnect(_ handler: @escaping @Sendable (String) -> Void) {
        state.disconnectHandlers.append(handler)
    }

    var objects: DBusObjectTree {
        get { state.objects }
        set { state.objects = newValue }
    }

    private static func closeDescriptors(_ value: DBusValue) {
        switch value {
        case .fileDescriptor(let fd): close(fd)
        case .array(_, let elements), .structure(let elements): elements.forEach(closeDescriptors)
        case .dictionary(_, _, let entries):
            for entry in entries {
                closeDescriptors(entry.key)
                closeDescriptors(entry.value)
            }
        case .variant(let inner): closeDescriptors(inner)
        default: break
        }
    }

    // MARK: Incoming messages (loop thread, from dispatch)

    private func filter(_ raw: OpaquePointer) -> Bool {
        let message = Marshal.message(from: raw)
        switch message.kind {
        case .methodReturn, .error:
            guard let pending = state.pending.removeValue(forKey: message.replySerial) else { return false }
            if message.kind == .error {
                let text = message.body.first?.stringValue ?? ""
                pending.continuation.resume(
                    returning: .failure(DBusError(name: message.errorName ?? DBusError.failedName, message: text)))
            } else {
                pending.continuation.resume(returning: .success(message))
            }
            return true
        case .signal:
            if message.interface == "org.freedesktop.DBus.Local" && message.member == "Disconnected" {
                shutDown(reason: "the bus closed the connection")
                return true
            }
            for subscriber in state.subscribers.values where subscriber.rule.matches(message) {
                subscriber.continuation.yield(message)
            }
            return true
        case .methodCall:
            handleCall(message)
            return true
        }
    }

    private func handleCall(_ message: DBusMessage) {
        switch state.objects.route(message) {
        case .reply(let body):
            reply(to: message, .success(body))
        case .failure(let error):
            reply(to: message, .failure(error))
        case .later(let work):
            Task { [self] in
                let result = await work()
                enqueue { loop in loop.reply(to: message, result) }
            }
        }
    }

    func reply(to call: DBusMessage, _ result: Result<[DBusValue], DBusError>) {
        // File descriptors in a reply belong to the connection: closed once the reply went out (libdbus has
        // duplicated them), or when it could not be sent.
        defer {
            if case .success(let body) = result { body.forEach(Self.closeDescriptors) }
        }
        guard !call.noReplyExpected, let sender = call.sender else { return }
        var reply: DBusMessage
        switch result {
        case .success(let body):
            reply = DBusMessage(kind: .methodReturn, destination: sender, replySerial: call.serial, body: body)
        case .failure(let error):
            reply = DBusMessage(
                kind: .error, destination: sender, errorName: error.name, replySerial: call.serial,
                body: [.string(error.message)])
        }
        if case .failure(let error) = send(reply) {
            // The reply itself could not be built (a handler returned a value that does not marshal):
            // tell the caller rather than leave it waiting.
            reply = DBusMessage(
                kind: .error, destination: sender, errorName: DBusError.failedName, replySerial: call.serial,
                body: [.string("reply could not be sent: \(error.message)")])
            _ = send(reply)
        }
    }
}
