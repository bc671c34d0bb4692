package import DBus

/// Finds a service by browsing through avahi-daemon: `Server2.ServiceBrowserPrepare`, subscribe to the browser's
/// signals, then `Start` (race-free: no `ItemNew` can be missed), and `ResolveService` for each item found.
package enum AvahiBrowser {
    /// The first service of `type` that resolves (and that `accept` takes), within `timeout`.
    package static func find(_ type: String, on connection: DBusConnection, timeout: Duration,
                            accept: @escaping @Sendable (AvahiService) -> Bool = { _ in true }) async throws(AvahiError) -> AvahiService
    {
        let reply = try await Avahi.call(
            connection, path: Avahi.serverPath, interface: Avahi.server2, member: "ServiceBrowserPrepare",
            [.int32(Avahi.anyInterface), .int32(Avahi.inet), .string(type), .string(""), .uint32(0)],
            what: "preparing a browser for \(type)")
        guard let browser = reply.first?.stringValue else { throw AvahiError("ServiceBrowserPrepare returned no object path") }
        defer {
            Task { _ = try? await Avahi.call(connection, path: browser, interface: Avahi.serviceBrowser, member: "Free", what: "freeing the browser") }
        }
        let events: AsyncStream<DBusMessage>
        do {
            events = try await connection.signals(DBusMatchRule(path: browser, interface: Avahi.serviceBrowser))
        } catch {
            throw AvahiError("cannot subscribe to the browser's signals: \(error)")
        }
        _ = try await Avahi.call(connection, path: browser, interface: Avahi.serviceBrowser, member: "Start", what: "starting the browser")
        let result: Result<AvahiService, AvahiError> = await withTaskGroup(of: Result<AvahiService, AvahiError>?.self) { group in
            group.addTask { await firstResolved(events, type: type, connection: connection, accept: accept) }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return Task.isCancelled ? nil : .failure(AvahiError(
                    "no \(type) service found within \(timeout)",
                    hint: "is the computer's hil peripheral running with --transport tcp, and avahi-daemon on both hosts? `hil doctor` checks them"))
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first ?? .failure(AvahiError("browsing for \(type) was cancelled"))
        }
        return try result.get()
    }

    private static func firstResolved(_ events: AsyncStream<DBusMessage>, type: String, connection: DBusConnection,
                                      accept: @Sendable (AvahiService) -> Bool) async -> Result<AvahiService, AvahiError>
    {
        var problems: [String] = []
        for await event in events {
            switch event.member {
            case "ItemNew":
                guard event.body.count >= 5, let name = event.body[2].stringValue, let domain = event.body[4].stringValue else { continue }
                do throws(AvahiError) {
                    let service = try await resolve(name: name, type: type, domain: domain, interface: event.body[0], on: connection)
                    if accept(service) { return .success(service) }
                    problems.append("\(service) is not the one asked for")
                } catch {
                    problems.append("\"\(name)\": \(error)")
                }
            case "Failure":
                return .failure(AvahiError("avahi-daemon's browser failed: \(event.body.first?.stringValue ?? "?")"))
            default:
                continue
            }
        }
        return .failure(AvahiError("the browser's signals ended" + (problems.isEmpty ? "" : ": " + problems.joined(separator: "; "))))
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
            throw AvahiError("ResolveService answered with \(reply.count) values, not the 11 of its signature")
        }
        let txt = (reply[9].arrayValue ?? []).compactMap { $0.bytesValue.map { String(decoding: $0, as: UTF8.self) } }
        return AvahiService(name: name, type: type, domain: domain, host: host, address: address, port: UInt16(clamping: port), txt: txt)
    }
}
