import ArgumentParser

/// The units a time option takes, as they are written after the number.
enum DurationUnit: String, CaseIterable, Sendable {
    case ms, s, m, h

    var nanoseconds: Int64 {
        switch self {
        case .ms: 1_000_000
        case .s: 1_000_000_000
        case .m: 60_000_000_000
        case .h: 3_600_000_000_000
        }
    }
}

/// Every time option's value (`valueName` `duration`): a number with a unit — `250ms`, `30s`, `5m`, `1h`, `1.5s` —
/// or a bare number, which is seconds for every option of every command (`--timeout 90`, `--gap 0.25`). Anything else
/// is refused with the accepted forms, which `--help` lists too; the default prints in the largest unit that keeps
/// it whole (`1800` seconds: `30m`). A negative time (`-5s`) is read as one, for the option's range (`OptionRange`)
/// to refuse with the range.
struct DurationArgument: ExpressibleByArgument, Sendable, Hashable, Comparable, CustomStringConvertible {
    /// What a bare number is, for every time option.
    static let bareUnit = DurationUnit.s
    var duration: Duration

    init(_ duration: Duration) {
        self.duration = duration
    }

    init?(argument: String) {
        let negative = argument.hasPrefix("-")
        let text = negative ? String(argument.dropFirst()) : argument
        // "ms" before "m" and "s": the longest suffix that matches.
        let unit = DurationUnit.allCases.sorted { $0.rawValue.count > $1.rawValue.count }
            .first { text.hasSuffix($0.rawValue) }
        let number = unit.map { String(text.dropLast($0.rawValue.count)) } ?? text
        guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
              number.filter({ $0 == "." }).count <= 1, number != ".", let value = Double(number)
        else { return nil }
        let nanoseconds = (value * Double((unit ?? Self.bareUnit).nanoseconds)).rounded()
        guard nanoseconds.isFinite, nanoseconds < Double(Int64.max) else { return nil }
        duration = .nanoseconds(negative ? -Int64(nanoseconds) : Int64(nanoseconds))
    }

    static func < (lhs: DurationArgument, rhs: DurationArgument) -> Bool { lhs.duration < rhs.duration }

    /// The whole nanoseconds it lasts.
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    var seconds: Double { Double(nanoseconds) / 1e9 }

    /// In the largest unit that keeps it whole (`30m`, `250ms`), else in seconds (`0.0005s`).
    var description: String {
        let nanoseconds = self.nanoseconds
        guard nanoseconds != 0 else { return "0s" }
        for unit in DurationUnit.allCases.reversed() where nanoseconds % unit.nanoseconds == 0 {
            return "\(nanoseconds / unit.nanoseconds)\(unit.rawValue)"
        }
        return "\(seconds)s"
    }

    var defaultValueDescription: String { description }

    /// The accepted forms, for `--help` and the message that refuses anything else.
    static var allValueStrings: [String] { DurationUnit.allCases.map { "<n>" + $0.rawValue } }

    /// An option's help: `abstract`, then what a bare number means, then its range when it has one, with `duration`
    /// as the value's name.
    static func help(_ abstract: String, range: OptionRange<DurationArgument>? = nil, discussion: String = "") -> ArgumentHelp {
        let range = range.map { " Range: \($0.text)." } ?? ""
        return ArgumentHelp(abstract + " A bare number is seconds." + range, discussion: discussion, valueName: "duration")
    }
}
