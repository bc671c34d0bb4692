import RemoteTouchProtocol

/// The TCP control path (`NetworkFrame`, `PhoneMessage`, `ComputerMessage`): the input as one frame body from the
/// phone and as one from the computer, and as a byte stream of frames, read whole, in chunks and repeated, each
/// frame it holds then decoded as the computer and the phone would.
package enum ControlFuzz {
    package static func run(_ bytes: [UInt8]) {
        phoneFrame(bytes)
        computerMessage(bytes)
        let whole = read([bytes])
        for body in whole.frames {
            phoneFrame(body)
            computerMessage(body)
        }
        // TCP delivers a stream in any pieces: chunks of 1 to 13 bytes (the size from the first byte) read the same.
        let size = 1 + Int(bytes.first ?? 0) % 13
        let chunks = stride(from: 0, to: bytes.count, by: size).map { bytes[$0..<min($0 + size, bytes.count)] }
        precondition(read(chunks) == whole, "the stream read in chunks of \(size) differs from the stream read whole")
        repeated(bytes, whole)
    }

    /// A phone's frame body (a message or a batch): what the computer accepts encodes again to a frame that
    /// decodes to the same messages.
    static func phoneFrame(_ bytes: [UInt8]) {
        // The computer's fast path decides nothing the strict parser would not: what it accepts, the strict parser
        // decodes to the same message, bit for bit.
        if let streamed = bytes.withUnsafeBufferPointer(PhoneMessage.decodeStreamed) {
            guard let strict = try? PhoneMessage.decodeFrameStrictly(bytes), strict.count == 1, case .command(let command) = strict[0].body,
                  case .command(let fast) = streamed.body else {
                fatalError("the fast path accepted what the strict parser reads otherwise: \(String(decoding: bytes, as: UTF8.self))")
            }
            precondition(streamed.timestamp.bitPattern == strict[0].timestamp.bitPattern && CommandBits(fast) == CommandBits(command),
                         "the fast path read \(streamed), the strict parser \(strict[0])")
        }
        guard let messages = try? PhoneMessage.decodeFrame(bytes) else { return }
        precondition(!messages.isEmpty && messages.count <= PhoneMessage.maxBatch, "a frame of \(messages.count) messages")
        let body = PhoneMessage.frameBody(messages)
        if body.count <= NetworkFrame.maxLength {
            guard let again = try? PhoneMessage.decodeFrame(body) else {
                fatalError("accepted messages do not decode from their own encoding: \(String(decoding: body, as: UTF8.self))")
            }
            precondition(again == messages, "message round trip changed \(messages) into \(again)")
        }
    }

    /// A computer's frame body: what the phone accepts frames again and decodes.
    static func computerMessage(_ bytes: [UInt8]) {
        guard let message = try? ComputerMessage.decode(bytes) else { return }
        precondition((try? ComputerMessage.decode(message.frame().dropFirst(NetworkFrame.headerLength))) != nil, "computer message round trip")
    }

    /// What a reader makes of a stream.
    struct Stream: Equatable {
        var frames: [[UInt8]] = []
        var pending = 0
        var badLength: UInt32?
    }

    /// The stream appended piece by piece, every whole frame taken after each piece, until a bad header (the
    /// reader cannot follow past it; the rest only piles up). The frames and what is left add up to the stream.
    static func read(_ pieces: [some Collection<UInt8>]) -> Stream {
        var reader = NetworkFrame.Reader()
        var stream = Stream()
        var total = 0
        var consumed = 0
        for piece in pieces {
            reader.append(piece)
            total += piece.count
            while stream.badLength == nil, let next = reader.next() {
                switch next {
                case .frame(let body):
                    precondition(body.count >= 1 && body.count <= NetworkFrame.maxLength, "a frame of \(body.count) bytes")
                    consumed += NetworkFrame.headerLength + body.count
                    stream.frames.append(body)
                case .badLength(let length):
                    precondition(length == 0 || length > UInt32(NetworkFrame.maxLength), "a good length \(length) called bad")
                    stream.badLength = length
                }
            }
        }
        stream.pending = reader.pending
        precondition(consumed + reader.pending == total, "the reader lost bytes: \(consumed) in frames, \(reader.pending) pending of \(total)")
        return stream
    }

    /// A stream of whole frames sent again and again, past the 4 KiB after which the reader compacts its
    /// buffer: the same frames each time, nothing left over.
    static func repeated(_ bytes: [UInt8], _ once: Stream) {
        guard !once.frames.isEmpty, once.pending == 0, once.badLength == nil else { return }
        let times = 2 + 8_192 / bytes.count
        let again = read(Array(repeating: bytes, count: times))
        precondition(again.badLength == nil && again.pending == 0, "a repeated stream of whole frames left \(again.pending) bytes")
        precondition(again.frames.count == times * once.frames.count, "a stream \(times) times gave \(again.frames.count) frames")
        for (index, frame) in again.frames.enumerated() where frame != once.frames[index % once.frames.count] {
            preconditionFailure("frame \(index) of a repeated stream differs")
        }
    }
}
