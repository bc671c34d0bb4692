import Foundation
package import NetSocket
import Processes

/// A network namespace of the rig's hosts (`NetworkHosts`), through `ip` (iproute2): its veth interface and the
/// interface's state. The one owner of those `ip` command lines; the phone links' faults, the capture and the
/// delay injector use it. (The namespace itself, and entering it for a socket, is NetSocket's.)
extension NetworkNamespace {
    /// `ip -n NETNS link set IFACE up|down`.
    package static func setLink(_ interface: String, in netns: String, up: Bool) throws {
        _ = try ip(["-n", netns, "link", "set", interface, up ? "up" : "down"])
    }

    /// The host's end of the veth pair (`ip -n NETNS -o link show type veth`: `5: hilp0@if4: <…>`).
    package static func vethInterface(in netns: String) throws -> String {
        let output = try ip(["-n", netns, "-o", "link", "show", "type", "veth"])
        guard let line = output.split(separator: "\n").first, let name = line.split(separator: ":").dropFirst().first?
            .trimmingCharacters(in: .whitespaces).split(separator: "@").first
        else { throw RigError(.fault, "no veth interface in the network namespace \(netns) (ip -n \(netns) link shows none)") }
        return String(name)
    }

    /// What `ip ARGUMENTS` printed (stdout and stderr together).
    /// - Throws: `RigError` `.fault` with its answer when it fails; `SystemError` when it cannot be started or does not
    ///   answer within 10 s.
    private static func ip(_ arguments: [String]) throws -> String {
        let run = try ChildProcess.runBlocking("/usr/sbin/ip", arguments: arguments, errors: .joined, timeout: .seconds(10))
        guard run.succeeded else {
            throw RigError(.fault, "ip \(arguments.joined(separator: " ")) failed: \(run.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))")
        }
        return run.standardOutput
    }
}
