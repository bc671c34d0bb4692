import Foundation

/// A local folder (tmpfs) the scenarios run in, on a rig whose results folder is slow to write: the vm rig's 9p
/// share, where every open, write, fsync and each poll of the computer's start and ready files crosses to QEMU
/// (`RunningRig.scratch`). Each scenario's folder (`NNN-slug`) is made here, and moved into the results folder once the
/// scenario ended, in the background, so the next scenario does not wait for the copy; `finish()` waits for every
/// move. Paths in results.json are relative to the results folder, so they hold either way.
package final class ScratchFolder: Sendable {
    package let path: String
    /// The results folder (results.json's).
    package let results: String
    private let queue = DispatchQueue(label: "hil.scratch-folder")

    package init(path: String, results: String) {
        self.path = path
        self.results = results
    }

    /// Moves scenario folder `name` into the results on the background queue. One that fails stays here, and
    /// `finish()` tries it again and reports it.
    package func saveLater(_ name: String) {
        queue.async { [self] in try? Self.move(path + "/" + name, to: results + "/" + name) }
    }

    /// At the end of a run: waits for the moves under way, moves every folder still here (the folder of a computer
    /// started ahead for a scenario that did not run, or one whose move failed), removes this folder when it is
    /// empty, and returns what could not be moved (it stays where the message says).
    package func finish() -> [String] {
        queue.sync {}
        var found: [String] = []
        for name in ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted() {
            do { try Self.move(path + "/" + name, to: results + "/" + name) } catch { found.append("\(error)") }
        }
        if found.isEmpty { try? FileManager.default.removeItem(atPath: path) }
        return found
    }

    /// A rename when both are on one file system, else a copy, then the source is removed. Files already at
    /// `destination` stay unless the source has one of the same name.
    /// - Throws: `RunContextError` naming both folders; what was copied stays in both places.
    static func move(_ source: String, to destination: String) throws {
        let files = FileManager.default
        guard files.fileExists(atPath: source) else { return }
        do {
            if !files.fileExists(atPath: destination), rename(source, destination) == 0 { return }
            try files.createDirectory(atPath: destination, withIntermediateDirectories: true)
            for entry in try files.contentsOfDirectory(atPath: source) {
                let target = destination + "/" + entry
                if files.fileExists(atPath: target) { try files.removeItem(atPath: target) }
                try files.copyItem(atPath: source + "/" + entry, toPath: target)
            }
            try files.removeItem(atPath: source)
        } catch {
            throw RunContextError(
                .files, "the scenario's files could not be moved from \(source) to \(destination): \(error)")
        }
    }
}
