import Foundation
import NetSocket
import RigControl
package import Scenario
package import Processes
import Waiting

/// The run's capture tools, started once for the whole run instead of once a scenario: `btmon -w` (every adapter's
/// HCI traffic from the kernel's monitor channel, btsnoop) when a scenario runs on ble or hid, `tcpdump -w` on the
/// phone host's veth (pcap) when one runs on tcp or udp. A scenario that keeps its captures cuts its own time window
/// out of these files when it ends (`ScenarioCapture`, with editcap); the run's files are deleted when it stops.
///
/// The tools write their own formats; this only starts and stops them. A tool that cannot start costs the run
/// nothing but that capture: the reason goes into every scenario's capture notes.
package final class RunCapture: Sendable {
    package struct Tool: Sendable {
        package var kind: String
        package var file: String
        package var child: ChildProcess
    }

    package let mode: CaptureMode
    /// Where the run's files and the tools' output (capture.log) are.
    package let folder: String
    private let tools: [Tool]
    /// Why a tool the run needed did not start.
    package let notes: [String]

    package static let names = (hci: "hci.btsnoop", network: "network.pcap", log: "capture.log")

    private init(mode: CaptureMode, folder: String, tools: [Tool], notes: [String]) {
        self.mode = mode
        self.folder = folder
        self.tools = tools
        self.notes = notes
    }

    /// Starts the tools the run's `transports` need, and waits until each captures (at most 5 s each).
    /// - Parameters:
    ///   - folder: a folder of the run's own (created), on a local file system when the rig has one.
    ///   - adapter: the computer's adapter, for the message when btmon does not start.
    ///   - phoneNetns: the phone host's network namespace, where tcpdump captures; nil when the rig has none.
    package static func start(_ mode: CaptureMode, transports: Set<Transport>, folder: String, adapter: String,
                              phoneNetns: String?) async -> RunCapture
    {
        guard mode != .never else { return RunCapture(mode: mode, folder: folder, tools: [], notes: []) }
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var tools: [Tool] = []
        var notes: [String] = []
        if transports.contains(where: { !$0.isNetwork }) {
            do {
                tools.append(try await startBtmon(adapter: adapter, folder: folder))
            } catch {
                notes.append("capture: \(error)")
            }
        }
        if transports.contains(where: \.isNetwork) {
            do {
                guard let phoneNetns else { throw EvidenceError(.hosts, "no phone host to capture on") }
                tools.append(try await startTcpdump(netns: phoneNetns, folder: folder))
            } catch {
                notes.append("capture: \(error)")
            }
        }
        return RunCapture(mode: mode, folder: folder, tools: tools, notes: notes)
    }

    /// The tool whose file holds `transport`'s packets, if it runs.
    package func tool(for transport: Transport) -> Tool? {
        tools.first { $0.kind == (transport.isNetwork ? "network" : "hci") }
    }

    /// Stops the tools (Ctrl-C: each flushes and closes its file) and deletes the run's files: every scenario that
    /// keeps its captures has cut its own by then. Returns what went wrong, for the run's problems.
    package func stop() async -> [String] {
        var problems: [String] = []
        for tool in tools {
            let ended = await tool.child.teardown(TeardownStep.interrupt)
            if ended.status != 0 && ended.status != 128 + SIGINT {
                problems.append("capture: \(tool.kind) tool \(ended) when stopped (\(folder)/\(Self.names.log) has its output)")
            }
        }
        if problems.isEmpty { try? FileManager.default.removeItem(atPath: folder) }
        return problems
    }

    /// Every controller's packets, the computer's and the phone's (a connection that never completes shows on the
    /// phone's side: its LE Create Connection and what became of it); with several lanes, every lane's.
    private static func startBtmon(adapter: String, folder: String) async throws -> Tool {
        let file = folder + "/" + names.hci
        let btmon = try installed("btmon", from: "bluez")
        // btmon prints every packet it writes, decoded: that text goes nowhere, its errors to capture.log.
        let child = try spawn("/bin/sh", ["-c", "exec \"$0\" \"$@\" >/dev/null", btmon, "-w", file], folder: folder)
        // btmon writes the btsnoop header, then the monitor channel's replay of every index.
        try await waitUntil("btmon capturing (the computer's adapter is \(adapter))", child) { fileSize(file) > 16 }
        return Tool(kind: "hci", file: file, child: child)
    }

    private static func startTcpdump(netns: String, folder: String) async throws -> Tool {
        let file = folder + "/" + names.network
        let interface = try NetworkNamespace.vethInterface(in: netns)
        let ip = try installed("ip", from: "iproute2")
        let tcpdump = try installed("tcpdump", from: "tcpdump")
        // -Z root: the file is on the shared folder, written as who runs hil; -U: each packet written as it comes;
        // --immediate-mode: each packet read as it comes. Without it the kernel hands packets over in blocks, every
        // second or so, and a scenario that ended sooner lost its last packets (5 of 47 kept in a 1-s tcp swipe).
        let child = try spawn(ip, ["netns", "exec", netns, tcpdump, "-i", interface, "-n", "--immediate-mode", "-U", "-Z", "root", "-w", file],
                              folder: folder)
        try await waitUntil("tcpdump capturing \(interface) in \(netns)", child) {
            ((try? String(contentsOfFile: folder + "/" + names.log, encoding: .utf8)) ?? "").contains("listening on")
        }
        return Tool(kind: "network", file: file, child: child)
    }

    /// `program`'s path on PATH, or the error that names its Debian package and the set-up that installs it.
    package static func installed(_ program: String, from package: String) throws -> String {
        guard let path = ChildProcess.resolve(program) else {
            throw EvidenceError(
                .missingTool, "\(program) (Debian's \(package)) is not installed: run `bash Rigs/setup.sh`")
        }
        return path
    }

    /// Starts the program at `path`, its output appended to capture.log.
    private static func spawn(_ path: String, _ arguments: [String], folder: String) throws -> ChildProcess {
        try ChildProcess(path, arguments, output: .appending(folder + "/" + names.log), ownProcessGroup: true)
    }

    private static func waitUntil(_ what: String, _ child: ChildProcess, _ ready: () -> Bool) async throws {
        do {
            _ = try await Poll.until(what, timeout: .seconds(5)) { () throws -> Bool? in
                if let ended = child.termination { throw EvidenceError(.commandFailed, "\(what): it \(ended) (capture.log has its output)") }
                return ready() ? true : nil
            }
        } catch is WaitTimeout {
            _ = await child.teardown(TeardownStep.interrupt)
            throw EvidenceError(.timeout, "\(what): not ready within 5 s (capture.log has its output)")
        }
    }

    private static func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }
}
