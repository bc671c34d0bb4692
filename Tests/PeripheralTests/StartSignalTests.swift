import Foundation
import Testing

@testable import Peripheral

@Suite("A held computer goes on when its start file appears")
struct StartSignalTests {
    @Test("wait returns only once the file exists")
    func waitsForTheFile() async throws {
        let path = NSTemporaryDirectory() + "start-signal-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let signal = StartSignal(path: path)
        let waiter = Task { await signal.wait() }
        try await Task.sleep(for: .milliseconds(100))
        #expect(!FileManager.default.fileExists(atPath: path))
        FileManager.default.createFile(atPath: path, contents: Data())
        let held = await waiter.value
        #expect(held >= .milliseconds(100), "it returned before the file was written")
    }

    @Test("a file that is there already releases at once")
    func alreadyThere() async throws {
        let path = NSTemporaryDirectory() + "start-signal-\(UUID().uuidString)"
        FileManager.default.createFile(atPath: path, contents: Data())
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(await StartSignal(path: path).wait() < .seconds(1))
    }
}
