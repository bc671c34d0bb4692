import Foundation
import Processes
import Rig

/// `hil doctor`'s lines about the network transports' two hosts and the attacker beside them (`Rigs/net/two-hosts.sh`,
/// `RigNetwork`): inside a rig, each host's namespace, address and (phone and computer) avahi-daemon as they are
/// now, or why there are none; outside, whether this machine has the tools to make them.
enum DoctorNetwork {
    /// Where the tools may be: PATH, and the sbin folders a non-root PATH leaves out.
    private static let searchPath = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin") + ":/usr/sbin:/sbin"

    /// The lines for a process inside a rig.
    static func insideRig(_ environment: RigEnvironment) -> [String] {
        guard let network = environment.network else {
            if environment.rig == RigDefinition.Kind.vm.rawValue {
                return ["  two hosts (network transports): none: the guest printed HIL-NET-ERROR with the reason (its logs: net.log,"
                    + " net-*.log); as root `bash Rigs/net/two-hosts.sh check` lists what is missing"]
            }
            return ["  two hosts (network transports): none in a \(environment.rig ?? "") rig (the vm rig makes them; Rigs/net/two-hosts.sh up makes them on any Linux as root)"]
        }
        var lines = ["  two hosts (network transports) and the attacker on their LAN:"]
        for (name, host) in [("phone", network.phone), ("computer", network.computer)] {
            let problems = problems(netns: host.netns, address: host.address)
            let avahi = avahiState(host)
            let verdict = problems.isEmpty && avahi == "running" ? "ok " : "NO "
            lines.append("    \(verdict) \(name): netns \(host.netns), \(host.address), avahi \(avahi) (bus \(host.bus))")
            lines += problems.map { "        → \($0)" }
            if avahi != "running" && problems.isEmpty {
                lines.append("        → avahi probes its host name for 1 to 3 s after the rig is ready; if it stays so, see net-\(name)-avahi.log")
            }
        }
        lines += attackerLines(network.attacker)
        lines.append("    " + netemLine())
        return lines
    }

    /// Whether this kernel has netem, which the network steps (delay, loss, partition) need; the advice is only what
    /// can work here: `modprobe` when the module is on disk for this kernel, else the vm rig (its guest loads it).
    static func netemLine(root: String = "", release: String = HostFacts.probe().kernelRelease) -> String {
        if FileManager.default.fileExists(atPath: root + "/sys/module/sch_netem") {
            return "ok  netem: sch_netem loaded (network, partition steps)"
        }
        let modules = root + "/lib/modules/\(release)"
        let onDisk = ["", ".xz", ".zst", ".gz"].contains { FileManager.default.fileExists(atPath: modules + "/kernel/net/sched/sch_netem.ko" + $0) }
        return onDisk
            ? "NO  netem: sch_netem not loaded in this kernel: network and partition steps fail here (`sudo modprobe sch_netem`; the vm rig's guest loads it)"
            : "NO  netem: this kernel (\(release)) has no sch_netem and no module to load it from: network and partition steps run in the vm rig (`--rig vm`), whose guest loads it"
    }

    /// The attacker's line: its namespace and address (it has no bus or avahi-daemon), or why there is none.
    private static func attackerLines(_ attacker: RigNetwork.Attacker?) -> [String] {
        guard let attacker else {
            return ["    --  attacker: none (HIL_NET_ATTACKER_NETNS, HIL_NET_ATTACKER_ADDRESS not set); scenarios that forge packets from"
                + " the LAN need it: run them in the vm rig, whose Rigs/net/two-hosts.sh makes it"]
        }
        let problems = problems(netns: attacker.netns, address: attacker.address)
        return ["    \(problems.isEmpty ? "ok " : "NO ") attacker: netns \(attacker.netns), \(attacker.address), on the same LAN (no bus or avahi)"]
            + problems.map { "        → \($0)" }
    }

    /// The line for a machine outside any rig; its fix names the set-up script beside the rig files in use.
    static func outsideRig(rigsDirectory: String? = nil) -> String {
        let tools = ["ip": "iproute2", "avahi-daemon": "avahi-daemon", "avahi-browse": "avahi-utils"]
        let missing = tools.keys.sorted().filter { ChildProcess.resolve($0, path: searchPath) == nil }
        let found = tools.keys.sorted().filter { !missing.contains($0) }
        var line = "  network transports' two hosts (Rigs/net/two-hosts.sh, made in the vm rig's guest): "
        line += found.isEmpty ? "" : "\(found.joined(separator: ", ")) installed"
        if !missing.isEmpty {
            line += (found.isEmpty ? "" : "; ") + "\(missing.joined(separator: ", ")) not installed (Debian: "
                + "\(missing.map { tools[$0]! }.joined(separator: ", "))) → run `bash \(RigAssessment.setupScript(rigsDirectory: rigsDirectory))`"
        }
        return line + "\n  " + netemLine()
    }

    /// What is wrong with a host's namespace or address, each as a fix.
    private static func problems(netns: String, address: String) -> [String] {
        guard FileManager.default.fileExists(atPath: "/run/netns/\(netns)") else {
            return ["namespace \(netns) missing (no /run/netns/\(netns)): as root, `bash Rigs/net/two-hosts.sh up`"]
        }
        guard let text = run("ip", ["-n", netns, "-o", "-4", "addr", "show"]) else {
            return ["cannot list the addresses in \(netns) (`ip -n \(netns) addr` failed; as root?)"]
        }
        guard text.split(separator: "\n").contains(where: { $0.contains(" inet \(address)/") }) else {
            return ["\(address) is on no interface in \(netns): `bash Rigs/net/two-hosts.sh check`"]
        }
        return []
    }

    /// The avahi-daemon's state on the host's bus, in words.
    private static func avahiState(_ host: RigNetwork.Host) -> String {
        let reply = run("dbus-send", [
            "--bus=\(host.bus)", "--print-reply=literal", "--reply-timeout=2000", "--dest=org.freedesktop.Avahi", "/",
            "org.freedesktop.Avahi.Server.GetState",
        ])
        switch reply?.split(separator: " ").last.map(String.init) {
        case "2": return "running"
        case "1": return "registering (probing its host name)"
        case "3": return "in a host name collision"
        case "4": return "failed"
        case let other?: return "in state \(other)"
        case nil: return "not answering on its bus"
        }
    }

    /// A tool's standard output when it exits 0 within 5 s; nil otherwise.
    private static func run(_ tool: String, _ arguments: [String]) -> String? {
        guard let executable = ChildProcess.resolve(tool, path: searchPath),
            let run = try? ChildProcess.runBlocking(executable, arguments: arguments, errors: .inherited, timeout: .seconds(5)),
            run.succeeded
        else { return nil }
        return run.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
