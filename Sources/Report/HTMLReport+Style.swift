extension HTMLReport {
    /// The report's inline style sheet.
    static let style = """
        body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1d232a; margin: 0 auto; \
        max-width: 1180px; padding: 0 20px 40px; }
        header { border-bottom: 4px solid #2e7d32; margin-bottom: 12px; }
        header.fail { border-bottom-color: #c62828; }
        h1 { font-size: 24px; margin: 18px 0 4px; }
        h2 { font-size: 19px; margin: 28px 0 8px; border-bottom: 1px solid #d5dae0; padding-bottom: 3px; }
        h3 { font-size: 15px; margin: 18px 0 6px; }
        h4 { font-size: 13px; margin: 10px 0 4px; font-weight: 600; }
        nav a { margin-right: 14px; color: #2456a6; }
        .facts, .file, .note { color: #56606b; }
        .file { font-size: 12px; font-family: ui-monospace, "DejaVu Sans Mono", monospace; }
        .warning { background: #fdecea; border-left: 4px solid #c62828; padding: 6px 10px; }
        .ok { color: #2e7d32; }
        pre { background: #f5f6f8; border: 1px solid #e0e4e8; padding: 8px 10px; overflow-x: auto; font-size: 12px; \
        font-family: ui-monospace, "DejaVu Sans Mono", monospace; white-space: pre-wrap; }
        svg.timeline text { font-size: 11px; fill: #444; }
        svg.timeline .mark { fill: #3b82c4; }
        svg.timeline .mark.steps { fill: #9aa7b5; }
        svg.timeline .mark.evdev { fill: #4aa36c; }
        svg.timeline .mark.packets { fill: #8e6fd1; }
        svg.timeline .mark.uinput { fill: #e0903a; }
        svg.timeline .mark.flagged { fill: #c62828; }
        article.failure { border-left: 4px solid #c62828; padding-left: 12px; margin: 12px 0 18px; }
        table { border-collapse: collapse; margin: 8px 0 14px; font-size: 13px; }
        th, td { border: 1px solid #d5dae0; padding: 3px 8px; text-align: left; vertical-align: top; }
        th { background: #eef1f4; font-weight: 600; }
        td.n { text-align: right; font-variant-numeric: tabular-nums; }
        tr.total td { font-weight: 600; }
        .badge { display: inline-block; border-radius: 3px; padding: 0 6px; font-size: 12px; font-weight: 600; \
        color: #fff; background: #6b7580; }
        .badge.passed { background: #2e7d32; }
        .badge.failed { background: #c62828; }
        .badge.inconclusive { background: #b26a00; }
        .badge.error { background: #6a1b9a; }
        .badge.notApplicable { background: #757575; }
        tr.regressed td { background: #fde2e1; font-weight: 600; }
        tr.improved td { background: #e3f4e4; }
        .charts { display: flex; flex-wrap: wrap; gap: 12px; }
        svg.chart { max-width: 100%; height: auto; background: #fff; border: 1px solid #e0e4e8; }
        svg text { font: 11px system-ui, sans-serif; fill: #3a434d; }
        svg .axis { stroke: #56606b; stroke-width: 1; }
        svg .grid { stroke: #e3e7eb; stroke-width: 1; }
        svg .cdf-line { fill: none; stroke: #2456a6; stroke-width: 2; }
        svg .bar { fill: #3b82c4; }
        svg .marker { stroke: #c62828; stroke-dasharray: 4 3; }
        svg text.marker-label { fill: #c62828; }
        svg text.kind-label { font-weight: 600; }
        @media print { nav { display: none; } }
        """
}
