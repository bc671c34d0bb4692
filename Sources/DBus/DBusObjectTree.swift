import TextMarkup
/// The objects a connection exports, and how a method call reaches one: `Introspectable`, `Properties` and
/// `ObjectManager` are answered here for every object; other calls go to the object's own interfaces.
struct DBusObjectTree: Sendable {
    static let introspectable = "org.freedesktop.DBus.Introspectable"
    static let properties = "org.freedesktop.DBus.Properties"
    static let objectManager = "org.freedesktop.DBus.ObjectManager"

    enum Route: Sendable {
        case reply([DBusValue])
        case failure(DBusError)
        case later(@Sendable () async -> Result<[DBusValue], DBusError>)
    }

    private(set) var objects: [String: [DBusInterface]] = [:]
    private(set) var managerRoots: Set<String> = []

    mutating func export(_ path: String, _ interfaces: [DBusInterface]) {
        objects[path] = interfaces
    }

    mutating func unexport(_ path: String) {
        objects[path] = nil
    }

    mutating func addManager(_ root: String) {
        managerRoots.insert(root)
    }

    /// The manager root whose tree holds `path`, if any (for InterfacesAdded / InterfacesRemoved).
    func manager(of path: String) -> String? {
        managerRoots.filter { Self.isBelow(path, $0) }.max { $0.count < $1.count }
    }

    static func isBelow(_ path: String, _ root: String) -> Bool {
        root == "/" ? path != "/" : path.hasPrefix(root + "/")
    }

    /// `a{oa{sa{sv}}}`: every object below `root` with its interfaces' properties.
    func managedObjects(below root: String) -> DBusValue {
        let entries = objects.keys.sorted().filter { Self.isBelow($0, root) }.map { path in
            DBusDictionaryEntry(.objectPath(path), Self.interfacesAndProperties(objects[path] ?? []))
        }
        return .dictionary(keySignature: "o", valueSignature: "a{sa{sv}}", entries)
    }

    /// `a{sa{sv}}` of some interfaces.
    static func interfacesAndProperties(_ interfaces: [DBusInterface]) -> DBusValue {
        .dictionary(
            keySignature: "s", valueSignature: "a{sv}",
            interfaces.map { DBusDictionaryEntry(.string($0.name), $0.allProperties) })
    }

    func route(_ call: DBusMessage) -> Route {
        guard let member = call.member else { return .failure(.invalidArgs("method call without a member")) }
        let path = call.path ?? "/"
        switch (call.interface, member) {
        case (Self.introspectable, "Introspect"):
            return .reply([.string(introspect(path))])
        case (Self.properties, _):
            return properties(member, call, path)
        case (Self.objectManager, "GetManagedObjects") where managerRoots.contains(path):
            return .reply([managedObjects(below: path)])
        default:
            break
        }
        guard let interfaces = objects[path] else {
            return .failure(DBusError(name: DBusError.unknownObjectName, message: "no object at \(path)"))
        }
        let candidates = call.interface.map { name in interfaces.filter { $0.name == name } } ?? interfaces
        if let name = call.interface, candidates.isEmpty {
            return .failure(DBusError(name: DBusError.unknownInterfaceName, message: "\(path) has no interface \(name)"))
        }
        guard let method = candidates.lazy.flatMap(\.methods).first(where: { $0.name == member }) else {
            return .failure(
                DBusError(name: DBusError.unknownMethodName, message: "\(path) has no method \(call.interface.map { $0 + "." } ?? "")\(member)"))
        }
        guard call.signature == method.inSignature else {
            return .failure(
                .invalidArgs("\(member) takes (\(method.inSignature)), was called with (\(call.signature))"))
        }
        let methodCall = DBusMethodCall(message: call)
        switch method.handler {
        case .immediate(let handler):
            do {
                return .reply(try handler(methodCall))
            } catch {
                return .failure(error)
            }
        case .async(let handler):
            return .later {
                do throws(DBusError) {
                    return .success(try await handler(methodCall))
                } catch {
                    return .failure(error)
                }
            }
        }
    }

