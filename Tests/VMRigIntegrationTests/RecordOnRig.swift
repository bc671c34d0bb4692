import Foundation
import HILTestSupport
import Testing

/// `hil record` end to end on the vm rig: the virtual phone drives the real computer through a session on every
/// transport (`hil run --capture always`), `hil record --from` turns each scenario folder (receipts.log, evdev.log)
/// into a scenario of send steps, and one `hil run` replays the four recordings, which must pass, and their mutated
/// twins (one derived expectation made wrong), which must fail.
@Suite("hil record: sessions recorded from the virtual phone replay and pass on each transport; mutated ones fail", .serialized, .tags(.rig))
struct RecordOnRig {
    static let transports = ["ble", "hid", "tcp", "udp"]

    /// A swipe, a tap, a drag, a scroll and a shortcut, with idle time between them (five segments).
    static let session = RecordingSession.script

    @Test("record on ble, hid, tcp and udp, replay: the recordings pass and their mutants fail", .inSharedGuest)
    func recordAndReplay() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("hil-record-\(getpid())")
        defer { try? FileManager.default.removeItem(at: root) }
        let recordings = root.appendingPathComponent("recordings"), mutants = root.appendingPathComponent("mutants")
        for folder in [recordings, mutants] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        let source = root.appendingPathComponent("session.json")
        try Self.session.write(to: source, atomically: true, encoding: .utf8)

        let sessions = root.appendingPathComponent("sessions")
        let run = try await hil(["run", "--capture", "always", "--transport", Self.transports.joined(separator: ","), "--output", sessions.path, source.path])
        #expect(run.status == 0, "\((run.output + run.errors).suffix(3000))")
        let folders = try Self.folders(in: sessions)
        #expect(Set(folders.keys) == Set(Self.transports), "\(folders)")

        for (transport, folder) in folders.sorted(by: { $0.key < $1.key }) {
            let file = recordings.appendingPathComponent("session-\(transport).json")
            let record = try await hil(["record", "--from", folder.path, "--transport", transport, "--output", file.path])
            #expect(record.status == 0, "\(transport): \(record.output + record.errors)")
            #expect(record.output.contains("in 5 segment(s)"), "\(transport): \(record.output)")
            let text = try String(contentsOf: file, encoding: .utf8)
            #expect(text.contains(transport == "hid" ? "\"report\":" : transport == "udp" ? "\"packet\":" : "\"command\":"), "\(text.prefix(600))")
            let code = try String(contentsOf: folder.appendingPathComponent("pairing-code"), encoding: .utf8)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(!code.isEmpty && !text.contains(code), "\(transport): the pairing code \(code) is in the recording")
            let mutant = try #require(ScenarioMutant(text), "\(transport): nothing to mutate")
            try mutant.text.write(to: mutants.appendingPathComponent("mutant-\(transport).json"), atomically: true, encoding: .utf8)
        }

