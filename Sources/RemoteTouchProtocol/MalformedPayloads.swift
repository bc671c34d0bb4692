/// Payloads no RemoteTouch computer may accept, for fault scenarios and tests: broken and truncated JSON,
/// random bytes, numbers out of range, NaN and Infinity, unknown commands, wrong types, deep nesting, invalid
/// UTF-8. Deterministic for a seed; each at most 510 bytes (BlueZ refuses 512-byte values before any
/// application sees them, so longer ones would test BlueZ, not the computer).
public struct MalformedPayloads: Sequence, IteratorProtocol {
    private var state: UInt64
    private var index = 0

    public static let maxLength = 510

    public init(seed: UInt64 = 0x5EED) {
        state = seed
    }

    private mutating func random() -> UInt64 {
        // SplitMix64: small, fast and reproducible across platforms.
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    private static let valid: [String] = [
        #"{"cursorMove":{"delta":[10,-5]}}"#, #"{"tap":{"type":"single"}}"#, #"{"button":{"action":"back"}}"#,
        #"{"modeChange":{"mode":"presentation"}}"#, #"{"mediaControl":{"action":"volumeUp"}}"#,
        #"{"keyPress":{"key":"c","modifiers":["command"]}}"#,
    ]

    public mutating func next() -> [UInt8]? {
        defer { index += 1 }
        let pick = Int(random() % 1_000_000)
        switch index % 9 {
        case 0:  // a valid command cut short (every cut of a valid command is invalid JSON)
            let whole = Array(Self.valid[pick % Self.valid.count].utf8)
            return Array(whole.prefix(1 + pick % (whole.count - 1)))
        case 1:  // random bytes, never starting a valid command: a leading 0xFF is not UTF-8
            return [0xFF] + (0..<(pick % Self.maxLength)).map { _ in UInt8(truncatingIfNeeded: random()) }
        case 2:
            return Array(#"{"cursorMove":{"delta":[1e\#(309 + pick % 100),0]}}"#.utf8)
        case 3:
            return Array([#"{"cursorMove":{"delta":[NaN,0]}}"#, #"{"scroll":{"dx":Infinity,"dy":0}}"#,
                          #"{"cursorMove":{"delta":[-Infinity,1]}}"#][pick % 3].utf8)
        case 4:
            return Array(#"{"teleport\#(pick)":{"to":[1,2]}}"#.utf8)
        case 5:  // nesting deeper than any command
            let depth = 100 + pick % 150
            return Array((String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8)
        case 6:  // a known command with the wrong types or values
            return Array([#"{"tap":{"type":3}}"#, #"{"button":{"action":"sideways"}}"#, #"{"modeChange":{"mode":null}}"#,
                          #"{"cursorMove":{"delta":[1]}}"#, #"{"tap":{"type":"single"},"tap":{"type":"double"}}"#][pick % 5].utf8)
        case 7:  // invalid UTF-8 inside a string
            return Array(#"{"keyPress":{"key":""#.utf8) + [0xC3, 0x28] + Array(#""}}"#.utf8)
        default:  // trailing bytes after a valid command
            return Array((Self.valid[pick % Self.valid.count] + " x").utf8)
        }
    }
}
