import System

/// A radio bridge's answer to a numbered `BridgeCommand`, one line on its answers file (`<control FIFO>.answers`):
///
/// ```
/// 7 ok error-rate=0.2 delay=0 links=0x002a/15/123456789000 packet error rate 0.2 from now on
/// 8 refused error-rate=0 delay=0 links= a packet error rate of 1.5 is outside 0 ≤ P < 1
/// ```
///
/// After the id and the verdict, what the bridge holds once the command is done: its packet error rate, its extra
/// delay in ms, its links (handle / interval in ms / anchor, CLOCK_MONOTONIC ns), then words for people. This type is
/// the format's one owner.
package struct BridgeAnswer: Sendable, Hashable {
    /// A link the bridge times: its connection events follow `anchorNs` every `intervalMs`.
    package struct Link: Sendable, Hashable {
        package var handle: UInt16
        package var intervalMs: Double
        package var anchorNs: UInt64

        package init(handle: UInt16, intervalMs: Double, anchorNs: UInt64) {
            self.handle = handle
            self.intervalMs = intervalMs
            self.anchorNs = anchorNs
        }
    }

    package var id: Int
    package var accepted: Bool
    package var errorRate: Double
    package var delayMs: Double
    package var links: [Link]
    /// What was done, or why not.
    package var message: String

    package init(id: Int, accepted: Bool, errorRate: Double, delayMs: Double, links: [Link], message: String) {
        self.id = id
        self.accepted = accepted
        self.errorRate = errorRate
        self.delayMs = delayMs
        self.links = links
        self.message = message
    }

    /// Where a bridge writes its answers: beside its control FIFO.
    package static func file(forControl control: String) -> String { control + ".answers" }

    /// The line, without its newline.
    package var line: String {
        let links = links.map { "0x" + String($0.handle, radix: 16).leftPadded(to: 4) + "/\(NumberText.plain($0.intervalMs))/\($0.anchorNs)" }
        return "\(id) \(accepted ? "ok" : "refused") error-rate=\(NumberText.plain(errorRate)) delay=\(NumberText.plain(delayMs)) "
            + "links=\(links.joined(separator: ",")) \(message)"
    }

    /// Parses one line; nil for one that is not an answer.
    package init?(line: Substring) {
        let words = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: false)
        guard words.count >= 5, let id = Int(words[0]), words[1] == "ok" || words[1] == "refused",
              words[2].hasPrefix("error-rate="), let rate = Double(words[2].dropFirst(11)),
              words[3].hasPrefix("delay="), let delay = Double(words[3].dropFirst(6)), words[4].hasPrefix("links=")
        else { return nil }
        var links: [Link] = []
        for item in words[4].dropFirst(6).split(separator: ",") {
            let fields = item.split(separator: "/")
            guard fields.count == 3, fields[0].hasPrefix("0x"), let handle = UInt16(fields[0].dropFirst(2), radix: 16),
                  let interval = Double(fields[1]), let anchor = UInt64(fields[2]) else { return nil }
            links.append(Link(handle: handle, intervalMs: interval, anchorNs: anchor))
        }
        self.init(id: id, accepted: words[1] == "ok", errorRate: rate, delayMs: delay, links: links,
                  message: words.count > 5 ? String(words[5]) : "")
    }
}

extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
