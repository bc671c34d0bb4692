import Synchronization

/// What a lab run holds on the coordinator — reservations not yet cancelled, places locked — so that every way
/// out (done, failed, Ctrl-C, a time limit, an error) gives all of it back exactly once.
package final class LabHold: Sendable {
    private let held = Mutex<(tokens: [String], places: [String])>(([], []))
    private let labgrid: Labgrid

    package init(_ labgrid: Labgrid) {
        self.labgrid = labgrid
    }

    package func add(token: String) { held.withLock { $0.tokens.append(token) } }
    package func add(place: String) { held.withLock { $0.places.append(place) } }

    package var places: [String] { held.withLock { $0.places } }

    /// Unlocks one place now (a box that failed its health check); nil when done, else why not.
    package func release(place: String) async -> String? {
        guard held.withLock({ state in
            guard let index = state.places.firstIndex(of: place) else { return false }
            state.places.remove(at: index)
            return true
        }) else { return nil }
        return await labgrid.unlock(place)
    }

    /// Unlocks every place still held and cancels every reservation; returns what could not be given back, with
    /// the reason (the coordinator gone, say), so the caller can say so and how to clean up.
    package func releaseAll() async -> (released: [String], failed: [String]) {
        let (tokens, places) = held.withLock { state in
            defer { state = ([], []) }
            return (state.tokens, state.places)
        }
        var released: [String] = []
        var failed: [String] = []
        for place in places {
            if let why = await labgrid.unlock(place) {
                failed.append("place \(place): \(why)")
            } else {
                released.append(place)
            }
        }
        for token in tokens {
            // A reservation whose place was locked may have expired on its own meanwhile: not an error.
            if let why = await labgrid.cancel(token), !why.contains("not found"), !why.contains("does not exist") {
                failed.append("reservation \(token): \(why)")
            }
        }
        return (released, failed)
    }
}
