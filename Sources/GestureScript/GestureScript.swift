import Foundation
package import GestureModel
package import StrictJSON

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
    /// - Throws: `ScriptError` naming the file and, for each problem found, its JSON path.
    package static func load(contentsOf path: String) throws(ScriptError) -> GestureScript {
        try parse(try readJSON(contentsOf: path), file: path)
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

    /// Checks a parsed script and an extension's keys, collecting every problem.
    package static func parse(_ value: JSONValue, file: String, extension: Extension?) throws(ScriptError) -> GestureScript {
        var reader = ScriptReader()
        reader.extraTopKeys = `extension`?.topKeys ?? []
        reader.extraStepKeys = `extension`?.stepKeys ?? []
        let script = reader.script(value)
        if let `extension` {
            for problem in `extension`.read(reader.extraTop, reader.extraSteps) { reader.add(problem) }
        }
        if let script, reader.problems.isEmpty { return script }
        throw ScriptError(file: file, problems: reader.problems.map(\.description))
    }

    /// Reads a file's JSON, naming the file when it cannot be read or parsed.
    package static func readJSON(contentsOf path: String) throws(ScriptError) -> JSONValue {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ScriptError(file: path, problems: ["cannot read the file: \(error.localizedDescription)"])
        }
        do {
            return try JSONParser().parse(data)
        } catch {
            throw ScriptError(file: path, problems: ["not valid JSON: \(error.description)"])
        }
    }
}

/// Every problem of one script file: `Scenarios/basic/swipe.json: steps[2].swipe.durationMs: expected a number`.
package struct ScriptError: Error, Sendable, Equatable, CustomStringConvertible {
    package var file: String
    package var problems: [String]

    package init(file: String, problems: [String]) {
        self.file = file
        self.problems = problems
    }

    package var description: String {
        problems.map { "\(file): \($0)" }.joined(separator: "\n")
    }
}
