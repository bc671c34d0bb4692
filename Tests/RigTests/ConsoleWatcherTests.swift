import Foundation
import HILTestSupport
@testable import Rig
import Testing

@Suite("The guest's console, read in arbitrary chunks")
struct ConsoleWatcherTests {
    @Test("a character cut by a chunk boundary is held back, never shown as U+FFFD")
    func cutCharacters() throws {
        let text = "[1/13] PASSED back — 6 steps, 13 ms; 緑 ✔ 🟢\n"
        let bytes = Array(text.utf8)
        // Every split point, including those inside the 2-, 3- and 4-byte characters.
        for cut in 0...bytes.count {
            let shown = Locked("")
            let log = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/null"))
            let watcher = ConsoleWatcher(log: log, console: { piece in shown.value += piece }, start: .now)
            watcher.consume(Data(bytes[..<cut]))
            watcher.consume(Data(bytes[cut...]))
            watcher.finish()
            #expect(shown.value == text, "split at byte \(cut)")
        }
    }

    @Test("invalid bytes are not held forever: at most 3 bytes wait for the next chunk")
    func boundedHold() {
        #expect(ConsoleWatcher.completeUTF8Prefix([0x41, 0xE2, 0x80]) == 1)
        #expect(ConsoleWatcher.completeUTF8Prefix([0x41, 0xE2, 0x80, 0x94]) == 4)
        #expect(ConsoleWatcher.completeUTF8Prefix([0x80, 0x80, 0x80, 0x80]) == 4)
        #expect(ConsoleWatcher.completeUTF8Prefix([0x41, 0xF0]) == 1)
        #expect(ConsoleWatcher.completeUTF8Prefix([]) == 0)
    }
}
