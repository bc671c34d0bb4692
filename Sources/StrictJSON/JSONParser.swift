/// A strict RFC 8259 parser: one value, nothing after it but white space, no duplicate keys, no NaN or
/// Infinity, a nesting limit, valid UTF-8 — and every error says where it is.
///
/// Foundation's `JSONDecoder` would accept what the real apps send too, but it cannot report every problem
/// of a hand-written scenario with its JSON path, nor bound the nesting of hostile input arriving over BLE.
public struct JSONParser: Sendable {
    /// Deepest nesting of arrays and objects accepted. Hostile input cannot exhaust the stack below it.
    public var maxDepth: Int

    public init(maxDepth: Int = 64) {
        self.maxDepth = maxDepth
    }

    public func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try parse(Array(text.utf8))
    }

    public func parse(_ bytes: some Collection<UInt8>) throws(JSONParseError) -> JSONValue {
        var reader = Reader(bytes: Array(bytes), maxDepth: maxDepth)
        return try reader.document()
    }

    /// Parses and records where each value was written, so problems found later by JSON path can name a line
    /// and column. For documents people write (scenarios, rig files), not for what arrives over a link.
    public func parseLocated(_ bytes: some Collection<UInt8>) throws(JSONParseError) -> (value: JSONValue, positions: JSONPositions) {
        var reader = Reader(bytes: Array(bytes), maxDepth: maxDepth)
        reader.positions = JSONPositions()
        let value = try reader.document()
        return (value, reader.positions ?? JSONPositions())
    }
}

private struct Reader {
    let bytes: [UInt8]
    let maxDepth: Int
    var position = 0
    var depth = 0
    /// Recorded only when asked for (`parseLocated`): the path of the value being read, and where each began.
    var positions: JSONPositions?
    var path: [JSONPath.Component] = []
    var counter = LocationCounter()

    init(bytes: [UInt8], maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    mutating func document() throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        if position == bytes.count { throw error(.empty) }
        mark(at: position)
        let value = try value()
        skipWhitespace()
        if position != bytes.count { throw error(.trailingGarbage) }
        return value
    }

    // MARK: Values

