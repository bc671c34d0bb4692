import Foundation
import LatencyStats
import Records
import TextMarkup

/// The report's charts as inline SVG (no scripts, no external references): a latency CDF and a histogram per
/// step kind on a log axis, and the per-stage breakdown as stacked bars.
enum LatencyChart {
    static func color(_ stage: LatencyStage) -> String {
        switch stage {
        case .gesture: "#8e6fd1"
        case .link: "#3b82c4"
        case .peripheral: "#e0903a"
        case .kernel: "#4aa36c"
        }
    }

    private static let width = 480.0
    private static let height = 250.0
    private static let left = 56.0
    private static let right = 16.0
    private static let top = 16.0
    private static let bottom = 42.0
    private static var plotWidth: Double { width - left - right }
    private static var plotHeight: Double { height - top - bottom }

    /// The share of steps at or below each latency, with the p50 and p95 marked; `scale` is the latency axis
    /// (one for every kind of a report, so their charts compare), by default the samples' own.
    static func cdf(kind: String, samples: [Double], summary: LatencySummary, scale: LogScale? = nil) -> String {
        let sorted = samples.sorted()
        let scale = scale ?? LogScale(samples: sorted)
        var svg = open(
            class: "cdf", label: "Latency CDF of \(kind): share of \(sorted.count) steps at or below each latency")
        svg += xAxis(scale, title: "latency, ms (log scale)")
        for share in [0.0, 0.25, 0.5, 0.75, 0.95, 1.0] {
            let y = top + plotHeight * (1 - share)
            svg += SVG.line(left, y, left + plotWidth, y, class: share == 0 ? "axis" : "grid")
            svg += SVG.text(left - 6, y + 4, share == 0.95 ? "95 %" : "\(Int(share * 100)) %", anchor: "end")
        }
        svg += SVG.text(14, top + plotHeight / 2, "share of steps", anchor: "middle", rotate: true)
        // A step up at every sample; at most 600 points (quantiles of the sorted samples beyond that).
        let points = Swift.min(sorted.count, 600)
        if points > 0 {
            var path = "M\(SVG.number(x(sorted[0], scale))),\(SVG.number(top + plotHeight))"
            for k in 0..<points {
                let index = points == sorted.count
                    ? k : Int((Double(k + 1) / Double(points) * Double(sorted.count)).rounded(.up)) - 1
                let share = Double(index + 1) / Double(sorted.count)
                path += "H\(SVG.number(x(sorted[index], scale)))V\(SVG.number(top + plotHeight * (1 - share)))"
            }
            svg += "<path class=\"cdf-line\" d=\"\(path)\"/>\n"
        }
        for (name, value) in [("p50", summary.p50), ("p95", summary.p95)] {
            guard let value else { continue }
            let at = x(value, scale)
            svg += SVG.line(at, top, at, top + plotHeight, class: "marker")
            svg += SVG.text(
                at + 4, top + 12 + (name == "p95" ? 14 : 0), "\(name) \(Formatting.ms(value))", anchor: "start",
                class: "marker-label")
        }
        return svg + "</svg>\n"
    }

    /// How many steps fall in each latency bin; bins are equal on the log axis (10 per decade). `scale` as for `cdf`.
    static func histogram(kind: String, samples: [Double], scale: LogScale? = nil) -> String {
        let scale = scale ?? LogScale(samples: samples)
        let binsPerDecade = 10
        let bins = binsPerDecade * (scale.decades.count - 1)
        var counts = Array(repeating: 0, count: bins)
        for sample in samples {
            counts[Swift.min(bins - 1, Int(scale.fraction(sample) * Double(bins)))] += 1
        }
        let tallest = Swift.max(counts.max() ?? 0, 1)
        var svg = open(class: "histogram", label: "Latency histogram of \(kind): \(samples.count) steps by latency")
        svg += xAxis(scale, title: "latency, ms (log scale)")
        // Whole counts only: 0, the tallest bin, and a whole number near half of it.
        var ticks = [0, tallest]
        if tallest >= 4 { ticks.append(tallest / 2) }
        for tick in ticks {
            let y = top + plotHeight * (1 - Double(tick) / Double(tallest))
            svg += SVG.line(left, y, left + plotWidth, y, class: tick == 0 ? "axis" : "grid")
            svg += SVG.text(left - 6, y + 4, String(tick), anchor: "end")
        }
        svg += SVG.text(14, top + plotHeight / 2, "steps", anchor: "middle", rotate: true)
        let binWidth = plotWidth / Double(bins)
        for (bin, count) in counts.enumerated() where count > 0 {
            let barHeight = plotHeight * Double(count) / Double(tallest)
            let from = scale.value(at: Double(bin) / Double(bins))
            let to = scale.value(at: Double(bin + 1) / Double(bins))
            svg += "<rect class=\"bar\" x=\"\(SVG.number(left + binWidth * Double(bin) + 0.5))\" "
                + "y=\"\(SVG.number(top + plotHeight - barHeight))\" "
                + "width=\"\(SVG.number(Swift.max(binWidth - 1, 0.5)))\" height=\"\(SVG.number(barHeight))\">"
                + "<title>\(count) step\(count == 1 ? "" : "s") at \(Formatting.ms(from))–\(Formatting.ms(to)) ms</title>"
                + "</rect>\n"
        }
        return svg + "</svg>\n"
    }

