
/// What `hil mutants` found (mutations.json, format `hil-mutations/1`): each fault of the catalogue (Mutations/faults),
/// whether a suite caught it, which scenario and with what first failure line, and the score. This type is the
/// format's one owner; `hil report --history` reads it beside a night's results.json.
package struct MutationResults: Sendable, Equatable {
    package static let format = "hil-mutations/1"

    package enum Outcome: String, Sendable, Hashable, CaseIterable {
        /// A scenario of a suite failed (or erred) against the mutant.
        case caught
        /// Every scenario run against it passed.
        case survived
        /// The patch no longer applies to the tree, or the mutant does not build: the catalogue needs mending.
        case broken
    }

    /// Why a fault that survives is not counted as a hole of the suite: it changes nothing observable
    /// (`equivalent`), or the rig cannot observe it (`untestable`); the reason is the catalogue's.
    package struct Argued: Sendable, Hashable {
        package enum Kind: String, Sendable, Hashable, CaseIterable { case equivalent, untestable }
        package var kind: Kind
        package var why: String

        package init(kind: Kind, why: String) {
            self.kind = kind
            self.why = why
        }
    }

    package struct Entry: Sendable, Equatable {
        /// The patch's file name without `.patch`.
        package var id: String
        package var fault: String
        package var area: String
        package var requirements: [String]
        package var argued: Argued?
        package var outcome: Outcome
        /// The suite folder whose run caught it.
        package var suite: String?
        /// The scenario that caught it: its file.
        package var caughtBy: String?
        /// The first line of why that scenario did not pass (for `broken`: why the mutant could not be made).
        package var detail: String?
        /// How long its suites ran against it.
        package var seconds: Double

        package init(id: String, fault: String, area: String, requirements: [String], argued: Argued?, outcome: Outcome,
                     suite: String? = nil, caughtBy: String? = nil, detail: String? = nil, seconds: Double = 0)
        {
            self.id = id
            self.fault = fault
            self.area = area
            self.requirements = requirements
            self.argued = argued
            self.outcome = outcome
            self.suite = suite
            self.caughtBy = caughtBy
            self.detail = detail
            self.seconds = seconds
        }
    }

    /// The suite folders, in the order they were run (a later one against the earlier ones' survivors only).
    package var suites: [String]
    /// `release` or `debug`: how the mutants were built.
    package var build: String
    package var commit: String?
    /// ISO 8601.
    package var startedAt: String
    package var entries: [Entry]

    package init(suites: [String], build: String, commit: String?, startedAt: String, entries: [Entry]) {
        self.suites = suites
        self.build = build
        self.commit = commit
        self.startedAt = startedAt
        self.entries = entries
    }

    /// The faults a score counts: all but those argued equivalent and those that could not be made.
    package var counted: [Entry] { entries.filter { $0.argued?.kind != .equivalent && $0.outcome != .broken } }

    /// Caught over counted, 0…1; nil when nothing counts.
    package var score: Double? {
        let counted = self.counted
        guard !counted.isEmpty else { return nil }
        return Double(counted.filter { $0.outcome == .caught }.count) / Double(counted.count)
    }

    /// Survivors the catalogue does not argue: each a hole the suites must close, or a fault to argue.
    package var unargued: [Entry] { entries.filter { $0.outcome == .survived && $0.argued == nil } }
}
