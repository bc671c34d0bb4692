import Foundation

extension SoakRunner.Summary {
    /// The soak's rule: it passes only when the link lost nothing, every command's evdev frame was seen and nothing
    /// was held at the end.
    package var passed: Bool { lostByLink == 0 && !minutes.contains { $0.unverified > 0 } && heldAtEnd.isEmpty }

    /// `total: sent 7200, verified 7200, lost by the link 0 (the computer's receipts), SYN_DROPPED 0; peripheral RSS
    /// 9.1 MiB at minute 1, 9.2 MiB at the end`
    package var totalLine: String {
        let verified = minutes.reduce(0) { $0 + $1.verified }
        func mebibytes(_ kib: Int?) -> String { kib.map { String(format: "%.1f", Double($0) / 1024) } ?? "-" }
        return "total: sent \(sent), verified \(verified), lost by the link \(lostByLink) (the computer's receipts), "
            + "SYN_DROPPED \(readerDrops); peripheral RSS \(mebibytes(minutes.first?.residentKiB)) MiB at minute 1, "
            + "\(mebibytes(minutes.last?.residentKiB)) MiB at the end"
            + (heldAtEnd.isEmpty ? "; nothing held" : "; HELD AT THE END: " + heldAtEnd.joined(separator: ", "))
    }
}

extension SoakRunner.Minute {
    /// `minute 3: sent 7200, verified 7200, unverified 0, p50 3.10 ms, p99 8.40 ms, peripheral RSS 9.1 MiB`
    package var line: String {
        func milliseconds(_ value: Double?) -> String { value.map { String(format: "%.2f", $0) } ?? "-" }
        let memory = residentKiB.map { String(format: "%.1f MiB", Double($0) / 1024) } ?? "-"
        return "minute \(minute): sent \(sent), verified \(verified), unverified \(unverified), p50 \(milliseconds(latency.p50)) ms, "
            + "p99 \(milliseconds(latency.p99)) ms, peripheral RSS \(memory)"
    }
}
