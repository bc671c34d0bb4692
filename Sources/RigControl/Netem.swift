import Foundation
import Processes

/// The kernel's netem qdisc on a host's interface, through `tc` (iproute2): how a `network` or `partition` step
/// delays, drops and cuts the network between the rig's hosts. The one owner of the `tc` command lines.
package enum Netem {
    /// `delay D [J distribution normal] [loss L%]`.
    package static func arguments(delayMs: Double, jitterMs: Double = 0, lossPercent: Double = 0) -> [String] {
        var arguments = ["delay", "\(delayMs)ms"]
        if jitterMs > 0 { arguments += ["\(jitterMs)ms", "distribution", "normal"] }
        if lossPercent > 0 { arguments += ["loss", "\(lossPercent)%"] }
        return arguments
    }

    /// `tc -n NETNS qdisc replace dev IFACE root netem ARGS`, or `qdisc del` for nil (nothing to delete is fine).
    /// - Throws: `RigError` `.fault` with tc's answer; on a kernel without sch_netem, saying so. `SystemError` when tc
    ///   cannot be started or does not answer within 10 s.
    package static func apply(_ arguments: [String]?, on interface: String, in netns: String) throws {
        let command = ["-n", netns, "qdisc"]
            + (arguments.map { ["replace", "dev", interface, "root", "netem"] + $0 } ?? ["del", "dev", interface, "root"])
        let run = try ChildProcess.runBlocking("/usr/sbin/tc", arguments: command, errors: .joined, timeout: .seconds(10))
        let output = run.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !run.succeeded else { return }
        if arguments == nil && (output.contains("No such file") || output.contains("Cannot delete qdisc with handle of zero")) { return }
        throw RigError(.fault, "tc \(command.joined(separator: " ")) failed: \(output)\(hint(output))")
    }

    /// What tc's answer means for a rig.
    package static func hint(_ output: String) -> String {
        output.contains("qdisc kind is unknown")
            ? " (this kernel has no sch_netem: network faults need a kernel with it, such as the vm rig's guest, which loads it)" : ""
    }
}
