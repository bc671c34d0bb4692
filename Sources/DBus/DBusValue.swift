/// A D-Bus value with its type: everything BlueZ uses, containers included. Containers carry their element
/// signature, so an empty `a{sv}` or `ao` still has its type.
package indirect enum DBusValue: Sendable, Hashable {
    case byte(UInt8)
    case bool(Bool)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(String)
    case signature(String)
    /// A Unix file descriptor. Received: the receiver owns it and must close it. Sent in a call or signal:
    /// libdbus duplicates it and the sender keeps its own. Returned from an exported method: handed over, the
    /// connection closes it after sending the reply.
    case fileDescriptor(Int32)
    /// `ay`, read and written as one block (BlueZ values are byte arrays).
    case bytes([UInt8])
    /// An array of `elementSignature` values (not `y`: that is `.bytes`).
    case array(elementSignature: String, [DBusValue])
    /// `a{kv}`: keys of a basic type, values of `valueSignature`.
    case dictionary(keySignature: String, valueSignature: String, [DBusDictionaryEntry])
    case structure([DBusValue])
    case variant(DBusValue)

    /// The value's D-Bus type signature: `s`, `ao`, `a{sv}`, `(hq)`.
    package var signature: String {
        switch self {
        case .byte: "y"
        case .bool: "b"
        case .int16: "n"
        case .uint16: "q"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .fileDescriptor: "h"
        case .bytes: "ay"
        case .array(let element, _): "a" + element
        case .dictionary(let key, let value, _): "a{" + key + value + "}"
        case .structure(let members): "(" + members.map(\.signature).joined() + ")"
        case .variant: "v"
        }
    }
}

/// One entry of a D-Bus dictionary.
package struct DBusDictionaryEntry: Sendable, Hashable {
    package var key: DBusValue
    package var value: DBusValue

    package init(_ key: DBusValue, _ value: DBusValue) {
        self.key = key
        self.value = value
    }
}

extension DBusValue {
    /// `a{sv}` from string keys, each value wrapped in a variant — BlueZ's options and property maps.
    package static func properties(_ entries: [(String, DBusValue)]) -> DBusValue {
        .dictionary(keySignature: "s", valueSignature: "v", entries.map { DBusDictionaryEntry(.string($0.0), .variant($0.1)) })
    }

    /// `as`
    package static func strings(_ values: [String]) -> DBusValue {
        .array(elementSignature: "s", values.map(DBusValue.string))
    }

    /// `ao`
    package static func objectPaths(_ values: [String]) -> DBusValue {
        .array(elementSignature: "o", values.map(DBusValue.objectPath))
    }

    /// The value inside a variant (or the value itself).
    package var unwrapped: DBusValue {
        if case .variant(let inner) = self { return inner.unwrapped }
        return self
    }

    package var stringValue: String? {
        switch unwrapped {
        case .string(let text), .objectPath(let text), .signature(let text): text
        default: nil
        }
    }

    package var boolValue: Bool? {
        if case .bool(let flag) = unwrapped { return flag }
        return nil
    }

    package var bytesValue: [UInt8]? {
        if case .bytes(let bytes) = unwrapped { return bytes }
        return nil
    }

    /// Any integer type, widened.
    package var integerValue: Int64? {
        switch unwrapped {
        case .byte(let v): Int64(v)
        case .int16(let v): Int64(v)
        case .uint16(let v): Int64(v)
        case .int32(let v): Int64(v)
        case .uint32(let v): Int64(v)
        case .int64(let v): v
        case .uint64(let v): v <= UInt64(Int64.max) ? Int64(v) : nil
        default: nil
        }
    }

    /// The elements of an array (`.bytes` as bytes).
    package var arrayValue: [DBusValue]? {
        switch unwrapped {
        case .array(_, let elements): elements
        case .bytes(let bytes): bytes.map(DBusValue.byte)
        default: nil
        }
    }

    /// A dictionary with string (or object path) keys, as a Swift dictionary.
    package var dictionaryValue: [String: DBusValue]? {
        guard case .dictionary(_, _, let entries) = unwrapped else { return nil }
        var result: [String: DBusValue] = [:]
        for entry in entries {
            guard let key = entry.key.stringValue else { return nil }
            result[key] = entry.value
        }
        return result
    }
}
