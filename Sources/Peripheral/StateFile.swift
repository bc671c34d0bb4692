import Foundation

/// Writes small state files atomically with mode 0600 (pairings and the lockout are secrets of the owner).
enum StateFile {
    /// Writes `text` to `path` through a temporary file and a rename; a failure is logged, not thrown (the
    /// in-memory state stays authoritative).
    static func write(_ text: String, to path: String) {
        let folder = (path as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let temporary = path + ".tmp.\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            FileHandle.standardError.write(Data("peripheral: cannot write \(temporary): \(String(cString: strerror(errno)))\n".utf8))
            return
        }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        fsync(fd)
        close(fd)
        guard written == bytes.count, rename(temporary, path) == 0 else {
            FileHandle.standardError.write(Data("peripheral: cannot save \(path): \(String(cString: strerror(errno)))\n".utf8))
            unlink(temporary)
            return
        }
    }
}