    private func properties(_ member: String, _ call: DBusMessage, _ path: String) -> Route {
        guard let interfaces = objects[path] else {
            return .failure(DBusError(name: DBusError.unknownObjectName, message: "no object at \(path)"))
        }
        func interface(_ value: DBusValue?) -> Result<DBusInterface, DBusError> {
            guard let name = value?.stringValue else { return .failure(.invalidArgs("expected an interface name")) }
            guard let found = interfaces.first(where: { $0.name == name }) else {
                return .failure(DBusError(name: DBusError.unknownInterfaceName, message: "\(path) has no interface \(name)"))
            }
            return .success(found)
        }
        func property(_ owner: DBusInterface, _ value: DBusValue?) -> Result<DBusProperty, DBusError> {
            guard let name = value?.stringValue else { return .failure(.invalidArgs("expected a property name")) }
            guard let found = owner.properties.first(where: { $0.name == name }) else {
                return .failure(DBusError(name: DBusError.unknownPropertyName, message: "\(owner.name) has no property \(name)"))
            }
            return .success(found)
        }
        let body = call.body
        switch member {
        case "Get" where call.signature == "ss":
            switch interface(body[0]).flatMap({ property($0, body[1]) }) {
            case .success(let found): return .reply([.variant(found.get())])
            case .failure(let error): return .failure(error)
            }
        case "GetAll" where call.signature == "s":
            switch interface(body[0]) {
            case .success(let found): return .reply([found.allProperties])
            case .failure(let error): return .failure(error)
            }
        case "Set" where call.signature == "ssv":
            switch interface(body[0]).flatMap({ property($0, body[1]) }) {
            case .success(let found):
                guard let set = found.set else {
                    return .failure(DBusError(name: DBusError.propertyReadOnlyName, message: "\(found.name) is read-only"))
                }
                let value = body[2].unwrapped
                guard value.signature == found.signature else {
                    return .failure(.invalidArgs("\(found.name) is \(found.signature), not \(value.signature)"))
                }
                do {
                    try set(value)
                    return .reply([])
                } catch {
                    return .failure(error)
                }
            case .failure(let error): return .failure(error)
            }
        default:
            return .failure(
                DBusError(name: DBusError.unknownMethodName, message: "no method \(Self.properties).\(member)(\(call.signature))"))
        }
    }

    // MARK: Introspection

    func introspect(_ path: String) -> String {
        var xml = """
            <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">
            <node>

            """
        xml += """
              <interface name="\(Self.introspectable)">
                <method name="Introspect"><arg name="xml" type="s" direction="out"/></method>
              </interface>

            """
        if let interfaces = objects[path] {
            xml += """
                  <interface name="\(Self.properties)">
                    <method name="Get"><arg type="s" direction="in"/><arg type="s" direction="in"/><arg type="v" direction="out"/></method>
                    <method name="GetAll"><arg type="s" direction="in"/><arg type="a{sv}" direction="out"/></method>
                    <method name="Set"><arg type="s" direction="in"/><arg type="s" direction="in"/><arg type="v" direction="in"/></method>
                    <signal name="PropertiesChanged"><arg type="s"/><arg type="a{sv}"/><arg type="as"/></signal>
                  </interface>

                """
            for interface in interfaces {
                xml += "  <interface name=\"\(interface.name)\">\n"
                for method in interface.methods {
                    xml += "    <method name=\"\(method.name)\">"
                    xml += Self.split(method.inSignature).map { "<arg type=\"\(Self.escape($0))\" direction=\"in\"/>" }.joined()
                    xml += Self.split(method.outSignature).map { "<arg type=\"\(Self.escape($0))\" direction=\"out\"/>" }.joined()
                    xml += "</method>\n"
                }
                for property in interface.properties {
                    let access = property.set == nil ? "read" : "readwrite"
                    xml += "    <property name=\"\(property.name)\" type=\"\(Self.escape(property.signature))\" access=\"\(access)\"/>\n"
                }
                for signal in interface.signals {
                    xml += "    <signal name=\"\(signal.name)\">"
                    xml += Self.split(signal.signature).map { "<arg type=\"\(Self.escape($0))\"/>" }.joined()
                    xml += "</signal>\n"
                }
                xml += "  </interface>\n"
            }
        }
        if managerRoots.contains(path) {
            xml += """
                  <interface name="\(Self.objectManager)">
                    <method name="GetManagedObjects"><arg type="a{oa{sa{sv}}}" direction="out"/></method>
                    <signal name="InterfacesAdded"><arg type="o"/><arg type="a{sa{sv}}"/></signal>
                    <signal name="InterfacesRemoved"><arg type="o"/><arg type="as"/></signal>
                  </interface>

                """
        }
        for child in children(of: path) {
            xml += "  <node name=\"\(child)\"/>\n"
        }
        return xml + "</node>\n"
    }

    /// The names of the nodes directly below `path` that lead to exported objects.
    func children(of path: String) -> [String] {
        let prefix = path == "/" ? "/" : path + "/"
        var names = Set<String>()
        for exported in objects.keys where exported.hasPrefix(prefix) && exported != path {
            if let first = exported.dropFirst(prefix.count).split(separator: "/").first {
                names.insert(String(first))
            }
        }
        return names.sorted()
    }

    /// Splits a signature into its complete types: `sa{sv}(ii)` → `s`, `a{sv}`, `(ii)`.
    static func split(_ signature: String) -> [String] {
        var types: [String] = []
        var current = ""
        var depth = 0
        for character in signature {
            current.append(character)
            switch character {
            case "(", "{": depth += 1
            case ")", "}": depth -= 1
            case "a": continue
            default: break
            }
            if depth == 0 && character != "a" {
                types.append(current)
                current = ""
            }
        }
        return types
    }

    /// Introspection data is XML: `Markup.escape`, the package's one XML escaper.
    private static func escape(_ text: String) -> String { Markup.escape(text) }
}
