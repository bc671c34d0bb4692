import System

extension Errno {
    /// The error in a libevdev return value (`-errno` on failure), or nil for success (`rc >= 0`).
    init?(libevdevResult rc: Int32) {
        guard rc < 0 else { return nil }
        self.init(-rc)
    }
}
