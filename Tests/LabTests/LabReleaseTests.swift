import Foundation
import HILTestSupport
@testable import Lab
import Testing

/// Giving places back on every way out, against a stand-in for labgrid-client (a shell script that logs its
/// arguments): the real coordinator is exercised by LabOnRig.
@Suite("A lab run gives back what it holds, on errors too")
struct LabReleaseTests {
    /// A fake labgrid-client: logs every call; `reserve` hands out T1, T2…; `lock` fails for the token in FAIL_LOCK.
    static func fakeClient(failLock: String?, failUnlock: String? = nil) async throws -> (client: String, log: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fake-labgrid-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let log = folder.appendingPathComponent("calls").path
        let script = """
            #!/bin/sh
            echo "$*" >> '\(log)'
            shift 2   # -x COORDINATOR
            place=""; if [ "$1" = "-p" ]; then place="$2"; shift 2; fi
            case "$1" in
              reserve) n=$(grep -c '^-x [^ ]* reserve' '\(log)'); echo "export LG_TOKEN=T$n" ;;
              wait) exit 0 ;;
              lock) [ "$place" = "+\(failLock ?? "none")" ] && { echo "labgrid-client: Error: Match box2/box2/* has no matching remote resource" >&2; exit 1; }
                    echo "acquired place box${place#+T}" ;;
              unlock) [ "$place" = "\(failUnlock ?? "none")" ] && { echo "labgrid-client: Error: coordinator gone" >&2; exit 1; }; echo "released place $place" ;;
              cancel-reservation) exit 0 ;;
              *) exit 0 ;;
            esac
            """
        let client = folder.appendingPathComponent("labgrid-client").path
        try await writeExecutable(script, to: client)
        return (client, log)
    }

    static func run(_ client: String, places: Int) throws -> LabRun {
        let labgrid = try Labgrid(client: client, coordinator: "127.0.0.1:1")
        let settings = LabRun.Settings(places: places, tags: ["kind=hil"], runArguments: ["Scenarios"],
                                       output: FileManager.default.temporaryDirectory.appendingPathComponent("lab-out-\(UUID().uuidString)").path,
                                       sshConfig: nil, reserveTimeout: .seconds(5), timeout: nil)
        return LabRun(labgrid: labgrid, settings: settings) { _ in }
    }

    @Test("a lock that fails: exit 69 (no usable rig), the place already locked is unlocked and both reservations cancelled")
    func lockFails() async throws {
        let (client, log) = try await Self.fakeClient(failLock: "T2")
        let outcome = await (try Self.run(client, places: 2)).execute()
        #expect(outcome.status == 69, "no usable rig: a place could not be locked")
        #expect(outcome.record.outcome == "error")
        let calls = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map { String($0.dropFirst("-x 127.0.0.1:1 ".count)) }
        #expect(calls.contains("-p box1 unlock"), "\(calls)")
        #expect(calls.contains("cancel-reservation T1") && calls.contains("cancel-reservation T2"), "\(calls)")
        #expect(!calls.contains("-p box2 unlock"), "a place never locked was unlocked: \(calls)")
    }

    @Test("a place that cannot be unlocked is reported, the rest is still given back")
    func unlockFails() async throws {
        let (client, log) = try await Self.fakeClient(failLock: nil, failUnlock: "box1")
        let labgrid = try Labgrid(client: client, coordinator: "127.0.0.1:1")
        let hold = LabHold(labgrid)
        hold.add(token: "T1")
        hold.add(place: "box1")
        hold.add(place: "box2")
        let (released, failed) = await hold.releaseAll()
        #expect(released == ["box2"])
        #expect(failed.count == 1 && failed[0].contains("place box1") && failed[0].contains("coordinator gone"), "\(failed)")
        let again = await hold.releaseAll()
        #expect(again.released.isEmpty && again.failed.isEmpty, "given back twice")
        let calls = try String(contentsOfFile: log, encoding: .utf8)
        #expect(calls.contains("cancel-reservation T1"))
    }

    @Test("labgrid-client not installed: the error says how to install it")
    func noClient() {
        do {
            _ = try Labgrid(client: "/nonexistent/labgrid-client", coordinator: "127.0.0.1:1")
            Issue.record("no error")
        } catch {
            #expect(error.description.contains("bash Rigs/labgrid/venv.sh"))
        }
    }
}
