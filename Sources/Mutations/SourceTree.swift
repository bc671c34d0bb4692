import Foundation
import Processes

/// A copy of the project's source tree for mutants (the runner's work folder): the files git tracks or would track
/// (`git ls-files --cached --others --exclude-standard`, so uncommitted changes are in it), synced on each run so its
/// own `.build` stays and each mutant builds incrementally.
package struct SourceTree: Sendable {
    /// The project.
    package let source: String
    /// The copy.
    package let path: String

    package init(source: String, path: String) {
        self.source = source
        self.path = path
    }

    /// Makes the copy the project's files again: new and changed files copied, files gone removed (the copy's
    /// `.build` is kept). Returns how many files it wrote.
    /// - Throws: `MutationError` `.tree` naming the file or the git command that failed.
    @discardableResult
    package func sync() async throws(MutationError) -> Int {
        let listed: String
        do {
            let output = try await ChildProcess.run(
                "git", arguments: ["-C", source, "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                output: 16 << 20, timeout: .seconds(60))
            guard output.status == 0 else { throw MutationError(.tree, "git ls-files in \(source) failed: \(output.standardError)") }
            listed = output.standardOutput
        } catch let error as MutationError {
            throw error
        } catch {
            throw MutationError(.tree, "cannot list the project's files in \(source) with git", hint: "run from the project's checkout", cause: error)
        }
        let files = listed.split(separator: "\0").map(String.init).filter { FileManager.default.fileExists(atPath: source + "/" + $0) }
        let manager = FileManager.default
        var written = 0
        for file in files {
            let from = source + "/" + file, to = path + "/" + file
            if let link = try? manager.destinationOfSymbolicLink(atPath: from) {
                if (try? manager.destinationOfSymbolicLink(atPath: to)) == link { continue }
                try? manager.removeItem(atPath: to)
                do {
                    try manager.createDirectory(atPath: (to as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                    try manager.createSymbolicLink(atPath: to, withDestinationPath: link)
                } catch {
                    throw MutationError(.tree, "cannot copy the link \(file) into \(path): \(error.localizedDescription)")
                }
                written += 1
                continue
            }
            guard let data = manager.contents(atPath: from) else { continue }
            if manager.contents(atPath: to) == data { continue }
            do {
                try manager.createDirectory(atPath: (to as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                try? manager.removeItem(atPath: to)
                try data.write(to: URL(fileURLWithPath: to))
                let mode = (try? manager.attributesOfItem(atPath: from)[.posixPermissions]) ?? 0o644
                try manager.setAttributes([.posixPermissions: mode], ofItemAtPath: to)
            } catch {
                throw MutationError(.tree, "cannot copy \(file) into \(path): \(error.localizedDescription)")
            }
            written += 1
        }
        removeStale(keeping: Set(files))
        return written
    }

    /// Removes the copy's files the project no longer has (its `.build` apart).
    private func removeStale(keeping files: Set<String>) {
        guard let walker = FileManager.default.enumerator(atPath: path) else { return }
        while let relative = walker.nextObject() as? String {
            if relative == ".build" || relative.hasPrefix(".build/") {
                walker.skipDescendants()
                continue
            }
            let full = path + "/" + relative
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: full, isDirectory: &isFolder), isFolder.boolValue { continue }
            if !files.contains(relative) { try? FileManager.default.removeItem(atPath: full) }
        }
    }
}
