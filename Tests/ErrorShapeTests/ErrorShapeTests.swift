import Foundation
import System
import Testing

/// One error of one type, built through its real initializer (or the call that throws it), and the text a person
/// reads today.
struct ErrorSample: Sendable, CustomTestStringConvertible {
    var error: any ExplainedError
    var expected: String
    var typeName: String { String(describing: type(of: error)) }
    var testDescription: String { typeName }
}

@Suite("Every error type has the one shape: what, then `  → hint`")
struct ErrorShapeTests {
    static let samples: [ErrorSample] = ErrorSamples.all

    @Test("description is what, then the hint after an arrow (SystemError: its errno and details between)",
          arguments: samples)
    func oneShape(sample: ErrorSample) {
        let error = sample.error
        let what = (error as? SystemError)?.text ?? error.what
        let shaped = what + (error.hint.map { "\n  → " + $0 } ?? "")
        #expect(error.description == shaped, "expected:\n\(shaped)\nactual:\n\(error.description)")
        #expect("\(error)" == error.description)
    }

    @Test("the text a person reads, pinned for each type",
          arguments: samples)
    func sameText(sample: ErrorSample) {
        #expect(sample.error.description == sample.expected,
                "expected:\n\(sample.expected)\nactual:\n\(sample.error.description)")
    }

    @Test("every error type declared in Sources has a sample here")
    func everyTypeSampled() throws {
        let declared = try Self.declaredErrorTypes()
        let names = Set(declared.values)
        let sampled = Set(Self.samples.map { declared[$0.typeName] ?? $0.typeName })
        #expect(names.count >= 20, "found only \(names.sorted()) under \(Self.sources.path)")
        #expect(names.subtracting(sampled).isEmpty, "no sample for \(names.subtracting(sampled).sorted()): add one to ErrorSamples.all")
        #expect(sampled.subtracting(names).isEmpty, "sampled but not found in Sources: \(sampled.subtracting(names).sorted())")
    }

    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Sources")
        .standardizedFileURL

    /// The error types declared in Sources — structs named `…Error` that conform to `Error` or `ExplainedError`, and
    /// `typealias …Error = ModuleError<…>` — keyed by the name `type(of:)` gives their values.
    static func declaredErrorTypes() throws -> [String: String] {
        let structs = try NSRegularExpression(pattern: #"struct (\w*Error)\s*:([^{]*)\{"#)
        let aliases = try NSRegularExpression(pattern: #"typealias (\w*Error) = (ModuleError<\w+>)"#)
        var names: [String: String] = [:]
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
        while let file = files?.nextObject() as? URL {
            guard file.pathExtension == "swift" else { continue }
            let text = try String(contentsOf: file, encoding: .utf8)
            func group(_ match: NSTextCheckingResult, _ index: Int) -> String {
                Range(match.range(at: index), in: text).map { String(text[$0]) } ?? ""
            }
            for match in structs.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                let list = group(match, 2).split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
                if list.contains("Error") || list.contains("ExplainedError") { names[group(match, 1)] = group(match, 1) }
            }
            for match in aliases.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                names[group(match, 2)] = group(match, 1)
            }
        }
        return names
    }
}
