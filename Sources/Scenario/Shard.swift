import Foundation

/// `--shard i/n`: a stable slice of the suite, by a hash of each scenario's file path (FNV-1a), so a scenario
/// stays in its slice when others are added.
package struct Shard: Sendable, CustomStringConvertible {
    package var index: Int
    package var count: Int

    package init?(_ text: String) {
        let parts = text.split(separator: "/")
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count >= 1, (1...count).contains(index) else {
            return nil
        }
        self.index = index
        self.count = count
    }

    /// The path as the suite knows it: relative to the current folder when inside it, so every box agrees.
    package func contains(_ file: String) -> Bool {
        let absolute = URL(fileURLWithPath: file).standardizedFileURL.path
        let base = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardizedFileURL.path + "/"
        let key = absolute.hasPrefix(base) ? String(absolute.dropFirst(base.count)) : absolute
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return Int(hash % UInt64(count)) == index - 1
    }

    package var description: String { "\(index)/\(count)" }
}
