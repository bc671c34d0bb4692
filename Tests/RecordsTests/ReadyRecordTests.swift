import Foundation
import HILTestSupport
import Records
import Testing

/// The ready file (`hil peripheral --ready-file`): its bytes, written whole, read back, and refused when it is not one.
@Suite("The ready file: one JSON object, written atomically, read back")
struct ReadyRecordTests {
    static let record = ReadyRecord(pid: 4242, adapter: "hci0", uinputDevice: "/dev/input/event3", endpoints: ["ble", "tcp"],
                                    registrations: 2)

    @Test("its bytes are the documented object, keys in order; what is written reads back the same")
    func roundTrip() throws {
        let folder = try TemporaryFolder()
        let path = folder.path + "/ready.json"
        try Self.record.write(to: path)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        // As Apple's JSONEncoder writes it: a slash escaped.
        let expected = #"{"ready":true,"pid":4242,"adapter":"hci0","uinputDevice":"\/dev\/input\/event3","endpoints":["ble","tcp"],"#
            + #""registrations":2}"# + "\n"
        #expect(text == expected, "expected \(expected), wrote \(text)")
        #expect(try ReadyRecord.read(from: path) == Self.record)
        #expect(!FileManager.default.fileExists(atPath: path + ".tmp"), "the temporary file was renamed, not left")
    }

    @Test("no file yet is nil; an unknown device is null and reads back as nil")
    func absentAndUnknown() throws {
        let folder = try TemporaryFolder()
        #expect(try ReadyRecord.read(from: folder.path + "/none.json") == nil)
        var record = Self.record
        record.uinputDevice = nil
        try record.write(to: folder.path + "/ready.json")
        #expect(try String(contentsOfFile: folder.path + "/ready.json", encoding: .utf8).contains(#""uinputDevice":null"#))
        #expect(try ReadyRecord.read(from: folder.path + "/ready.json") == record)
    }

    @Test("a file that is not a ready record is refused, naming the file and what a ready record is")
    func notAReadyRecord() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write(#"{"ready":false,"pid":1}"#, to: "ready.json")
        let error = try #require(throws: ReportError.self) { try ReadyRecord.read(from: path) }
        #expect(error.file == path)
        #expect(error.description.hasPrefix("\(path): not a ready record: {\"ready\":false,\"pid\":1}"), "\(error)")
        #expect(error.hint?.contains("hil peripheral --ready-file") == true, "\(error)")
    }
}
