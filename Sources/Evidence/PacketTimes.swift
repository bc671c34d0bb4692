import Foundation
import Processes
package import Records

/// The packets of a capture file as timeline marks, read by Debian's tshark (it knows btsnoop and pcap; nothing here
/// parses either): each packet's wall-clock time, moved onto CLOCK_MONOTONIC by the offset taken when the capture
/// began, and its protocol and summary line (`ATT: Rcvd Write Command, Handle: 0x0012`).
package enum PacketTimes {
    package static func read(_ file: String, wallOffset: Int64) -> (marks: [TraceTimeline.Mark], notes: [String]) {
        let name = (file as NSString).lastPathComponent
        guard FileManager.default.fileExists(atPath: file) else { return ([], []) }
        guard let tshark = ChildProcess.resolve("tshark") else {
            return ([], ["\(name) is not on the timeline: tshark is not installed (bash Rigs/setup.sh installs it)."])
        }
        // bluetoothd's writes go over EATT (ATT on L2CAP channels of PSM 0x27), which tshark 4.0 does not decode as
        // ATT by itself; told so, it still misses the channels the remote opened (their frames keep their payload).
        let decodeAs = file.hasSuffix(".btsnoop") ? ["-d", "btl2cap.psm==0x27,btatt"] : []
        let output: String
        do {
            // A line of about 100 bytes per packet: 64 MiB holds some 600,000 packets; 5 minutes reads them.
            let run = try ChildProcess.runBlocking(
                tshark, arguments: ["-n", "-r", file] + decodeAs + ["-T", "fields", "-E", "separator=/t", "-e", "frame.time_epoch",
                                    "-e", "_ws.col.Protocol", "-e", "_ws.col.Info", "-e", "btl2cap.payload", "-e", "hci_mon.adapter_id"],
                errors: .joined, output: 64 << 20, timeout: .seconds(300))
            output = run.standardOutput
            let status = run.status
            // tshark's warnings (running as root) have no tabs and are skipped below. It exits 2 for a file cut short (a capture stopped mid-record) after printing what it read.
            if status != 0 && output.isEmpty { return ([], ["\(name) is not on the timeline: tshark -r exited \(status)."]) }
        } catch {
            return ([], ["\(name) is not on the timeline: \(error)"])
        }
        let marks = output.split(separator: "\n").compactMap { line -> TraceTimeline.Mark? in
            let fields = line.split(separator: "\t", maxSplits: 4, omittingEmptySubsequences: false)
            guard fields.count >= 3, let wall = nanoseconds(fields[0]), wall > wallOffset else { return nil }
            // An L2CAP frame tshark could not take further (an EATT channel the remote opened): its bytes.
            let payload = fields.count > 3 && !fields[3].isEmpty ? " [\(fields[3].prefix(48))]" : ""
            // Which controller (btsnoop from the monitor channel holds every adapter's packets).
            let adapter = fields.count > 4 && !fields[4].isEmpty ? "hci\(fields[4]) " : ""
            return .init(.packets, at: UInt64(wall - wallOffset), label: "\(adapter)\(fields[1]): \(fields[2])\(payload)")
        }
        return (marks, [])
    }

    /// `1700000000.123456789` (seconds since the epoch) → ns, without going through a Double.
    package static func nanoseconds(_ text: Substring) -> Int64? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard let seconds = Int64(parts[0]) else { return nil }
        var fraction: Int64 = 0
        if parts.count == 2 {
            let digits = String(parts[1].prefix(9))
            guard let value = Int64(digits) else { return nil }
            fraction = value * Int64(pow(10, Double(9 - digits.count)))
        } else if parts.count > 2 {
            return nil
        }
        return seconds * 1_000_000_000 + fraction
    }
}
