package import Records

/// A step's outcome as its expectations beside the frames are judged (the phone's state, status, the link…).
extension StepResult {
    /// Adds a judged expectation's problems: a failure with them, else an unchecked step becomes passed.
    package mutating func add(judged: Bool, problems: [String]) {
        guard judged else { return }
        if problems.isEmpty {
            if outcome == .unchecked { outcome = .passed }
        } else {
            outcome = .failed
            message += (message.isEmpty ? "" : "\n") + problems.joined(separator: "\n")
        }
    }
}
