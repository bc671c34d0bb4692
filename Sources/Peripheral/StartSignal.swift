import Foundation
import Waiting

/// Holds a started computer before it touches anything a scenario sees: `hil peripheral --start-when FILE` has
/// started its process, runtime, state folder and log, and creates its uinput device, connects to the bus and
/// registers once FILE exists. `hil run` starts the next scenario's computer this way while the current one
/// runs, so the half second a process takes to start is not spent between scenarios.
package struct StartSignal: Sendable {
    /// The file whose existence releases the computer.
    package let path: String
    /// How often the file is looked for.
    package var interval: Duration = .milliseconds(10)
    /// The process that started this one (`hil run`). If it goes, nothing will ever release the computer: it
    /// stops instead of waiting forever (a run killed with SIGKILL leaves no held computer behind).
    package var starter: Int32 = getppid()

    package init(path: String) {
        self.path = path
    }

    /// Returns once the file exists; how long that took. (The file is looked for every `interval`: the process that
    /// starts this one going away must end the wait too, and nothing announces that.)
    /// - Throws: `PeripheralError` when the starting process has gone before the file appeared, or the task was
    ///   cancelled.
    package func wait() async throws(PeripheralError) -> Duration {
        let start = ContinuousClock.now
        do {
            try await Poll.until(every: interval) { () throws(PeripheralError) -> Void? in
                if FileManager.default.fileExists(atPath: path) { return () }
                guard getppid() == starter else {
                    throw PeripheralError(
                        .starterGone, "held until \(path) exists, but the process that started it (pid \(starter)) has gone; stopping",
                        hint: "hil run releases the computers it starts ahead; a held computer outlives it only if hil run was killed")
                }
                return nil
            }
        } catch let error as PeripheralError {
            throw error
        } catch {
            throw PeripheralError(.interrupted, "held until \(path) exists: cancelled")
        }
        return ContinuousClock.now - start
    }
}
