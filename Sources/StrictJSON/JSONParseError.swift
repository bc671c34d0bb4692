/// Why a byte sequence is not a JSON document this project accepts, and where.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Reason: Sendable, Equatable {
        case empty
        case unexpectedEnd(expected: String)
        case unexpectedByte(UInt8, expected: String)
        case invalidUTF8
        case invalidEscape
        case controlCharacterInString(UInt8)
        case invalidNumber(String)
        case invalidLiteral(String)
        case numberOutOfRange(String)
        case nonFiniteNumber(String)
        case duplicateKey(String)
        case tooDeep(limit: Int)
        case trailingGarbage
    }

    public var reason: Reason
    /// Byte offset from the start of the document (0-based).
    public var offset: Int
    /// 1-based line and column of `offset`, for people reading a file.
    public var line: Int
    public var column: Int

    public var description: String { what }

    /// The kind of problem: the reason without its details, for callers that branch on it.
    public enum Code: String, Sendable, Hashable {
        case empty, unexpectedEnd, unexpectedByte, invalidUTF8, invalidEscape, controlCharacterInString, invalidNumber,
             invalidLiteral, numberOutOfRange, nonFiniteNumber, duplicateKey, tooDeep, trailingGarbage
    }

    /// The reason's kind, the code of the package's error shape (System's `ExplainedError`: this module does not
    /// depend on System, and `hil` declares the conformance).
    public var code: Code {
        switch reason {
        case .empty: .empty
        case .unexpectedEnd: .unexpectedEnd
        case .unexpectedByte: .unexpectedByte
        case .invalidUTF8: .invalidUTF8
        case .invalidEscape: .invalidEscape
        case .controlCharacterInString: .controlCharacterInString
        case .invalidNumber: .invalidNumber
        case .invalidLiteral: .invalidLiteral
        case .numberOutOfRange: .numberOutOfRange
        case .nonFiniteNumber: .nonFiniteNumber
        case .duplicateKey: .duplicateKey
        case .tooDeep: .tooDeep
        case .trailingGarbage: .trailingGarbage
        }
    }

    /// Where and why: `line 3, column 7: duplicate key "phone"`. The caller names the file.
    public var what: String { "line \(line), column \(column): \(reasonText)" }
    /// None: the line and column say where to fix it.
    public var hint: String? { nil }

    public var reasonText: String {
        switch reason {
        case .empty:
            "empty document"
        case .unexpectedEnd(let expected):
            "document ends early; expected \(expected)"
        case .unexpectedByte(let byte, let expected):
            "unexpected \(Self.describe(byte)); expected \(expected)"
        case .invalidUTF8:
            "invalid UTF-8"
        case .invalidEscape:
            "invalid escape sequence in string"
        case .controlCharacterInString(let byte):
            "unescaped control character \(Self.describe(byte)) in string"
        case .invalidNumber(let text):
            "invalid number '\(text)'"
        case .invalidLiteral(let word):
            "'\(word)' is not a JSON value (true, false, null, a number, a string, an array or an object)"
        case .numberOutOfRange(let text):
            "number '\(text)' does not fit in a Double"
        case .nonFiniteNumber(let text):
            "'\(text)' is not a finite number (JSON has no NaN or Infinity)"
        case .duplicateKey(let key):
            "duplicate key \"\(key)\""
        case .tooDeep(let limit):
            "nested deeper than \(limit) levels"
        case .trailingGarbage:
            "extra bytes after the JSON value"
        }
    }

    static func describe(_ byte: UInt8) -> String {
        if byte >= 0x20 && byte < 0x7F {
            return "'\(Character(Unicode.Scalar(byte)))'"
        }
        let hex = String(byte, radix: 16, uppercase: true)
        return "byte 0x\(hex.count == 1 ? "0" + hex : hex)"
    }
}
