import Foundation
import HILTestSupport
import Rig
import Testing

/// `hil run --capture failed` (the default) on the rig: a scenario that fails on ble, hid and udp leaves its captures
/// (hci.btsnoop or network.pcap, evdev.log, timeline.json), listed in results.json, attached in junit.xml and linked
/// from the HTML report; Debian's tshark decodes them down to the scenario's own payloads; the same swipe that passes
/// leaves none. The suite's own run (SuiteRunOnRig) runs with --capture never: a timeline costs its tshark's start,
/// about 3 s in the TCG guest, and that run has a failure for every shipped scenario.
@Suite("hil run's captures, end to end: a failure's evidence, decoded by tshark", .serialized, .tags(.rig), .inSharedGuest)
struct CapturesOnRig {
    /// swipe-right with a total it cannot reach (150 for a 120 pt swipe), on three transports.
    static func failingSwipe() throws -> String {
        let text = try String(contentsOf: packageRoot.appendingPathComponent("Scenarios/cursor/swipe-right.json"), encoding: .utf8)
        let wrong = text.replacingOccurrences(of: "\"total\": 120", with: "\"total\": 150")
            .replacingOccurrences(of: "\"steps\": [", with: "\"run\": { \"transports\": [\"ble\", \"hid\", \"udp\"] },\n  \"steps\": [")
            .replacingOccurrences(of: "swipe right moves the cursor right", with: "a swipe that cannot reach its total")
        #expect(wrong.contains("150") && wrong.contains("\"udp\""), "the mutation did not apply")
        return wrong
    }

    @Test("a failure on ble, hid and udp leaves its captures and timeline, linked from JUnit and the report; a pass leaves none")
    func failureEvidence() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("hil-captures-\(getpid())")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let scenario = root.appendingPathComponent("failing-swipe.json")
        try Self.failingSwipe().write(to: scenario, atomically: true, encoding: .utf8)
        let output = root.appendingPathComponent("results")
        let run = try await hil(["run", "--transport", "ble,hid,udp", "--output", output.path, scenario.path, "Scenarios/cursor/swipe-right.json"])
        let printed = run.output + run.errors
        #expect(run.status == 1, "\(printed.suffix(3000))")
        #expect(printed.contains("3 passed, 3 failed"), "\(printed.suffix(3000))")

