import Foundation
package import Records
import TextMarkup

extension TraceTimeline {
    /// The timeline as an inline SVG strip for the HTML report: a row per track, time left to right from the first
    /// mark to the last, spans as bars and instants as ticks, flagged ones red; each mark's label is its tooltip.
    /// Dense rows stay readable because ticks are thin: the numbers are in `timeline.json`, this is the overview.
    package func svg(width: Double = 880) -> String {
        let left = 150.0, right = 12.0, row = 22.0, top = 8.0, axis = 26.0
        let height = top + row * Double(Track.allCases.count) + axis
        let label = "Timeline of \(scenario): \(marks.count) marks on \(Track.allCases.count) tracks"
        var svg = "<svg class=\"timeline\" role=\"img\" width=\"\(f(width))\" height=\"\(f(height))\" "
            + "viewBox=\"0 0 \(f(width)) \(f(height))\" aria-label=\"\(Markup.escape(label))\">\n"
            + "<title>\(Markup.escape(label))</title>\n"
        let first = marks.map(\.at).min() ?? origin
        let last = max(marks.map { $0.end ?? $0.at }.max() ?? origin, first + 1_000_000)
        let span = Double(last - first)
        let plot = width - left - right
        func x(_ time: UInt64) -> Double { left + plot * Double(time - min(time, first)) / span }
        for (index, track) in Track.allCases.enumerated() {
            let y = top + row * Double(index)
            svg += "<text x=\"\(f(left - 8))\" y=\"\(f(y + row * 0.65))\" text-anchor=\"end\">\(Markup.escape(track.title))</text>\n"
            svg += "<line class=\"grid\" x1=\"\(f(left))\" y1=\"\(f(y + row - 1))\" x2=\"\(f(width - right))\" y2=\"\(f(y + row - 1))\"/>\n"
            for mark in marks where mark.track == track {
                let start = x(mark.at)
                let barWidth = mark.end.map { max(1.5, x($0) - start) } ?? 1.2
                let kind = mark.flagged ? "mark flagged" : "mark \(track.rawValue)"
                let tip = "\(Self.ms(Double(mark.at) - Double(origin))) ms: \(mark.label)"
                svg += "<rect class=\"\(kind)\" x=\"\(f(start))\" y=\"\(f(y + 3))\" width=\"\(f(barWidth))\" "
                    + "height=\"\(f(row - 7))\"><title>\(Markup.escape(tip))</title></rect>\n"
            }
        }
        let base = top + row * Double(Track.allCases.count)
        // Ticks on round times from the origin (0, 500, 1000 ms), not at quarters of whatever span the marks cover.
        let startMs = (Double(first) - Double(origin)) / 1e6, endMs = (Double(first) + span - Double(origin)) / 1e6
        for tick in Self.ticks(from: startMs, to: endMs) {
            let share = (tick - startMs) / (endMs - startMs)
            let anchor = share < 0.05 ? "start" : share > 0.95 ? "end" : "middle"
            svg += "<line class=\"grid\" x1=\"\(f(left + plot * share))\" y1=\"\(f(top))\" x2=\"\(f(left + plot * share))\" "
                + "y2=\"\(f(base))\"/>\n"
            svg += "<text x=\"\(f(left + plot * share))\" y=\"\(f(base + 16))\" text-anchor=\"\(anchor)\">"
                + "\(String(format: "%g", tick)) ms</text>\n"
        }
        return svg + "</svg>\n"
    }

    /// The axis' ticks between two times (ms from the origin): every multiple of one step of 1, 2 or 5 × a power of
    /// ten that gives three to six of them (`15.2…2396.0`: 500, 1000, 1500, 2000).
    package static func ticks(from start: Double, to end: Double) -> [Double] {
        guard end > start else { return [start] }
        let power = pow(10, floor(log10((end - start) / 4)))
        let step = [1.0, 2, 5, 10].map { $0 * power }.first { ((end - start) / $0).rounded(.down) <= 5 } ?? 10 * power
        var ticks: [Double] = []
        var multiple = (start / step).rounded(.up)
        while multiple * step <= end + step * 1e-9 {
            ticks.append(multiple == 0 ? 0 : multiple * step)
            multiple += 1
        }
        return ticks
    }

    /// `1234.5` for ns → ms with one decimal.
    static func ms(_ nanoseconds: Double) -> String {
        String(format: "%.1f", nanoseconds / 1_000_000)
    }

    private func f(_ value: Double) -> String {
        String(format: "%.1f", value)
    }
}
