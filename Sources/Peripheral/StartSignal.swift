import Foundation

/// Holds a started computer before it touches anything a scenario sees: `hil peripheral --start-when FILE` has
/// started its process, runtime, state folder and log, and creates its uinput device, connects to the bus and
/// registers once FILE exists. `hil run` starts the next scenario's computer this way while the current one
/// runs, so the half second a process takes to start is not spent between scenarios.
public struct StartSignal: Sendable {
    /// The file whose existence releases the computer.
    public let path: String
    /// How often the file is looked for.
    public var interval: Duration = .milliseconds(10)

    public init(path: String) {
        self.path = path
    }

    /// Returns once the file exists; how long that took.
    public func wait() async -> Duration {
        let start = ContinuousClock.now
        while !FileManager.default.fileExists(atPath: path) {
            try? await Task.sleep(for: interval)
        }
        return ContinuousClock.now - start
    }
}
