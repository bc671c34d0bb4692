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

    /// The value of bytes already checked to be a JSON number, as the strict parser converts it (`Double(String)`):
    /// exactly by Clinger's fast path when the digits fit 53 bits and the power of ten is at most 22 (a phone's
    /// deltas and timestamps), else through `Double(String)` (a string of up to 15 bytes is kept inline, with no
    /// allocation). CommandFastPathTests and the fuzz targets compare the two, bit for bit.
    private static func double(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Double? {
        exactly(bytes, range) ?? Double(String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self))
    }

    /// Clinger's fast path (1990): a whole number m < 2^53 and 10^k with |k| ≤ 22 are both exact doubles, so one
    /// IEEE multiplication or division rounds m · 10^k correctly, as strtod does. nil outside it.
    private static func exactly(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Double? {
        var index = range.lowerBound
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        var mantissa: UInt64 = 0
        var digits = 0
        var exponent = 0
        var fraction = false
        while index < range.upperBound {
            let byte = bytes[index]
            if byte == UInt8(ascii: ".") {
                fraction = true
            } else if byte &- UInt8(ascii: "0") < 10 {
                if mantissa > 0 || byte != UInt8(ascii: "0") { digits += 1 }
                // More digits than 19 could overflow; such a number is left to strtod.
                guard digits <= 19 else { return nil }
                mantissa = mantissa &* 10 &+ UInt64(byte &- UInt8(ascii: "0"))
                if fraction { exponent -= 1 }
            } else {
                break
            }
            index += 1
        }
        if index < range.upperBound {
            // `e` or `E`, a sign, then at most 3 digits (the grammar was checked; more is beyond the fast path).
            index += 1
            let minus = bytes[index] == UInt8(ascii: "-")
            if minus || bytes[index] == UInt8(ascii: "+") { index += 1 }
            guard range.upperBound - index <= 3 else { return nil }
            var power = 0
            while index < range.upperBound {
                power = power * 10 + Int(bytes[index] &- UInt8(ascii: "0"))
                index += 1
            }
            exponent += minus ? -power : power
        }
        guard mantissa <= 1 << 53, (-22...22).contains(exponent) else { return nil }
        let scale = powersOfTen[abs(exponent)]
        let value = exponent < 0 ? Double(mantissa) / scale : Double(mantissa) * scale
        return negative ? -value : value
    }

    /// 10^0 … 10^22, each exact in a double.
    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]
}