    mutating func value() throws(JSONParseError) -> JSONValue {
        guard let byte = peek() else { throw error(.unexpectedEnd(expected: "a value")) }
        switch byte {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "N"), UInt8(ascii: "I"): throw nonFiniteWord()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw error(.unexpectedByte(byte, expected: "a value"))
        }
    }

    mutating func object() throws(JSONParseError) -> JSONValue {
        try enter()
        position += 1  // {
        var object = JSONObject()
        var seen = Set<String>()
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            position += 1
            depth -= 1
            return .object(object)
        }
        while true {
            skipWhitespace()
            guard let byte = peek() else { throw error(.unexpectedEnd(expected: "a key string")) }
            guard byte == UInt8(ascii: "\"") else { throw error(.unexpectedByte(byte, expected: "a key string")) }
            let keyStart = position
            let key = try string()
            if !seen.insert(key).inserted {
                throw error(.duplicateKey(key), at: keyStart)
            }
            skipWhitespace()
            try expect(UInt8(ascii: ":"), "':'")
            skipWhitespace()
            if positions != nil { path.append(.key(key)) }
            mark(at: keyStart)
            object.set(key, try value())
            if positions != nil { path.removeLast() }
            skipWhitespace()
            guard let next = peek() else { throw error(.unexpectedEnd(expected: "',' or '}'")) }
            position += 1
            if next == UInt8(ascii: "}") { break }
            if next != UInt8(ascii: ",") {
                position -= 1
                throw error(.unexpectedByte(next, expected: "',' or '}'"))
            }
        }
        depth -= 1
        return .object(object)
    }

    mutating func array() throws(JSONParseError) -> JSONValue {
        try enter()
        position += 1  // [
        var elements: [JSONValue] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            position += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            if positions != nil { path.append(.index(elements.count)) }
            mark(at: position)
            elements.append(try value())
            if positions != nil { path.removeLast() }
            skipWhitespace()
            guard let next = peek() else { throw error(.unexpectedEnd(expected: "',' or ']'")) }
            position += 1
            if next == UInt8(ascii: "]") { break }
            if next != UInt8(ascii: ",") {
                position -= 1
                throw error(.unexpectedByte(next, expected: "',' or ']'"))
            }
        }
        depth -= 1
        return .array(elements)
    }

    mutating func enter() throws(JSONParseError) {
        depth += 1
        if depth > maxDepth { throw error(.tooDeep(limit: maxDepth)) }
    }

    // MARK: Strings

    mutating func string() throws(JSONParseError) -> String {
        position += 1  // opening quote
        var buffer: [UInt8] = []
        while true {
            guard let byte = peek() else { throw error(.unexpectedEnd(expected: "'\"' closing the string")) }
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                guard let text = String(validating: buffer, as: UTF8.self) else { throw error(.invalidUTF8) }
                return text
            case UInt8(ascii: "\\"):
                position += 1
                try escape(into: &buffer)
            case 0x00..<0x20:
                throw error(.controlCharacterInString(byte))
            default:
                buffer.append(byte)
                position += 1
            }
        }
    }

    mutating func escape(into buffer: inout [UInt8]) throws(JSONParseError) {
        guard let byte = peek() else { throw error(.unexpectedEnd(expected: "an escape character")) }
        position += 1
        switch byte {
        case UInt8(ascii: "\""): buffer.append(byte)
        case UInt8(ascii: "\\"): buffer.append(byte)
        case UInt8(ascii: "/"): buffer.append(byte)
        case UInt8(ascii: "b"): buffer.append(0x08)
        case UInt8(ascii: "f"): buffer.append(0x0C)
        case UInt8(ascii: "n"): buffer.append(0x0A)
        case UInt8(ascii: "r"): buffer.append(0x0D)
        case UInt8(ascii: "t"): buffer.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try hex4()
            if (0xD800...0xDBFF).contains(scalar) {
                // A high surrogate must be followed by an escaped low surrogate.
                guard peek() == UInt8(ascii: "\\"), peek(1) == UInt8(ascii: "u") else {
                    throw error(.invalidEscape)
                }
                position += 2
                let low = try hex4()
                guard (0xDC00...0xDFFF).contains(low) else { throw error(.invalidEscape) }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(scalar) {
                throw error(.invalidEscape)
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw error(.invalidEscape) }
            buffer.append(contentsOf: Array(String(Character(unicode)).utf8))
        default:
            position -= 1
            throw error(.invalidEscape)
        }
    }

    mutating func hex4() throws(JSONParseError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = peek() else { throw error(.unexpectedEnd(expected: "4 hex digits")) }
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error(.invalidEscape)
            }
            value = value << 4 | digit
            position += 1
        }
        return value
    }

    // MARK: Numbers and literals

    mutating func number() throws(JSONParseError) -> Double {
        let start = position
        if peek() == UInt8(ascii: "-") {
            position += 1
            if peek() == UInt8(ascii: "I") { throw nonFiniteWord(from: start) }
        }
        guard let first = peek(), isDigit(first) else { throw invalidNumber(from: start) }
        position += 1
        if first != UInt8(ascii: "0") {
            while let byte = peek(), isDigit(byte) { position += 1 }
        }
        if peek() == UInt8(ascii: ".") {
            position += 1
            guard let byte = peek(), isDigit(byte) else { throw invalidNumber(from: start) }
            while let byte = peek(), isDigit(byte) { position += 1 }
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            position += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { position += 1 }
            guard let byte = peek(), isDigit(byte) else { throw invalidNumber(from: start) }
            while let byte = peek(), isDigit(byte) { position += 1 }
        }
        // A digit or letter glued to the number ("01", "1x") is not JSON.
        if let byte = peek(), isDigit(byte) || isLetter(byte) { throw invalidNumber(from: start) }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw error(.numberOutOfRange(text), at: start)
        }
        return value
    }

    mutating func invalidNumber(from start: Int) -> JSONParseError {
        var end = position
        while end < bytes.count, end - start < 32, !isDelimiter(bytes[end]) { end += 1 }
        let text = String(decoding: bytes[start..<end], as: UTF8.self)
        return error(.invalidNumber(text), at: start)
    }

    mutating func nonFiniteWord(from start: Int? = nil) -> JSONParseError {
        let begin = start ?? position
        var end = begin
        while end < bytes.count, end - begin < 16, !isDelimiter(bytes[end]) { end += 1 }
        let word = String(decoding: bytes[begin..<end], as: UTF8.self)
        if ["NaN", "Infinity", "-Infinity"].contains(word) {
            return error(.nonFiniteNumber(word), at: begin)
        }
        return error(.invalidLiteral(word), at: begin)
    }

    mutating func literal(_ word: String) throws(JSONParseError) {
        let start = position
        var end = position
        while end < bytes.count, end - start < 32, isLetter(bytes[end]) || isDigit(bytes[end]) { end += 1 }
        let found = String(decoding: bytes[start..<end], as: UTF8.self)
        guard found == word else {
            if end == bytes.count, word.hasPrefix(found) { throw error(.unexpectedEnd(expected: "'\(word)'")) }
            throw error(.invalidLiteral(found), at: start)
        }
        position = end
    }

    // MARK: Helpers

    /// Records that the value at the current path begins at `offset` (when positions are recorded).
    mutating func mark(at offset: Int) {
        guard positions != nil else { return }
        positions?.record(JSONPath(path), counter.location(at: offset, in: bytes))
    }

    func peek(_ ahead: Int = 0) -> UInt8? {
        position + ahead < bytes.count ? bytes[position + ahead] : nil
    }

    mutating func expect(_ byte: UInt8, _ name: String) throws(JSONParseError) {
        guard let actual = peek() else { throw error(.unexpectedEnd(expected: name)) }
        guard actual == byte else { throw error(.unexpectedByte(actual, expected: name)) }
        position += 1
    }

    mutating func skipWhitespace() {
        while let byte = peek(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
            position += 1
        }
    }

    func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
    func isLetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    }
    func isDelimiter(_ byte: UInt8) -> Bool {
        [UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"), 0x20, 0x0A, 0x0D, 0x09].contains(byte)
    }

    func error(_ reason: JSONParseError.Reason, at offset: Int? = nil) -> JSONParseError {
        let offset = min(offset ?? position, bytes.count)
        var line = 1
        var column = 1
        for byte in bytes[..<offset] {
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {  // count characters, not UTF-8 continuation bytes
                column += 1
            }
        }
        return JSONParseError(reason: reason, offset: offset, line: line, column: column)
    }
}
