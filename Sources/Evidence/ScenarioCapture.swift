import Foundation
import Glibc
package import InputCodes
package import Records
package import Rig
package import Scenario
package import ScenarioDriver
import Synchronization
import PhoneLinks

/// One scenario's captures, started before its computer and phone and stopped after them (docs/results-format.md,
/// "Captures"): every adapter's HCI traffic from the kernel's monitor channel (`btmon -w`, btsnoop) for the
/// BLE transports, the phone host's veth (`tcpdump -w`, pcap) for the network ones, and, at the end, the uinput
/// device's events (`evdev.log`) and, for a scenario that did not pass, its `timeline.json`.
///
/// The tools write their own formats; this only starts, stops and keeps or deletes their files. A tool that cannot
/// start costs the scenario nothing but that file: the reason is a note in the timeline and in `capture.log`.
package final class ScenarioCapture: Sendable {
    package struct Tool: Sendable {
        package var kind: String
        package var file: String
        package var child: ChildProcess
    }

    package let mode: CaptureMode
    package let folder: String
    /// `folder` relative to results.json's folder: capture paths in results.json are.
    package let relativeFolder: String
    /// CLOCK_REALTIME − CLOCK_MONOTONIC in ns when the capture began: the tools stamp packets with the wall clock.
    package let wallOffset: Int64
    /// When the capture began: the timeline's time 0.
    package let origin = MonotonicTime.now()
    private let tools: [Tool]
    private let notes: Mutex<[String]>

    package static let names = (hci: "hci.btsnoop", network: "network.pcap", evdev: "evdev.log", timeline: "timeline.json",
                        log: "capture.log")

    private init(mode: CaptureMode, folder: String, relativeFolder: String, tools: [Tool], notes: [String]) {
        self.mode = mode
        self.folder = folder
        self.relativeFolder = relativeFolder
        self.tools = tools
        self.notes = Mutex(notes)
        wallOffset = Self.wallOffset()
    }

    /// Starts the tools for `transport` and waits until each captures (at most 5 s each).
    package static func start(_ mode: CaptureMode, transport: Transport, folder: String, relativeFolder: String, adapter: String,
                      phoneNetns: String?) async -> ScenarioCapture
    {
        guard mode != .never else { return ScenarioCapture(mode: mode, folder: folder, relativeFolder: relativeFolder, tools: [], notes: []) }
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var tools: [Tool] = []
        var notes: [String] = []
        do {
            if transport.isNetwork {
                guard let phoneNetns else { throw RunnerError("no phone host to capture on") }
                tools.append(try await startTcpdump(netns: phoneNetns, folder: folder))
            } else {
                tools.append(try await startBtmon(adapter: adapter, folder: folder))
            }
        } catch {
            notes.append("capture: \(error)")
        }
        return ScenarioCapture(mode: mode, folder: folder, relativeFolder: relativeFolder, tools: tools, notes: notes)
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
        let interface = try TCPPhoneLink.vethInterface(in: netns)
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
    private static func installed(_ program: String, from package: String) throws -> String {
        guard let path = ChildProcess.resolve(program) else {
            throw RunnerError("\(program) (Debian's \(package)) is not installed: run `bash Rigs/setup.sh`")
        }
        return path
    }

    /// Starts the program at `path`, its output appended to capture.log.
    private static func spawn(_ path: String, _ arguments: [String], folder: String) throws -> ChildProcess {
        try ChildProcess(path, arguments, output: .appending(folder + "/" + names.log), ownProcessGroup: true)
    }

    private static func waitUntil(_ what: String, _ child: ChildProcess, _ ready: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(5)
        while !ready() {
            if let ended = child.termination { throw RunnerError("\(what): it \(ended) (capture.log has its output)") }
            if ContinuousClock.now > deadline {
                _ = await child.teardown(TeardownStep.interrupt)
                throw RunnerError("\(what): not ready within 5 s (capture.log has its output)")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    private static func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }

    private static func wallOffset() -> Int64 {
        var wall = timespec(), mono = timespec()
        clock_gettime(CLOCK_REALTIME, &wall)
        clock_gettime(CLOCK_MONOTONIC, &mono)
        return (Int64(wall.tv_sec) - Int64(mono.tv_sec)) * 1_000_000_000 + Int64(wall.tv_nsec) - Int64(mono.tv_nsec)
    }

    /// Stops the tools (Ctrl-C: each flushes and closes its file).
    package func stop() async {
        for tool in tools {
            let ended = await tool.child.teardown(TeardownStep.interrupt)
            if ended.status != 0 && ended.status != 128 + SIGINT {
                notes.withLock { $0.append("capture: \(tool.kind) tool \(ended) when stopped (capture.log has its output)") }
            }
        }
    }

    /// What the scenario leaves: for a result that keeps its captures, `evdev.log` and (when it did not pass) the
    /// timeline are written, and the files are listed; otherwise the captures are deleted. `evidence` (the frames
    /// and receipts) is gathered only for a scenario that keeps its captures. When the run was `interrupted` the
    /// capture files stay as they are, and capture.log says why no timeline was made.
    package func finish(_ result: ScenarioResult, interrupted: Bool = false, evidence gather: () -> ScenarioEvidence) -> [ScenarioRecord.Capture] {
        guard mode != .never else { return [] }
        let names = Self.names
        guard mode.keeps(result.outcome) else {
            for name in [names.hci, names.network, names.log] { try? FileManager.default.removeItem(atPath: folder + "/" + name) }
            return []
        }
        let evidence = gather()
        var captures = tools.filter { FileManager.default.fileExists(atPath: $0.file) }
            .map { ScenarioRecord.Capture(kind: $0.kind, path: relativeFolder + "/" + ($0.file as NSString).lastPathComponent) }
        if let frames = evidence.frames {
            let text = EvdevLog.text(frames, device: evidence.device, droppedCount: evidence.droppedCount)
            if (try? text.write(toFile: folder + "/" + names.evdev, atomically: true, encoding: .utf8)) != nil {
                captures.append(.init(kind: "evdev", path: relativeFolder + "/" + names.evdev))
            }
        }
        if interrupted {
            appendToLog("no \(names.timeline): the run was interrupted while this scenario ran; the capture files are as the tools left them\n")
        } else if result.outcome != .passed {
            var marks: [TraceTimeline.Mark] = []
            var packetNotes: [String] = []
            for tool in tools {
                let read = PacketTimes.read(tool.file, wallOffset: wallOffset)
                marks += read.marks
                packetNotes += read.notes
            }
            var timeline = evidence.timeline(result, packets: marks, origin: origin)
            timeline.notes += notes.withLock { $0 } + packetNotes
            if (try? timeline.json.write(toFile: folder + "/" + names.timeline, atomically: true, encoding: .utf8)) != nil {
                captures.insert(.init(kind: "timeline", path: relativeFolder + "/" + names.timeline), at: 0)
            }
        }
        return captures
    }

    /// Adds a line to capture.log (the tools' output).
    private func appendToLog(_ line: String) {
        let path = folder + "/" + Self.names.log
        guard let handle = FileHandle(forWritingAtPath: path) else {
            try? line.write(toFile: path, atomically: false, encoding: .utf8)
            return
        }
        defer { try? handle.close() }
        _ = try? handle.seekToEnd()
        try? handle.write(contentsOf: Data(line.utf8))
    }
}
