import ArgumentParser
@testable import hil
import Testing

/// A time option of some command: where it is, how to read its value back, and the message of its range check for
/// a well-formed time outside it.
struct TimeOption: Sendable, CustomTestStringConvertible {
    var before: [String]
    var option: String
    var after: [String] = []
    var range: String?
    var value: @Sendable (any ParsableCommand) -> Duration?

    func arguments(_ value: String) -> [String] { before + [option, value] + after }
    var testDescription: String { (before + [option]).joined(separator: " ") }

    static let all: [TimeOption] = [
        TimeOption(before: ["run"], option: "--timeout", range: "--timeout takes 1s or more") { ($0 as? RunCommand)?.timeout?.duration },
        TimeOption(before: ["bench"], option: "--timeout", range: "--timeout takes 1s or more") { ($0 as? BenchCommand)?.timeout.duration },
        TimeOption(before: ["bench"], option: "--rung-duration", range: "--rung-duration takes 1s to 1m") {
            ($0 as? BenchCommand)?.rungDuration.duration
        },
        TimeOption(before: ["soak"], option: "--duration", range: "--duration takes 1m to 24h") {
            ($0 as? SoakCommand)?.duration.duration
        },
        TimeOption(before: ["record", "--transport", "ble", "--output", "x.json"], option: "--gap") {
            ($0 as? RecordCommand)?.gap.duration
        },
        TimeOption(before: ["record", "--transport", "ble", "--output", "x.json"], option: "--duration", range: "--duration takes 1s or more") {
            ($0 as? RecordCommand)?.duration?.duration
        },
        TimeOption(before: ["peripheral"], option: "--lockout", range: "--lockout takes 1s or more") {
            ($0 as? PeripheralCommand)?.lockout.duration
        },
        TimeOption(before: words("vm exec"), option: "--timeout", after: ["--", "true"], range: "--timeout takes 1s or more") {
            ($0 as? VMExecCommand)?.job.timeout.duration
        },
        TimeOption(before: words("rig exec"), option: "--timeout", after: ["--", "true"], range: "--timeout takes 1s or more") {
            ($0 as? RigExecCommand)?.job.timeout.duration
        },
        TimeOption(before: ["lab", "run"], option: "--reserve-timeout", range: "--reserve-timeout takes 1s or more") { ($0 as? LabRunCommand)?.reserveTimeout.duration },
        TimeOption(before: ["lab", "run"], option: "--timeout", range: "--timeout takes 1s or more") { ($0 as? LabRunCommand)?.timeout?.duration },
    ]
}

@Suite("every time option takes a duration: 250ms, 30s, 5m; and refuses 5 parsecs")
struct TimeOptionTests {
    @Test("250ms, 30s and 5m are read as such (or refused by the option's range, never as malformed)",
          arguments: TimeOption.all)
    func accepted(_ option: TimeOption) {
        var read = 0
        for (text, duration) in [("250ms", Duration.milliseconds(250)), ("30s", .seconds(30)), ("5m", .seconds(300))] {
            let (command, message) = parse(option.arguments(text))
            if let command {
                read += 1
                #expect(option.value(command) == duration, "\(option.testDescription) \(text)")
            } else {
                #expect(option.range.map(message.contains) == true, "\(option.testDescription) \(text): \(message)")
            }
        }
        #expect(read >= 1)
    }

    @Test("5 parsecs is refused with the accepted forms", arguments: TimeOption.all)
    func refused(_ option: TimeOption) {
        let (command, message) = parse(option.arguments("5 parsecs"))
        #expect(command == nil)
        #expect(message.contains("The value '5 parsecs' is invalid for '\(option.option) <duration>'"), "\(message)")
        for form in ["<n>ms", "<n>s", "<n>m", "<n>h"] {
            #expect(message.contains("'\(form)'"), "\(option.testDescription): \(message)")
        }
    }

    @Test("its help names the value duration, lists the forms and says what a bare number is", arguments: TimeOption.all)
    func help(_ option: TimeOption) throws {
        let command = option.before.prefix { !$0.hasPrefix("-") }.joined(separator: " ")
        let line = try HelpTests.entry("\(option.option) <duration>", of: command)
        #expect(line.contains("(values: <n>ms, <n>s, <n>m, <n>h"), "\(line)")
        #expect(line.contains("A bare number is "), "\(line)")
    }
}
