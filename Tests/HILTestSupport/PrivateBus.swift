package import DBus
import Foundation

/// A real `dbus-daemon --session` on a private socket, started for one test and killed after it.
package final class PrivateBus: @unchecked Sendable {
    // Safety: set in init, read-only afterwards.
    package let address: String
    package let folder: String
    private let process: Process

    package init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("hil-bus-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let socket = folder + "/bus"
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        // --print-address: the daemon prints its address once it listens (the socket file exists a moment before
        // that, and a connect in between is refused).
        process.arguments = ["--session", "--nofork", "--nopidfile", "--print-address=1", "--address=unix:path=\(socket)"]
        let printed = Pipe()
        process.standardOutput = printed
        process.standardError = FileHandle.nullDevice
        try process.run()
        let line = String(decoding: printed.fileHandleForReading.availableData, as: UTF8.self)
        guard line.hasPrefix("unix:") else {
            throw DBusError(name: "test.NoBus", message: "dbus-daemon did not start on \(socket) (is package dbus installed? bash Rigs/setup.sh)")
        }
        address = "unix:path=\(socket)"
    }

    package func connect() async throws -> DBusConnection {
        try await DBusConnection.connect(.address(address))
    }

    /// Kills the daemon, as a crashed or restarted bus would go away.
    package func kill() {
        if process.isRunning {
            Foundation.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    deinit {
        kill()
        try? FileManager.default.removeItem(atPath: folder)
    }
}
