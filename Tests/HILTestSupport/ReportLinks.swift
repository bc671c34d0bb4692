import Foundation

/// The links in the files a run's reports are made of, followed from each file's own folder: `href` and `src` in
/// report.html (an in-page `#id` must name an element of the page), `[text](target)` in a Markdown summary,
/// `[[ATTACHMENT|path]]` in junit.xml, and every `captures` path in a results.json. A test moves the folder the
/// reports are in and checks that every link still leads to a file, as it must once the folder is a CI artifact.
package enum ReportLinks {
    package struct Link: Sendable, CustomStringConvertible {
        /// The file the link is in.
        package var file: String
        /// The link as written.
        package var target: String
        /// Where it leads, or why it leads nowhere.
        package var problem: String?

        package var description: String { "\(file): \(target)" + (problem.map { " — \($0)" } ?? "") }
    }

    /// Every link of `file`, by its kind (its extension: html, md, xml, json), each checked.
    package static func links(in file: String) throws -> [Link] {
        let text = try String(contentsOfFile: file, encoding: .utf8)
        let folder = (file as NSString).deletingLastPathComponent
        switch (file as NSString).pathExtension {
        case "html":
            return matches(#"(?:href|src)="([^"]*)""#, in: text).map { raw in
                let target = unescapeXML(raw)
                if target.hasPrefix("#") {
                    let found = text.contains("id=\"\(target.dropFirst())\"")
                    return Link(file: file, target: raw, problem: found ? nil : "no element with this id in the page")
                }
                return check(file, raw, path: target.removingPercentEncoding ?? target, from: folder)
            }
        case "md":
            return matches(#"\]\(([^)\s]+)\)"#, in: text).map { check(file, $0, path: $0, from: folder) }
        case "xml":
            return matches(#"\[\[ATTACHMENT\|([^\]]+)\]\]"#, in: text).map { check(file, $0, path: $0, from: folder) }
        case "json":
            let root = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
            let scenarios = root?["scenarios"] as? [[String: Any]] ?? []
            let paths = scenarios.flatMap { ($0["captures"] as? [String: String] ?? [:]).values.sorted() }
            return paths.map { check(file, $0, path: $0, from: folder) }
        default:
            return []
        }
    }

    /// A relative path that leads to an existing file from `folder`; an absolute one or a URL is a problem even
    /// when it exists, as it would not survive the folder's upload.
    private static func check(_ file: String, _ raw: String, path: String, from folder: String) -> Link {
        if path.hasPrefix("/") || path.contains("://") {
            return Link(file: file, target: raw, problem: "absolute: it breaks when the folder moves")
        }
        let resolved = URL(fileURLWithPath: folder).appendingPathComponent(path).standardizedFileURL.path
        let exists = FileManager.default.fileExists(atPath: resolved)
        return Link(file: file, target: raw, problem: exists ? nil : "\(resolved) does not exist")
    }

    private static func matches(_ pattern: String, in text: String) -> [String] {
        guard let expression = try? NSRegularExpression(pattern: pattern) else { return [] }
        let range = NSRange(text.startIndex..., in: text)
        return expression.matches(in: text, range: range).compactMap { match in
            Range(match.range(at: 1), in: text).map { String(text[$0]) }
        }
    }

    private static func unescapeXML(_ text: String) -> String {
        text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
    }
}
