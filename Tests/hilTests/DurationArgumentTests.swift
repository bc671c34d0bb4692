import ArgumentParser
@testable import hil
import Testing

/// `DurationArgument`: the one way a time is written on hil's command line.
@Suite("DurationArgument: a number with a unit, or a bare number, which is seconds for every option")
struct DurationArgumentTests {
    @Test("a number with a unit", arguments: [
        ("250ms", Duration.milliseconds(250)), ("30s", .seconds(30)), ("5m", .seconds(300)), ("1h", .seconds(3600)),
        ("1.5s", .milliseconds(1500)), ("0.5m", .seconds(30)), ("0s", .zero),
    ])
    func withUnit(_ text: String, _ expected: Duration) throws {
        #expect(try #require(DurationArgument(argument: text)).duration == expected)
    }

    @Test("a bare number is seconds")
    func bare() {
        #expect(DurationArgument(argument: "1800")?.duration == .seconds(1800))
        #expect(DurationArgument(argument: "2.5")?.duration == .milliseconds(2500))
        #expect(DurationArgument(argument: "0.25")?.duration == .milliseconds(250))
    }

    @Test("anything else is refused", arguments: [
        "5 parsecs", "5parsecs", "", "s", "ms", ".s", "--5s", "-", "5 s", "1e3s", "inf", "nan", "5sec", "1.2.3s", "5S", "1d",
        "99999999999h",
    ])
    func refused(_ text: String) {
        #expect(DurationArgument(argument: text) == nil)
    }

    @Test("a negative time is read as one, for the option's range to refuse with the range (not as an option)")
    func negative() {
        #expect(DurationArgument(argument: "-5s")?.duration == .seconds(-5))
        #expect(DurationArgument(argument: "-5")?.duration == .seconds(-5))
        #expect(DurationArgument(argument: "-250ms")?.description == "-250ms")
    }

    @Test("help shows a value in the largest unit that keeps it whole", arguments: [
        (Duration.seconds(1800), "30m"), (.seconds(900), "15m"), (.seconds(5), "5s"), (.milliseconds(500), "500ms"),
        (.seconds(7200), "2h"), (.seconds(90), "90s"), (.milliseconds(1500), "1500ms"), (.zero, "0s"),
    ])
    func description(_ duration: Duration, _ expected: String) {
        #expect(DurationArgument(duration).defaultValueDescription == expected)
        #expect(DurationArgument(argument: expected)?.duration == duration)
    }

    @Test("--help lists the forms, and the help text says what a bare number is")
    func help() {
        #expect(DurationArgument.allValueStrings == ["<n>ms", "<n>s", "<n>m", "<n>h"])
        let help = DurationArgument.help("How long.")
        #expect(help.abstract == "How long. A bare number is seconds.")
        #expect(help.valueName == "duration")
    }

    @Test("every time option of every command says a bare number is seconds, and reads one so")
    func everyOption() throws {
        for (command, type) in HelpTests.commands {
            // Each option's block: its line and the indented lines of its help that follow.
            var blocks: [String] = []
            for line in HIL.helpMessage(for: type, columns: 10_000).split(separator: "\n") {
                if line.hasPrefix("  -") { blocks.append(String(line)) } else if !blocks.isEmpty { blocks[blocks.count - 1] += " " + line }
            }
            for block in blocks where block.contains("<duration>") {
                #expect(block.contains("A bare number is seconds."), "hil \(command): \(block)")
            }
        }
        let parsed = [
            try HIL.parseAsRoot(["record", "--transport", "ble", "--output", "x.json", "--gap", "2"]) as? RecordCommand,
        ]
        #expect(parsed.first??.gap.duration == .seconds(2))
        #expect((try HIL.parseAsRoot(["run", "--timeout", "2"]) as? RunCommand)?.timeout?.duration == .seconds(2))
        #expect((try HIL.parseAsRoot(["soak", "--duration", "90s"]) as? SoakCommand)?.duration.duration == .seconds(90))
        #expect((try HIL.parseAsRoot(["soak", "--duration", "120"]) as? SoakCommand)?.duration.duration == .seconds(120))
    }
}
