import DBus
import Foundation
import HILTestSupport
import Testing

@Suite("A D-Bus call whose task is cancelled", .serialized)
struct DBusCallCancellationTests {
    @Test("stops waiting at once with the cancelled error naming the call, and the connection keeps working")
    func cancelledCall() async throws {
        let daemon = try PrivateBus()
        let server = try await daemon.connect()
        let client = try await daemon.connect()
        // A method that answers only after a minute, as BlueZ's Connect to a computer that stopped advertising.
        try await server.export("/hil/slow", [
            DBusInterface("test.Slow", methods: [
                DBusMethod("Wait", in: "", out: "", .async { _ throws(DBusError) in
                    try? await Task.sleep(for: longWait)
                    return []
                }),
                DBusMethod("Now", in: "", out: "", .immediate { _ in [] }),
            ])
        ])
        let started = ContinuousClock.now
        let waiting = Task {
            try await client.call(destination: server.uniqueName, path: "/hil/slow", interface: "test.Slow", member: "Wait",
                                  timeout: longWait * 2)
        }
        try await Task.sleep(for: .milliseconds(200))
        waiting.cancel()
        let result = await waiting.result
        let waited = ContinuousClock.now - started
        // Generous (see `promptly`); without cancellation the call would wait for `longWait`.
        #expect(waited < promptly, "the cancelled call waited \(waited)")
        guard case .failure(let error as DBusError) = result else {
            Issue.record("the cancelled call did not fail with a DBusError: \(result)")
            return
        }
        #expect(error.name == DBusError.cancelledName)
        #expect(error.message.contains("test.Slow.Wait"), "\(error.message)")
        // The next call on the same connection is answered as usual.
        _ = try await client.call(destination: server.uniqueName, path: "/hil/slow", interface: "test.Slow", member: "Now")
    }

    @Test("a call made by a task that is cancelled already is not sent")
    func cancelledBeforeTheCall() async throws {
        let daemon = try PrivateBus()
        let client = try await daemon.connect()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await client.call(destination: bus, path: busPath, interface: bus, member: "ListNames")
        }
        guard case .failure(let error as DBusError) = await task.result else {
            Issue.record("a call of a cancelled task was answered")
            return
        }
        #expect(error.name == DBusError.cancelledName)
    }
}
