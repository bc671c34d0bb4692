import Foundation
import TextMarkup

/// The pieces of the reports' inline SVG charts: coordinates to one decimal, every text escaped (`Markup`).
enum SVG {
    /// `<svg class="chart NAME" …>` with its title for screen readers and tooltips.
    static func open(class name: String, label: String, width: Double, height: Double) -> String {
        "<svg class=\"chart \(name)\" role=\"img\" width=\"\(number(width))\" height=\"\(number(height))\" "
            + "viewBox=\"0 0 \(number(width)) \(number(height))\" "
            + "aria-label=\"\(Markup.escape(label))\">\n<title>\(Markup.escape(label))</title>\n"
    }

    static func line(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, class name: String) -> String {
        "<line class=\"\(name)\" x1=\"\(number(x1))\" y1=\"\(number(y1))\" x2=\"\(number(x2))\" y2=\"\(number(y2))\"/>\n"
    }

    static func text(_ x: Double, _ y: Double, _ content: String, anchor: String, class name: String? = nil,
                     rotate: Bool = false) -> String
    {
        let transform = rotate ? " transform=\"rotate(-90 \(number(x)) \(number(y)))\"" : ""
        let classAttribute = name.map { " class=\"\($0)\"" } ?? ""
        return "<text x=\"\(number(x))\" y=\"\(number(y))\" text-anchor=\"\(anchor)\"\(classAttribute)\(transform)>"
            + "\(Markup.escape(content))</text>\n"
    }

    /// A coordinate: `12.5`.
    static func number(_ value: Double) -> String {
        String(format: "%.1f", value)
    }
}
