import Glibc

/// The peripheral log's time stamp: local time to the millisecond with its offset from UTC, as ISO 8601's internet
/// date-time (`2026-11-26T05:48:01.123Z`, `2026-11-26T06:48:01.123+01:00`). Made from `clock_gettime` and
/// `localtime_r`, not Foundation's ISO8601DateFormatter: that formatter's first use loads ICU, about 0.4 s of CPU in
/// the vm guest, and the computer started ahead for the next scenario spent it while the current scenario set up.
enum LogStamp {
    /// Now.
    static func now() -> String {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        var seconds = time.tv_sec
        var local = tm()
        localtime_r(&seconds, &local)
        return text(local, milliseconds: Int(time.tv_nsec / 1_000_000))
    }

    /// `local` (broken down by localtime_r or gmtime_r, `tm_gmtoff` its offset) and the milliseconds.
    static func text(_ local: tm, milliseconds: Int) -> String {
        func digits(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        let date = "\(digits(Int(local.tm_year) + 1900, 4))-\(digits(Int(local.tm_mon) + 1, 2))-\(digits(Int(local.tm_mday), 2))"
        let time = "\(digits(Int(local.tm_hour), 2)):\(digits(Int(local.tm_min), 2)):\(digits(Int(local.tm_sec), 2)).\(digits(milliseconds, 3))"
        let offset = local.tm_gmtoff
        guard offset != 0 else { return date + "T" + time + "Z" }
        let minutes = abs(offset) / 60
        return date + "T" + time + (offset < 0 ? "-" : "+") + digits(minutes / 60, 2) + ":" + digits(minutes % 60, 2)
    }
}
