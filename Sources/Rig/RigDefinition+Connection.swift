package import RigControl
import Foundation
import System
import StrictJSON

extension RigDefinition {
    /// The LE connection parameters the rig's central asks for: the rig file's `connection`, with the interval pinned
    /// to the radio's when the radio model times connection events (the bridges time each link by the interval its
    /// controllers report, so the run is measured at the interval the rig file names).
    package var centralConnection: Connection {
        guard radio.model == .connectionEvents else { return connection }
        var pinned = connection
        pinned.minIntervalMs = radio.intervalMs
        pinned.maxIntervalMs = radio.intervalMs
        return pinned
    }

    /// Where a vm guest finds its bluetoothd's main.conf, in its share folder.
    package static let mainConfFileName = "bluetoothd-main.conf"

    /// The system's bluetoothd configuration: the base of every main.conf a rig writes.
    package static let systemMainConf = "/etc/bluetooth/main.conf"

    /// Writes `bluetoothdMainConf` on the system's main.conf (none when it is missing) to `path`, for a bluetoothd
    /// this rig starts (`-f path`).
    /// - Throws: `RigError` `.boot` naming the file.
    package func writeBluetoothdMainConf(to path: String) throws(RigError) {
        let base = (try? String(contentsOfFile: Self.systemMainConf, encoding: .utf8)) ?? ""
        do {
            try bluetoothdMainConf(base: base).write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            throw RigError(.boot, "cannot write bluetoothd's configuration \(path): \(FileAccess.reason(of: error))")
        }
    }

    /// bluetoothd's main.conf for a bluetoothd this rig starts: `base` (the system's main.conf, which it would read
    /// otherwise) with `centralConnection` in its `[LE]` group: `MinConnectionInterval`, `MaxConnectionInterval`
    /// (1.25 ms units), `ConnectionLatency` and `ConnectionSupervisionTimeout` (10 ms units). bluetoothd hands them to
    /// the kernel as each adapter's defaults (MGMT Set Default System Configuration), which the kernel's LE Create
    /// Connection uses. One bluetoothd serves every adapter of the rig, so the peripheral's kernel gets the same range
    /// and does not ask the central for another interval (it sends an L2CAP Connection Parameter Update Request when
    /// the interval is outside its own range). `gattChannels` goes into `[GATT]` as `Channels`: one ATT bearer keeps
    /// the order of the phone's writes (docs/protocol.md, "Order"). Those keys of their groups are replaced; the rest
    /// is kept.
    package func bluetoothdMainConf(base: String) -> String {
        let parameters = centralConnection
        let pinned = [
            "[LE]": [
                "MinConnectionInterval=\(Self.units(parameters.minIntervalMs, of: 1.25))",
                "MaxConnectionInterval=\(Self.units(parameters.maxIntervalMs, of: 1.25))",
                "ConnectionLatency=\(parameters.latency)",
                "ConnectionSupervisionTimeout=\(Self.units(Double(parameters.supervisionTimeoutMs), of: 10))",
            ],
            "[GATT]": ["Channels=\(gattChannels)"],
        ]
        let keys = pinned.mapValues { $0.map { String($0.prefix { $0 != "=" }) } }
        var lines: [String] = []
        var group = "", placed: Set<String> = []
        for line in base.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("[") { group = trimmed }
            let key = trimmed.prefix { $0 != "=" }.trimmingCharacters(in: .whitespaces)
            if keys[group]?.contains(key) == true { continue }
            lines.append(line)
            if let values = pinned[trimmed], !placed.contains(trimmed) {
                lines += values
                placed.insert(trimmed)
            }
        }
        if lines.last == "" { lines.removeLast() }
        for group in pinned.keys.sorted().reversed() where !placed.contains(group) { lines += [group] + pinned[group]! }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A duration in the HCI's units (1.25 ms for intervals, 10 ms for the supervision timeout).
    static func units(_ milliseconds: Double, of unit: Double) -> Int { Int((milliseconds / unit).rounded()) }

