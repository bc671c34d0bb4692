public import StrictJSON

/// The one-time code the phone writes to the pairing characteristic: six ASCII digits, nothing else
/// ("Data Format: 6-digit string"), e.g. the bytes of `"042917"`.
public struct PairingCode: Sendable, Hashable, CustomStringConvertible {
    public let digits: String

    /// - Throws: `ProtocolError` unless `digits` is exactly six ASCII digits.
    public init(_ digits: String) throws(ProtocolError) {
        try self.init(bytes: Array(digits.utf8))
    }

    /// A fresh code from the system's cryptographically secure generator (getrandom(2) on Linux),
    /// uniform over all 1,000,000 codes.
    public static func generate() -> PairingCode {
        var generator = SystemRandomNumberGenerator()
        return generate(using: &generator)
    }

    public static func generate(using generator: inout some RandomNumberGenerator) -> PairingCode {
        let number = Int.random(in: 0..<1_000_000, using: &generator)
        let text = String(number)
        return try! PairingCode(String(repeating: "0", count: 6 - text.count) + text)
    }

    private init(bytes: [UInt8]) throws(ProtocolError) {
        guard bytes.count == 6 else {
            throw ProtocolError(.invalid, payload: "pairing code", "expected 6 ASCII digits, found \(bytes.count) bytes")
        }
        for (index, byte) in bytes.enumerated() where !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
            throw ProtocolError(
                .invalid, payload: "pairing code", "byte \(index) is 0x\(String(byte, radix: 16)), not a digit 0-9")
        }
        digits = String(decoding: bytes, as: UTF8.self)
    }

    public static func decode(_ bytes: some Collection<UInt8>) throws(ProtocolError) -> PairingCode {
        try PairingCode(bytes: Array(bytes))
    }

    public func encoded() -> [UInt8] { Array(digits.utf8) }

    public var description: String { digits }
}

/// What a read of the pairing characteristic returns (this project's definition; the seed leaves it open):
/// `{"state":"awaitingCode","attemptsRemaining":3,"secondsRemaining":60}`.
///
/// A read by an unpaired central is the seed's "request pairing": the computer shows a fresh code, valid for
/// 60 s. `secondsRemaining` is the code's remaining life while `awaitingCode`, the lockout's while `lockedOut`,
/// and absent otherwise (synthesized `Codable` omits a nil optional).
public struct PairingStatus: Sendable, Hashable {
    public enum State: String, Sendable, Hashable, CaseIterable {
        /// No code is active (none requested yet, or the last one expired).
        case idle
        /// A code is shown on the computer; write it to pair.
        case awaitingCode
        /// This central is paired: its commands are executed.
        case paired
        /// Too many wrong codes: pairing refused until `secondsRemaining` runs out.
        case lockedOut
    }

    public var state: State
    /// Wrong codes still allowed before the lockout (3 at most).
    public var attemptsRemaining: Int
    public var secondsRemaining: Int?

    public init(state: State, attemptsRemaining: Int, secondsRemaining: Int? = nil) {
        self.state = state
        self.attemptsRemaining = attemptsRemaining
        self.secondsRemaining = secondsRemaining
    }

    public func encoded() -> [UInt8] {
        JSONWriter().bytes(json)
    }

    /// The value `encoded()` writes (also nested in the TCP transport's `pairing` message).
    public var json: JSONValue {
        var object = JSONObject([
            ("state", .string(state.rawValue)),
            ("attemptsRemaining", .number(Double(attemptsRemaining))),
        ])
        if let secondsRemaining {
            object.set("secondsRemaining", .number(Double(secondsRemaining)))
        }
        return .object(object)
    }

    public static func decode(_ bytes: some Collection<UInt8>) throws(ProtocolError) -> PairingStatus {
        try ProtocolError.decodeJSON(bytes, payload: "pairing status", maxDepth: 4) { value throws(JSONSchemaError) in
            let object = try value.object(at: .root)
            try object.rejectUnknownKeys(allowed: ["state", "attemptsRemaining", "secondsRemaining"], at: .root)
            var status = PairingStatus(
                state: try object.required("state", at: .root).enumeration(State.self, at: .root.appending("state")),
                attemptsRemaining: try object.required("attemptsRemaining", at: .root)
                    .integer(at: .root.appending("attemptsRemaining"), in: 0...3))
            if let seconds = object["secondsRemaining"] {
                status.secondsRemaining = try seconds.integer(at: .root.appending("secondsRemaining"), in: 0...86_400)
            }
            return status
        }
    }
}
