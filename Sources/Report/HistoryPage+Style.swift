extension HistoryPage {
    /// What the history page adds to the run report's style sheet.
    static let style = """
        svg .trend-line { fill: none; stroke-width: 1.5; }
        svg .trend-line.p50, svg .point.p50 circle, svg circle.legend.p50 { stroke: #2456a6; }
        svg .trend-line.p95, svg .point.p95 circle, svg circle.legend.p95 { stroke: #e0903a; }
        svg .point.p50 circle, svg circle.legend.p50 { fill: #2456a6; }
        svg .point.p95 circle, svg circle.legend.p95 { fill: #e0903a; }
        svg .whisker { stroke: #56606b; stroke-width: 1; }
        svg .change-line { stroke: #6a1b9a; stroke-dasharray: 5 3; stroke-width: 1.2; }
        svg text.change-label { fill: #6a1b9a; }
        svg circle.flag { fill: none; stroke-width: 2.5; }
        svg circle.flag.regressed { stroke: #c62828; }
        svg circle.flag.improved { stroke: #2e7d32; }
        tr.bad td { background: #fdecea; }
        td.changed { background: #efe3f6; font-weight: 600; }
        table.grid td.cell { text-align: center; min-width: 2.2em; font-weight: 600; }
        table.grid th.run { font-size: 11px; text-align: center; }
        td.nowrap { white-space: nowrap; }
        div.wide { overflow-x: auto; }
        td.cell.passed { color: #2e7d32; }
        td.cell.failed, td.cell.error { background: #fde2e1; color: #c62828; }
        td.cell.flaky, td.cell.inconclusive { background: #fff3e0; color: #b26a00; }
        td.cell.notApplicable { color: #757575; font-weight: 400; font-size: 11px; }
        """
}
