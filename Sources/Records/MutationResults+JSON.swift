import Foundation
package import StrictJSON

extension MutationResults {
    /// mutations.json, pretty-printed with a final newline.
    package var jsonText: String {
        let entries: [JSONValue] = self.entries.map { entry in
            var fields: [(String, JSONValue)] = [
                ("id", .string(entry.id)), ("fault", .string(entry.fault)), ("area", .string(entry.area)),
                ("requirements", .array(entry.requirements.map(JSONValue.string))), ("outcome", .string(entry.outcome.rawValue)),
            ]
            if let suite = entry.suite { fields.append(("suite", .string(suite))) }
            if let caughtBy = entry.caughtBy { fields.append(("caughtBy", .string(caughtBy))) }
            if let detail = entry.detail { fields.append(("detail", .string(detail))) }
            if let argued = entry.argued {
                fields.append(("argued", .object(JSONObject([("kind", .string(argued.kind.rawValue)), ("why", .string(argued.why))]))))
            }
            fields.append(("seconds", .number((entry.seconds * 10).rounded() / 10)))
            return .object(JSONObject(fields))
        }
        var document: [(String, JSONValue)] = [
            ("format", .string(Self.format)), ("startedAt", .string(startedAt)),
            ("suites", .array(suites.map(JSONValue.string))), ("build", .string(build)),
        ]
        if let commit { document.append(("commit", .string(commit))) }
        document.append(("score", score.map { .number(($0 * 10_000).rounded() / 10_000) } ?? .null))
        document.append(("faults", .array(entries)))
        return JSONWriter(pretty: true).string(.object(JSONObject(document))) + "\n"
    }

    /// Reads mutations.json.
    /// - Throws: `ReportError` naming the file and the JSON path of the first problem.
    package static func load(contentsOf path: String) throws(ReportError) -> MutationResults {
        let text: String
        do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
            throw ReportError(.unreadable, file: path, problems: ["cannot read it: \(error.localizedDescription)"])
        }
        let value: JSONValue
        do { value = try JSONParser().parse(Array(text.utf8)) } catch {
            throw ReportError(.invalidJSON, file: path, problems: ["\(error)"])
        }
        do throws(JSONSchemaError) {
            let object = try value.object(at: .root)
            let format = try object.required("format", at: .root).string(at: .root.appending("format"))
            guard format == Self.format else {
                throw JSONSchemaError(.root.appending("format"), "\(format) is not \(Self.format)")
            }
            let started = try object.required("startedAt", at: .root).string(at: .root.appending("startedAt"))
            var entries: [Entry] = []
            for (index, item) in try object.required("faults", at: .root).array(at: .root.appending("faults")).enumerated() {
                entries.append(try entry(item, at: .root.appending("faults").appending(index)))
            }
            return MutationResults(
                suites: try object.required("suites", at: .root).array(at: .root.appending("suites")).enumerated()
                    .map { offset, suite throws(JSONSchemaError) in try suite.string(at: .root.appending("suites").appending(offset)) },
                build: try object.required("build", at: .root).string(at: .root.appending("build")),
                commit: try object["commit"]?.string(at: .root.appending("commit")),
                startedAt: started, entries: entries)
        } catch {
            throw ReportError(.invalidResults, file: path, problems: ["\(error)"], hint: "a mutations.json is written by hil mutants (docs/mutations.md)")
        }
    }

    private static func entry(_ value: JSONValue, at path: JSONPath) throws(JSONSchemaError) -> Entry {
        let object = try value.object(at: path)
        func text(_ key: String) throws(JSONSchemaError) -> String { try object.required(key, at: path).string(at: path.appending(key)) }
        func optional(_ key: String) throws(JSONSchemaError) -> String? { try object[key]?.string(at: path.appending(key)) }
        let requirements = try object.required("requirements", at: path).array(at: path.appending("requirements")).enumerated()
            .map { offset, id throws(JSONSchemaError) in try id.string(at: path.appending("requirements").appending(offset)) }
        var argued: Argued?
        if let value = object["argued"] {
            let fields = try value.object(at: path.appending("argued"))
            argued = Argued(kind: try fields.required("kind", at: path.appending("argued")).enumeration(Argued.Kind.self, at: path.appending("argued").appending("kind")),
                            why: try fields.required("why", at: path.appending("argued")).string(at: path.appending("argued").appending("why")))
        }
        return Entry(
            id: try text("id"), fault: try text("fault"), area: try text("area"), requirements: requirements, argued: argued,
            outcome: try object.required("outcome", at: path).enumeration(Outcome.self, at: path.appending("outcome")),
            suite: try optional("suite"), caughtBy: try optional("caughtBy"), detail: try optional("detail"),
            seconds: try object["seconds"]?.number(at: path.appending("seconds")) ?? 0)
    }
}
