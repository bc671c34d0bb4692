import Foundation
import LatencyStats
import TextMarkup

/// A history page's trend chart for one transport and gesture kind: each run's p50 and p95 with their 95 %
/// intervals as whiskers, runs left to right in time order, a dashed line where the conditions changed, and a ring
/// around a run flagged by the regression rule (red: regressed, green: improved).
enum HistoryChart {
    /// What the chart needs of each run.
    struct Run {
        /// Under each run's tick: `11-30`.
        var label: String
        /// Whose figures a tooltip names: the run's folder.
        var name: String
        /// The conditions that changed since the run before, in words; empty when none did.
        var changes: [String]
    }

    private static let width = 760.0
    private static let height = 250.0
    private static let left = 56.0
    private static let right = 16.0
    private static let top = 28.0
    private static let bottom = 40.0
    private static var plotWidth: Double { width - left - right }
    private static var plotHeight: Double { height - top - bottom }

    static func trend(_ series: HistoryAnalysis.Series, runs: [Run]) -> String {
        let highest = series.points.compactMap { $0.map { Swift.max($0.p95.high ?? $0.p95.value, $0.p95.value) } }.max() ?? 1
        let (ceiling, step) = axis(highest)
        func x(_ index: Int) -> Double { left + plotWidth * (Double(index) + 0.5) / Double(Swift.max(runs.count, 1)) }
        func y(_ value: Double) -> Double { top + plotHeight * (1 - Swift.min(value, ceiling) / ceiling) }
        let label = "\(series.group.label): p50 and p95 per run with 95 % intervals, ms"
        var svg = SVG.open(class: "trend", label: label, width: width, height: height)
        svg += legend()
        var tick = 0.0
        while tick <= ceiling + step / 2 {
            svg += SVG.line(left, y(tick), left + plotWidth, y(tick), class: tick == 0 ? "axis" : "grid")
            svg += SVG.text(left - 6, y(tick) + 4, String(format: "%g", tick), anchor: "end")
            tick += step
        }
        svg += SVG.text(14, top + plotHeight / 2, "ms", anchor: "middle", rotate: true)
        // Labels about 7 px a character apart by at least 10 px: every run's when they fit, else every n-th.
        let widest = Double(runs.map(\.label.count).max() ?? 1) * 7 + 10
        let every = Swift.max(1, Int((Double(runs.count) * widest / plotWidth).rounded(.up)))
        for (index, run) in runs.enumerated() {
            if index % every == 0 || index == runs.count - 1 {
                svg += SVG.text(x(index), top + plotHeight + 16, run.label, anchor: "middle")
            }
            guard !run.changes.isEmpty, index > 0 else { continue }
            let at = (x(index - 1) + x(index)) / 2
            svg += "<g class=\"change\"><title>\(Markup.escape("changed before \(run.name): " + run.changes.joined(separator: "; ")))</title>"
                + SVG.line(at, top, at, top + plotHeight, class: "change-line")
                + SVG.text(at + 3, top + 10, "changed", anchor: "start", class: "change-label") + "</g>\n"
        }
        for (name, pick) in [("p95", \HistoryAnalysis.Point.p95), ("p50", \HistoryAnalysis.Point.p50)] {
            svg += line(series.points.map { $0.map { $0[keyPath: pick].value } }, x: x, y: y, class: name)
            for (index, point) in series.points.enumerated() {
                guard let point else { continue }
                let estimate = point[keyPath: pick]
                svg += marker(estimate, at: x(index), y: y, class: name, run: runs[index].name, count: point.count)
                if name == "p50", let verdict = point.verdict, verdict == .regressed || verdict == .improved {
                    svg += "<circle class=\"flag \(verdict.rawValue)\" cx=\"\(SVG.number(x(index)))\" "
                        + "cy=\"\(SVG.number(y(estimate.value)))\" r=\"7\"><title>\(Markup.escape("\(runs[index].name): \(verdict.rawValue)"))</title></circle>\n"
                }
            }
        }
        return svg + "</svg>\n"
    }

    /// The axis' top and its tick step: 1, 2 or 5 × a power of ten, four or five ticks.
    static func axis(_ highest: Double) -> (ceiling: Double, step: Double) {
        let target = Swift.max(highest, 0.01) / 4
        let power = pow(10, floor(log10(target)))
        let step = [1.0, 2, 5, 10].map { $0 * power }.first { $0 >= target } ?? 10 * power
        return ((Swift.max(highest, 0.01) / step).rounded(.up) * step, step)
    }

    /// A polyline through consecutive runs that have the figure; a run without it breaks the line.
    private static func line(_ values: [Double?], x: (Int) -> Double, y: (Double) -> Double, class name: String) -> String {
        var path = ""
        var drawing = false
        for (index, value) in values.enumerated() {
            guard let value else { drawing = false; continue }
            path += "\(drawing ? "L" : "M")\(SVG.number(x(index))),\(SVG.number(y(value)))"
            drawing = true
        }
        return path.isEmpty ? "" : "<path class=\"trend-line \(name)\" d=\"\(path)\"/>\n"
    }

    private static func marker(_ estimate: PercentileInterval, at x: Double, y: (Double) -> Double, class name: String,
                               run: String, count: Int) -> String
    {
        var interval = "no interval: too few samples beyond the \(name)"
        var svg = "<g class=\"point \(name)\">"
        if let low = estimate.low, let high = estimate.high {
            interval = "95 % interval \(Formatting.ms(low))–\(Formatting.ms(high))"
            svg += SVG.line(x, y(low), x, y(high), class: "whisker")
            svg += SVG.line(x - 4, y(low), x + 4, y(low), class: "whisker")
            svg += SVG.line(x - 4, y(high), x + 4, y(high), class: "whisker")
        }
        let tip = "\(run): \(name) \(Formatting.ms(estimate.value)) ms, \(interval), \(count) steps"
        svg += "<circle cx=\"\(SVG.number(x))\" cy=\"\(SVG.number(y(estimate.value)))\" r=\"3.5\"><title>"
            + "\(Markup.escape(tip))</title></circle></g>\n"
        return svg
    }

    private static func legend() -> String {
        var svg = ""
        var at = left
        for (name, text) in [("p50", "p50"), ("p95", "p95"), ("whisker", "95 % interval"), ("change-line", "conditions changed")] {
            svg += name == "p50" || name == "p95"
                ? "<circle class=\"legend \(name)\" cx=\"\(SVG.number(at + 5))\" cy=\"12\" r=\"4\"/>\n"
                : SVG.line(at + 5, 4, at + 5, 20, class: name)
            svg += SVG.text(at + 14, 16, text, anchor: "start")
            at += name == "change-line" ? 140 : 110
        }
        return svg
    }
}
