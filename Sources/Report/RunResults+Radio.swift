package import Records

extension RunResults {
    /// The radio in words for a report's header and transport table: the rig's model
    /// (`connection events every 15 ms`), and where radio steps moved it, how many scenarios did, so a run at 30 ms is
    /// never read as one at 15 ms (each scenario's row and failed step say which steps ran under what).
    package var radioFacts: String? {
        guard let summary = radioSummary else { return nil }
        let changed = scenarios.filter { $0.steps.contains { $0.radio != nil } }.count
        guard changed > 0 else { return summary }
        return "\(summary) at the start; radio steps changed it in \(changed) scenario\(changed == 1 ? "" : "s")"
    }
}
