import Foundation

/// How many ATT bearers the running bluetoothd serves: `[GATT] Channels` of the main.conf it reads (its `-f` or
/// `--configfile`, else /etc/bluetooth/main.conf), 3 (EATT) when the file does not set it, as bluetoothd's own
/// default. The computer's ordering guarantee needs 1 (docs/protocol.md, "Order"): `hil peripheral` warns otherwise.
package struct BluetoothdBearers: Sendable, Equatable {
    /// The main.conf bluetoothd reads.
    package var file: String
    /// Its `[GATT] Channels`, or bluetoothd's default.
    package var channels: Int
    /// bluetoothd's default when main.conf does not set `Channels` (src/main.c, BlueZ 5.66).
    package static let bluetoothdDefault = 3
    package static let systemFile = "/etc/bluetooth/main.conf"

    /// The running bluetoothd's, found under `proc` by its command line; nil when no bluetoothd is found or its
    /// configuration cannot be read.
    package static func running(proc: String = "/proc") -> BluetoothdBearers? {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: proc)) ?? []
        for entry in entries where entry.allSatisfy(\.isNumber) {
            guard let data = FileManager.default.contents(atPath: "\(proc)/\(entry)/cmdline"), !data.isEmpty else { continue }
            let arguments = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            guard let program = arguments.first, program.hasSuffix("/bluetoothd") || program == "bluetoothd" else { continue }
            let file = configFile(arguments: Array(arguments.dropFirst()))
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { return nil }
            return BluetoothdBearers(file: file, channels: channels(mainConf: text))
        }
        return nil
    }

    /// The file of bluetoothd's `-f FILE`, `-fFILE` or `--configfile[=]FILE`, else the system's.
    package static func configFile(arguments: [String]) -> String {
        var file = systemFile
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "-f" || argument == "--configfile", index + 1 < arguments.count {
                file = arguments[index + 1]
                index += 1
            } else if argument.hasPrefix("--configfile=") {
                file = String(argument.dropFirst("--configfile=".count))
            } else if argument.hasPrefix("-f"), argument.count > 2, !argument.hasPrefix("--") {
                file = String(argument.dropFirst(2))
            }
            index += 1
        }
        return file
    }

    /// `[GATT] Channels` of a main.conf (the last one set, as GLib's key files read it), else bluetoothd's default;
    /// bluetoothd clamps it to 1…5.
    package static func channels(mainConf text: String) -> Int {
        var group = ""
        var channels = bluetoothdDefault
        for line in text.split(separator: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("[") { group = trimmed; continue }
            guard group == "[GATT]", !trimmed.hasPrefix("#"), let equals = trimmed.firstIndex(of: "=") else { continue }
            guard trimmed[..<equals].trimmingCharacters(in: .whitespaces) == "Channels",
                  let value = Int(trimmed[trimmed.index(after: equals)...].trimmingCharacters(in: .whitespaces))
            else { continue }
            channels = min(5, max(1, value))
        }
        return channels
    }

    /// The warning `hil peripheral` logs at the start, or nil when bluetoothd serves one bearer.
    package var warning: String? {
        guard channels != 1 else { return nil }
        return "bluetoothd serves \(channels) ATT bearers (EATT; [GATT] Channels in \(file)\(channels == Self.bluetoothdDefault ? ", or its default" : "")): "
            + "a phone's writes can reach this computer out of order, a drag's release before its last moves "
            + "(docs/protocol.md, \"Order\"). Set Channels = 1 in [GATT] of \(file) and restart bluetooth "
            + "(`hil rig main-conf --rig hardware` prints a main.conf with it)"
    }
}
