/// A radio's packets against its connection-event grid (RadioBtvirtOnRig's check, GridFitTests' subject).
/// The grid of events `period` apart that fits `arrivals` (ns from any origin) best: for each arrival taken as
/// an event's time, how late every arrival is after its latest event; the candidate with the most arrivals within
/// `tolerance` wins, then the one with the smaller total lateness.
package struct GridFit {
    package let latenesses: [Int64]
    package init(period: Int64, tolerance: Int64, arrivals: [Int64]) {
        let candidates = arrivals.map { origin in arrivals.map { ((($0 - origin) % period) + period) % period } }
        latenesses = candidates.max { a, b in
            let (fitA, fitB) = (a.filter { $0 <= tolerance }.count, b.filter { $0 <= tolerance }.count)
            return fitA != fitB ? fitA < fitB : a.reduce(0, +) > b.reduce(0, +)
        } ?? []
    }
}
