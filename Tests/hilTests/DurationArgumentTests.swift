import ArgumentParser
@testable import hil
import Testing

/// `DurationArgument`: the one way a time is written on hil's command line.
@Suite("DurationArgument: a number with a unit, or a bare number in the option's old unit")
struct DurationArgumentTests {
    @Test("a number with a unit", arguments: [
        ("250ms", Duration.milliseconds(250)), ("30s", .seconds(30)), ("5m", .seconds(300)), ("1h", .seconds(3600)),
        ("1.5s", .milliseconds(1500)), ("0.5m", .seconds(30)), ("0s", .zero),
    ])
    func withUnit(_ text: String, _ expected: Duration) throws {
        #expect(try #require(DurationArgument<BareSeconds>(argument: text)).duration == expected)
        #expect(try #require(DurationArgument<BareMinutes>(argument: text)).duration == expected)
        #expect(try #require(DurationArgument<BareMilliseconds>(argument: text)).duration == expected)
    }

    @Test("a bare number keeps the option's old unit")
    func bare() {
        #expect(DurationArgument<BareSeconds>(argument: "1800")?.duration == .seconds(1800))
        #expect(DurationArgument<BareMinutes>(argument: "30")?.duration == .seconds(1800))
        #expect(DurationArgument<BareMilliseconds>(argument: "500")?.duration == .milliseconds(500))
        #expect(DurationArgument<BareSeconds>(argument: "2.5")?.duration == .milliseconds(2500))
    }

    @Test("anything else is refused", arguments: [
        "5 parsecs", "5parsecs", "", "s", "ms", ".s", "-5s", "5 s", "1e3s", "inf", "nan", "5sec", "1.2.3s", "5S", "1d",
        "99999999999h",
    ])
    func refused(_ text: String) {
        #expect(DurationArgument<BareSeconds>(argument: text) == nil)
    }

    @Test("help shows a value in the largest unit that keeps it whole", arguments: [
        (Duration.seconds(1800), "30m"), (.seconds(900), "15m"), (.seconds(5), "5s"), (.milliseconds(500), "500ms"),
        (.seconds(7200), "2h"), (.seconds(90), "90s"), (.milliseconds(1500), "1500ms"), (.zero, "0s"),
    ])
    func description(_ duration: Duration, _ expected: String) {
        #expect(DurationArgument<BareSeconds>(duration).defaultValueDescription == expected)
        #expect(DurationArgument<BareSeconds>(argument: expected)?.duration == duration)
    }

    @Test("--help lists the forms, and the help text says what a bare number is")
    func help() {
        #expect(DurationArgument<BareSeconds>.allValueStrings == ["<n>ms", "<n>s", "<n>m", "<n>h"])
        let help = DurationArgument<BareMinutes>.help("How long.")
        #expect(help.abstract == "How long. A bare number is minutes.")
        #expect(help.valueName == "duration")
    }

    @Test("soak's whole minutes")
    func wholeMinutes() {
        #expect(DurationArgument<BareMinutes>(argument: "2h")?.wholeMinutes == 120)
        #expect(DurationArgument<BareMinutes>(argument: "90s")?.wholeMinutes == nil)
    }
}
