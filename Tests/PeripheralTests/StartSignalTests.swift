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
        let waiter = Task { () -> ContinuousClock.Instant in
            _ = await signal.wait()
            return ContinuousClock.now
        }
        try await Task.sleep(for: .milliseconds(100))
        let written = ContinuousClock.now
        FileManager.default.createFile(atPath: path, contents: Data())
        let released = await waiter.value
        #expect(released >= written, "it returned before the file was written")
    }

    @Test("a file that is there already releases at once")
    func alreadyThere() async throws {
        let path = NSTemporaryDirectory() + "start-signal-\(UUID().uuidString)"
        FileManager.default.createFile(atPath: path, contents: Data())
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(await StartSignal(path: path).wait() < .seconds(1))
    }
}