    /// Whether `milliseconds` is a whole number of the HCI's 1.25 ms interval unit.
    static func onIntervalGrid(_ milliseconds: Double) -> Bool { (milliseconds / 1.25).rounded() == milliseconds / 1.25 }

    /// `{"minIntervalMs": 7.5, "maxIntervalMs": 15, "latency": 0, "supervisionTimeoutMs": 2000}`: the Core
    /// specification's ranges and steps (intervals 7.5 ms to 4 s in steps of 1.25 ms, latency 0 to 499, timeout
    /// 100 ms to 32 s in steps of 10 ms), and its rule that the timeout outlasts the longest a link may stay silent:
    /// more than (1 + latency) × maxInterval × 2.
    static func connection(_ value: JSONValue, _ found: inout [JSONSchemaError]) -> Connection {
        var problems = JSONProblems()
        defer { found += problems.list }
        var connection = Connection()
        let path = JSONPath.root.appending("connection")
        guard let c = problems.attempt({ () throws(JSONSchemaError) in try value.object(at: path) }) else { return connection }
        problems.rejectUnknownKeys(of: c, allowed: ["minIntervalMs", "maxIntervalMs", "latency", "supervisionTimeoutMs"], at: path)
        func interval(_ key: String) -> Double? {
            guard let v = c[key], let n = problems.attempt({ () throws(JSONSchemaError) in try inRange(v, 7.5...4000, at: path.appending(key)) })
            else { return nil }
            guard onIntervalGrid(n) else {
                problems.append(JSONSchemaError(path.appending(key), "\(JSONWriter.numberText(n)) is not a whole number of 1.25 ms (the HCI's unit)"))
                return nil
            }
            return n
        }
        if let n = interval("minIntervalMs") { connection.minIntervalMs = n }
        if let n = interval("maxIntervalMs") { connection.maxIntervalMs = n }
        if let v = c["latency"], let n = problems.attempt({ () throws(JSONSchemaError) in try v.integer(at: path.appending("latency"), in: 0...499) }) { connection.latency = n }
        let timeoutPath = path.appending("supervisionTimeoutMs")
        if let v = c["supervisionTimeoutMs"], let n = problems.attempt({ () throws(JSONSchemaError) in try v.integer(at: timeoutPath, in: 100...32000) }) {
            if n % 10 == 0 { connection.supervisionTimeoutMs = n } else { problems.append(JSONSchemaError(timeoutPath, "\(n) is not a whole number of 10 ms (the HCI's unit)")) }
        }
        if connection.minIntervalMs > connection.maxIntervalMs {
            problems.append(JSONSchemaError(path.appending("maxIntervalMs"), "\(JSONWriter.numberText(connection.maxIntervalMs)) is below minIntervalMs \(JSONWriter.numberText(connection.minIntervalMs))"))
        }
        let silence = Double(1 + connection.latency) * connection.maxIntervalMs * 2
        if Double(connection.supervisionTimeoutMs) <= silence {
            problems.append(JSONSchemaError(timeoutPath, "\(connection.supervisionTimeoutMs) must be above (1 + latency) × maxIntervalMs × 2 = \(JSONWriter.numberText(silence)) ms, or a link with no error would time out"))
        }
        return connection
    }
}

extension RigDefinition {
    /// The vm guest kernel's words this rig needs: with more than one ATT bearer (`gattChannels`), L2CAP's enhanced
    /// credit-based mode, which EATT runs on and Debian's kernel leaves off (`bluetooth.enable_ecred`, which the guest's
    /// init hands to the module's insmod: Rigs/vm/init.sh): without it bluetoothd's EATT listener is refused and no
    /// phone gets a second bearer.
    package var kernelArguments: [String] {
        gattChannels > 1 ? ["bluetooth.enable_ecred=1"] : []
    }
}
