import Foundation

/// Waits until `condition` holds, checking every 10 ms, for at most `limit`: loopback tests wait for the endpoint's
/// threads by what they did, not by a fixed sleep that a loaded machine (CI runs the rig beside them) outlasts.
/// Returns whether it held; the caller's `#expect` says what was awaited.
@discardableResult
func eventually(within limit: Duration = .seconds(10), _ condition: () -> Bool) async -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: limit)
    while !condition() {
        if clock.now >= deadline { return false }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return true
}
