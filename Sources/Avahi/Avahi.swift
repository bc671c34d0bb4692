package import DBus
import Waiting

/// avahi-daemon's D-Bus API (avahi's `org.freedesktop.Avahi.*.xml` introspection files): the names, the
/// constants we use, and the server's state. Bonjour on Linux is avahi-daemon; the rig never speaks mDNS itself.
package enum Avahi {
    package static let service = "org.freedesktop.Avahi"
    package static let serverPath = "/"
    package static let server = "org.freedesktop.Avahi.Server"
    package static let server2 = "org.freedesktop.Avahi.Server2"
    package static let entryGroup = "org.freedesktop.Avahi.EntryGroup"
    package static let serviceBrowser = "org.freedesktop.Avahi.ServiceBrowser"

    /// `AVAHI_IF_UNSPEC`, `AVAHI_PROTO_UNSPEC`, `AVAHI_PROTO_INET`.
    package static let anyInterface: Int32 = -1
    package static let anyProtocol: Int32 = -1
    package static let inet: Int32 = 0

    /// `AvahiServerState`: 2 is running (host name established); 3 a host name collision.
    package enum ServerState: Int32, Sendable, CustomStringConvertible {
        case invalid = 0, registering = 1, running = 2, collision = 3, failure = 4
        package var description: String { "\(self)" }
    }

    /// `AvahiEntryGroupState`.
    package enum GroupState: Int32, Sendable {
        case uncommitted = 0, registering = 1, established = 2, collision = 3, failure = 4
    }

    /// The server's state; throws when no avahi-daemon answers on `connection`'s bus.
    package static func state(on connection: DBusConnection) async throws(AvahiError) -> ServerState {
        let reply = try await call(connection, path: serverPath, interface: server, member: "GetState", what: "asking avahi-daemon its state")
        return reply.first?.integerValue.flatMap { ServerState(rawValue: Int32(truncatingIfNeeded: $0)) } ?? .invalid
    }

    /// Waits until avahi-daemon on `connection`'s bus is running (its host name established): on its `StateChanged`
    /// signal, or its name's `NameOwnerChanged` when it was not on the bus yet.
    package static func waitUntilRunning(on connection: DBusConnection, timeout: Duration) async throws(AvahiError) {
        let last = Noted<AvahiError?>(nil)
        do {
            try await connection.until("avahi-daemon running", timeout: timeout, signalledBy: [
                DBusMatchRule(sender: service, path: serverPath, interface: server, member: "StateChanged"),
                DBusMatchRule(sender: "org.freedesktop.DBus", interface: "org.freedesktop.DBus", member: "NameOwnerChanged", arg0: service),
            ]) { signal -> Void? in
                if let signal, signal.member == "StateChanged" {
                    return signal.body.first?.integerValue == Int64(ServerState.running.rawValue) ? () : nil
                }
                do throws(AvahiError) {
                    return try await state(on: connection) == .running ? () : nil
                } catch {
                    last.set(error)
                    return nil
                }
            }
        } catch is WaitTimeout {
            throw last.value ?? AvahiError(.timeout, "avahi-daemon was not running within \(timeout)", hint: "its log says why (host name collision?)")
        } catch {
            throw AvahiError(error is CancellationError ? .interrupted : .bus, "waiting for avahi-daemon to run: \(error is CancellationError ? "cancelled" : "\(error)")")
        }
    }

    static func call(_ connection: DBusConnection, path: String, interface: String, member: String, _ body: [DBusValue] = [],
                     what: String) async throws(AvahiError) -> [DBusValue]
    {
        do {
            return try await connection.call(destination: service, path: path, interface: interface, member: member, body, timeout: .seconds(5))
        } catch {
            throw AvahiError(
                .bus, "\(what) failed: \(error.message) (\(error.name))",
                hint: error.name == "org.freedesktop.DBus.Error.ServiceUnknown"
                    ? "no avahi-daemon on this bus: install avahi-daemon (bash Rigs/setup.sh) and start it; in a rig, `hil doctor` checks the two hosts"
                    : nil)
        }
    }
}

/// A service found and resolved by browsing.
package struct AvahiService: Sendable, Hashable, CustomStringConvertible {
    package var name: String
    package var type: String
    package var domain: String
    package var host: String
    package var address: String
    package var port: UInt16
    /// TXT records, `key=value`.
    package var txt: [String]

    package init(name: String, type: String, domain: String, host: String, address: String, port: UInt16, txt: [String]) {
        self.name = name
        self.type = type
        self.domain = domain
        self.host = host
        self.address = address
        self.port = port
        self.txt = txt
    }

    /// A TXT record's value.
    package func txtValue(_ key: String) -> String? {
        txt.first { $0.hasPrefix(key + "=") }.map { String($0.dropFirst(key.count + 1)) }
    }

    package var description: String { "\"\(name)\" \(type) at \(host) \(address):\(port) [\(txt.joined(separator: " "))]" }
}
