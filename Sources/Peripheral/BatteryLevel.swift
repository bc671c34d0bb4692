import Foundation

/// This machine's battery level (R5), from /sys/class/power_supply when it has a battery.
enum BatteryLevel {
    static func read(root: String = "/sys/class/power_supply") -> Int? {
        guard let supplies = try? FileManager.default.contentsOfDirectory(atPath: root) else { return nil }
        for supply in supplies.sorted() {
            let type = (try? String(contentsOfFile: "\(root)/\(supply)/type", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
            guard type == "Battery",
                let text = try? String(contentsOfFile: "\(root)/\(supply)/capacity", encoding: .utf8),
                let level = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)), (0...100).contains(level)
            else { continue }
            return level
        }
        return nil
    }
}
