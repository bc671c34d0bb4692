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
        for tick in 0...4 {
            let share = Double(tick) / 4
            let time = Double(first) + span * share
            let anchor = tick == 0 ? "start" : tick == 4 ? "end" : "middle"
            svg += "<text x=\"\(f(left + plot * share))\" y=\"\(f(base + 16))\" text-anchor=\"\(anchor)\">"
                + "\(Self.ms(time - Double(origin))) ms</text>\n"
        }
        return svg + "</svg>\n"
    }

    /// `1234.5` for ns → ms with one decimal.
    static func ms(_ nanoseconds: Double) -> String {
        String(format: "%.1f", nanoseconds / 1_000_000)
    }

    private func f(_ value: Double) -> String {
        String(format: "%.1f", value)
    }
}