    /// Per kind, the p50 of each stage stacked left to right; nil when no kind has stages.
    static func stages(_ kinds: [KindLatency]) -> String? {
        let staged = kinds.filter { !$0.stages.isEmpty }
        guard !staged.isEmpty else { return nil }
        let chartWidth = 760.0
        let labelWidth = 130.0
        let totalWidth = 120.0
        let rowHeight = 22.0
        let gap = 10.0
        let legendHeight = 30.0
        let barsWidth = chartWidth - labelWidth - totalWidth
        let chartHeight = legendHeight + Double(staged.count) * (rowHeight + gap) + 24
        let sums = staged.map { kind in LatencyStage.allCases.reduce(0.0) { $0 + Swift.max(kind.stages[$1]?.p50 ?? 0, 0) } }
        let largest = Swift.max(sums.max() ?? 0, 0.001)
        var svg = SVG.open(class: "stages", label: "Median of each stage per step kind, stacked", width: chartWidth,
                           height: chartHeight)
        var legendX = labelWidth
        for stage in LatencyStage.allCases {
            svg += "<rect x=\"\(SVG.number(legendX))\" y=\"6\" width=\"12\" height=\"12\" fill=\"\(color(stage))\"/>\n"
            svg += SVG.text(legendX + 16, 16, stage.rawValue, anchor: "start")
            legendX += 110
        }
        for (row, kind) in staged.enumerated() {
            let y = legendHeight + Double(row) * (rowHeight + gap)
            svg += SVG.text(labelWidth - 8, y + rowHeight / 2 + 4, kind.kind, anchor: "end", class: "kind-label")
            var x = labelWidth
            for stage in LatencyStage.allCases {
                guard let p50 = kind.stages[stage]?.p50, p50 > 0 else { continue }
                let segment = barsWidth * p50 / largest
                svg += "<rect x=\"\(SVG.number(x))\" y=\"\(SVG.number(y))\" width=\"\(SVG.number(Swift.max(segment, 0.5)))\" "
                    + "height=\"\(SVG.number(rowHeight))\" "
                    + "fill=\"\(color(stage))\"><title>\(Markup.escape(kind.kind)): \(stage.rawValue) p50 "
                    + "\(Formatting.ms(p50)) ms</title></rect>\n"
                x += segment
            }
            svg += SVG.text(x + 6, y + rowHeight / 2 + 4, "\(Formatting.ms(sums[row])) ms", anchor: "start")
        }
        let axisY = legendHeight + Double(staged.count) * (rowHeight + gap)
        svg += SVG.line(labelWidth, axisY, labelWidth + barsWidth, axisY, class: "axis")
        svg += SVG.text(labelWidth, axisY + 16, "0", anchor: "start")
        svg += SVG.text(labelWidth + barsWidth, axisY + 16, "\(Formatting.ms(largest)) ms (sum of stage medians)", anchor: "end")
        return svg + "</svg>\n"
    }

    // MARK: Pieces

    private static func open(class name: String, label: String) -> String {
        SVG.open(class: name, label: label, width: width, height: height)
    }

    private static func xAxis(_ scale: LogScale, title: String) -> String {
        var svg = ""
        for decade in scale.decades {
            let at = x(decade, scale)
            svg += SVG.line(at, top, at, top + plotHeight, class: "grid")
            svg += SVG.text(at, top + plotHeight + 16, LogScale.label(decade), anchor: "middle")
        }
        svg += SVG.line(left, top, left, top + plotHeight, class: "axis")
        svg += SVG.text(left + plotWidth / 2, height - 6, title, anchor: "middle")
        return svg
    }

    private static func x(_ value: Double, _ scale: LogScale) -> Double {
        left + plotWidth * scale.fraction(value)
    }
}
