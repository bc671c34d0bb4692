import RemoteTouchProtocol
import StrictJSON
import Testing

/// Every refusal brings its status (docs/protocol.md, "Status"): the status fits the 512-byte ATT value on every
/// transport, its error message cut at a character boundary with `…` when it would not.
@Suite("A status with a long error message still fits in 512 bytes, its message cut with …")
struct StatusFitTests {
    static let now = StatusData(batteryLevel: 100, timestamp: 786_000_000.123456, connectionQuality: 100)

    func status(_ message: String, code: StatusError.Code = .invalidCommand) -> StatusData {
        var status = Self.now
        status.error = StatusError(code, message)
        return status
    }

    @Test("the longest refusal the computer writes today: an unknown key name, with the list of every name (594 characters, 740 bytes escaped)")
    func unknownKey() throws {
        let refusal: ProtocolError
        do {
            _ = try Command.decode(Array(#"{"keyPress":{"key":"f13"}}"#.utf8))
            Issue.record("f13 decoded")
            return
        } catch {
            refusal = error
        }
        let message = refusal.description
        #expect(JSONWriter().bytes(.string(message)).count > 700, "the message this test is about: \(message.count) characters")
        let bytes = status(message).encoded()
        #expect(bytes.count <= RemoteTouchService.maxAttributeLength)
        let decoded = try StatusData.decode(bytes)
        #expect(decoded.error?.code == "invalidCommand")
        let cut = try #require(decoded.error?.message)
        #expect(cut.hasSuffix("…"))
        #expect(message.hasPrefix(String(cut.dropLast())), "the cut message is the start of the whole one")
        #expect(cut.hasPrefix("command payload: keyPress.key: unknown value \"f13\" (did you mean \"f1\"?)"), "the cause survives the cut")
        // As much as fits is kept: one more character would not fit.
        var longer = status(String(message.prefix(cut.count)) + "…")
        longer.error = StatusError(code: "invalidCommand", message: String(message.prefix(cut.count)) + "…")
        #expect(JSONWriter().bytes(longer.json).count > RemoteTouchService.maxAttributeLength)
    }

    @Test("a message that fits is kept whole, byte for byte")
    func fits() throws {
        let message = String(repeating: "x", count: 300)
        let bytes = status(message).encoded()
        #expect(bytes == JSONWriter().bytes(status(message).json))
        #expect(try StatusData.decode(bytes).error?.message == message)
        #expect(Self.now.fitted() == Self.now)
    }

    @Test("any message, however long and whatever it holds (escapes, multi-byte characters, emoji), fits and decodes",
          arguments: [513, 600, 1_000, 20_000])
    func anyMessage(length: Int) throws {
        let alphabet: [Character] = ["a", "\"", "\\", "\n", "é", "漢", "👍🏽", "\u{1}", " ", "/"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20 {
            let message = String((0..<length).map { _ in alphabet.randomElement(using: &generator)! })
            let bytes = status(message, code: .injectionFailed).encoded()
            #expect(bytes.count <= RemoteTouchService.maxAttributeLength, "\(bytes.count) bytes")
            let decoded = try StatusData.decode(bytes)
            #expect(decoded.error?.code == "injectionFailed")
            let cut = try #require(decoded.error?.message)
            #expect(cut.hasSuffix("…") && message.hasPrefix(String(cut.dropLast())))
            #expect(bytes.count > RemoteTouchService.maxAttributeLength - 16, "the cut keeps as much as fits: \(bytes.count) bytes")
        }
    }
}
