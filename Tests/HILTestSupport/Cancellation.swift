package import Testing

/// How soon "at once" must be: far below the 60 s timeouts the waiting tests use, so a wait that ran to its timeout
/// fails, and generous, because the whole suite shares two cores (a test's task can wait seconds for a thread).
package let promptly = Duration.seconds(20)

/// Runs `operation` in a task of its own, cancels that task after `delay`, and expects it to end with
/// `CancellationError` well before its own timeout (within `promptly`).
package func expectEndsWhenCancelled<Value: Sendable>(
    after delay: Duration = .milliseconds(30), sourceLocation: SourceLocation = #_sourceLocation,
    _ operation: @escaping @Sendable () async throws -> Value
) async {
    let start = ContinuousClock.now
    let waiting = Task { try await operation() }
    Task {
        try await Task.sleep(for: delay)
        waiting.cancel()
    }
    let result = await waiting.result
    #expect(throws: CancellationError.self, sourceLocation: sourceLocation) { try result.get() }
    #expect(ContinuousClock.now - start < promptly, sourceLocation: sourceLocation)
}
