import Foundation
package import Records

/// One realistic fault of the computer side: a patch in the catalogue (Mutations/faults/NAME.patch) with a header of
/// `Key: value` lines before its unified diff (docs/mutations.md):
///
/// ```
/// Fault: every 50th cursorMove maps to nothing
/// Area: mapping
/// Requirements: R1.2
/// Why realistic: an off-by-one in a coalescing path drops a command now and then
/// Argued: untestable: … (only for a fault the suites cannot catch, and why)
///
/// diff --git a/Sources/CommandMapping/CommandMapper.swift b/Sources/CommandMapping/CommandMapper.swift
/// ```
package struct Fault: Sendable, Hashable {
    /// The file name without `.patch`.
    package var id: String
    /// The patch file.
    package var path: String
    package var fault: String
    package var area: String
    package var requirements: [String]
    package var why: String
    package var argued: MutationResults.Argued?
    /// The files the diff changes, relative to the project.
    package var files: [String]

    /// The areas a fault belongs to: what issue 51 asks the catalogue to cover.
    package static let areas = [
        "mapping", "decoder-ble", "decoder-hid", "decoder-tcp", "decoder-udp", "pairing", "lockout", "code-expiry",
        "status", "order", "release-drop", "release-stall", "udp-binding", "timing", "endpoint",
    ]
    /// Where a fault may change code: the computer side only (the phone, the verifier and the rig are the judge).
    package static let computerSide = [
        "Sources/Peripheral/", "Sources/CommandMapping/", "Sources/RemoteTouchProtocol/", "Sources/Evdev/",
    ]

    /// Reads a fault file; every problem as `file:line: message`.
    package static func read(_ path: String) -> (fault: Fault?, problems: [String]) {
        let name = (path as NSString).lastPathComponent
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return (nil, ["\(path): cannot read it"]) }
        var problems: [String] = []
        var fields: [String: String] = [:]
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var number = 0
        for line in lines {
            number += 1
            if line.hasPrefix("diff --git ") { break }
            guard !line.trimmingCharacters(in: .whitespaces).isEmpty else { continue }
            guard let colon = line.firstIndex(of: ":") else {
                problems.append("\(path):\(number): not a `Key: value` header line before the diff: \(line)")
                continue
            }
            let key = String(line[..<colon])
            guard ["Fault", "Area", "Requirements", "Why realistic", "Argued"].contains(key) else {
                problems.append("\(path):\(number): unknown header \(key) (Fault, Area, Requirements, Why realistic, Argued)")
                continue
            }
            if fields[key] != nil { problems.append("\(path):\(number): \(key) given twice") }
            fields[key] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        for key in ["Fault", "Area", "Requirements", "Why realistic"] where (fields[key] ?? "").isEmpty {
            problems.append("\(path):1: no \(key): header")
        }
        let files = lines.compactMap { line -> String? in
            guard line.hasPrefix("diff --git a/"), let space = line.range(of: " b/") else { return nil }
            return String(line[line.index(line.startIndex, offsetBy: 13)..<space.lowerBound])
        }
        if files.isEmpty { problems.append("\(path): no `diff --git` after the header: a fault is a patch (git diff)") }
        for file in files where !computerSide.contains(where: file.hasPrefix) {
            problems.append("\(path): changes \(file), which is not the computer's code (\(computerSide.joined(separator: ", ")))")
        }
        if let area = fields["Area"], !area.isEmpty, !areas.contains(area) {
            problems.append("\(path): Area \(area) is none of \(areas.joined(separator: ", "))")
        }
        var argued: MutationResults.Argued?
        if let text = fields["Argued"] {
            let parts = text.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2, let kind = MutationResults.Argued.Kind(rawValue: parts[0]), parts[1].count >= 20 {
                argued = .init(kind: kind, why: parts[1])
            } else {
                problems.append("\(path): Argued must be `equivalent: why` or `untestable: why`, the why in a sentence")
            }
        }
        guard problems.isEmpty else { return (nil, problems) }
        let requirements = fields["Requirements"]!.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        return (Fault(id: String(name.dropLast(".patch".count)), path: path, fault: fields["Fault"]!, area: fields["Area"]!,
                      requirements: requirements, why: fields["Why realistic"]!, argued: argued, files: files), [])
    }
}