        let replays = root.appendingPathComponent("replays")
        // --capture never: the four mutants fail, and each failure's capture and timeline would cost btmon's or
        // tcpdump's start and tshark's (about 7 s in the TCG guest); CapturesOnRig proves the captures. --fail-fast:
        // a mutant's wrong expectation is in its first segment, and the four segments after it (5 s) prove nothing.
        let replay = try await hil(["run", "--capture", "never", "--fail-fast", "--output", replays.path, recordings.path, mutants.path])
        let printed = replay.output + replay.errors
        #expect(replay.status == 1, "\(printed.suffix(3000))")
        #expect(printed.contains("4 passed, 4 failed"), "\(printed.suffix(4000))")
        let outcomes = try Self.outcomes(in: replays)
        for transport in Self.transports {
            #expect(outcomes["recorded session on \(transport)"] == "passed:\(transport)", "\(outcomes)")
            #expect(outcomes["mutant: recorded session on \(transport)"] == "failed:\(transport)", "\(outcomes)")
        }
    }

    /// `hil record` live over tcp in the computer host, and a plain client in the phone host that pairs with the code
    /// the computer shows, moves, clicks and presses a shortcut a second apart (three segments); then Ctrl-C, and the
    /// recording and its mutant (the shortcut's key changed) replayed in the same guest.
    static func liveScript(_ binary: String) -> String {
        #"""
        set -u
        # In the shared guest: nothing it started may outlive it (a recorder still serving would answer the next suite).
        trap 'kill $(jobs -p) 2>/dev/null' EXIT
        bash Rigs/net/two-hosts.sh wait 30 || exit 1
        dir=/tmp/hil-live; rm -rf "$dir"; mkdir -p "$dir"
        cat > "$dir/client.py" <<'PY'
        import json, socket, struct, sys, time
        code_file = sys.argv[1]
        s = socket.create_connection(("10.77.0.1", 51423), timeout=5)
        stamp = [0]
        seen = []
        def send(message):
            stamp[0] += 1
            message["timestamp"] = stamp[0]
            body = json.dumps(message, separators=(",", ":")).encode()
            s.sendall(struct.pack(">I", len(body)) + body)
        def receive():
            def exactly(n):
                data = b""
                while len(data) < n:
                    chunk = s.recv(n - len(data))
                    if not chunk:
                        raise SystemExit("the computer closed the connection; last: %r" % (seen[-3:],))
                    data += chunk
                return data
            return json.loads(exactly(struct.unpack(">I", exactly(4))[0]))
        send({"type": "pairingRequest"})
        code = ""
        for _ in range(100):
            try:
                code = open(code_file).read().strip()
            except OSError:
                pass
            if code:
                break
            time.sleep(0.05)
        send({"type": "pair", "code": code})
        while True:
            message = receive()
            seen.append(message)
            if message.get("type") == "pairing" and message["status"]["state"] == "paired":
                break
        print("client: paired", flush=True)
        for _ in range(12):
            send({"type": "mouseMove", "dx": 10, "dy": 0})
            time.sleep(0.016)
        time.sleep(1.0)
        send({"type": "leftClick"})
        time.sleep(1.0)
        send({"type": "keyPress", "key": "c", "modifiers": ["command"]})
        time.sleep(1.0)
        s.close()
        print("client: done", flush=True)
        PY
        '\#(binary)' record --transport tcp --work-dir "$dir/work" --output "$dir/session.json" >"$dir/record.out" 2>&1 &
        rec=$!
        n=0; until grep -q "the computer serves" "$dir/record.out"; do n=$((n + 1)); [ $n -lt 300 ] || { echo "not ready"; cat "$dir/record.out"; exit 1; }; sleep 0.1; done
        ip netns exec "$HIL_NET_PHONE_NETNS" python3 "$dir/client.py" "$dir/work/pairing-code" || { echo "client failed"; cat "$dir/record.out"; tail -20 "$dir/work/peripheral.out"; exit 1; }
        sleep 1; kill -INT $rec  # Ctrl-C ends the recording: nothing received may be lost
        wait $rec; echo "record exit $?"
        cat "$dir/record.out"
        echo "--- session"; cat "$dir/session.json"
        sed -e 's/"KEY_C 1"/"KEY_A 1"/' -e 's/"name": "/"name": "mutant: /' "$dir/session.json" > "$dir/mutant.json"
        '\#(binary)' run --capture never --output "$dir/replay" "$dir/session.json" "$dir/mutant.json" 2>&1 | grep -E '^\[|passed|failed|key event'
        echo "replay exit ${PIPESTATUS[0]}"
        """#
    }

    @Test("live: hil record serves a client over tcp in the vm guest until Ctrl-C; its recording replays and passes, its mutant fails", .inSharedGuest)
    func live() async throws {
        let run = try inGuest("bash", Self.liveScript(try hilBinary()), seconds: 300)
        let text = run.output
        #expect(run.status == 0, "\(text.suffix(3000))")
        #expect(text.contains("client: done") && text.contains("record exit 0"), "\(text.suffix(3000))")
        #expect(text.contains("stopped (Ctrl-C)"), "\(text.suffix(3000))")
        #expect(text.contains("wrote /tmp/hil-live/session.json: 14 write(s) in 3 segment(s)"), "\(text.suffix(3000))")
        let shown = try #require(text.range(of: "pairing code: "), "no pairing code printed: \(text.suffix(2000))").upperBound
        let code = String(text[shown...].prefix(6))
        #expect(code.count == 6 && code.allSatisfy(\.isNumber), "pairing code \(code)")
        let session = try #require(text.range(of: "--- session")).upperBound
        #expect(!text[session...].contains(code), "the pairing code \(code) is in the recording")
        #expect(text.contains("1 passed, 1 failed"), "\(text.suffix(3000))")
        #expect(text.contains("key event 2: expected KEY_A 1, got KEY_C 1"), "\(text.suffix(3000))")
    }

    /// Each transport's scenario folder in a run's output, from results.json (its evdev.log capture's folder).
    static func folders(in output: URL) throws -> [String: URL] {
        var found: [String: URL] = [:]
        for record in try records(in: output) {
            let transport = try #require(record["transport"] as? String)
            let evdev = try #require((record["captures"] as? [String: String])?["evdev"], "\(transport): no evdev.log kept: \(record)")
            found[transport] = output.appendingPathComponent(evdev).deletingLastPathComponent()
        }
        return found
    }

    /// Each scenario's "outcome:transport" by name.
    static func outcomes(in output: URL) throws -> [String: String] {
        var outcomes: [String: String] = [:]
        for record in try records(in: output) {
            outcomes[record["name"] as? String ?? "?"] = "\(record["outcome"] as? String ?? "?"):\(record["transport"] as? String ?? "?")"
        }
        return outcomes
    }

    static func records(in output: URL) throws -> [[String: Any]] {
        let data = try Data(contentsOf: output.appendingPathComponent("results.json"))
        let results = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try #require(results["scenarios"] as? [[String: Any]])
    }
}
