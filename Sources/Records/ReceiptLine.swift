/// One line of the computer's receipts log (`hil peripheral --receipts-log`): when a write of a command arrived,
/// when each of its frames was written to uinput (CLOCK_MONOTONIC, ns), and its payload:
///
/// ```
/// <received> <written,written,…|none|-> <payload as UTF-8>
/// 1234567890 1234901234,1234911234 {"cursorMove":{"delta":[10,0]}}
/// 1234600000 none {"modeChange":{"mode":"presentation"}}
/// 1234999999 - {"tap":
/// ```
///
/// `none` marks a command carried out that writes no frame (a mode change), `-` a refused write. The payload is cut at 600 bytes, and its newlines and tabs become
/// spaces, so a line is one write. The peripheral writes the lines; the runner reads them back for latency stages
/// and received-command counts. This type is the format's one owner.
package struct ReceiptLine: Sendable, Hashable {
    package var received: UInt64
    /// When each of its frames was written to uinput; nil for a refused write.
    package var written: [UInt64]?
    package var payload: String

    package init(received: UInt64, written: [UInt64]?, payload: String) {
        self.received = received
        self.written = written
        self.payload = payload
    }

    /// From raw payload bytes, as the computer received them.
    package init(received: UInt64, written: [UInt64]?, payload bytes: [UInt8]) {
        let kept = bytes.prefix(Self.payloadLimit)
        let text = String(decoding: kept, as: UTF8.self)
        // Printable ASCII, what every command, report and packet the phone sends is, has no newline or tab: only
        // other payloads are gone through character by character (a cost per write, on the computer's hot path).
        guard kept.contains(where: { $0 < 0x20 || $0 > 0x7E }) else {
            self.init(received: received, written: written, payload: text)
            return
        }
        let flattened = String(text.map { $0.isNewline || $0 == "\t" ? " " : $0 })
        self.init(received: received, written: written, payload: flattened)
    }

    /// How much of a payload a line keeps, in bytes.
    package static let payloadLimit = 600

    /// The line, without its newline.
    package var text: String {
        let times = written.map { $0.isEmpty ? "none" : $0.map(String.init).joined(separator: ",") } ?? "-"
        return "\(received) \(times) \(payload)"
    }

    /// Parses one line; nil for a malformed one (a crash can cut the last line).
    package init?(line: Substring) {
        let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, let received = UInt64(parts[0]) else { return nil }
        let written: [UInt64]?
        switch parts[1] {
        case "-": written = nil
        case "none": written = []
        default:
            let times = parts[1].split(separator: ",").compactMap { UInt64($0) }
            guard !times.isEmpty else { return nil }
            written = times
        }
        self.init(received: received, written: written, payload: String(parts[2]))
    }

    /// Every well-formed line of a receipts log.
    package static func parse(log text: String) -> [ReceiptLine] {
        text.split(separator: "\n").compactMap { ReceiptLine(line: $0) }
    }
}
