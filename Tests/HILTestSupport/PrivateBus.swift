package import DBus
import Foundation
import Processes

/// A real `dbus-daemon --session` on a private socket, started for one test and killed after it.
package final class PrivateBus: Sendable {
    package let address: String
    package let folder: String
    private let daemon: ChildProcess

    package init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("hil-bus-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let socket = folder + "/bus"
        // --print-address: the daemon prints its address once it listens (the socket file exists a moment before
        // that, and a connect in between is refused).
        daemon = try ChildProcess(
            "/usr/bin/dbus-daemon", ["--session", "--nofork", "--nopidfile", "--print-address=1", "--address=unix:path=\(socket)"],
            output: .standardOutputOnly, ownProcessGroup: true)
        let line = String(decoding: daemon.output?.availableData ?? Data(), as: UTF8.self)
        guard line.hasPrefix("unix:") else {
            daemon.teardownBlocking([.kill])
            throw DBusError(name: "test.NoBus", message: "dbus-daemon did not start on \(socket) (is package dbus installed? bash Rigs/setup.sh)")
        }
        address = "unix:path=\(socket)"
    }

    package func connect() async throws -> DBusConnection {
        try await DBusConnection.connect(.address(address))
    }

    /// Kills the daemon, as a crashed or restarted bus would go away.
    package func kill() {
        daemon.teardownBlocking([.kill])
    }

    deinit {
        kill()
        try? FileManager.default.removeItem(atPath: folder)
    }
}
