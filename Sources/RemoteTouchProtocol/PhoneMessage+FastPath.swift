/// The computer's fast path for the TCP messages a phone streams (`mouseMove`, `dragMove`, `scroll`,
/// `pinchUpdate`), one to a frame and written exactly as `PhoneMessage.frameBody` writes them:
/// `{"type":"mouseMove","timestamp":1532.25,"dx":3,"dy":-1}`. Like `Command.decodeStreamed`, it reads the bytes in
/// place with no parse tree and no allocation, and it decides nothing on its own: anything else (a batch, white
/// space, another key order, another type, a number out of range, anything malformed) returns nil and the caller
/// parses the frame strictly, which alone accepts or refuses with its message. What it accepts, the strict parser
/// decodes to the same message, bit for bit (PhoneMessageFastPathTests and the `phoneMessage` fuzz target compare
/// the two).
extension PhoneMessage {
    /// The message in `bytes` when it is one streamed message in its canonical encoding; nil otherwise.
    package static func decodeStreamed(_ bytes: UnsafeBufferPointer<UInt8>) -> PhoneMessage? {
        var scanner = FastScanner(bytes: bytes)
        guard scanner.take("{\"type\":\"") else { return nil }
        enum Kind { case move, drag, scroll, pinch }
        let kind: Kind
        if scanner.take("mouseMove\"") {
            kind = .move
        } else if scanner.take("dragMove\"") {
            kind = .drag
        } else if scanner.take("scroll\"") {
            kind = .scroll
        } else if scanner.take("pinchUpdate\"") {
            kind = .pinch
        } else {
            return nil
        }
        guard scanner.take(",\"timestamp\":"), let timestamp = scanner.number(magnitude: maxTimestamp), timestamp >= 0
        else { return nil }
        let command: Command
        switch kind {
        case .move, .drag, .scroll:
            guard scanner.take(",\"dx\":"), let dx = scanner.number(magnitude: Command.maxDelta), scanner.take(",\"dy\":"),
                  let dy = scanner.number(magnitude: Command.maxDelta) else { return nil }
            command = kind == .move ? .cursorMove(delta: Point(x: dx, y: dy))
                : kind == .drag ? .dragMove(delta: Point(x: dx, y: dy)) : .scroll(dx: dx, dy: dy)
        case .pinch:
            guard scanner.take(",\"scale\":"), let scale = scanner.number(magnitude: Command.pinchScaleRange.upperBound),
                  Command.pinchScaleRange.contains(scale) else { return nil }
            command = .pinch(scale: scale)
        }
        guard scanner.take("}"), scanner.atEnd else { return nil }
        return PhoneMessage(timestamp: timestamp, .command(command))
    }
}