        let resultsData = try Data(contentsOf: output.appendingPathComponent("results.json"))
        let results = try #require(try JSONSerialization.jsonObject(with: resultsData) as? [String: Any])
        let scenarios = try #require(results["scenarios"] as? [[String: Any]])
        var decoded: [Capture] = []
        for record in scenarios {
            let transport = record["transport"] as? String ?? "?"
            let captures = record["captures"] as? [String: String] ?? [:]
            switch record["outcome"] as? String {
            case "failed":
                let expected = transport == "udp" ? ["timeline", "network", "evdev"] : ["timeline", "hci", "evdev"]
                #expect(Set(captures.keys) == Set(expected), "\(transport): \(captures)")
                decoded.append(try Self.checkFiles(captures, transport: transport, output: output))
            case "passed":
                #expect(captures.isEmpty, "a passed scenario kept \(captures)")
                let folder = try Self.folder(of: record, in: output)
                for name in ["hci.btsnoop", "network.pcap", "capture.log", "evdev.log", "timeline.json"] {
                    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path), "a passed scenario's \(name) was left")
                }
                #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("receipts.log").path), "its logs stay")
            default:
                Issue.record("\(transport): \(record["outcome"] ?? "?"): \(record["message"] ?? "")")
            }
        }
        try await Self.expectEveryPayload(decoded, scratch: root)
        let junit = try String(contentsOf: output.appendingPathComponent("junit.xml"), encoding: .utf8)
        #expect(junit.components(separatedBy: "[[ATTACHMENT|").count - 1 == 9, "three captures per failure: \(junit)")
        let html = try String(contentsOf: output.appendingPathComponent("report.html"), encoding: .utf8)
        #expect(html.contains("hci.btsnoop\">HCI capture (btsnoop)</a>"))
        #expect(html.contains("network.pcap\">packet capture (pcap)</a>"))
        #expect(html.components(separatedBy: "<svg class=\"timeline\"").count - 1 == 3, "a timeline strip per failure")
    }

    /// The scenario's folder in the output: where its receipts.log is (every scenario keeps its logs).
    static func folder(of record: [String: Any], in output: URL) throws -> URL {
        if let path = (record["captures"] as? [String: String])?["evdev"] {
            return output.appendingPathComponent(path).deletingLastPathComponent()
        }
        let name = try #require(record["name"] as? String)
        let folders = try FileManager.default.contentsOfDirectory(atPath: output.path).filter { $0.first?.isNumber == true }
        let slug = String(name.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" }.prefix(40))
        let found = try #require(folders.first { $0.hasSuffix(slug) }, "no folder for \(name) among \(folders)")
        return output.appendingPathComponent(found)
    }

    @Test("--capture always: a short passing scenario's capture holds every packet it sent, the last one included, and the interval the rig asked for")
    func shortScenarioCapturedWhole() async throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("hil-captures-whole-\(getpid())")
        defer { try? FileManager.default.removeItem(at: output) }
        // A 1-s swipe: tcpdump without --immediate-mode got the kernel's packets a block a second, and lost the last.
        let run = try await hil(["run", "--capture", "always", "--transport", "ble,udp", "--output", output.path, "Scenarios/cursor/swipe-right.json"])
        let printed = run.output + run.errors
        #expect(run.status == 0 && printed.contains("2 passed, 0 failed"), "\(printed.suffix(3000))")
        let captures = try ["ble", "udp"].enumerated().map { index, transport in
            let folders = try FileManager.default.contentsOfDirectory(atPath: output.path).filter { $0.hasPrefix(String(format: "%03d-", index + 1)) }
            let folder = output.appendingPathComponent(try #require(folders.first, "no folder for scenario \(index + 1) in \(output.path)"))
            return Capture(file: folder.appendingPathComponent(transport == "udp" ? "network.pcap" : "hci.btsnoop").path, receipts: folder,
                           transport: transport)
        }
        try await Self.expectEveryPayload(captures, scratch: output)
        try await Self.expectNegotiatedInterval(in: captures[0].file)
    }

    @Test("the HCI capture's tcpdump killed mid-run (SIGSEGV, as Debian 12's btmon crashed on Bumble phones): the run says so, starts it again, and the next scenario's capture holds its packets")
    func deadCaptureToolStartedAgain() async throws {
        let binary = try hilBinary()
        let output = "/tmp/hil-captures-revive-\(getpid())"
        // Three short scenarios; the HCI capture is killed as soon as the first one's folder appears, so it is dead
        // before the third begins whichever scenario it dies in. (The pattern is anchored: unanchored, it matched this
        // script's own command line.)
        let script = #"""
            set -u
            out='\#(output)'; rm -rf "$out"
            ( n=0; until ls -d "$out"/001-* >/dev/null 2>&1; do n=$((n + 1)); [ $n -lt 1200 ] || exit 0; sleep 0.05; done
              pkill -SEGV -f '^[^ ]*tcpdump -i bluetooth-monitor' && echo "killer: SIGSEGV sent" ) &
            '\#(binary)' run --capture always --output "$out" Scenarios/cursor/swipe-right.json \
                Scenarios/media/tap-and-volume.json Scenarios/cursor/swipe-right.json 2>&1
            echo "hil run exit $?"; wait
            """#
        defer { try? FileManager.default.removeItem(atPath: output) }
        let run = try await RigLock.exclusive { try inGuest("bash", script, seconds: 240) }
        let text = run.output
        #expect(text.contains("killer: SIGSEGV sent"), "\(text.suffix(3000))")
        #expect(text.contains("hil run exit 0") && text.contains("3 passed, 0 failed"), "\(text.suffix(3000))")
        #expect(text.contains("capture: tcpdump on bluetooth-monitor ended mid-run (killed by signal 11); it was started again"), "\(text.suffix(3000))")
        let logs = try FileManager.default.contentsOfDirectory(atPath: output).filter { $0.hasPrefix("00") }.sorted()
            .map { ((try? String(contentsOfFile: "\(output)/\($0)/capture.log", encoding: .utf8)) ?? "") }
        #expect(logs.contains { $0.contains("capture: tcpdump on bluetooth-monitor ended during the run (killed by signal 11)") }, "\(logs)")
        let last = try #require(FileManager.default.contentsOfDirectory(atPath: output).first { $0.hasPrefix("003-") })
        try await Self.expectEveryPayload([Capture(file: "\(output)/\(last)/hci.btsnoop", receipts: URL(fileURLWithPath: "\(output)/\(last)"), transport: "ble")],
                                          scratch: URL(fileURLWithPath: output))
    }

    /// The vm rig's radio model (issue 36) and the rig file's `connection`: in the HCI capture, the central asks for
    /// the rig's interval (LE Create Connection's min and max), its latency and supervision timeout, and both
    /// controllers report them (LE Connection Complete, and any update after). The bridges time the links by that
    /// report, so this is the interval the latencies of the run were measured at.
    static func expectNegotiatedInterval(in capture: String) async throws {
        let environment = ProcessInfo.processInfo.environment
        guard environment["HIL_RADIO_MODEL"] == "connectionEvents", let text = environment["HIL_RADIO_INTERVAL_MS"], let ms = Double(text) else {
            Issue.record("the guest's radio is \(environment["HIL_RADIO_MODEL"] ?? "unnamed"), not connection events: Rigs/vm.json's \"radio\" must be {\"model\": \"connectionEvents\", …} for this check")
            return
        }
        let rig = try RigCatalog(directory: packageRoot.appendingPathComponent("Rigs").path).rig(named: "vm")
        let interval = String(Int((ms / 1.25).rounded()))
        let latency = String(rig.connection.latency), timeout = String(rig.connection.supervisionTimeoutMs / 10)
        let asked = try await run("/usr/bin/tshark", ["-r", capture, "-Y", "bthci_cmd.le_con_interval_max", "-T", "fields",
                                                      "-e", "bthci_cmd.le_con_interval_min", "-e", "bthci_cmd.le_con_interval_max",
                                                      "-e", "bthci_cmd.le_con_latency", "-e", "bthci_cmd.le_supv_timeout"])
        let reported = try await run("/usr/bin/tshark", ["-r", capture, "-Y", "bthci_evt.le_con_interval", "-T", "fields",
                                                         "-e", "hci_mon.adapter_id", "-e", "bthci_evt.le_con_interval",
                                                         "-e", "bthci_evt.le_con_latency", "-e", "bthci_evt.le_supv_timeout"])
        let asks = asked.split(separator: "\n").filter { $0.first?.isNumber == true }
        let reports = reported.split(separator: "\n").filter { $0.first?.isNumber == true }
        let wanted = [interval, interval, latency, timeout].joined(separator: "\t")
        #expect(!asks.isEmpty && asks.allSatisfy { $0 == wanted },
                "the central should ask for \(interval) × 1.25 ms (\(text) ms) as min and max, latency \(latency) and a supervision timeout of \(timeout) × 10 ms (Rigs/vm.json); LE Create Connection asked (min, max, latency, timeout): \(asks)")
        let adapters = Set(reports.compactMap { $0.split(separator: "\t").first })
        #expect(adapters.count == 2 && reports.allSatisfy { $0.hasSuffix("\t" + [interval, latency, timeout].joined(separator: "\t")) },
                "both controllers should report \(interval) × 1.25 ms, latency \(latency), timeout \(timeout) × 10 ms; LE Connection Complete/Update reported (adapter, interval, latency, timeout): \(reports)")
    }

    /// A scenario's capture file, the folder whose receipts.log says what the computer received, and its transport.
    struct Capture {
        var file: String
        var receipts: URL
        var transport: String
    }

    /// Each file is there and not empty; evdev.log has the frames; the timeline has every track. Returns the capture,
    /// for tshark to look for every payload the computer received.
    static func checkFiles(_ captures: [String: String], transport: String, output: URL) throws -> Capture {
        for path in captures.values {
            let size = (try? FileManager.default.attributesOfItem(atPath: output.appendingPathComponent(path).path)[.size] as? Int) ?? 0
            #expect(size > 0, "\(path) is missing or empty")
        }
        let evdevPath = try #require(captures["evdev"])
        let timelinePath = try #require(captures["timeline"])
        let capturePath = try #require(captures[transport == "udp" ? "network" : "hci"])
        let folder = output.appendingPathComponent(evdevPath).deletingLastPathComponent()

        let evdev = try String(contentsOf: output.appendingPathComponent(evdevPath), encoding: .utf8)
        #expect(evdev.hasPrefix("# evdev.log: "))
        #expect(evdev.contains("0002 0000 "), "no REL_X event in evdev.log")
        let timelineData = try Data(contentsOf: output.appendingPathComponent(timelinePath))
        let timeline = try #require(try JSONSerialization.jsonObject(with: timelineData) as? [String: Any])
        let events = try #require(timeline["traceEvents"] as? [[String: Any]])
        let tracks = Set(events.compactMap { $0["cat"] as? String })
        #expect(tracks == ["steps", "phone", "packets", "computer", "uinput", "evdev"], "\(transport): tracks \(tracks)")
        return Capture(file: output.appendingPathComponent(capturePath).path, receipts: folder, transport: transport)
    }

    /// tshark finds every payload the computer received and injected from (`receipts.log`: udp packets, hid
    /// reports, JSON commands), the last one included, in each scenario's capture. The captures are merged into one
    /// pcapng by mergecap, one interface per file in order (`-I none`), so tshark starts once: its start takes about
    /// 7 s in the TCG guest.
    static func expectEveryPayload(_ captures: [Capture], scratch: URL) async throws {
        let merged = scratch.appendingPathComponent("merged.pcapng").path
        _ = try await run("/usr/bin/mergecap", ["-F", "pcapng", "-I", "none", "-w", merged] + captures.map(\.file))
        // EATT: bluetoothd writes over L2CAP channels of PSM 0x27. Told so, tshark 4.0 decodes each channel's ATT on the
        // adapter that opened it; both adapters are in the capture, so every write is an ATT write on one of them.
        let decoded = try await run("/usr/bin/tshark", [
            "-r", merged, "-d", "btl2cap.psm==0x27,btatt", "-Y", "udp || btatt.opcode == 0x52 || btatt.opcode == 0x12",
            "-T", "fields", "-e", "frame.interface_id", "-e", "data", "-e", "btatt.value",
        ])
        var values: [Int: [String]] = [:]
        for line in decoded.split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard let interface = fields.first.flatMap({ Int($0) }) else { continue }
            let value = fields.dropFirst().joined().replacingOccurrences(of: ":", with: "").lowercased()
            values[interface, default: []].append(value)
        }
        for (interface, capture) in captures.enumerated() {
            let wanted = try payloads(in: capture)
            let found = values[interface] ?? []
            let missing = wanted.indices.filter { index in !found.contains { $0.contains(wanted[index]) } }
            #expect(missing.isEmpty, "tshark did not find \(missing.count) of \(wanted.count) received payloads in \(capture.file) (first missing: #\(missing.first ?? 0) \(missing.first.map { wanted[$0] } ?? "")); it decoded \(found.count)")
        }
    }

    /// What the computer received and injected from, as hex: writes that injected something (a motion report, not the
    /// all-zero priming one); `udp aa0a000000 from 10.77.0.2:40000` and `hid 000a00000000` give their bytes.
    static func payloads(in capture: Capture) throws -> [String] {
        let receipts = try String(contentsOf: capture.receipts.appendingPathComponent("receipts.log"), encoding: .utf8)
        var wanted: [String] = []
        for line in receipts.split(separator: "\n") {
            let fields: [Substring] = line.split(separator: " ", maxSplits: 2)
            guard fields.count == 3, fields[1] != "none", fields[1] != "-" else { continue }
            let payload = String(fields[2])
            if capture.transport == "udp" || capture.transport == "hid" {
                guard payload.hasPrefix(capture.transport + " ") else { continue }
                wanted.append(payload.split(separator: " ")[1].lowercased())
            } else if payload.hasPrefix("{") {
                wanted.append(payload.utf8.map { String(format: "%02x", $0) }.joined())
            }
        }
        #expect(!wanted.isEmpty, "no \(capture.transport) payload in \(capture.receipts.path)/receipts.log")
        return wanted
    }

    /// `program`'s output (stdout and stderr, as `runCapturing` gives them); it must exit 0. tshark's note on
    /// running as root comes before any packet line, and no line of it starts with an interface number.
    static func run(_ program: String, _ arguments: [String]) async throws -> String {
        let (status, output) = try await runCapturing(program, arguments)
        #expect(status == 0, "\(program) \(arguments.joined(separator: " ")) exited \(status): \(output.suffix(2000))")
        return output
    }
}
