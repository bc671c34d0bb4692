import Foundation
import Synchronization

/// The peripheral's log: readable lines on standard output and in `peripheral.log` in the state folder,
/// rotated so the two files together stay under 1 MB (the seed's "log rotation, at most 1 MB").
package final class PeripheralLog: Sendable {
    /// Together `peripheral.log` and `peripheral.log.1` never exceed twice this.
    package static let rotateAt = 512 * 1024

    package let path: String?
    private let echo: Bool
    private let file: Mutex<FileHandle?>

    /// - Parameters:
    ///   - path: the log file, or nil for standard output only.
    ///   - echo: also print each line on standard output.
    package init(path: String?, echo: Bool = true) {
        self.path = path
        self.echo = echo
        file = Mutex(path.flatMap(Self.open))
    }

    package func info(_ message: String) { write("info", message) }
    package func warning(_ message: String) { write("warning", message) }
    package func error(_ message: String) { write("error", message) }

    private func write(_ level: String, _ message: String) {
        let line = "\(LogStamp.now()) \(level) \(message)\n"
        if echo { FileHandle.standardOutput.write(Data(line.utf8)) }
        guard let path else { return }
        file.withLock { handle in
            guard let current = handle else { return }
            current.write(Data(line.utf8))
            if current.offsetInFile >= UInt64(Self.rotateAt) {
                try? current.close()
                _ = rename(path, path + ".1")
                handle = Self.open(path)
            }
        }
    }

    private static func open(_ path: String) -> FileHandle? {
        let fd = Glibc.open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return nil }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        handle.seekToEndOfFile()
        return handle
    }
}
