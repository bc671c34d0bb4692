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
        let waiter = Task { () throws -> ContinuousClock.Instant in
            _ = try await signal.wait()
            return ContinuousClock.now
        }
        try await Task.sleep(for: .milliseconds(100))
        let written = ContinuousClock.now
        _ = FileManager.default.createFile(atPath: path, contents: Data())
        let released = try await waiter.value
        #expect(released >= written, "it returned before the file was written")
    }

    @Test("a file that is there already releases at once")
    func alreadyThere() async throws {
        let path = NSTemporaryDirectory() + "start-signal-\(UUID().uuidString)"
        _ = FileManager.default.createFile(atPath: path, contents: Data())
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try await StartSignal(path: path).wait() < .seconds(1))
    }

    @Test("a held computer whose starter has gone stops waiting, and says why")
    func starterGone() async throws {
        var signal = StartSignal(path: NSTemporaryDirectory() + "start-signal-\(UUID().uuidString)")
        signal.starter = getppid() + 1_000_000
        let error = await #expect(throws: PeripheralError.self) { try await signal.wait() }
        #expect(error?.what.contains("the process that started it (pid \(signal.starter)) has gone") == true)
    }
}
