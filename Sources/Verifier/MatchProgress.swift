import InputCodes

/// Whether a step's frames so far leave `StepMatcher`'s checks nothing to find, kept up to date frame by frame.
///
/// `StepMatcher.feed` must know at each frame whether the expectation is met yet. Judging all the frames again at
/// each one made a segment of n frames cost n² (a 46,000-step replay's long segments, issue 39); this keeps per
/// check what judging them again would find, at a cost per frame of its events: each key against the next expected
/// one, each frame against the next expected frame, a running total per axis, and whether a forbidden or
/// unexpected event came. `isMet` is true exactly when `StepMatcher`'s `problems()` would find none.
struct MatchProgress: Sendable {
    private let expectation: StepExpectation
    /// Every code the expectation names (keys, frames, motion axes): under "nothing else", any other code fails.
    private let accounted: Set<EventCode>
    private var keysSeen = 0
    /// A key event differed from the expected one at its place, or came after the last expected one: for good.
    private var keysWrong = false
    private var framesMatched = 0
    /// Under "nothing else", a frame that is not the next expected one came: for good.
    private var framesWrong = false
    private var totals: [EventCode: Int] = [:]
    /// An event of an absent type, or under "nothing else" one the step does not name, came: for good.
    private var forbidden = false

    init(_ expectation: StepExpectation) {
        self.expectation = expectation
        var accounted = Set(expectation.motion.keys)
        expectation.keys?.forEach { accounted.insert($0.code) }
        expectation.frames?.forEach { frame in frame.events.forEach { accounted.insert($0.code) } }
        self.accounted = accounted
    }

    mutating func add(_ frame: InputFrame) {
        if let expected = expectation.frames, !framesWrong, framesMatched < expected.count {
            if Set(frame.events) == Set(expected[framesMatched].events) {
                framesMatched += 1
            } else if expectation.nothingElse {
                framesWrong = true
            }
        }
        for event in frame.events {
            if let keys = expectation.keys, event.code.type == .key, !(expectation.allowRepeat && event.value == 2) {
                if keysSeen >= keys.count || event != keys[keysSeen] { keysWrong = true }
                keysSeen += 1
            }
            if expectation.motion[event.code] != nil { totals[event.code, default: 0] += Int(event.value) }
            let absent = expectation.absentTypes.contains(event.code.type)
            if absent || (expectation.nothingElse && !accounted.contains(event.code)) { forbidden = true }
        }
    }

    /// True when the frames so far meet every check.
    var isMet: Bool {
        if let keys = expectation.keys, keysWrong || keysSeen < keys.count { return false }
        if let frames = expectation.frames, framesWrong || framesMatched < frames.count { return false }
        return !forbidden && expectation.motion.allSatisfy { $0.value.accepts(totals[$0.key] ?? 0) }
    }
}
