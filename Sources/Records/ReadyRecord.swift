import Foundation
package import StrictJSON

/// The ready file of a computer under test (`hil peripheral --ready-file`): written atomically, one JSON object,
/// first once every transport it was started with serves, and again after it registered anew (a bluetoothd
/// restart):
///
/// ```json
/// {"ready":true,"pid":4242,"adapter":"hci0","uinputDevice":"/dev/input/event3","endpoints":["ble"],"registrations":1}
/// ```
///
/// Whoever starts the computer waits for it instead of reading its log. This type is the format's one owner.
package struct ReadyRecord: Sendable, Hashable {
    package var pid: Int
    package var adapter: String
    /// The uinput device's node, when known.
    package var uinputDevice: String?
    /// The transports that serve (`ble`, `tcp`, `udp`; `ble` includes hid's report characteristic), in the order
    /// they came up: every one the computer was started with.
    package var endpoints: [String]
    /// How many times the file has been written: 1 after the start, one more after each re-registration with
    /// bluetoothd.
    package var registrations: Int

    package init(pid: Int, adapter: String, uinputDevice: String?, endpoints: [String], registrations: Int) {
        self.pid = pid
        self.adapter = adapter
        self.uinputDevice = uinputDevice
        self.endpoints = endpoints
        self.registrations = registrations
    }

    package var json: JSONValue {
        .object(JSONObject([
            ("ready", .bool(true)), ("pid", .number(Double(pid))), ("adapter", .string(adapter)),
            ("uinputDevice", uinputDevice.map(JSONValue.string) ?? .null), ("endpoints", .array(endpoints.map(JSONValue.string))),
            ("registrations", .number(Double(registrations))),
        ]))
    }

    /// Writes the record to a temporary file beside `path` and renames it, so a reader never sees half of it.
    package func write(to path: String) throws {
        let temporary = path + ".tmp"
        try Data((JSONWriter().string(json) + "\n").utf8).write(to: URL(fileURLWithPath: temporary))
        guard rename(temporary, path) == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
    }

    /// Reads a ready file; nil when it is not there (yet).
    /// - Throws: `ReportError` when it is there but not a ready record, or the parser's error when it is not JSON.
    package static func read(from path: String) throws -> ReadyRecord? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return try parse(String(decoding: data, as: UTF8.self), file: path)
    }

    static func parse(_ text: String, file: String) throws -> ReadyRecord {
        let value = try JSONParser().parse(text)
        guard case .object(let object) = value, case .bool(true)? = object["ready"],
              case .number(let pid)? = object["pid"], case .string(let adapter)? = object["adapter"],
              case .array(let endpoints)? = object["endpoints"], case .number(let registrations)? = object["registrations"]
        else {
            throw ReportError(.invalidResults, file: file, problems: ["not a ready record: \(text)"],
                              hint: "hil peripheral --ready-file writes {\"ready\":true,\"pid\":…}")
        }
        var device: String?
        if case .string(let node)? = object["uinputDevice"] { device = node }
        return ReadyRecord(pid: Int(pid), adapter: adapter, uinputDevice: device,
                           endpoints: endpoints.compactMap { if case .string(let name) = $0 { name } else { nil } },
                           registrations: Int(registrations))
    }
}
