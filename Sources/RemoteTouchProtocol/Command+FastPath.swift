/// The computer's fast path for the commands a phone streams (`cursorMove`, `dragMove`, `scroll`, `pinch`), written
/// exactly as `encoded()` writes them: `{"cursorMove":{"delta":[12,-3.5]}}`. It reads the bytes in place, with no
/// parse tree, no strings and no allocation, because under the vm rig's TCG every allocation and reference count
/// is expensive and these commands arrive 60–120 times a second.
///
/// It decides nothing on its own: any byte it does not expect (white space, another key order, another command,
/// a number out of range, anything malformed) returns nil and the caller falls back to the strict parser, which
/// accepts or refuses with its message. What it does accept, the strict parser decodes to the same command, bit
/// for bit: numbers are checked against JSON's grammar here and converted with `Double(String)`, as the strict parser
/// converts them. CommandFastPathTests and the `command` fuzz target
/// compare the two on every input they make.
extension Command {
    /// The command in `bytes` when it is one of the streamed commands in its canonical encoding; nil otherwise
    /// (not an error: `decode` then parses it strictly).
    package static func decodeStreamed(_ bytes: UnsafeBufferPointer<UInt8>) -> Command? {
        var scanner = FastScanner(bytes: bytes)
        guard scanner.take("{\"") else { return nil }
        let command: Command
        if scanner.take("cursorMove\":{\"delta\":") {
            guard let delta = scanner.point() else { return nil }
            command = .cursorMove(delta: delta)
        } else if scanner.take("dragMove\":{\"delta\":") {
            guard let delta = scanner.point() else { return nil }
            command = .dragMove(delta: delta)
        } else if scanner.take("scroll\":{\"dx\":") {
            guard let dx = scanner.number(magnitude: maxDelta), scanner.take(",\"dy\":"),
                  let dy = scanner.number(magnitude: maxDelta) else { return nil }
            command = .scroll(dx: dx, dy: dy)
        } else if scanner.take("pinch\":{\"scale\":") {
            guard let scale = scanner.number(magnitude: pinchScaleRange.upperBound), pinchScaleRange.contains(scale) else { return nil }
            command = .pinch(scale: scale)
        } else {
            return nil
        }
        guard scanner.take("}}"), scanner.atEnd else { return nil }
        return command
    }
}

/// A cursor over the bytes of one write; every method either consumes what it matched or leaves the position
/// where it was and reports no match.
private struct FastScanner {
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
