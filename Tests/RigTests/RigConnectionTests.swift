import Foundation
@testable import Rig
import StrictJSON
import Testing

@Suite("The rig file's connection: what the central asks for, and bluetoothd's main.conf that carries it")
struct RigConnectionTests {
    /// A rig file with `connection` and `radio` (JSON texts, or none).
    func rig(connection: String?, radio: String? = nil, gattChannels: String? = nil) throws -> RigDefinition {
        let extra = (connection.map { #", "connection": \#($0)"# } ?? "") + (radio.map { #", "radio": \#($0)"# } ?? "")
            + (gattChannels.map { #", "gattChannels": \#($0)"# } ?? "")
        return try RigDefinition.parse(JSONParser().parse(#"""
            {"name": "r", "description": "x", "kind": "vm", "peripheralAdapter": "hci0", "centralAdapter": "hci1",
             "controllers": "btvirt", "bluetoothd": "private"\#(extra)}
            """#))
    }

    func problems(_ connection: String) -> [String] {
        do {
            _ = try rig(connection: connection)
            return []
        } catch let error as RigFileProblems {
            return error.problems.map(\.description)
        } catch {
            return ["\(error)"]
        }
    }

    static let le = "MinConnectionInterval=6\nMaxConnectionInterval=12\nConnectionLatency=0\nConnectionSupervisionTimeout=200\n"
    /// One ATT bearer, the default (docs/protocol.md, "Order").
    static let gatt = "[GATT]\nChannels=1\n"

    @Test("immediate radio: the rig file's range, latency and timeout in [LE], in the HCI's units; other keys and groups kept")
    func mainConf() throws {
        let rig = try rig(connection: #"{"minIntervalMs": 7.5, "maxIntervalMs": 15, "latency": 0, "supervisionTimeoutMs": 2000}"#)
        #expect(rig.centralConnection == rig.connection)
        #expect(rig.bluetoothdMainConf(base: "[General]\n[LE]\n#MinConnectionInterval=\nScanIntervalSuspend=60\n[Policy]\nAutoEnable=true\n")
            == "[General]\n[LE]\n" + Self.le + "#MinConnectionInterval=\nScanIntervalSuspend=60\n[Policy]\nAutoEnable=true\n" + Self.gatt)
        // Keys set already are replaced; one in another group is not the LE one.
        #expect(rig.bluetoothdMainConf(base: "[LE]\nMaxConnectionInterval=40\nConnectionLatency=3\nConnectionSupervisionTimeout = 42\n")
            == "[LE]\n" + Self.le + Self.gatt)
        #expect(rig.bluetoothdMainConf(base: "") == "[LE]\n" + Self.le + Self.gatt)
        #expect(rig.bluetoothdMainConf(base: "[BR]\nMaxConnectionInterval=1\n") == "[BR]\nMaxConnectionInterval=1\n[LE]\n" + Self.le + Self.gatt)
    }

    @Test("connection-event radio: the interval is pinned to the radio's; latency and timeout stay the rig file's")
    func pinnedByTheRadio() throws {
        let rig = try rig(connection: #"{"minIntervalMs": 7.5, "maxIntervalMs": 30, "latency": 2, "supervisionTimeoutMs": 4000}"#,
                          radio: #"{"model": "connectionEvents", "intervalMs": 15}"#)
        #expect(rig.centralConnection == RigDefinition.Connection(minIntervalMs: 15, maxIntervalMs: 15, latency: 2, supervisionTimeoutMs: 4000))
        #expect(rig.bluetoothdMainConf(base: "")
            == "[LE]\nMinConnectionInterval=12\nMaxConnectionInterval=12\nConnectionLatency=2\nConnectionSupervisionTimeout=400\n" + Self.gatt)
    }

    @Test("no connection: the defaults (7.5 to 15 ms, latency 0, 2 s)")
    func defaults() throws {
        #expect(try rig(connection: nil).connection == RigDefinition.Connection())
        #expect(try rig(connection: nil).bluetoothdMainConf(base: "") == "[LE]\n" + Self.le + Self.gatt)
    }

    @Test("gattChannels: one ATT bearer unless the rig file says otherwise; [GATT] Channels replaced, the group's other keys kept")
    func gattChannels() throws {
        #expect(try rig(connection: nil).gattChannels == 1)
        // Debian's main.conf has the key commented out: the comment stays, the setting comes first in its group.
        #expect(try rig(connection: nil).bluetoothdMainConf(base: "[GATT]\n#Channels = 3\nCache = always\n[LE]\n")
            == "[GATT]\nChannels=1\n#Channels = 3\nCache = always\n[LE]\n" + Self.le)
        #expect(try rig(connection: nil, gattChannels: "3").bluetoothdMainConf(base: "[GATT]\nChannels = 2\n")
            == "[GATT]\nChannels=3\n[LE]\n" + Self.le)
        for refused in ["0", "6", "1.5", "\"1\""] {
            #expect(throws: RigFileProblems.self, "gattChannels \(refused)") { try rig(connection: nil, gattChannels: refused) }
        }
        // EATT needs L2CAP's enhanced credit-based mode, which Debian's kernel leaves off: the vm guest turns it on.
        #expect(try rig(connection: nil).kernelArguments == [])
        #expect(try rig(connection: nil, gattChannels: "3").kernelArguments == ["bluetooth.enable_ecred=1"])
    }

    @Test("what the Core specification does not allow is refused at its JSON path, with the rule")
    func refused() {
        #expect(problems(#"{"minIntervalMs": 8}"#) == ["connection.minIntervalMs: 8 is not a whole number of 1.25 ms (the HCI's unit)"])
        #expect(problems(#"{"supervisionTimeoutMs": 2005}"#) == ["connection.supervisionTimeoutMs: 2005 is not a whole number of 10 ms (the HCI's unit)"])
        #expect(problems(#"{"minIntervalMs": 30, "maxIntervalMs": 15}"#) == ["connection.maxIntervalMs: 15 is below minIntervalMs 30"])
        #expect(problems(#"{"maxIntervalMs": 100, "latency": 9, "supervisionTimeoutMs": 2000}"#)
            == ["connection.supervisionTimeoutMs: 2000 must be above (1 + latency) × maxIntervalMs × 2 = 2000 ms, or a link with no error would time out"])
        #expect(problems(#"{"minIntervalMs": 5}"#).first?.hasPrefix("connection.minIntervalMs:") == true)
        #expect(problems(#"{"latency": 500}"#).first?.hasPrefix("connection.latency:") == true)
        #expect(problems(#"{"interval": 15}"#).first?.hasPrefix("connection") == true)
    }

    @Test("the shipped rig files' connection blocks parse, and each renders its own [LE]")
    func shipped() throws {
        let catalog = try RigCatalog(directory: packageRoot().appendingPathComponent("Rigs").path)
        for rig in catalog.rigs {
            let text = rig.bluetoothdMainConf(base: "")
            #expect(text.contains("ConnectionSupervisionTimeout=\(rig.connection.supervisionTimeoutMs / 10)\n"), "\(rig.name): \(text)")
        }
    }

    func packageRoot() -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }
}
