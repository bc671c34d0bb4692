import Foundation
import NetSocket
import Synchronization
import RigControl
package import Scenario
package import Processes
import Waiting

/// The run's capture tools, started once for the whole run instead of once a scenario: `tcpdump -i bluetooth-monitor`
/// (every adapter's HCI traffic from the kernel's monitor channel, as libpcap reads it) when a scenario runs on ble or
/// hid, `tcpdump` on the phone host's veth when one runs on tcp or udp, each writing pcap. A scenario that keeps its
/// captures cuts its own time window out of these files when it ends (`ScenarioCapture`, with editcap: the HCI one
/// as btsnoop); the run's files are deleted when it stops.
///
/// Not btmon: Debian 12's (BlueZ 5.66) decodes every packet it writes, and crashed with SIGSEGV on a Bumble phone's
/// traffic (at an EATT set-up, and at a hid write request of its second connection: 2 runs of 2, issue 52), leaving
/// the rest of the run uncaptured. tcpdump writes what the channel gives and decodes nothing.
///
/// The tools write their own formats; this only starts and stops them. A tool that cannot start costs the run
/// nothing but that capture: the reason goes into every scenario's capture notes.
package final class RunCapture: Sendable {
    package struct Tool: Sendable {
        package var kind: String
        package var file: String
        package var child: ChildProcess

        /// The program, for messages.
        package var name: String { kind == "hci" ? "tcpdump on bluetooth-monitor" : "tcpdump" }
    }

    package let mode: CaptureMode
    /// Where the run's files and the tools' output (capture.log) are.
    package let folder: String
    /// The tools running now, and every one that ran (a tool started again replaces the one that ended).
    private let tools: Mutex<(current: [Tool], all: [Tool])>
    /// Why a tool the run needed did not start.
    package let notes: [String]
    /// The computer's adapter and the phone host, as the tools were started for them: a tool is started again alike.
    private let adapter: String
    private let phoneNetns: String?

    /// The scenarios' files (`hci` cut as btsnoop), the run's HCI file, and the tools' output.
    package static let names = (hci: "hci.btsnoop", network: "network.pcap", log: "capture.log", monitor: "hci-monitor.pcap")

    private init(mode: CaptureMode, folder: String, tools: [Tool], notes: [String], adapter: String, phoneNetns: String?) {
        self.mode = mode
        self.folder = folder
        self.tools = Mutex((tools, tools))
        self.notes = notes
        self.adapter = adapter
        self.phoneNetns = phoneNetns
    }

    /// Starts the tools the run's `transports` need, and waits until each captures (at most 5 s each).
    /// - Parameters:
    ///   - folder: a folder of the run's own (created), on a local file system when the rig has one.
    ///   - adapter: the computer's adapter, for the message when the HCI capture does not start.
    ///   - phoneNetns: the phone host's network namespace, where tcpdump captures; nil when the rig has none.
    package static func start(_ mode: CaptureMode, transports: Set<Transport>, folder: String, adapter: String,
                              phoneNetns: String?) async -> RunCapture
    {
        guard mode != .never else { return RunCapture(mode: mode, folder: folder, tools: [], notes: [], adapter: adapter, phoneNetns: phoneNetns) }
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var tools: [Tool] = []
        var notes: [String] = []
        if transports.contains(where: { !$0.isNetwork }) {
            do {
                tools.append(try await startMonitor(adapter: adapter, folder: folder))
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
        return RunCapture(mode: mode, folder: folder, tools: tools, notes: notes, adapter: adapter, phoneNetns: phoneNetns)
    }

    /// The tool whose file holds `transport`'s packets, if it runs.
    package func tool(for transport: Transport) -> Tool? {
        tools.withLock { $0.current }.first { $0.kind == (transport.isNetwork ? "network" : "hci") }
    }

    /// Starts again, into a file of its own, each tool that ended since it was started, and says so: the scenarios
    /// from here on are captured (btmon, before tcpdump took its place, crashed mid-run, and the scenarios after it
    /// kept captures that stopped there). Called before a scenario's window begins; a scenario already running keeps
    /// the file it had, which ends where its tool did.
    package func revive() async -> [String] {
        var notes: [String] = []
        for tool in tools.withLock({ $0.current }) {
            guard let ended = tool.child.termination else { continue }
            let generation = tools.withLock { state in state.all.filter { $0.kind == tool.kind }.count } + 1
            let file = folder + "/" + (tool.kind == "hci" ? "hci-monitor-\(generation).pcap" : "network-\(generation).pcap")
            do {
                let again = tool.kind == "hci" ? try await Self.startMonitor(adapter: adapter, folder: folder, file: file)
                    : try await Self.startTcpdump(netns: phoneNetns ?? "", folder: folder, file: file)
                tools.withLock { state in
                    state.current = state.current.map { $0.file == tool.file ? again : $0 }
                    state.all.append(again)
                }
                notes.append("capture: \(tool.name) had ended (\(ended)) and was started again before this scenario; the captures of the scenario it ended in stop there")
            } catch {
                notes.append("capture: \(tool.name) had ended (\(ended)) and did not start again: \(error)")
            }
        }
        return notes
    }

    /// Stops the tools (Ctrl-C: each flushes and closes its file) and deletes the run's files: every scenario that
    /// keeps its captures has cut its own by then. Returns what went wrong, for the run's problems.
    package func stop() async -> [String] {
        var problems: [String] = []
        for tool in tools.withLock({ $0.all }) {
            let before = tool.child.termination
            let ended = await tool.child.teardown(TeardownStep.interrupt)
            if let before {
                let now = tools.withLock { $0.current }.contains { $0.file == tool.file }
                problems.append("capture: \(tool.name) ended mid-run (\(before))" + (now ? ", and was not started again" : "; it was started again")
                    + " (\(folder)/\(Self.names.log) has its output; a crash shows in the rig's dmesg.log)")
            } else if ended.status != 0 && ended.status != 128 + SIGINT {
                problems.append("capture: \(tool.name) \(ended) when stopped (\(folder)/\(Self.names.log) has its output)")
            }
        }
        if problems.isEmpty { try? FileManager.default.removeItem(atPath: folder) }
        return problems
    }

    /// Every controller's packets, the computer's and the phone's (a connection that never completes shows on the
    /// phone's side: its LE Create Connection and what became of it); with several lanes, every lane's.
    private static func startMonitor(adapter: String, folder: String, file: String? = nil) async throws -> Tool {
        let file = file ?? folder + "/" + names.monitor
        let tcpdump = try installed("tcpdump", from: "tcpdump")
        // As for the network: -U and --immediate-mode, each packet read and written as it comes; -Z root, the file is
        // on the shared folder.
        let child = try spawn(tcpdump, ["-i", "bluetooth-monitor", "--immediate-mode", "-U", "-Z", "root", "-w", file], folder: folder)
        try await waitUntil("tcpdump capturing bluetooth-monitor (the computer's adapter is \(adapter))", child) {
            ((try? String(contentsOfFile: folder + "/" + names.log, encoding: .utf8)) ?? "").contains("listening on bluetooth-monitor")
        }
        return Tool(kind: "hci", file: file, child: child)
    }

    private static func startTcpdump(netns: String, folder: String, file: String? = nil) async throws -> Tool {
        let file = file ?? folder + "/" + names.network
        let interface = try NetworkNamespace.vethInterface(in: netns)
        let ip = try installed("ip", from: "iproute2")
        let tcpdump = try installed("tcpdump", from: "tcpdump")
        // -Z root: the file is on the shared folder, written as who runs hil; -U: each packet written as it comes;
        // --immediate-mode: each packet read as it comes. Without it the kernel hands packets over in blocks, every
        // second or so, and a scenario that ended sooner lost its last packets (5 of 47 kept in a 1-s tcp swipe).
        let child = try spawn(ip, ["netns", "exec", netns, tcpdump, "-i", interface, "-n", "--immediate-mode", "-U", "-Z", "root", "-w", file],
                              folder: folder)
        try await waitUntil("tcpdump capturing \(interface) in \(netns)", child) {
            ((try? String(contentsOfFile: folder + "/" + names.log, encoding: .utf8)) ?? "").contains("listening on \(interface)")
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
}
