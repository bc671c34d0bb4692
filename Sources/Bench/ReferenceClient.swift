import Foundation
package import Processes
import RemoteTouchProtocol
package import RigControl
package import ScenarioDriver

/// `hil bench --reference`'s plain client for one path, a program of its own on another stack: for the ble write
/// paths (`python-dbus`, `python-fd`) Rigs/reference/bench_client.py on dbus-python, for the network transports
/// (`python-tcp`, `python-udp`) Rigs/reference/net_bench_client.py on Python's standard library, run in the phone's
/// network namespace as hil's own sender's sockets are. Each streams the commands hil's own sender would, writes
/// each one's CLOCK_MONOTONIC send time and payload to a file (`<ns> <payload>` a line, the peripheral's receipts
/// are matched to these), and prints a summary, `{"sent": N, "achievedHz": R, "blocked": B}`, as its last line.
package struct ReferenceClient: Sendable, Equatable {
    /// The bench path it measures (`python-tcp`).
    package var path: String
    /// The program and the arguments that choose the link, before each stream's own.
    package var command: [String]
    /// The script, for messages.
    package var script: String

    package static let python = "/usr/bin/python3"

    /// bench_client.py on `characteristic` (the command characteristic's object path), by `writePath` (dbus or fd).
    package static func ble(script: String, writePath: String, characteristic: String) -> ReferenceClient {
        ReferenceClient(
            path: "python-" + writePath,
            command: [python, script, "--characteristic", characteristic, "--write-path", writePath], script: script)
    }

    /// net_bench_client.py on `transport` (tcp or udp), given the computer host's address (no Bonjour: discovery is
    /// not what is measured) and its port (by default the one `hil peripheral` serves `transport` on: 51423 for tcp,
    /// the control port 8889 for udp, and the movement port 8888), pairing with the code from `codeFile`; run in the
    /// phone host's network namespace through `ip` (`ip netns exec`), or where hil runs when `ip` is nil.
    package static func network(script: String, transport: String, hosts: NetworkHosts, codeFile: String, ip: String?,
                                port: UInt16? = nil, udpPort: UInt16 = MovementService.udpPort) -> ReferenceClient
    {
        let ports = transport == "udp"
            ? ["--port", String(port ?? MovementService.controlPort), "--udp-port", String(udpPort)]
            : ["--port", String(port ?? NetworkService.port)]
        let inside = ip.map { [$0, "netns", "exec", hosts.phoneNetns] } ?? []
        return ReferenceClient(
            path: "python-" + transport,
            command: inside + [python, script, "--transport", transport, "--address", hosts.computerAddress] + ports
                + ["--code-file", codeFile],
            script: script)
    }

    /// The whole command line for one stream of `count` commands at `rate` Hz, its send times to `sends`.
    package func arguments(rate: Double, count: Int, sends: String) -> [String] {
        command + ["--rate", String(rate), "--count", String(count), "--sends", sends]
    }

    /// What one stream sent, as the client reported it.
    package struct Outcome: Sendable, Equatable {
        package var achievedHz: Double
        package var blocked: Int
        package var sends: [StageBreakdown.Send]
    }

    /// Runs one stream; `name` is where its output (`.out`) and send times (`.sends`) go.
    /// - Throws: `BenchError` when it does not finish in time or its outcome cannot be read (`outcome`).
    package func run(rate: Double, count: Int, name: String) async throws -> Outcome {
        let line = arguments(rate: rate, count: count, sends: name + ".sends")
        try? FileManager.default.removeItem(atPath: name + ".sends")
        let child = try ChildProcess(line[0], Array(line.dropFirst()), output: .file(name + ".out"), ownProcessGroup: true)
        let limit = Duration.seconds(Double(count) / rate + 60)
        guard let ended = await child.exitStatus(timeout: limit) else {
            _ = await child.teardown()
            throw BenchError(
                .timeout, "the reference client (\(path), \(script)) did not finish \(count) commands within \(limit); its output is in \(name).out")
        }
        let output = (try? String(contentsOfFile: name + ".out", encoding: .utf8)) ?? ""
        let sends = try? String(contentsOfFile: name + ".sends", encoding: .utf8)
        return try outcome(ended: ended, output: output, sends: sends, name: name)
    }

    /// The outcome of a stream from how the client ended, what it printed and its send times (nil: no file).
    /// - Throws: `BenchError` naming the client and quoting what it printed: it failed, printed no summary, wrote
    ///   no send times, a line that is not `<ns> <payload>`, or another number of sends than its summary says.
    package func outcome(ended: ChildProcess.Termination, output: String, sends: String?, name: String) throws(BenchError)
        -> Outcome
    {
        let printed = output.split(separator: "\n").suffix(5).joined(separator: " | ")
        func failure(_ what: String) -> BenchError {
            BenchError(.commandFailed, "the reference client (\(path), \(script)) \(what); it printed: \(printed.isEmpty ? "nothing" : printed)"
                + " (all of it in \(name).out)")
        }
        guard ended == .exited(0) else { throw failure("\(ended)") }
        guard let last = output.split(separator: "\n").last(where: { $0.hasPrefix("{") }),
              let summary = try? JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any],
              let sent = summary["sent"] as? Int, let achieved = (summary["achievedHz"] as? NSNumber)?.doubleValue,
              let blocked = summary["blocked"] as? Int
        else {
            throw failure("printed no summary line ({\"sent\": N, \"achievedHz\": R, \"blocked\": B})")
        }
        guard let sends else { throw failure("wrote no send times to \(name).sends") }
        var times: [StageBreakdown.Send] = []
        for (number, line) in sends.split(separator: "\n").enumerated() {
            guard let space = line.firstIndex(of: " "), let at = UInt64(line[..<space]), line.index(after: space) < line.endIndex
            else {
                throw failure("wrote line \(number + 1) of \(name).sends as \"\(line.prefix(80))\", not \"<CLOCK_MONOTONIC ns> <payload>\"")
            }
            times.append(.init(at: at, payload: String(line[line.index(after: space)...])))
        }
        guard times.count == sent else {
            throw failure("said it sent \(sent) command(s) but wrote \(times.count) send time(s) to \(name).sends")
        }
        return Outcome(achievedHz: achieved, blocked: blocked, sends: times)
    }
}
