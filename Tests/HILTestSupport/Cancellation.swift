package import Testing

/// The timeout of a wait that a test expects to end early: one that runs to it fails the test's `promptly` check.
package let longWait = Duration.seconds(600)

/// How soon "at once" must be: far below `longWait`, so a wait that ran to its timeout fails, and generous, because
/// the whole suite shares two cores with the rig suites' guest, which keeps both busy (idle=poll). A test's task then
/// waits for a thread behind hundreds of others: CI saw 20 s between a test's start and its end with nothing slow
/// in it, so 20 s, the bound before, failed a test that was right.
package let promptly = Duration.seconds(120)

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
