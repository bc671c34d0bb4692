/// A cursor over the bytes of one write; every method either consumes what it matched or leaves the position
/// where it was and reports no match.
struct FastScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    var atEnd: Bool { position == bytes.count }

    /// Consumes `literal` (ASCII) when the bytes continue with it.
    mutating func take(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard bytes.count - position >= count else { return false }
        let start = literal.utf8Start
        for offset in 0..<count where bytes[position + offset] != start[offset] { return false }
        position += count
        return true
    }

    /// `[x,y]` with no white space, each within ±`Command.maxDelta`.
    mutating func point() -> Point? {
        guard take("["), let x = number(magnitude: Command.maxDelta), take(","),
              let y = number(magnitude: Command.maxDelta), take("]") else { return nil }
        return Point(x: x, y: y)
    }

    /// A JSON number (RFC 8259's grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`) whose value is
    /// finite and within ±`magnitude`; nil for anything else, which the strict parser then judges.
    mutating func number(magnitude: Double) -> Double? {
        let start = position
        var end = position
        func digits() -> Int {
            let from = end
            while end < bytes.count, bytes[end] &- UInt8(ascii: "0") < 10 { end += 1 }
            return end - from
        }
        if end < bytes.count, bytes[end] == UInt8(ascii: "-") { end += 1 }
        guard end < bytes.count else { return nil }
        if bytes[end] == UInt8(ascii: "0") {
            end += 1
        } else if digits() == 0 {
            return nil
        }
        if end < bytes.count, bytes[end] == UInt8(ascii: ".") {
            end += 1
            guard digits() > 0 else { return nil }
        }
        if end < bytes.count, bytes[end] | 0x20 == UInt8(ascii: "e") {
            end += 1
            if end < bytes.count, bytes[end] == UInt8(ascii: "+") || bytes[end] == UInt8(ascii: "-") { end += 1 }
            guard digits() > 0 else { return nil }
        }
        // "01", "1x": the strict parser's error, not a shorter number.
        if end < bytes.count, bytes[end] &- UInt8(ascii: "0") < 10 || bytes[end] | 0x20 &- UInt8(ascii: "a") < 26 { return nil }
        guard end - start <= 32, let value = Self.double(bytes, start..<end), value.isFinite, abs(value) <= magnitude else { return nil }
        position = end
        return value
    }

    /// The value of bytes already checked to be a JSON number, converted as the strict parser converts it
    /// (`Double(String)`). Up to 15 bytes make a small string, which Swift keeps inline with no allocation; a
    /// longer one (`0.3333333333333333`) costs one.
    private static func double(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Double? {
        Double(String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self))
    }
}
