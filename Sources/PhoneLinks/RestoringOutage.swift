package import InputCodes
import ScenarioDriver

/// A link fault that ends by itself: an adapter powered off, an interface down; `restore` (a task of its own)
/// brings it back after the outage and says when, with what the rig noticed on the way.
package struct RestoringOutage: LinkOutage {
    package var description: String
    package let restore: Task<(MonotonicTime, String), Never>

    package func restored() async -> (at: MonotonicTime, note: String) { await restore.value }
}

extension RestoringOutage {
    /// An outage that `restore` ends after `outage`; `restore` says when the link was back and what the rig noticed.
    package init(description: String, after outage: Duration,
                 restoring restore: @escaping @Sendable () async -> (MonotonicTime, String))
    {
        self.init(description: description, restore: Task {
            do {
                try await Task.sleep(for: outage)  // the fault's length: the outage is this pause
            } catch {
                // Cancelled (nothing does today): the link is restored at once rather than left down.
            }
            return await restore()
        })
    }

    /// An outage that `restore` ends after `outage`; its error, if any, becomes the note ("; rig: …").
    package init(description: String, after outage: Duration, restore: @escaping @Sendable () throws -> Void) {
        self.init(description: description, after: outage) { () -> (MonotonicTime, String) in
            do {
                try restore()
                return (.now(), "")
            } catch {
                return (.now(), "; rig: \(error)")
            }
        }
    }
}
