import HILTestSupport
import RemoteTouchProtocol
import Testing

/// The computer's fast path (`Command.decodeStreamed`) against the strict parser (`Command.decodeStrictly`): it
/// takes the streamed commands as the phone encodes them, and never accepts, or reads differently, anything the
/// strict parser would not.
@Suite struct CommandFastPathTests {
    /// The numbers a phone's gestures produce and the edges of what is accepted.
    static let numbers: [Double] = [
        0, -0.0, 1, -1, 12, -3.5, 0.25, 1.0 / 3, -2.0 / 3, 127.99, 1e-05, -1e-07, Double("2.5e-320")!, 32767, -32767, 32766.999, 0.01, 100,
    ]

    static func streamed() -> [Command] {
        var commands: [Command] = []
        for x in numbers {
            for y in numbers.reversed() {
                commands += [.cursorMove(delta: Point(x: x, y: y)), .dragMove(delta: Point(x: y, y: x)), .scroll(dx: x, dy: y)]
            }
            if Command.pinchScaleRange.contains(x) { commands.append(.pinch(scale: x)) }
        }
        return commands
    }

    static func bits(_ command: Command?) -> [UInt64]? {
        switch command {
        case .cursorMove(let delta)?: [0, delta.x.bitPattern, delta.y.bitPattern]
        case .dragMove(let delta)?: [1, delta.x.bitPattern, delta.y.bitPattern]
        case .scroll(let dx, let dy)?: [2, dx.bitPattern, dy.bitPattern]
        case .pinch(let scale)?: [3, scale.bitPattern]
        default: nil
        }
    }

    static func fast(_ text: String) -> Command? {
        Array(text.utf8).withUnsafeBufferPointer(Command.decodeStreamed)
    }

    @Test func takesEveryStreamedCommandAsThePhoneEncodesIt() throws {
        for command in Self.streamed() {
            let bytes = command.encoded()
            let fast = bytes.withUnsafeBufferPointer(Command.decodeStreamed)
            let strict = try Command.decodeStrictly(bytes)
            #expect(fast != nil, "the fast path declined \(String(decoding: bytes, as: UTF8.self))")
            #expect(Self.bits(fast) == Self.bits(strict), "\(String(decoding: bytes, as: UTF8.self)): fast \(String(describing: fast)), strict \(strict)")
        }
    }

    /// What the strict parser accepts in another spelling, and what it refuses: the fast path leaves all of it to
    /// the strict parser, so `decode`'s answer (command or error message) is the strict one.
    @Test(arguments: [
        #"{ "cursorMove":{"delta":[1,2]}}"#, #"{"cursorMove":{"delta":[1, 2]}}"#, #"{"scroll":{"dy":1,"dx":2}}"#,
        #"{"cursorMove":{"delta":[1,2]}} "#, #"{"tap":{"type":"single"}}"#, #"{"cursorMove":{"delta":[32768,0]}}"#,
        #"{"cursorMove":{"delta":[-32767.5,0]}}"#, #"{"cursorMove":{"delta":[01,2]}}"#, #"{"cursorMove":{"delta":[1.,2]}}"#,
        #"{"cursorMove":{"delta":[.5,2]}}"#, #"{"cursorMove":{"delta":[1e,2]}}"#, #"{"cursorMove":{"delta":[-,2]}}"#,
        #"{"cursorMove":{"delta":[NaN,2]}}"#, #"{"cursorMove":{"delta":[1x,2]}}"#, #"{"cursorMove":{"delta":[1,2,3]}}"#,
        #"{"cursorMove":{"delta":[1,2]}"#, #"{"cursorMove":{"delta":[1,2]}}}"#, #"{"cursorMove":{"delta":[1,2],"x":1}}"#,
        #"{"pinch":{"scale":0}}"#, #"{"pinch":{"scale":101}}"#, #"{"cursorMove":{"delta":[1e999,0]}}"#,
        #"{"cursorMove":{"delta":[0.12345678901234567890123456789012345,0]}}"#, #"{"cursorMove":{"delta":[+1,2]}}"#, #"{"dragMove":{"delta":[1,"2"]}}"#,
    ])
    func leavesEverythingElseToTheStrictParser(text: String) {
        #expect(Self.fast(text) == nil)
        let bytes = Array(text.utf8)
        let decoded = Result { () throws(ProtocolError) in try Command.decode(bytes) }
        let strict = Result { () throws(ProtocolError) in try Command.decodeStrictly(bytes) }
        #expect(String(describing: decoded) == String(describing: strict))
    }

    /// Mutations of the streamed encodings (a byte changed, dropped, doubled or swapped), 40,000 of them from a fixed
    /// seed: whatever the fast path takes, the strict parser takes too, with the same bits.
    @Test func neverAcceptsWhatTheStrictParserWouldNot() {
        var random = SplitMix64(seed: 0x5eed_39)
        let seeds = Self.streamed().map { $0.encoded() }
        var accepted = 0
        for _ in 0..<40_000 {
            let bytes = mutated(seeds, &random)
            guard let fast = bytes.withUnsafeBufferPointer(Command.decodeStreamed) else { continue }
            accepted += 1
            let strict = try? Command.decodeStrictly(bytes)
            #expect(Self.bits(fast) == Self.bits(strict), "\(String(decoding: bytes, as: UTF8.self)): fast \(fast), strict \(String(describing: strict))")
        }
        // Some mutations (a digit for a digit) are still commands: the comparison above was made.
        #expect(accepted > 1000)
    }
}
