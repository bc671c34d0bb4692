import ArgumentParser
import Foundation

/// A number option's allowed values, written one way everywhere: `1 to 5000 Hz`, `10 or more`, `0 to under 1`. The
/// option's help ends with it (`help(_:)`: "Range: 1 to 5000 Hz.") and a value outside is refused with it (`check`:
/// "--rate takes 1 to 5000 Hz, not -5"). Every number option parses its value with `parsing: .unconditional`, so
/// `--rate -5` reaches this check instead of reading `-5` as an option ("Missing value for '--rate'").
struct OptionRange<Value: Comparable & Sendable>: Sendable {
    let option: String
    let lowest: Value
    let highest: Value?
    /// Whether `highest` itself is allowed (`1 to 10`) or only what is under it (`0 to under 1`).
    let includesHighest: Bool
    /// After the numbers: `Hz`, `ms`; empty for a value that carries its unit (a duration).
    let unit: String
    let show: @Sendable (Value) -> String

    /// `lowest` to `highest`, both allowed.
    init(_ option: String, _ lowest: Value, to highest: Value, unit: String = "", show: @escaping @Sendable (Value) -> String) {
        (self.option, self.lowest, self.highest, includesHighest, self.unit, self.show) = (option, lowest, highest, true, unit, show)
    }

    /// `lowest` or more.
    init(_ option: String, atLeast lowest: Value, unit: String = "", show: @escaping @Sendable (Value) -> String) {
        (self.option, self.lowest, highest, includesHighest, self.unit, self.show) = (option, lowest, nil, false, unit, show)
    }

    /// From `lowest` up to, but not including, `highest`.
    init(_ option: String, _ lowest: Value, below highest: Value, unit: String = "", show: @escaping @Sendable (Value) -> String) {
        (self.option, self.lowest, self.highest, includesHighest, self.unit, self.show) = (option, lowest, highest, false, unit, show)
    }

    /// `1 to 5000 Hz`, `10 or more`, `0 to under 1`.
    var text: String {
        let unit = self.unit.isEmpty ? "" : " " + self.unit
        guard let highest else { return "\(show(lowest)) or more\(unit)" }
        return "\(show(lowest)) to \(includesHighest ? "" : "under ")\(show(highest))\(unit)"
    }

    func contains(_ value: Value) -> Bool {
        guard value >= lowest else { return false }
        guard let highest else { return true }
        return includesHighest ? value <= highest : value < highest
    }

    /// Refuses a value outside the range, naming the option, the range and the value.
    func check(_ value: Value) throws {
        guard contains(value) else {
            throw ValidationError("\(option) takes \(text), not \(show(value))\(unit.isEmpty ? "" : " " + unit)")
        }
    }

    /// The option's help with its range last: `Commands per second. Range: 1 to 5000 Hz.`
    func help(_ abstract: String, discussion: String = "", valueName: String? = nil) -> ArgumentHelp {
        ArgumentHelp(abstract + " Range: \(text).", discussion: discussion, valueName: valueName)
    }
}

extension OptionRange where Value == Int {
    init(_ option: String, _ lowest: Int, to highest: Int, unit: String = "") {
        self.init(option, lowest, to: highest, unit: unit) { String($0) }
    }

    init(_ option: String, atLeast lowest: Int, unit: String = "") {
        self.init(option, atLeast: lowest, unit: unit) { String($0) }
    }
}

extension OptionRange where Value == Double {
    init(_ option: String, _ lowest: Double, to highest: Double, unit: String = "") {
        self.init(option, lowest, to: highest, unit: unit) { String(format: "%g", $0) }
    }

    init(_ option: String, _ lowest: Double, below highest: Double, unit: String = "") {
        self.init(option, lowest, below: highest, unit: unit) { String(format: "%g", $0) }
    }
}

extension OptionRange where Value == DurationArgument {
    /// A duration from `lowest` to `highest` (`1s to 60s`).
    init(_ option: String, _ lowest: Duration, to highest: Duration) {
        self.init(option, DurationArgument(lowest), to: DurationArgument(highest)) { $0.description }
    }

    /// A duration of `lowest` or more (`1ms or more`).
    init(_ option: String, atLeast lowest: Duration) {
        self.init(option, atLeast: DurationArgument(lowest)) { $0.description }
    }
}

/// What the tests ask of every range: its option, its words, and a value it refuses.
protocol DescribedRange: Sendable {
    var option: String { get }
    var text: String { get }
    /// A value below the range, as typed on the command line (negative where the range starts at 0 or more).
    var refused: String { get }
}

extension OptionRange: DescribedRange {
    var refused: String {
        switch self {
        case let range as OptionRange<Int>: String(range.lowest > 0 ? -range.lowest : -1)
        case let range as OptionRange<Double>: range.show(range.lowest > 0 ? -range.lowest : -1)
        default: "-1"
        }
    }
}
