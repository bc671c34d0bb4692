@testable import Evdev
import Foundation
import Testing

/// `waitForDevice`'s search, on a fake /sys/class/input and /dev/input in a temporary folder: woken by the nodes made
/// in the dev folder (inotify), not by a timer.
@Suite("Finding an evdev node by name")
struct InputDeviceDirectoryTests {
    /// A temporary sysfs + dev pair that removes itself.
    final class FakeInput: Sendable {
        let root: URL
        let directory: InputDeviceDirectory

        /// - Parameter withDev: make the dev folder now (false: `makeDev` later, as the first input device does).
        init(withDev: Bool = true) throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("hil-evdev-\(UUID().uuidString)")
            for folder in withDev ? ["sys", "dev"] : ["sys"] {
                try FileManager.default.createDirectory(
                    at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
            }
            directory = InputDeviceDirectory(
                sysfs: root.appendingPathComponent("sys").path, dev: root.appendingPathComponent("dev").path)
        }

        deinit { try? FileManager.default.removeItem(at: root) }

        /// Lists `eventN` named `name`, and makes its node unless told not to.
        func add(_ node: String, named name: String, withNode: Bool = true) throws {
            let device = root.appendingPathComponent("sys/\(node)/device")
            try FileManager.default.createDirectory(at: device, withIntermediateDirectories: true)
            try Data((name + "\n").utf8).write(to: device.appendingPathComponent("name"))
            if withNode { try Data().write(to: root.appendingPathComponent("dev/\(node)")) }
        }

        func addNode(_ node: String) throws {
            try Data().write(to: root.appendingPathComponent("dev/\(node)"))
        }

        func makeDev() throws {
            try FileManager.default.createDirectory(at: root.appendingPathComponent("dev"), withIntermediateDirectories: false)
        }
    }

    @Test("entries are the eventN interfaces by number, names without the newline; other entries ignored")
    func entries() throws {
        let fake = try FakeInput()
        try fake.add("event10", named: "Ten")
        try fake.add("event2", named: "Two")
        try FileManager.default.createDirectory(
            at: fake.root.appendingPathComponent("sys/input4"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            at: fake.root.appendingPathComponent("sys/mice"), withIntermediateDirectories: true)
        let entries = fake.directory.entries()
        let expected = [InputDeviceDirectory.Entry(node: "event2", name: "Two"), .init(node: "event10", name: "Ten")]
        #expect(entries == expected, "expected \(expected), got \(entries)")
    }

    @Test("a device that is already there is found at once")
    func foundAtOnce() async throws {
        let fake = try FakeInput()
        try fake.add("event0", named: "Power Button")
        try fake.add("event3", named: "RemoteTouch test")
        let start = ContinuousClock.now
        let node = try await fake.directory.waitForDevice(named: "RemoteTouch test", timeout: .seconds(2))
        #expect(node == fake.root.appendingPathComponent("dev/event3").path)
        #expect(ContinuousClock.now - start < .milliseconds(200))
    }

    /// The waits below have a timeout far beyond the test's time limit: only the node's creation can end them in time.
    /// (No bound on how soon: a full run's other tests can hold the pool's two threads for seconds.)
    @Test("a device that appears later is found when its node is made, and only once its node exists", .timeLimit(.minutes(1)))
    func appearsLater() async throws {
        let fake = try FakeInput()
        // Another thread plays the kernel.
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: 0.1)
            try? fake.add("event7", named: "late", withNode: false)
            Thread.sleep(forTimeInterval: 0.1)
            try? fake.addNode("event7")
        }
        let start = ContinuousClock.now
        let node = try await fake.directory.waitForDevice(named: "late", timeout: .seconds(3600))
        let elapsed = ContinuousClock.now - start
        #expect(node == fake.root.appendingPathComponent("dev/event7").path)
        #expect(elapsed >= .milliseconds(200), "returned after \(elapsed), before the node existed")
    }

    @Test("the machine's first input device: the dev folder appears, then the node in it", .timeLimit(.minutes(1)))
    func devFolderAppearsLater() async throws {
        let fake = try FakeInput(withDev: false)
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: 0.1)
            try? fake.add("event0", named: "first", withNode: false)
            try? fake.makeDev()
            Thread.sleep(forTimeInterval: 0.1)
            try? fake.addNode("event0")
        }
        let node = try await fake.directory.waitForDevice(named: "first", timeout: .seconds(3600))
        #expect(node == fake.root.appendingPathComponent("dev/event0").path)
    }

    @Test("nothing by that name: a timeout after the asked time, listing what is there", .timeLimit(.minutes(1)))
    func timeout() async throws {
        let fake = try FakeInput()
        try fake.add("event0", named: "Power Button")
        let start = ContinuousClock.now
        let thrown = await #expect(throws: EvdevError.self) {
            try await fake.directory.waitForDevice(named: "RemoteTouch", timeout: .milliseconds(150))
        }
        let elapsed = ContinuousClock.now - start
        let error = try #require(thrown)
        #expect(error.code == .timeout)
        // No bound on how much later: a full run's other tests can hold the pool's two threads for seconds.
        #expect(elapsed >= .milliseconds(150), "gave up after \(elapsed), before its timeout")
        let expected = "no input device named \"RemoteTouch\" appeared under \(fake.directory.sysfs) within "
            + "0.15 seconds (present: \"Power Button\" (event0))\n  → did the peripheral create its uinput device? "
            + "It needs /dev/uinput (see `hil doctor`)"
        #expect(error.description == expected, "expected:\n\(expected)\nactual:\n\(error.description)")
    }

    @Test("listed but no node: the timeout says the node is missing")
    func noNode() async throws {
        let fake = try FakeInput()
        try fake.add("event4", named: "nodeless", withNode: false)
        let thrown = await #expect(throws: EvdevError.self) {
            try await fake.directory.waitForDevice(named: "nodeless", timeout: .milliseconds(50))
        }
        let error = try #require(thrown)
        #expect(error.code == .timeout)
        #expect(error.what.contains("is listed as \(fake.directory.sysfs)/event4 but"), "\(error)")
        #expect(error.what.contains("dev/event4 did not appear"), "\(error)")
    }

    @Test("two devices with the name: ambiguous, naming both nodes")
    func ambiguous() async throws {
        let fake = try FakeInput()
        try fake.add("event1", named: "twin")
        try fake.add("event5", named: "twin")
        let thrown = await #expect(throws: EvdevError.self) {
            try await fake.directory.waitForDevice(named: "twin", timeout: .milliseconds(50))
        }
        let error = try #require(thrown)
        #expect(error.code == .ambiguous)
        let dev = fake.directory.dev
        #expect(error.what == "2 input devices are named \"twin\": \(dev)/event1, \(dev)/event5", "\(error)")
    }

    @Test("no /sys/class/input at all (this host): a timeout listing none")
    func noSysfs() async throws {
        let directory = InputDeviceDirectory(sysfs: "/nonexistent/sys/class/input", dev: "/nonexistent/dev/input")
        let thrown = await #expect(throws: EvdevError.self) {
            try await directory.waitForDevice(named: "anything", timeout: .milliseconds(20))
        }
        #expect(thrown?.what.contains("(present: none)") == true, "\(String(describing: thrown))")
    }
}
