import InputCodes
import ScenarioDriver

/// A link fault that ends by itself: an adapter powered off, an interface down; `restore` (a task of its own)
/// brings it back after the outage and says when, with what the rig noticed on the way.
struct RestoringOutage: LinkOutage {
    var description: String
    let restore: Task<(MonotonicTime, String), Never>

    func restored() async -> (at: MonotonicTime, note: String) { await restore.value }
}
