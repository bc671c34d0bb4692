import ArgumentParser
import CommandMapping
import RemoteTouchProtocol

/// Decodes one command payload as the peripheral would and shows the events it maps to.
struct DecodeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Decode a command characteristic payload and show the evdev frames it maps to.",
        discussion: """
            Example: hil decode '{"button":{"action":"back"}}' --mode presentation

            Exit status 1 when the payload is refused, with the reason the peripheral would log.
            """
    )

    @Argument(help: "The payload: JSON text, or hex bytes with --hex.")
    var payload: String

    @Flag(help: "The payload is hex (e.g. 7b2274...; spaces allowed).")
    var hex = false

    @Option(help: ArgumentHelp("The computer's current mode (the ← / → buttons and taps depend on it).", valueName: "mode"))
    var mode: ControlMode = .basicMouse

    func run() async throws {
        let bytes = try hex ? Self.hexBytes(payload) : Array(payload.utf8)
        let command: Command
        do {
            command = try Command.decode(bytes)
        } catch {
            printError("refused: \(error.description)")
            throw ExitCode.failure
        }
        var mapper = CommandMapper(mode: mode)
        print("command: \(String(decoding: command.encoded(), as: UTF8.self))")
        do {
            let frames = try mapper.map(command)
            print("frames in \(mode.rawValue) mode:")
            if frames.isEmpty { print("  (none)") }
            for frame in frames { print("  \(frame)") }
        } catch {
            printError("refused: \(error.message)")
            throw ExitCode.failure
        }
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
