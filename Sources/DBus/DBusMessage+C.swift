internal import CDBus

// Type codes (the dbus-protocol.h macros are casts, which Swift does not import).
enum TypeCode {
    static let invalid: Int32 = 0
    static let byte = code("y"), bool = code("b"), int16 = code("n"), uint16 = code("q"), int32 = code("i")
    static let uint32 = code("u"), int64 = code("x"), uint64 = code("t"), double = code("d"), string = code("s")
    static let objectPath = code("o"), signature = code("g"), unixFD = code("h"), array = code("a")
    static let variant = code("v"), structure = code("r"), dictEntry = code("e")

    private static func code(_ character: Unicode.Scalar) -> Int32 { Int32(character.value) }
}

enum MessageTypeCode {
    static let methodCall: Int32 = 1, methodReturn: Int32 = 2, error: Int32 = 3, signal: Int32 = 4
}

/// Converts between `DBusMessage` and libdbus messages. Only the connection's thread calls these.
enum Marshal {
    /// Reads a libdbus message into Swift values (received file descriptors become ours).
    static func message(from raw: OpaquePointer) -> DBusMessage {
        func text(_ pointer: UnsafePointer<CChar>?) -> String? { pointer.map { String(cString: $0) } }
        let kind: DBusMessage.Kind
        switch dbus_message_get_type(raw) {
        case MessageTypeCode.methodCall: kind = .methodCall
        case MessageTypeCode.methodReturn: kind = .methodReturn
        case MessageTypeCode.error: kind = .error
        default: kind = .signal
        }
        var body: [DBusValue] = []
        var iter = DBusMessageIter()
        if dbus_message_iter_init(raw, &iter) != 0 {
            body = values(&iter)
        }
        return DBusMessage(
            kind: kind, path: text(dbus_message_get_path(raw)), interface: text(dbus_message_get_interface(raw)),
            member: text(dbus_message_get_member(raw)), sender: text(dbus_message_get_sender(raw)),
            destination: text(dbus_message_get_destination(raw)), errorName: text(dbus_message_get_error_name(raw)),
            serial: dbus_message_get_serial(raw), replySerial: dbus_message_get_reply_serial(raw),
            noReplyExpected: dbus_message_get_no_reply(raw) != 0, body: body)
    }

    private static func values(_ iter: inout DBusMessageIter) -> [DBusValue] {
        var result: [DBusValue] = []
        while dbus_message_iter_get_arg_type(&iter) != TypeCode.invalid {
            result.append(value(&iter))
            dbus_message_iter_next(&iter)
        }
        return result
    }

    private static func basic<T>(_ iter: inout DBusMessageIter, _ initial: T) -> T {
        var value = initial
        withUnsafeMutablePointer(to: &value) { dbus_message_iter_get_basic(&iter, UnsafeMutableRawPointer($0)) }
        return value
    }

