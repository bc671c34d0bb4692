import Foundation
package import GestureModel
package import StrictJSON
import System

/// A named sequence of gesture steps with the phone's settings: what `hil replay` runs through the phone
/// model and the computer-side mapping. Steps follow each other without a gap; use `wait` between gestures
/// that must not merge (two taps in a row are a double tap, as on a phone).
package struct GestureScript: Sendable {
    package var name: String
    package var description: String
    /// Requirement ids this script exercises ("R1", "R2.3", "iPad").
    package var requirements: [String]
    package var settings: GestureSettings
    package var steps: [ScriptStep]

    package init(name: String, description: String = "", requirements: [String] = [], settings: GestureSettings,
                steps: [ScriptStep])
    {
        self.name = name
        self.description = description
        self.requirements = requirements
        self.settings = settings
        self.steps = steps
    }

    /// All inputs of all steps, on one timeline starting at zero.
    package func inputs(trace: TouchTrace = TouchTrace()) -> [TimedInput] {
        var time = Duration.zero
        var inputs: [TimedInput] = []
        for step in steps {
            inputs += step.inputs(startingAt: time, trace: trace)
            time += step.duration(trace: trace)
        }
        return inputs
    }

    /// When the last step ends.
    package func duration(trace: TouchTrace = TouchTrace()) -> Duration {
        steps.reduce(Duration.zero) { $0 + $1.duration(trace: trace) }
    }

    /// Reads and checks a script file.
    /// - Throws: `ScriptError` naming the file and, for each problem found, its line, column and JSON path.
    package static func load(contentsOf path: String) throws(ScriptError) -> GestureScript {
        let (value, positions) = try readLocatedJSON(contentsOf: path)
        return try parse(value, file: path, extension: nil, positions: positions)
    }

    /// Checks a parsed script, collecting every problem rather than stopping at the first.
    package static func parse(_ value: JSONValue, file: String) throws(ScriptError) -> GestureScript {
        try parse(value, file: file, extension: nil)
    }

    /// A richer format built on scripts (scenarios): keys it adds at the top and beside each step, and a
    /// function that reads them and reports its own problems, so every problem of a file comes out at once.
    package struct Extension {
        package var topKeys: [String]
        package var stepKeys: [String]
        /// Keys that belong inside a top-level object, by where they go (`"transports"`: `"run.transports"`): written at
        /// the top, their problem names the place.
        package var nestedKeys: [String: String] = [:]
        /// Gets the extra values (top-level by key; per step by index) and returns problems with their paths.
        package var read: ([String: JSONValue], [Int: [String: JSONValue]]) -> [JSONSchemaError]

        package init(topKeys: [String], stepKeys: [String],
                    read: @escaping ([String: JSONValue], [Int: [String: JSONValue]]) -> [JSONSchemaError])
        {
            self.topKeys = topKeys
            self.stepKeys = stepKeys
            self.read = read
        }
    }

    /// Checks a parsed script and an extension's keys, collecting every problem; with `positions` (from
    /// `readLocatedJSON`), each problem names its line and column.
    package static func parse(_ value: JSONValue, file: String, extension: Extension?, positions: JSONPositions? = nil)
        throws(ScriptError) -> GestureScript
    {
        var reader = ScriptReader()
        reader.extraTopKeys = `extension`?.topKeys ?? []
        reader.nestedKeys = `extension`?.nestedKeys ?? [:]
        reader.extraStepKeys = `extension`?.stepKeys ?? []
        let script = reader.script(value)
        if let `extension` {
            for problem in `extension`.read(reader.extraTop, reader.extraSteps) { reader.add(problem) }
        }
        if let script, reader.problems.isEmpty { return script }
        throw ScriptError(file: file, problems: reader.problems, positions: positions)
    }

    /// Reads a file's JSON, naming the file when it cannot be read or parsed.
    package static func readJSON(contentsOf path: String) throws(ScriptError) -> JSONValue {
        try readLocatedJSON(contentsOf: path).value
    }

    /// Reads a file's JSON and where each value was written, naming the file when it cannot be read or parsed.
    package static func readLocatedJSON(contentsOf path: String) throws(ScriptError) -> (value: JSONValue, positions: JSONPositions) {
        let data: Data
        switch FileAccess.read(path) {
        case .success(let bytes): data = bytes
        case .failure(let problem): throw ScriptError(.unreadable, file: path, problems: ["cannot read it: \(problem.reason)"])
        }
        do {
            return try JSONParser().parseLocated(data)
        } catch {
            // As every other problem: file:line:column: message.
            var invalid = ScriptError(file: path, located: [
                ScriptError.Problem("not valid JSON: \(error.reasonText)", at: JSONLocation(line: error.line, column: error.column)),
            ])
            invalid.code = .invalidJSON
            throw invalid
        }
    }
}

/// Every problem of one script file, each where it was written when that is known:
/// `Scenarios/basic/swipe.json:14:9: steps[2].swipe.durationMs: expected a number, found a string`.
package struct ScriptError: ExplainedError, Sendable, Equatable {
    package enum Code: String, Sendable {
        /// The file cannot be read.
        case unreadable
        /// The file is not JSON.
        case invalidJSON
        /// The file is JSON, but its content has problems (each with its JSON path).
        case invalid
    }

    /// One problem: `json.path: message`, and the line and column of that path in the file.
    package struct Problem: Sendable, Equatable {
        package var text: String
        package var location: JSONLocation?

        package init(_ text: String, at location: JSONLocation? = nil) {
            self.text = text
            self.location = location
        }
    }

    package var code: Code
    package var file: String
    package var located: [Problem]
    /// The problems' texts, `json.path: message`, without their lines and columns.
    package var problems: [String] { located.map(\.text) }

    package init(_ code: Code, file: String, problems: [String]) {
        self.code = code
        self.file = file
        self.located = problems.map { Problem($0) }
    }

    /// Problems in the file's content (`.invalid`), each where it was written when that is known.
    package init(file: String, located: [Problem]) {
        self.code = .invalid
        self.file = file
        self.located = located
    }

    /// Problems found by JSON path, each placed at its line and column when `positions` has them, and then in the
    /// order they were written in the file.
    package init(file: String, problems: [JSONSchemaError], positions: JSONPositions?) {
        let located = problems.map { Problem($0.description, at: positions?.location(of: $0.path)) }
        func key(_ entry: (offset: Int, element: Problem)) -> (Int, Int, Int) {
            (entry.element.location?.line ?? .max, entry.element.location?.column ?? .max, entry.offset)
        }
        self.init(file: file, located: located.enumerated().sorted { key($0) < key($1) }.map(\.element))
    }

    /// `file:line:column: json.path: message` per problem (`file: json.path: message` where the place is not known),
    /// as compilers write it, so editors and terminals can jump there.
    package var what: String {
        located.map { problem in
            problem.location.map { "\(file):\($0): \(problem.text)" } ?? "\(file): \(problem.text)"
        }.joined(separator: "\n")
    }

    /// None: each problem names its place and JSON path, which is where to fix it.
    package var hint: String? { nil }
}
