import Foundation
import RemoteTouchProtocol
import System

/// Writes small state files atomically with mode 0600 (pairings and the lockout are secrets of the owner).
enum StateFile {
    /// The pairing code file (`hil peripheral --pairing-code-file`): the six digits and a newline (`042917\n`),
    /// replaced each time a fresh code is shown and left as it is when the code is used or expires
    /// (docs/protocol.md, "Pairing").
    static func writePairingCode(_ code: PairingCode, to path: String) {
        write(code.digits + "\n", to: path)
    }

    /// Writes `text` to `path` through a temporary file and a rename; a failure is logged, not thrown (the
    /// in-memory state stays authoritative).
    static func write(_ text: String, to path: String) {
        let folder = (path as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let temporary = path + ".tmp.\(getpid())"
        let file: FileDescriptor
        do {
            file = try FileDescriptor.open(temporary, O_WRONLY | O_CREAT | O_TRUNC, permissions: 0o600)
        } catch {
            FileHandle.standardError.write(Data("peripheral: cannot write \(temporary): \(error)\n".utf8))
            return
        }
        let failed = file.closeAfter { file -> Errno? in
            do throws(Errno) {
                try file.writeAll(Array(text.utf8))
            } catch {
                return error
            }
            fsync(file.rawValue)
            return nil
        }
        if let failed = failed ?? (rename(temporary, path) == 0 ? nil : Errno.current) {
            FileHandle.standardError.write(Data("peripheral: cannot save \(path): \(failed)\n".utf8))
            unlink(temporary)
            return
        }
    }
}
