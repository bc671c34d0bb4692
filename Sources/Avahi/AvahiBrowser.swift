package import DBus
import Waiting

/// Finds a service by browsing through avahi-daemon: `Server2.ServiceBrowserPrepare`, subscribe to the browser's
/// signals, then `Start` (race-free: no `ItemNew` can be missed), and `ResolveService` for each item found, until one
/// is accepted or the named timeout.
package enum AvahiBrowser {
    /// The first service of `type` that resolves (and that `accept` takes), within `timeout`.
    package static func find(_ type: String, on connection: DBusConnection, timeout: Duration,
                            accept: @escaping @Sendable (AvahiService) -> Bool = { _ in true }) async throws(AvahiError) -> AvahiService
    {
        let reply = try await Avahi.call(
            connection, path: Avahi.serverPath, interface: Avahi.server2, member: "ServiceBrowserPrepare",
            [.int32(Avahi.anyInterface), .int32(Avahi.inet), .string(type), .string(""), .uint32(0)],
            what: "preparing a browser for \(type)")
        guard let browser = reply.first?.stringValue else { throw AvahiError(.unexpectedReply, "ServiceBrowserPrepare returned no object path") }
        defer {
            Task { _ = try? await Avahi.call(connection, path: browser, interface: Avahi.serviceBrowser, member: "Free", what: "freeing the browser") }
        }
        // Subscribed to the browser's signals before `Start` (the first check), so no `ItemNew` can be missed.
        let problems = Noted<[String]>([])
        do {
            return try await connection.until("\(type) service", timeout: timeout, signalledBy: [
                DBusMatchRule(path: browser, interface: Avahi.serviceBrowser)
            ]) { event -> AvahiService? in
                guard let event else {
                    _ = try await Avahi.call(connection, path: browser, interface: Avahi.serviceBrowser, member: "Start", what: "starting the browser")
                    return nil
                }
                return try await found(event, type: type, connection: connection, accept: accept, problems: problems)
            }
        } catch let error as AvahiError {
            throw error
        } catch is WaitTimeout {
            throw AvahiError(
                .notFound, "no \(type) service found within \(timeout)",
                hint: "is the computer's hil peripheral running with --transport tcp, and avahi-daemon on both hosts? `hil doctor` checks them")
        } catch is CancellationError {
            throw AvahiError(.interrupted, "browsing for \(type) was cancelled")
        } catch {
            let seen = problems.value
            throw AvahiError(.bus, "the browser's signals ended (\(error))" + (seen.isEmpty ? "" : ": " + seen.joined(separator: "; ")))
        }
    }

    /// The service an `ItemNew` names once resolved and accepted; nil for another signal or a service not taken
    /// (kept in `problems`).
    /// - Throws: `AvahiError` when the browser reports its `Failure`.
    private static func found(_ event: DBusMessage, type: String, connection: DBusConnection, accept: @Sendable (AvahiService) -> Bool,
                              problems: Noted<[String]>) async throws(AvahiError) -> AvahiService?
    {
        switch event.member {
        case "ItemNew":
            guard event.body.count >= 5, let name = event.body[2].stringValue, let domain = event.body[4].stringValue else { return nil }
            do throws(AvahiError) {
                let service = try await resolve(name: name, type: type, domain: domain, interface: event.body[0], on: connection)
                if accept(service) { return service }
                problems.update { $0.append("\(service) is not the one asked for") }
            } catch {
                problems.update { $0.append("\"\(name)\": \(error)") }
            }
            return nil
        case "Failure":
            throw AvahiError(.daemonFailure, "avahi-daemon's browser failed: \(event.body.first?.stringValue ?? "?")")
        default:
            return nil
        }
    }

    /// Resolves one browsed item to its host, IPv4 address, port and TXT records.
    package static func resolve(name: String, type: String, domain: String, interface: DBusValue = .int32(Avahi.anyInterface),
                               on connection: DBusConnection) async throws(AvahiError) -> AvahiService
    {
        let reply = try await Avahi.call(
            connection, path: Avahi.serverPath, interface: Avahi.server, member: "ResolveService",
            [interface, .int32(Avahi.inet), .string(name), .string(type), .string(domain), .int32(Avahi.inet), .uint32(0)],
            what: "resolving \"\(name)\" \(type)")
        guard reply.count >= 10, let host = reply[5].stringValue, let address = reply[7].stringValue,
              let port = reply[8].integerValue
        else {
            throw AvahiError(
                .unexpectedReply, "ResolveService answered with \(reply.count) values, not the 11 of its signature")
        }
        let txt = (reply[9].arrayValue ?? []).compactMap { $0.bytesValue.map { String(decoding: $0, as: UTF8.self) } }
        return AvahiService(name: name, type: type, domain: domain, host: host, address: address, port: UInt16(clamping: port), txt: txt)
    }
}
