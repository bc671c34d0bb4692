package import Records

/// Which scenarios keep their captures (`hil run --capture`). Every scenario is captured unless `never`: whether
/// it fails is known only at its end.
package enum CaptureMode: String, Sendable, CaseIterable {
    /// Keep every scenario's captures.
    case always
    /// Keep the captures of failed, inconclusive and error scenarios; delete the others' (the default).
    case failed
    /// Capture nothing.
    case never

    /// Whether a scenario with `outcome` keeps its captures.
    package func keeps(_ outcome: ScenarioResult.Outcome) -> Bool {
        switch self {
        case .always: true
        case .never: false
        case .failed: outcome.isFailure
        }
    }
}
