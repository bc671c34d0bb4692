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
