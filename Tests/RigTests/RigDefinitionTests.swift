import Foundation
import Rig
import RigControl
import StrictJSON
import Testing

let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
let rigsFolder = packageRoot.appendingPathComponent("Rigs").path

@Suite("Rig files")
struct RigDefinitionTests {
    @Test("the shipped rigs load: vm, virtual, hardware")
    func shipped() throws {
        let catalog = try RigCatalog(directory: rigsFolder)
        #expect(Set(catalog.rigs.map(\.name)) == ["vm", "virtual", "hardware"])
        let vm = try catalog.rig(named: "vm")
        #expect(vm.kind == .vm)
        #expect(vm.peripheralAdapter == "hci0" && vm.centralAdapter == "hci1")
        #expect(vm.machine?.memoryMiB == 2048)
        #expect(vm.uinputDeviceName == RigDefinition.defaultUinputDeviceName)
        #expect(try catalog.rig(named: "hardware").bluetoothd == .system)
    }

    @Test("an unknown rig name lists the known ones")
    func unknownName() throws {
        let catalog = try RigCatalog(directory: rigsFolder)
        #expect(throws: RigError.self) { try catalog.rig(named: "lab") }
        do {
            _ = try catalog.rig(named: "lab")
        } catch {
            #expect(error.hint == "choose one of: auto, hardware, virtual, vm")
        }
    }

    @Test("every problem of a broken rig file is named with its JSON path")
    func brokenFile() throws {
        let value = try JSONParser().parse(#"""
            {"name": "lab", "description": "x", "kind": "cloud", "peripheralAdapter": "usb0",
             "centralAdapter": "hci1", "controllers": "btvirt", "bluetoothd": "private",
             "connection": {"minIntervalMs": 5, "maxIntervalMs": 15, "latency": 1000},
             "uinputDeviceName": "", "latencyScale": 0, "extra": 1}
            """#)
        do {
            _ = try RigDefinition.parse(value)
            Issue.record("parsed")
        } catch {
            #expect(error.problems.map(\.description) == [
                "extra: unknown key; allowed here: \"name\", \"description\", \"kind\", \"peripheralAdapter\", \"centralAdapter\", \"controllers\", \"bluetoothd\", \"connection\", \"uinputDeviceName\", \"latencyScale\", \"machine\", \"virtualAdapters\", \"radio\", \"gattChannels\", \"stageLimits\"",
                "kind: unknown value \"cloud\"; expected one of \"hardware\", \"virtual\", \"vm\"",
                "peripheralAdapter: expected an adapter name like \"hci0\", found \"usb0\"",
                "connection.minIntervalMs: 5 is outside 7.5...4000",
                "connection.latency: expected a whole number in 0...499, found 1000",
                "uinputDeviceName: a uinput device name has 1 to 79 bytes, found 0",
                "latencyScale: 0 is outside 0.1...100",
            ])
        }
    }

    @Test("virtualAdapters: true or false, on a hardware rig only")
    func virtualAdapters() throws {
        func parse(_ kind: String, _ value: String) throws -> Result<RigDefinition, RigFileProblems> {
            let text = #"{"name": "box", "description": "x", "kind": "\#(kind)", "peripheralAdapter": "hci0", "centralAdapter": "hci1", "controllers": "existing", "bluetoothd": "system", "virtualAdapters": \#(value)}"#
            let value = try JSONParser().parse(Array(text.utf8))
            return Result { () throws(RigFileProblems) in try RigDefinition.parse(value) }
        }
        #expect(try parse("hardware", "true").get().virtualAdapters)
        #expect(try !parse("hardware", "false").get().virtualAdapters)
        #expect(try !catalog().rig(named: "hardware").virtualAdapters)
        guard case .failure(let onVirtual) = try parse("virtual", "true"), case .failure(let notBool) = try parse("hardware", "\"yes\"") else {
            Issue.record("accepted")
            return
        }
        #expect(onVirtual.problems.map(\.description) == ["virtualAdapters: only a rig of kind \"hardware\" takes virtualAdapters: the virtual rig's adapters are virtual anyway"])
        #expect(notBool.problems.map(\.description) == ["virtualAdapters: expected true or false"])
    }

    func catalog() throws -> RigCatalog { try RigCatalog(directory: rigsFolder) }

    @Test("same adapter twice, a machine on a non-vm rig, missing keys")
    func structuralProblems() throws {
        let value = try JSONParser().parse(#"""
            {"name": "x", "kind": "virtual", "peripheralAdapter": "hci0", "centralAdapter": "hci0",
             "controllers": "btvirt", "bluetoothd": "private", "machine": {"cpus": 2}}
            """#)
        do {
            _ = try RigDefinition.parse(value)
            Issue.record("parsed")
        } catch {
            let text = error.problems.map(\.description)
            #expect(text.contains("(document): missing required key \"description\""))
            #expect(text.contains("centralAdapter: the central needs its own adapter, not hci0 again"))
            #expect(text.contains("machine: only a rig of kind \"vm\" has a machine"))
        }
    }

    @Test("machine.stopGraceSeconds: 30 s when absent, a rig file's own value, out of 1...600 refused with its path")
    func stopGrace() throws {
        let vm = try RigCatalog(directory: rigsFolder).rig(named: "vm")
        #expect(vm.machine?.stopGraceSeconds == 30)
        let base = #"{"name": "v", "description": "d", "kind": "vm", "peripheralAdapter": "hci0", "centralAdapter": "hci1", "controllers": "btvirt", "bluetoothd": "private", "machine": "#
        let five = try RigDefinition.parse(try JSONParser().parse(base + #"{"stopGraceSeconds": 5}}"#))
        #expect(five.machine?.stopGraceSeconds == 5)
        for (bad, problem) in [
            ("0", "machine.stopGraceSeconds: expected a whole number in 1...600, found 0"),
            ("601", "machine.stopGraceSeconds: expected a whole number in 1...600, found 601"),
            ("2.5", "machine.stopGraceSeconds: expected a whole number in 1...600, found 2.5"),
        ] {
            let value = try JSONParser().parse(base + #"{"stopGraceSeconds": "# + bad + "}}")
            do {
                _ = try RigDefinition.parse(value)
                Issue.record("parsed stopGraceSeconds \(bad)")
            } catch {
                #expect(error.problems.map(\.description) == [problem])
            }
        }
    }

    @Test("a broken file in a rig folder is reported with its file name; a missing one too")
    func catalogErrors() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hil-rigs-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(#"{"name": "vm", "kind": "vm""#.utf8).write(to: folder.appendingPathComponent("vm.json"))
        do {
            _ = try RigCatalog(directory: folder.path)
            Issue.record("loaded")
        } catch {
            #expect(error.code == .rigFile)
            #expect(error.what.hasPrefix(folder.appendingPathComponent("vm.json").path + ": not valid JSON: line 1"))
        }
        #expect(throws: RigError.self) { try RigCatalog.load(folder.appendingPathComponent("nope.json").path) }
        #expect(throws: RigError.self) { try RigCatalog(directory: folder.appendingPathComponent("none").path) }
    }
}
