@testable import Evdev
import Foundation
import Testing

/// `waitForDevice`'s search, on a fake /sys/class/input and /dev/input in a temporary folder.
@Suite("Finding an evdev node by name")
struct InputDeviceDirectoryTests {
    /// A temporary sysfs + dev pair that removes itself.
    final class FakeInput: Sendable {
        let root: URL
        let directory: InputDeviceDirectory

        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("hil-evdev-\(UUID().uuidString)")
            for folder in ["sys", "dev"] {
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
    func foundAtOnce() throws {
        let fake = try FakeInput()
        try fake.add("event0", named: "Power Button")
        try fake.add("event3", named: "RemoteTouch test")
        let start = ContinuousClock.now
        let node = try fake.directory.waitForDevice(named: "RemoteTouch test", timeout: .seconds(2))
        #expect(node == fake.root.appendingPathComponent("dev/event3").path)
        #expect(ContinuousClock.now - start < .milliseconds(200))
    }

    @Test("a device that appears later is found by polling, soon after it appears, and only once its node exists")
    func appearsLater() throws {
        let fake = try FakeInput()
        // Another thread plays the kernel (not a task: the wait below blocks its thread).
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: 0.1)
            try? fake.add("event7", named: "late", withNode: false)
            Thread.sleep(forTimeInterval: 0.1)
            try? fake.addNode("event7")
        }
        let start = ContinuousClock.now
        let node = try fake.directory.waitForDevice(named: "late", timeout: .seconds(5))
        let elapsed = ContinuousClock.now - start
        #expect(node == fake.root.appendingPathComponent("dev/event7").path)
        #expect(elapsed >= .milliseconds(200), "returned after \(elapsed), before the node existed")
        #expect(elapsed < .seconds(2), "took \(elapsed)")
    }

    @Test("nothing by that name: a timeout after about the asked time, listing what is there")
    func timeout() throws {
        let fake = try FakeInput()
        try fake.add("event0", named: "Power Button")
        let start = ContinuousClock.now
        let thrown = #expect(throws: EvdevError.self) {
            try fake.directory.waitForDevice(named: "RemoteTouch", timeout: .milliseconds(150))
        }
        let elapsed = ContinuousClock.now - start
        let error = try #require(thrown)
        #expect(error.code == .timeout)
        #expect(elapsed >= .milliseconds(150) && elapsed < .seconds(1), "gave up after \(elapsed)")
        let expected = "no input device named \"RemoteTouch\" appeared under \(fake.directory.sysfs) within "
            + "0.15 seconds (present: \"Power Button\" (event0))\n  → did the peripheral create its uinput device? "
            + "It needs /dev/uinput (see `hil doctor`)"
        #expect(error.description == expected, "expected:\n\(expected)\nactual:\n\(error.description)")
    }

    @Test("listed but no node: the timeout says the node is missing")
    func noNode() throws {
        let fake = try FakeInput()
        try fake.add("event4", named: "nodeless", withNode: false)
        let thrown = #expect(throws: EvdevError.self) {
            try fake.directory.waitForDevice(named: "nodeless", timeout: .milliseconds(50))
        }
        let error = try #require(thrown)
        #expect(error.code == .timeout)
        #expect(error.what.contains("is listed as \(fake.directory.sysfs)/event4 but"), "\(error)")
        #expect(error.what.contains("dev/event4 did not appear"), "\(error)")
    }

    @Test("two devices with the name: ambiguous, naming both nodes")
    func ambiguous() throws {
        let fake = try FakeInput()
        try fake.add("event1", named: "twin")
        try fake.add("event5", named: "twin")
        let thrown = #expect(throws: EvdevError.self) {
            try fake.directory.waitForDevice(named: "twin", timeout: .milliseconds(50))
        }
        let error = try #require(thrown)
        #expect(error.code == .ambiguous)
        let dev = fake.directory.dev
        #expect(error.what == "2 input devices are named \"twin\": \(dev)/event1, \(dev)/event5", "\(error)")
    }

    @Test("no /sys/class/input at all (this host): a timeout listing none")
    func noSysfs() throws {
        let directory = InputDeviceDirectory(sysfs: "/nonexistent/sys/class/input", dev: "/nonexistent/dev/input")
        let thrown = #expect(throws: EvdevError.self) {
            try directory.waitForDevice(named: "anything", timeout: .milliseconds(20))
        }
        #expect(thrown?.what.contains("(present: none)") == true, "\(String(describing: thrown))")
    }
}
