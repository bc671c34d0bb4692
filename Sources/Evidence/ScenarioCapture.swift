import Foundation
import Glibc
package import InputCodes
package import Records
package import Scenario
import Synchronization
import Processes

/// One scenario's captures (docs/results-format.md, "Captures"): its time window in the run's capture files
/// (`RunCapture`: every adapter's HCI traffic for the BLE transports, the phone host's veth for the network ones),
/// cut into the scenario's folder when it keeps its captures, and, at the end, the uinput device's events
/// (`evdev.log`) and, for a scenario that did not pass, its `timeline.json`.
package final class ScenarioCapture: Sendable {
    package let mode: CaptureMode
    package let folder: String
    /// `folder` relative to results.json's folder: capture paths in results.json are.
    package let relativeFolder: String
    /// CLOCK_REALTIME − CLOCK_MONOTONIC in ns when the capture began: the tools stamp packets with the wall clock.
    package let wallOffset: Int64
    /// When the capture began: the timeline's time 0.
    package let origin = MonotonicTime.now()
    /// The run's tool for this scenario's transport, if it runs.
    private let tool: RunCapture.Tool?
    /// When the scenario's window ends (CLOCK_MONOTONIC): set by `stop`.
    private let end = Mutex<MonotonicTime?>(nil)
    private let notes: Mutex<[String]>

    package static let names = (hci: RunCapture.names.hci, network: RunCapture.names.network, evdev: "evdev.log",
                                timeline: "timeline.json", log: RunCapture.names.log)

    /// The scenario's window begins: nothing starts, the run's tools are running already. `revived`: what
    /// `RunCapture.revive` said just before.
    package init(_ mode: CaptureMode, transport: Transport, folder: String, relativeFolder: String, run: RunCapture?,
                 revived: [String] = []) {
        self.mode = mode
        self.folder = folder
        self.relativeFolder = relativeFolder
        tool = run?.tool(for: transport)
        var notes = (run?.notes ?? []) + revived
        if mode != .never && run == nil { notes.append("capture: the run started no capture") }
        self.notes = Mutex(notes)
        wallOffset = Self.wallOffset()
    }

    private static func wallOffset() -> Int64 {
        var wall = timespec(), mono = timespec()
        clock_gettime(CLOCK_REALTIME, &wall)
        clock_gettime(CLOCK_MONOTONIC, &mono)
        return (Int64(wall.tv_sec) - Int64(mono.tv_sec)) * 1_000_000_000 + Int64(wall.tv_nsec) - Int64(mono.tv_nsec)
    }

    /// The scenario's window ends (after its teardown): what the tools saw until now is the scenario's.
    package func stop() {
        end.withLock { $0 = $0 ?? .now() }
    }

    /// Cuts the scenario's window out of the run's file into its folder (editcap, the same format); returns the file,
    /// or nil with a note when it could not.
    private func cut() -> String? {
        guard let tool else { return nil }
        let file = folder + "/" + (tool.kind == "hci" ? Self.names.hci : Self.names.network)
        let end = end.withLock { $0 } ?? .now()
        // editcap takes epoch seconds: -A from (inclusive), -B until (exclusive).
        func epoch(_ nanoseconds: UInt64) -> String { String(format: "%.6f", Double(Int64(nanoseconds) + wallOffset) / 1e9) }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let editcap = try RunCapture.installed("editcap", from: "wireshark-common")
            let cut = try ChildProcess.runBlocking(
                editcap, arguments: ["-F", tool.kind == "hci" ? "btsnoop" : "pcap", "-A", epoch(origin.nanoseconds),
                                     "-B", epoch(end.nanoseconds + 1_000_000), tool.file, file],
                errors: .joined, timeout: .seconds(60))
            if !cut.text.isEmpty { appendToLog(cut.text + "\n") }
            if let ended = tool.child.termination {
                let note = "capture: \(tool.name) ended during the run (\(ended)), so this scenario's \((file as NSString).lastPathComponent) stops where it did; the run starts it again before the next scenario, or says why it could not"
                notes.withLock { $0.append(note) }
                appendToLog(note + "\n")
            }
            // A file still being written may end in a partial packet: editcap says so and exits 2, having cut the rest.
            guard cut.status == 0 || (cut.status == 2 && FileManager.default.fileExists(atPath: file)) else {
                throw EvidenceError(.commandFailed, "editcap exited with status \(cut.status)")
            }
            return file
        } catch {
            notes.withLock { $0.append("capture: cutting this scenario's packets out of \(tool.file) failed: \(error) (capture.log has what editcap said)") }
            return nil
        }
    }

    /// What the scenario leaves: for a result that keeps its captures, `evdev.log` and (when it did not pass) the
    /// timeline are written, and the files are listed; otherwise the captures are deleted. `evidence` (the frames
    /// and receipts) is gathered only for a scenario that keeps its captures. When the run was `interrupted` the
    /// capture files stay as they are, and capture.log says why no timeline was made.
    package func finish(_ result: ScenarioResult, interrupted: Bool = false, evidence gather: () -> ScenarioEvidence) -> [ScenarioResult.Capture] {
        guard mode != .never else { return [] }
        let names = Self.names
        guard mode.keeps(result.outcome) else { return [] }
        let evidence = gather()
        let packets = cut()
        var captures: [ScenarioResult.Capture] = []
        if let tool, let packets {
            captures.append(.init(kind: tool.kind, path: relativeFolder + "/" + (packets as NSString).lastPathComponent))
        }
        if let frames = evidence.frames {
            let text = EvdevLog.text(frames, device: evidence.device, droppedCount: evidence.droppedCount)
            if (try? text.write(toFile: folder + "/" + names.evdev, atomically: true, encoding: .utf8)) != nil {
                captures.append(.init(kind: "evdev", path: relativeFolder + "/" + names.evdev))
            }
        }
        if interrupted {
            appendToLog("no \(names.timeline): the run was interrupted while this scenario ran; its packets are cut as the tools had written them\n")
        } else if result.outcome != .passed {
            var marks: [TraceTimeline.Mark] = []
            var packetNotes: [String] = []
            if let packets {
                let read = PacketTimes.read(packets, wallOffset: wallOffset)
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
