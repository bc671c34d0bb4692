import GestureScript
import RemoteTouchProtocol
package import Records
import Scenario

/// One line of the computer's receipts log with its line number, and what a recording makes of it: a send item's
/// payload for a write the computer carried out, nothing for one it refused.
package struct RecordedReceipt: Sendable {
    /// 1-based, in the receipts log.
    package var line: Int
    package var receipt: ReceiptLine

    package init(line: Int, receipt: ReceiptLine) {
        self.line = line
        self.receipt = receipt
    }

    /// Every well-formed line of a receipts log, numbered (a malformed last line, cut by a crash, is left out).
    package static func parse(log text: String) -> [RecordedReceipt] {
        text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { index, line in
            ReceiptLine(line: line).map { RecordedReceipt(line: index + 1, receipt: $0) }
        }
    }

    /// What to send again for this write: nil when the computer refused it (a write before pairing, a malformed
    /// one, a udp packet from an unbound source), which a recording leaves out.
    /// - Throws: `RecordingError` for a write the computer carried out that cannot be replayed: a payload the log cut
    ///   at 600 bytes, a report of another transport than the recording's.
    func payload(transport: Transport, file: String) throws(RecordingError) -> SendPayload? {
        guard receipt.written != nil else { return nil }
        let text = receipt.payload
        let at = "\(file) line \(line)"
        if let wire = PointerPayload.format(ofText: text) {
            let pointer: Transport = wire == .hid ? .hid : .udp
            guard pointer == transport else {
                throw RecordingError(.wrongTransport, "\(at): the computer took a \(pointer.rawValue) \(pointer == .hid ? "report" : "packet") (\(text)), but the session is recorded as \(transport.rawValue): record it with --transport \(pointer.rawValue)")
            }
            let hex = String(text.dropFirst(4))
            let count = pointer == .hid ? HIDReport.length : UDPPacket.length
            let kind = "\(pointer.rawValue) \(pointer == .hid ? "report" : "packet")"
            guard let bytes = PointerPayload.bytes(hex: hex, count: count) else {
                throw RecordingError(.unreadableReceipt, "\(at): \(text.debugDescription) is not a \(kind): expected \(count * 2) hex digits")
            }
            do {
                return pointer == .hid ? .report(try HIDReport.decode(bytes)) : .packet(try UDPPacket.decode(bytes))
            } catch {
                throw RecordingError(.unreadableReceipt, "\(at): \(text.debugDescription) is not a \(kind) the computer could have taken: \(error)", cause: error)
            }
        }
        do {
            return .command(try Command.decode(Array(text.utf8)))
        } catch {
            if text.utf8.count >= ReceiptLine.payloadLimit - 3 {
                throw RecordingError(.truncatedPayload, "\(at): the computer carried out a \(Self.commandName(text)) command whose payload the receipts log cut at \(ReceiptLine.payloadLimit) bytes; a recording cannot replay a command it does not have whole: leave it out of the session (e.g. type shorter texts) and record again")
            }
            throw RecordingError(.unreadableReceipt, "\(at): the computer carried out a write that does not decode as a command (\(error)): \(text.prefix(80).debugDescription)", cause: error)
        }
    }

    /// `{"text":{"string":"…` → `text`: the case name at the start of a command's JSON.
    static func commandName(_ text: String) -> String {
        let parts = text.split(separator: "\"", maxSplits: 2, omittingEmptySubsequences: false)
        return parts.count > 1 && !parts[1].isEmpty ? String(parts[1]) : "(unreadable)"
    }
}
