import Foundation

/// `count` FIFOs named as the radio bridges' (`control-0`, `control-1`, …) in `folder`, each held open for reading
/// (and writing, so it never reads its end), as each `hil radio --control` holds its own; returns the descriptors to
/// read what was sent and to close.
package func openControlFIFOs(_ count: Int, in folder: String) throws -> [Int32] {
    try (0..<count).map { index -> Int32 in
        let path = "\(folder)/control-\(index)"
        guard mkfifo(path, 0o600) == 0 else { throw SpawnError("mkfifo \(path) failed: errno \(errno)") }
        let fd = open(path, O_RDWR | O_NONBLOCK)
        guard fd >= 0 else { throw SpawnError("cannot open \(path): errno \(errno)") }
        return fd
    }
}
