import ArgumentParser
import CommandMapping
import InputCodes
import RemoteTouchProtocol
import StrictJSON
import System

extension WireFormat: ExpressibleByArgument {}

/// Decodes one payload in any wire format the rig speaks, as the computer would, and shows the events it maps to.
struct DecodeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Decode a payload in any wire format the rig speaks and show the evdev frames it maps to.",
        discussion: """
            The formats (docs/protocol.md): a JSON command (the command characteristic: ble, hid), a 6-byte HID \
            report (the report characteristic: hid), a 5-byte UDP movement packet (udp), and TCP frames (a 4-byte \
            big-endian length, then a message or a batch: tcp, and udp's control connection). Each is decoded by \
            the computer's own decoder. Without --format, hil tries every format and uses the one that decodes; \
            when none does, it says what each format found wrong.

            The payload is JSON text, or hex bytes: with --hex, or when it is nothing but hex digits (no payload \
            the computer takes is a bare JSON number). JSON text is a command or, for tcp, one frame's body \
            without its length header.

            Examples: hil decode '{"button":{"action":"back"}}' --mode presentation; hil decode 010a00000000 \
            (a HID report); hil decode aa000afb00 (a UDP packet); hil decode --format tcp '{"type":"ping","timestamp":1}'

            Exit status 64 (invalid input) when the payload is refused, with the reason the computer would log.
            """
    )

    @Argument(help: "The payload: JSON text, or hex bytes.")
    var payload: String

    @Flag(help: "The payload is hex (e.g. 7b2274...; spaces allowed), even if it could be read as JSON.")
    var hex = false

    @Option(help: ArgumentHelp("Decode as this format only, instead of trying each.", valueName: "json|hid|udp|tcp"))
    var format: WireFormat?

    @Option(help: ArgumentHelp("The computer's current mode (the ← / → buttons and taps depend on it).", valueName: "mode"))
    var mode: ControlMode = .basicMouse

    /// Bad hex is a usage error, told with this command's usage (not the root's, as a throw from `run` would be).
    func validate() throws {
        if hex { _ = try Self.hexBytes(payload) }
    }

    func run() async throws {
        let isHex = hex || Self.looksLikeHex(payload)
        let bytes = try isHex ? Self.hexBytes(payload) : Array(payload.utf8)
        // Text is JSON: a command, or one TCP frame's body; the binary formats need bytes.
        let formats = format.map { [$0] } ?? (isHex ? WireFormat.allCases : [.json, .tcp])
        switch WirePayload.detect(bytes, among: formats, framed: isHex) {
        case .decoded(let format, let decoded):
            print("\(format.title)" + (self.format == nil ? " (the only format it decodes as)" : ""))
            try show(decoded)
        case .ambiguous(let candidates):
            printError("refused: the payload decodes as \(candidates.map(\.0.title).joined(separator: " and as ")); choose one with --format")
            throw ExitCause.invalidInput.exit
        case .refused(let reasons):
            if reasons.count == 1 {
                printError("refused: \(reasons[0].1.description)")
            } else {
                printError("refused: not any wire format the rig speaks:")
                for (format, error) in reasons { printError("  \(format.rawValue): \(error.description)") }
            }
            throw ExitCause.invalidInput.exit
        }
    }

    /// The payload as the computer takes it, and the frames it maps to in `mode`.
    private func show(_ decoded: WirePayload) throws {
        var mapper = CommandMapper(mode: mode)
        var frames: [InputFrame] = []
        switch decoded {
        case .command(let command):
            print("command: \(String(decoding: command.encoded(), as: UTF8.self))")
            frames = try map(command, &mapper)
        case .report(_, let input):
            print("report: \(input)")
            frames = mapper.pointer(input, buttons: true)
        case .packet(let packet, let input):
            print("packet: movement \(input) (the buttons byte 0x\(String(packet.buttons.rawValue, radix: 16)) is not taken: buttons go over the control connection)")
            frames = mapper.pointer(input, buttons: false)
        case .frames(let list):
            for (index, messages) in list.enumerated() {
                print("frame \(index + 1): \(messages.count) message(s)")
                for message in messages {
                    print("  \(String(decoding: JSONWriter().bytes(message.json), as: UTF8.self))")
                    if case .command(let command) = message.body { frames += try map(command, &mapper) }
                }
            }
        }
        print("frames in \(mode.rawValue) mode:")
        if frames.isEmpty { print("  (none)") }
        for frame in frames { print("  \(frame)") }
    }

    private func map(_ command: Command, _ mapper: inout CommandMapper) throws -> [InputFrame] {
        do {
            return try mapper.map(command)
        } catch {
            printError("refused: \(error.message)")
            throw ExitCause.invalidInput.exit
        }
    }

    /// Nothing but hex digits (and spaces), an even count of them.
    static func looksLikeHex(_ text: String) -> Bool {
        let digits = text.filter { !$0.isWhitespace }
        return !digits.isEmpty && digits.count % 2 == 0 && digits.allSatisfy(\.isHexDigit)
    }

    static func hexBytes(_ text: String) throws -> [UInt8] {
        let digits = text.filter { !$0.isWhitespace }
        guard digits.count % 2 == 0 else { throw ValidationError("hex payload has an odd number of digits") }
        var bytes: [UInt8] = []
        var index = digits.startIndex
        while index < digits.endIndex {
            let next = digits.index(index, offsetBy: 2)
            guard let byte = UInt8(digits[index..<next], radix: 16) else {
                throw ValidationError("'\(digits[index..<next])' is not a hex byte")
            }
            bytes.append(byte)
            index = next
        }
        return bytes
    }
}