    private static func value(_ iter: inout DBusMessageIter) -> DBusValue {
        switch dbus_message_iter_get_arg_type(&iter) {
        case TypeCode.byte: return .byte(basic(&iter, UInt8(0)))
        case TypeCode.bool: return .bool(basic(&iter, UInt32(0)) != 0)
        case TypeCode.int16: return .int16(basic(&iter, Int16(0)))
        case TypeCode.uint16: return .uint16(basic(&iter, UInt16(0)))
        case TypeCode.int32: return .int32(basic(&iter, Int32(0)))
        case TypeCode.uint32: return .uint32(basic(&iter, UInt32(0)))
        case TypeCode.int64: return .int64(basic(&iter, Int64(0)))
        case TypeCode.uint64: return .uint64(basic(&iter, UInt64(0)))
        case TypeCode.double: return .double(basic(&iter, Double(0)))
        case TypeCode.unixFD: return .fileDescriptor(basic(&iter, Int32(-1)))
        case TypeCode.string, TypeCode.objectPath, TypeCode.signature:
            let code = dbus_message_iter_get_arg_type(&iter)
            let pointer = basic(&iter, UnsafePointer<CChar>?.none)
            let text = pointer.map { String(cString: $0) } ?? ""
            return code == TypeCode.string ? .string(text) : code == TypeCode.objectPath ? .objectPath(text) : .signature(text)
        case TypeCode.variant:
            var inner = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &inner)
            return .variant(value(&inner))
        case TypeCode.structure:
            var inner = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &inner)
            return .structure(values(&inner))
        case TypeCode.array:
            let element = dbus_message_iter_get_element_type(&iter)
            let signature = signatureOf(&iter)
            let elementSignature = String(signature.dropFirst())
            var inner = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &inner)
            if element == TypeCode.byte {
                var pointer: UnsafePointer<UInt8>?
                var count: Int32 = 0
                withUnsafeMutablePointer(to: &pointer) {
                    dbus_message_iter_get_fixed_array(&inner, UnsafeMutableRawPointer($0), &count)
                }
                return .bytes(pointer.map { Array(UnsafeBufferPointer(start: $0, count: Int(count))) } ?? [])
            }
            if element == TypeCode.dictEntry {
                // "{kv...}": one basic key type, then the value's complete type.
                let inside = elementSignature.dropFirst().dropLast()
                let keySignature = String(inside.prefix(1))
                let valueSignature = String(inside.dropFirst())
                var entries: [DBusDictionaryEntry] = []
                while dbus_message_iter_get_arg_type(&inner) != TypeCode.invalid {
                    var entry = DBusMessageIter()
                    dbus_message_iter_recurse(&inner, &entry)
                    let key = value(&entry)
                    dbus_message_iter_next(&entry)
                    entries.append(DBusDictionaryEntry(key, value(&entry)))
                    dbus_message_iter_next(&inner)
                }
                return .dictionary(keySignature: keySignature, valueSignature: valueSignature, entries)
            }
            return .array(elementSignature: elementSignature, values(&inner))
        default:
            return .structure([])
        }
    }

    private static func signatureOf(_ iter: inout DBusMessageIter) -> String {
        guard let raw = dbus_message_iter_get_signature(&iter) else { return "" }
        defer { dbus_free(raw) }
        return String(cString: raw)
    }

    // MARK: Writing

    /// Builds a libdbus message (caller unrefs it).
    /// - Throws: `DBusError` (InvalidArgs) for an invalid name, path or signature, or a value that does not
    ///   match its declared container type; nothing is sent then.
    static func raw(from message: DBusMessage) throws(DBusError) -> OpaquePointer {
        if let path = message.path { try validate(path, dbus_validate_path, "object path") }
        if let interface = message.interface { try validate(interface, dbus_validate_interface, "interface name") }
        if let member = message.member { try validate(member, dbus_validate_member, "member name") }
        if let destination = message.destination { try validate(destination, dbus_validate_bus_name, "bus name") }
        if let errorName = message.errorName { try validate(errorName, dbus_validate_error_name, "error name") }
        let type: Int32
        switch message.kind {
        case .methodCall: type = MessageTypeCode.methodCall
        case .methodReturn: type = MessageTypeCode.methodReturn
        case .error: type = MessageTypeCode.error
        case .signal: type = MessageTypeCode.signal
        }
        guard let raw = dbus_message_new(type) else { throw .failed("out of memory creating a D-Bus message") }
        var ok = true
        if let path = message.path { ok = ok && dbus_message_set_path(raw, path) != 0 }
        if let interface = message.interface { ok = ok && dbus_message_set_interface(raw, interface) != 0 }
        if let member = message.member { ok = ok && dbus_message_set_member(raw, member) != 0 }
        if let destination = message.destination { ok = ok && dbus_message_set_destination(raw, destination) != 0 }
        if let errorName = message.errorName { ok = ok && dbus_message_set_error_name(raw, errorName) != 0 }
        if message.replySerial != 0 { ok = ok && dbus_message_set_reply_serial(raw, message.replySerial) != 0 }
        if message.noReplyExpected { dbus_message_set_no_reply(raw, 1) }
        guard ok else {
            dbus_message_unref(raw)
            throw .failed("out of memory filling a D-Bus message")
        }
        var iter = DBusMessageIter()
        dbus_message_iter_init_append(raw, &iter)
        do {
            for (index, value) in message.body.enumerated() {
                try append(value, to: &iter, at: "argument \(index)")
            }
        } catch {
            dbus_message_unref(raw)
            throw error
        }
        return raw
    }

    private static func validate(_ text: String, _ check: (UnsafePointer<CChar>?, UnsafeMutablePointer<CDBus.DBusError>?) -> dbus_bool_t,
                                 _ what: String) throws(DBusError)
    {
        guard check(text, nil) != 0 else { throw .invalidArgs("\"\(text)\" is not a valid D-Bus \(what)") }
    }

    private static func appendBasic<T>(_ iter: inout DBusMessageIter, _ type: Int32, _ value: T, at place: String)
        throws(DBusError)
    {
        var copy = value
        let ok = withUnsafePointer(to: &copy) { dbus_message_iter_append_basic(&iter, type, UnsafeRawPointer($0)) }
        guard ok != 0 else { throw .failed("cannot append \(place) (out of memory, or fd passing unsupported)") }
    }

    private static func append(_ value: DBusValue, to iter: inout DBusMessageIter, at place: String) throws(DBusError) {
        switch value {
        case .byte(let v): try appendBasic(&iter, TypeCode.byte, v, at: place)
        case .bool(let v): try appendBasic(&iter, TypeCode.bool, UInt32(v ? 1 : 0), at: place)
        case .int16(let v): try appendBasic(&iter, TypeCode.int16, v, at: place)
        case .uint16(let v): try appendBasic(&iter, TypeCode.uint16, v, at: place)
        case .int32(let v): try appendBasic(&iter, TypeCode.int32, v, at: place)
        case .uint32(let v): try appendBasic(&iter, TypeCode.uint32, v, at: place)
        case .int64(let v): try appendBasic(&iter, TypeCode.int64, v, at: place)
        case .uint64(let v): try appendBasic(&iter, TypeCode.uint64, v, at: place)
        case .double(let v): try appendBasic(&iter, TypeCode.double, v, at: place)
        case .fileDescriptor(let fd): try appendBasic(&iter, TypeCode.unixFD, fd, at: place)
        case .string(let text), .objectPath(let text), .signature(let text):
            let type: Int32
            switch value {
            case .string:
                guard !text.utf8.contains(0) else { throw .invalidArgs("\(place): a D-Bus string cannot contain NUL") }
                type = TypeCode.string
            case .objectPath:
                try validate(text, dbus_validate_path, "object path (\(place))")
                type = TypeCode.objectPath
            default:
                guard dbus_signature_validate(text, nil) != 0 else { throw .invalidArgs("\(place): \"\(text)\" is not a valid signature") }
                type = TypeCode.signature
            }
            // withCString rethrows untyped errors: carry ours out by hand.
            var failure: DBusError?
            text.withCString { pointer in
                do throws(DBusError) { try appendBasic(&iter, type, pointer, at: place) } catch { failure = error }
            }
            if let failure { throw failure }
        case .bytes(let bytes):
            try container(&iter, TypeCode.array, "y", at: place) { (inner) throws(DBusError) in
                let ok = bytes.withUnsafeBufferPointer { buffer in
                    var base = buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!
                    return withUnsafePointer(to: &base) {
                        dbus_message_iter_append_fixed_array(&inner, TypeCode.byte, UnsafeRawPointer($0), Int32(buffer.count))
                    }
                }
                guard ok != 0 else { throw .failed("cannot append \(place) (out of memory)") }
            }
        case .array(let elementSignature, let elements):
            try checkSignature(elementSignature, at: place)
            try container(&iter, TypeCode.array, elementSignature, at: place) { (inner) throws(DBusError) in
                for (index, element) in elements.enumerated() {
                    guard element.signature == elementSignature else {
                        throw .invalidArgs("\(place)[\(index)]: an array of \(elementSignature) holds a \(element.signature)")
                    }
                    try append(element, to: &inner, at: "\(place)[\(index)]")
                }
            }
        case .dictionary(let keySignature, let valueSignature, let entries):
            let entrySignature = "{" + keySignature + valueSignature + "}"
            try checkSignature("a" + entrySignature, at: place)
            try container(&iter, TypeCode.array, entrySignature, at: place) { (inner) throws(DBusError) in
                for (index, entry) in entries.enumerated() {
                    guard entry.key.signature == keySignature, entry.value.signature == valueSignature else {
                        throw .invalidArgs(
                            "\(place) entry \(index): a{\(keySignature)\(valueSignature)} holds {\(entry.key.signature)\(entry.value.signature)}")
                    }
                    try container(&inner, TypeCode.dictEntry, nil, at: place) { (pair) throws(DBusError) in
                        try append(entry.key, to: &pair, at: "\(place) key \(index)")
                        try append(entry.value, to: &pair, at: "\(place) value \(index)")
                    }
                }
            }
        case .structure(let members):
            guard !members.isEmpty else { throw .invalidArgs("\(place): a D-Bus struct needs at least one member") }
            try container(&iter, TypeCode.structure, nil, at: place) { (inner) throws(DBusError) in
                for (index, member) in members.enumerated() {
                    try append(member, to: &inner, at: "\(place).\(index)")
                }
            }
        case .variant(let inner):
            try container(&iter, TypeCode.variant, inner.signature, at: place) { (content) throws(DBusError) in
                try append(inner, to: &content, at: "\(place) (variant)")
            }
        }
    }

    private static func checkSignature(_ signature: String, at place: String) throws(DBusError) {
        guard dbus_signature_validate_single(signature, nil) != 0 else {
            throw .invalidArgs("\(place): \"\(signature)\" is not a single complete D-Bus type")
        }
    }

    /// Opens a container, fills it, closes it — or abandons it when filling fails, so libdbus is left consistent.
    private static func container(_ iter: inout DBusMessageIter, _ type: Int32, _ signature: String?, at place: String,
                                  _ fill: (inout DBusMessageIter) throws(DBusError) -> Void) throws(DBusError)
    {
        var inner = DBusMessageIter()
        let opened: dbus_bool_t
        if let signature {
            opened = signature.withCString { dbus_message_iter_open_container(&iter, type, $0, &inner) }
        } else {
            opened = dbus_message_iter_open_container(&iter, type, nil, &inner)
        }
        guard opened != 0 else { throw .failed("cannot open a container for \(place) (out of memory)") }
        do {
            try fill(&inner)
        } catch {
            dbus_message_iter_abandon_container(&iter, &inner)
            throw error
        }
        guard dbus_message_iter_close_container(&iter, &inner) != 0 else {
            throw .failed("cannot close the container of \(place) (out of memory)")
        }
    }
}
