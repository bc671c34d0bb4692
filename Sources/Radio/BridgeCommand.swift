import System

/// What a run asks of the vm rig's radio bridges (`hil radio --control FIFO`): the one type of the senders (a radio
/// step, `hil calibrate`'s delays) and of the bridge, encoded and parsed here and nowhere else, its ranges checked
/// once. A request is a line `ID COMMAND`; the bridge answers each on its answers file (`BridgeAnswer`).
package enum BridgeCommand: Sendable, Hashable, CustomStringConvertible {
    /// Each transmission fails with this chance from now on and is sent again (0 ≤ P < 1).
    case errorRate(Double)
    /// Every transmission fails for this long, from now (0 to 60000 ms).
    case blackout(milliseconds: Double)
    /// Every ACL packet that arrives from now on waits this much longer (0 to 10000 ms).
    case delay(milliseconds: Double)
    /// No change: what the bridge holds now (its links with their intervals and anchors, its rate and delay).
    case state

    package static let errorRates = 0.0..<1.0
    package static let blackouts = 0.0...60_000.0
    package static let delays = 0.0...10_000.0

    /// The command, its value checked.
    /// - Throws: `RadioError` `.invalidCommand` naming the range.
    package func checked() throws(RadioError) -> BridgeCommand {
        switch self {
        case .errorRate(let rate) where !Self.errorRates.contains(rate):
            throw RadioError(.invalidCommand, "a packet error rate of \(NumberText.plain(rate)) is outside 0 ≤ P < 1")
        case .blackout(let ms) where !Self.blackouts.contains(ms):
            throw RadioError(.invalidCommand, "a blackout of \(NumberText.plain(ms)) ms is outside 0 to 60000 ms")
        case .delay(let ms) where !Self.delays.contains(ms):
            throw RadioError(.invalidCommand, "a delay of \(NumberText.plain(ms)) ms is outside 0 to 10000 ms")
        default:
            return self
        }
    }

    /// `error-rate 0.2`, `blackout 3000`, `delay 20`, `state`.
    package var line: String {
        switch self {
        case .errorRate(let rate): "error-rate \(NumberText.plain(rate))"
        case .blackout(let ms): "blackout \(NumberText.plain(ms))"
        case .delay(let ms): "delay \(NumberText.plain(ms))"
        case .state: "state"
        }
    }

    package var description: String { line }

    /// Parses a command line (without its id) and checks its range.
    /// - Throws: `RadioError` `.invalidCommand` saying what the bridge takes.
    package init(line: Substring) throws(RadioError) {
        let words = line.split(separator: " ", omittingEmptySubsequences: true)
        let value = words.count == 2 ? Double(words[1]) : nil
        switch (words.first, value) {
        case ("error-rate"?, let rate?): self = try BridgeCommand.errorRate(rate).checked()
        case ("blackout"?, let ms?): self = try BridgeCommand.blackout(milliseconds: ms).checked()
        case ("delay"?, let ms?): self = try BridgeCommand.delay(milliseconds: ms).checked()
        case ("state"?, nil) where words.count == 1: self = .state
        default:
            throw RadioError(.invalidCommand, "\"\(line)\" is no command: the bridge takes error-rate P (0 ≤ P < 1), blackout MS (0 to 60000), delay MS (0 to 10000) and state")
        }
    }

    /// A numbered request: `ID COMMAND`, and its parse.
    package static func request(_ id: Int, _ command: BridgeCommand) -> String { "\(id) \(command.line)" }

    /// The id and the command of a request line; the id alone when the command does not parse (so it is answered).
    package static func parse(request line: String) -> (id: Int?, command: Result<BridgeCommand, RadioError>) {
        let parts = line.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, let id = Int(parts[0]) else {
            return (nil, Result { () throws(RadioError) in try BridgeCommand(line: Substring(line)) })
        }
        return (id, Result { () throws(RadioError) in try BridgeCommand(line: parts[1]) })
    }
}
