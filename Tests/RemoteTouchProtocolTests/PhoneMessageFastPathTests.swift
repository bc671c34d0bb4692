import HILTestSupport
import RemoteTouchProtocol
import Testing

/// The computer's fast path for TCP frames (`PhoneMessage.decodeStreamed`) against the strict parser
/// (`PhoneMessage.decodeFrameStrictly`): it takes the streamed messages as the phone encodes them, and never accepts,
/// or reads differently, anything the strict parser would not.
@Suite struct PhoneMessageFastPathTests {
    static let timestamps: [Double] = [0, -0.0, 1, 1532.25, 1.0 / 3, 86_400_000, 1e12, 1.7e12 / 2]

    static func streamed() -> [PhoneMessage] {
        var messages: [PhoneMessage] = []
        for (index, command) in CommandFastPathTests.streamed().enumerated() {
            messages.append(PhoneMessage(timestamp: timestamps[index % timestamps.count], .command(command)))
        }
        return messages
    }

    /// The message's timestamp and command by their bits (so -0 and 0 differ); nil for anything but one streamed
    /// command.
    static func bits(_ messages: [PhoneMessage]?) -> [UInt64]? {
        guard let messages, messages.count == 1, case .command(let command) = messages[0].body,
              let numbers = CommandFastPathTests.bits(command) else { return nil }
        return [messages[0].timestamp.bitPattern] + numbers
    }

    static func fast(_ bytes: [UInt8]) -> [PhoneMessage]? {
        bytes.withUnsafeBufferPointer(PhoneMessage.decodeStreamed).map { [$0] }
    }

    @Test func takesEveryStreamedMessageAsThePhoneEncodesIt() throws {
        for message in Self.streamed() {
            let bytes = PhoneMessage.frameBody([message])
            let strict = try PhoneMessage.decodeFrameStrictly(bytes)
            #expect(Self.fast(bytes) != nil, "the fast path declined \(String(decoding: bytes, as: UTF8.self))")
            #expect(Self.bits(Self.fast(bytes)) == Self.bits(strict), "\(String(decoding: bytes, as: UTF8.self))")
        }
    }

    /// Other spellings the strict parser accepts, and what it refuses: left to it, so `decodeFrame`'s answer
    /// (messages or error message) is the strict one.
    @Test(arguments: [
        #"{"type":"mouseMove","timestamp":1,"dy":2,"dx":1}"#, #"{"timestamp":1,"type":"mouseMove","dx":1,"dy":2}"#,
        #"{ "type":"mouseMove","timestamp":1,"dx":1,"dy":2}"#, #"[{"type":"mouseMove","timestamp":1,"dx":1,"dy":2}]"#,
        #"{"type":"mouseMove","timestamp":-1,"dx":1,"dy":2}"#, #"{"type":"mouseMove","timestamp":1e13,"dx":1,"dy":2}"#,
        #"{"type":"mouseMove","timestamp":1,"dx":32768,"dy":2}"#, #"{"type":"mouseMove","timestamp":1,"dx":1,"dy":2,"x":0}"#,
        #"{"type":"mouseMove","timestamp":1,"dx":1}"#, #"{"type":"mouseMove","timestamp":1,"dx":1,"dy":2}}"#,
        #"{"type":"mouseMove","timestamp":01,"dx":1,"dy":2}"#, #"{"type":"scroll","timestamp":1,"dy":1,"dx":2}"#,
        #"{"type":"pinchUpdate","timestamp":1,"scale":0}"#, #"{"type":"pinchUpdate","timestamp":1,"scale":101}"#,
        #"{"type":"leftClick","timestamp":1}"#, #"{"type":"ping","timestamp":1}"#, #"{"type":"mouseMove","timestamp":"1","dx":1,"dy":2}"#,
        #"{"type":"cursorMove","timestamp":1,"dx":1,"dy":2}"#, #"{"type":"mouseMove","timestamp":1,"dx":1,"dy":2} "#,
    ])
    func leavesEverythingElseToTheStrictParser(text: String) {
        let bytes = Array(text.utf8)
        #expect(Self.fast(bytes) == nil)
        let decoded = Result { () throws(ProtocolError) in try PhoneMessage.decodeFrame(bytes) }
        let strict = Result { () throws(ProtocolError) in try PhoneMessage.decodeFrameStrictly(bytes) }
        #expect(String(describing: decoded) == String(describing: strict))
    }

    /// Mutations of the streamed encodings (a byte changed, dropped, doubled or swapped), 40,000 of them from a fixed
    /// seed: whatever the fast path takes, the strict parser takes too, with the same bits.
    @Test func neverAcceptsWhatTheStrictParserWouldNot() {
        var random = SplitMix64(seed: 0x5eed_3939)
        let seeds = Self.streamed().map { PhoneMessage.frameBody([$0]) }
        var accepted = 0
        for _ in 0..<40_000 {
            let bytes = mutated(seeds, &random)
            guard let fast = Self.fast(bytes) else { continue }
            accepted += 1
            let strict = try? PhoneMessage.decodeFrameStrictly(bytes)
            #expect(Self.bits(fast) == Self.bits(strict), "\(String(decoding: bytes, as: UTF8.self)): fast \(fast), strict \(String(describing: strict))")
        }
        #expect(accepted > 1000)
    }

    /// The fast path converts the numbers a phone writes exactly (Clinger's fast path) and hands the rest to strtod:
    /// 20,000 numbers of every length and exponent, as timestamps and deltas, read bit for bit as the strict parser
    /// reads them.
    @Test func readsEveryNumberAsTheStrictParser() throws {
        var random = SplitMix64(seed: 0x0c11_2900)
        func digits(_ count: Int) -> String { String((0..<count).map { _ in Character(String(random.next() % 10)) }) }
        var compared = 0
        for _ in 0..<20_000 {
            var whole = digits(1 + Int(random.next() % 9))
            while whole.count > 1 && whole.hasPrefix("0") { whole.removeFirst() }
            var text = whole
            if random.next() % 3 > 0 { text += "." + digits(1 + Int(random.next() % 18)) }
            if random.next() % 4 == 0 { text += ["e", "E", "e-", "e+", "E-"][Int(random.next() % 5)] + String(random.next() % 30) }
            let sign = random.next() % 2 == 0 ? "-" : ""
            let frame = #"{"type":"mouseMove","timestamp":\#(text),"dx":\#(sign)\#(text),"dy":1}"#
            let bytes = Array(frame.utf8)
            guard let fast = Self.fast(bytes) else { continue }
            compared += 1
            let strict = try? PhoneMessage.decodeFrameStrictly(bytes)
            #expect(Self.bits(fast) == Self.bits(strict), "\(frame)")
        }
        #expect(compared > 5000)
    }
}
