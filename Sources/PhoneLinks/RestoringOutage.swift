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
    /// An outage that `restore` ends after `outage`; its error, if any, becomes the note ("; rig: …").
    package init(description: String, after outage: Duration, restore: @escaping @Sendable () throws -> Void) {
        self.init(description: description, restore: Task {
            try? await Task.sleep(for: outage)
            do {
                try restore()
                return (.now(), "")
            } catch {
                return (.now(), "; rig: \(error)")
            }
        })
    }
}
