import Foundation
import Processes
@testable import RigControl
import Testing

@Suite("netem through tc: the command lines, and what a kernel without sch_netem answers")
struct NetemTests {
    @Test("conditions become netem's arguments")
    func arguments() {
        #expect(Netem.arguments(delayMs: 20, jitterMs: 5, lossPercent: 5)
            == ["delay", "20.0ms", "5.0ms", "distribution", "normal", "loss", "5.0%"])
        #expect(Netem.arguments(delayMs: 0, lossPercent: 100) == ["delay", "0.0ms", "loss", "100.0%"])
    }

    /// On this host the step either really puts netem on an interface (tc shows it) or fails saying the kernel has
    /// no sch_netem — never passes without doing it. (This project's CI host has no sch_netem; the vm guest has.)
    @Test("in a fresh network namespace, netem is applied, or refused with the reason")
    func onThisHost() throws {
        let netns = "hil-netem-test-\(getpid())"
        try Self.ip(["netns", "add", netns])
        defer { _ = try? Self.ip(["netns", "del", netns]) }
        try Self.ip(["-n", netns, "link", "set", "lo", "up"])
        do {
            try Netem.apply(Netem.arguments(delayMs: 20, lossPercent: 5), on: "lo", in: netns)
            let shown = try Self.run("/usr/sbin/tc", ["-n", netns, "qdisc", "show", "dev", "lo"])
            #expect(shown.contains("netem") && shown.contains("delay 20ms") && shown.contains("loss 5%"), "\(shown)")
            try Netem.apply(nil, on: "lo", in: netns)
            #expect(!(try Self.run("/usr/sbin/tc", ["-n", netns, "qdisc", "show", "dev", "lo"])).contains("netem"))
        } catch let error as RigError {
            #expect(error.what.contains("Specified qdisc kind is unknown"), "\(error)")
            #expect(error.what.contains("this kernel has no sch_netem"), "\(error)")
        }
        // Removing what is not there is no error.
        try Netem.apply(nil, on: "lo", in: netns)
    }

    @discardableResult
    static func ip(_ arguments: [String]) throws -> String { try run("/usr/sbin/ip", arguments) }

    static func run(_ path: String, _ arguments: [String]) throws -> String {
        let run = try ChildProcess.runBlocking(path, arguments: arguments, errors: .joined, timeout: .seconds(10))
        guard run.succeeded else { throw RigError(.fault, "\(path) \(arguments.joined(separator: " ")): \(run.standardOutput)") }
        return run.standardOutput
    }
}
