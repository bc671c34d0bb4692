import RemoteTouchProtocol

/// The phone's gesture model: touches, buttons and mode picks in, timed commands out.
///
/// Time is passed in with every call (a `Duration` since any fixed origin), never read from a clock, so a
/// test can replay a trace exactly and a real-time driver can call `advance(to:)` at `nextDeadline`.
/// Each call first fires the timers that fell due before its time, so outputs are always in time order.
///
/// Rules (seeds/remotetouch-requirements.md R1–R3, R7–R9, R11 and seeds/ipad-trackpad-design.md):
/// - one finger moving at least `movementThreshold` (5 pt) is a swipe: cursor deltas scaled by sensitivity
///   and by the speed factor `clamp(1 + k·v, 0.5, 3.0)` of the acceleration curve (R1, R8); deltas are whole
///   points, the remainder carried to the next send;
/// - movement is coalesced and sent at most every `sendInterval` (16 ms), and never waits longer (R1.3);
///   a discrete command waits for pending movement so commands keep the order of the gestures;
/// - a touch shorter than 0.5 s that did not move is a tap, sent as `tap(single)` once no second tap began
///   within `doubleTapInterval` (300 ms, inclusive) of its release, or as `tap(double)` (R2);
/// - holding still for 0.5 s and then moving is a drag: dragStart, dragMove…, dragEnd at release;
/// - media mode: a tap sends playPause at once, a vertical swipe of 30 pt sends volumeUp / volumeDown at
///   release; no cursor, drag, scroll or pinch (R9);
/// - two fingers: midpoint moving 8 pt scrolls, distance changing 15 pt pinches (first threshold wins), and
///   a short touch that did neither is a right click;
/// - three fingers moving 50 pt: up missionControl, down appExpose, left spaceRight, right spaceLeft;
/// - ← / → send `button` at once (the computer maps them by mode, R3); a new mode sends `modeChange` (R7.4);
///   keyboard keys and text are sent at once as `keyPress` / `text`;
/// - no input for `idleTimeout` (60 s) makes the phone idle: at most one send per `idleSendInterval` (10 s)
///   until the next input, which makes it active again before anything it causes is sent (R11).
public struct GestureProcessor: Sendable {
    public private(set) var settings: GestureSettings
    public private(set) var activity: Activity = .active

    private var now: Duration
    private var lastInput: Duration
    private var lastSend: Duration?
    private var lastMotionSend: Duration?
    private var outputs: [GestureOutput] = []

    private var phase: Phase = .none
    private var motion = PendingMotion()
    private var flushAt: Duration?
    private var afterFlush: [Command] = []
    /// Release time of a tap that may still become the first half of a double tap.
    private var pendingTapRelease: Duration?
    /// A system-originated command waiting for the idle send interval.
    private var queuedSystem: (time: Duration, command: Command)?

    public init(settings: GestureSettings = GestureSettings(), at start: Duration = .zero) {
        self.settings = settings
        self.now = start
        self.lastInput = start
    }

    // MARK: Public entry points

    /// Feeds one input at `time` (not earlier than any previous call's time).
    public mutating func handle(_ input: TouchInput, at time: Duration) -> [GestureOutput] {
        begin(at: time)
        noteInput(at: time)
        switch input {
        case .touches(let points): touches(points, at: time)
        case .button(let action):
            flushPendingTap(at: time)
            discrete(.button(action: action), at: time)
        case .mode(let mode):
            flushPendingTap(at: time)
            if mode != settings.mode {
                settings.mode = mode
                discrete(.modeChange(mode: mode), at: time)
            }
        case .key(let key, let modifiers):
            flushPendingTap(at: time)
            discrete(.keyPress(key: key, modifiers: modifiers), at: time)
        case .text(let string):
            flushPendingTap(at: time)
            discrete(.text(string: string), at: time)
        }
        return end()
    }

    /// Fires every timer due at or before `time`: paced movement, a single tap's 300 ms wait, idle.
    public mutating func advance(to time: Duration) -> [GestureOutput] {
        precondition(time >= now, "time went backwards: \(time) after \(now)")
        fireTimers(through: time, inclusive: true)
        now = time
        return end()
    }

    /// Re-sends the current mode, as the phone does after a reconnect. Not user input: while idle it is
    /// held so that at most one send goes per `idleSendInterval` (R11.2).
    public mutating func resync(at time: Duration) -> [GestureOutput] {
        begin(at: time)
        let command = Command.modeChange(mode: settings.mode)
        if activity == .idle, let lastSend, time < lastSend + settings.idleSendInterval {
            queuedSystem = (lastSend + settings.idleSendInterval, command)
        } else {
            emit(command, at: time)
        }
        return end()
    }

    /// The next time `advance(to:)` has work, if any.
    public var nextDeadline: Duration? {
        deadlines().map(\.time).min()
    }

    /// The next time something will be sent without new input (paced motion, a single tap's wait, a queued
    /// resync), leaving out the idle timer: nil when the phone has nothing left to say.
    public var nextSendDeadline: Duration? {
        deadlines().filter { $0.timer != .idle }.map(\.time).min()
    }

    /// Runs a whole trace and then fires timers up to `end` (by default one second after the last input, so
    /// pending movement and single taps are sent; idle needs an explicit, later `end`).
    public static func process(_ inputs: [TimedInput], settings: GestureSettings, until end: Duration? = nil)
        -> [GestureOutput]
    {
        var processor = GestureProcessor(settings: settings, at: inputs.first?.time ?? .zero)
        var outputs: [GestureOutput] = []
        for input in inputs {
            outputs += processor.handle(input.input, at: input.time)
        }
        let last = inputs.last?.time ?? .zero
        outputs += processor.advance(to: max(end ?? last + .seconds(1), last))
        return outputs
    }

    // MARK: Bookkeeping

    private mutating func begin(at time: Duration) {
        precondition(time >= now, "time went backwards: \(time) after \(now)")
        // Timers due strictly before the input fire first; one due at the same instant sees the input
        // (a second tap exactly 300 ms after the first still makes a double tap).
        fireTimers(through: time, inclusive: false)
        now = time
    }

    private mutating func end() -> [GestureOutput] {
        defer { outputs.removeAll() }
        return outputs
    }

    private mutating func noteInput(at time: Duration) {
        lastInput = time
        if activity == .idle {
            activity = .active
            outputs.append(GestureOutput(time, .activity(.active)))
        }
    }

    private mutating func emit(_ command: Command, at time: Duration) {
        outputs.append(GestureOutput(time, .send(command)))
        lastSend = time
    }

    /// A non-movement command: sent now, or right after pending movement so order is kept.
    private mutating func discrete(_ command: Command, at time: Duration) {
        if flushAt != nil {
            afterFlush.append(command)
        } else {
            emit(command, at: time)
        }
    }

    private mutating func flushPendingTap(at time: Duration) {
        guard pendingTapRelease != nil else { return }
        pendingTapRelease = nil
        discrete(.tap(type: .single), at: time)
    }

    // MARK: Timers

    private enum Timer { case flush, singleTap, idle, system }

    private func deadlines() -> [(time: Duration, timer: Timer)] {
        var list: [(Duration, Timer)] = []
        if let flushAt { list.append((flushAt, .flush)) }
        if let release = pendingTapRelease, !phase.isSecondTapCandidate {
            list.append((release + settings.doubleTapInterval, .singleTap))
        }
        if activity == .active { list.append((lastInput + settings.idleTimeout, .idle)) }
        if let queuedSystem { list.append((queuedSystem.time, .system)) }
        return list.map { (time: $0.0, timer: $0.1) }
    }

    private mutating func fireTimers(through time: Duration, inclusive: Bool) {
        while let next = deadlines().min(by: { $0.time < $1.time }),
            inclusive ? next.time <= time : next.time < time
        {
            switch next.timer {
            case .flush:
                flush(at: next.time)
            case .singleTap:
                flushPendingTap(at: next.time)
            case .idle:
                activity = .idle
                outputs.append(GestureOutput(next.time, .activity(.idle)))
            case .system:
                if let queued = queuedSystem {
                    queuedSystem = nil
                    emit(queued.command, at: next.time)
                }
            }
        }
    }

    // MARK: Movement pacing

    private mutating func requestFlush(at time: Duration) {
        guard flushAt == nil else { return }
        if let lastMotionSend, time < lastMotionSend + settings.sendInterval {
            flushAt = lastMotionSend + settings.sendInterval
        } else {
            flush(at: time)
        }
    }

    private mutating func flush(at time: Duration) {
        flushAt = nil
        let commands = motion.take()
        for command in commands {
            emit(command, at: time)
        }
        if !commands.isEmpty { lastMotionSend = time }
        let held = afterFlush
        afterFlush.removeAll()
        for command in held {
            emit(command, at: time)
        }
    }

    // MARK: Touches

    private mutating func touches(_ points: [TouchPoint], at time: Duration) {
        let count = points.count
        switch phase {
        case .none:
            if count == 1 {
                let secondTap = pendingTapRelease.map { time - $0 <= settings.doubleTapInterval } ?? false
                if !secondTap { flushPendingTap(at: time) }
                motion.resetRemainders()
                phase = .one(OneFinger(point: points[0].location, time: time, secondTap: secondTap))
            } else if count >= 2 {
                flushPendingTap(at: time)
                startMulti(points, at: time)
            }
        case .one(var finger):
            if count == 0 {
                phase = .none
                liftOne(finger, at: time)
            } else if count == 1 {
                moveOne(&finger, to: points[0].location, at: time)
                phase = .one(finger)
            } else {
                if finger.dragging { discrete(.dragEnd, at: time) }
                flushPendingTap(at: time)
                startMulti(points, at: time)
            }
        case .multi(var multi):
            if count == 0 {
                phase = .none
                endMulti(multi, at: time)
            } else if count < multi.fingers {
                multi.lifting = true
                phase = .multi(multi)
            } else if count > multi.fingers && !multi.lifting {
                startMulti(points, at: time, startedAt: multi.startTime)
            } else if !multi.lifting {
                moveMulti(&multi, points, at: time)
                phase = .multi(multi)
            }
        }
    }

    private mutating func moveOne(_ finger: inout OneFinger, to point: Point, at time: Duration) {
        defer {
            finger.last = point
            finger.lastTime = time
        }
        let segmentStart: Point
        let segmentStartTime: Duration
        if !finger.moved {
            guard point.distance(to: finger.start) >= settings.movementThreshold else { return }
            finger.moved = true
            if finger.secondTap {
                finger.secondTap = false
                flushPendingTap(at: time)
            }
            if settings.mode == .mediaControl { return }
            if time - finger.startTime >= settings.longPressDuration {
                finger.dragging = true
                discrete(.dragStart, at: time)
            }
            segmentStart = finger.start
            segmentStartTime = finger.startTime
        } else {
            if settings.mode == .mediaControl { return }
            segmentStart = finger.last
            segmentStartTime = finger.lastTime
        }
        let delta = Point(x: point.x - segmentStart.x, y: point.y - segmentStart.y)
        let elapsed = (time - segmentStartTime).milliseconds
        let velocity = elapsed > 0 ? delta.length / elapsed : 0
        let scale = settings.sensitivity.value * settings.speedFactor(pointsPerMillisecond: velocity)
        motion.add(Point(x: delta.x * scale, y: delta.y * scale), dragging: finger.dragging)
        requestFlush(at: time)
    }

    private mutating func liftOne(_ finger: OneFinger, at time: Duration) {
        let isTap = !finger.moved && time - finger.startTime < settings.longPressDuration
        if settings.mode == .mediaControl {
            let dx = finger.last.x - finger.start.x
            let dy = finger.last.y - finger.start.y
            if isTap {
                discrete(.mediaControl(action: .playPause), at: time)
            } else if finger.moved, abs(dy) >= settings.mediaSwipeDistance, abs(dy) > abs(dx) {
                discrete(.mediaControl(action: dy < 0 ? .volumeUp : .volumeDown), at: time)
            }
            return
        }
        if finger.dragging {
            discrete(.dragEnd, at: time)
        } else if isTap {
            if finger.secondTap {
                pendingTapRelease = nil
                discrete(.tap(type: .double), at: time)
            } else {
                pendingTapRelease = time
            }
        } else if finger.secondTap {
            // The second touch was a long press: the first tap stands alone.
            flushPendingTap(at: time)
        }
    }

    private mutating func startMulti(_ points: [TouchPoint], at time: Duration, startedAt: Duration? = nil) {
        phase = .multi(
            MultiFinger(
                fingers: min(points.count, 3), startTime: startedAt ?? time,
                centroid: points.centroid, distance: points.spread))
    }

    private mutating func moveMulti(_ multi: inout MultiFinger, _ points: [TouchPoint], at time: Duration) {
        guard settings.mode != .mediaControl else { return }
        let centroid = points.centroid
        let distance = points.spread
        defer {
            multi.lastCentroid = centroid
        }
        if multi.fingers >= 3 {
            guard multi.kind == .undecided else { return }
            let dx = centroid.x - multi.startCentroid.x
            let dy = centroid.y - multi.startCentroid.y
            guard Point(x: dx, y: dy).length >= settings.threeFingerActivation else { return }
            multi.kind = .systemGesture
            let gesture: SystemGesture =
                abs(dy) >= abs(dx)
                ? (dy < 0 ? .missionControl : .appExpose)
                : (dx < 0 ? .spaceRight : .spaceLeft)
            discrete(.systemGesture(gesture: gesture), at: time)
            return
        }
        switch multi.kind {
        case .undecided:
            if abs(distance - multi.startDistance) >= settings.pinchActivation {
                multi.kind = .pinch
                motion.startPinch(from: multi.startDistance, to: distance)
                requestFlush(at: time)
            } else if centroid.distance(to: multi.startCentroid) >= settings.scrollActivation {
                multi.kind = .scroll
                motion.resetRemainders()
                addScroll(from: multi.startCentroid, to: centroid)
                requestFlush(at: time)
            }
        case .scroll:
            addScroll(from: multi.lastCentroid, to: centroid)
            requestFlush(at: time)
        case .pinch:
            motion.updatePinch(to: distance)
            requestFlush(at: time)
        case .systemGesture:
            break
        }
    }

    private mutating func addScroll(from start: Point, to end: Point) {
        let gain = settings.scrollSensitivity.value
        motion.addScroll(Point(x: (end.x - start.x) * gain, y: (end.y - start.y) * gain))
    }

    private mutating func endMulti(_ multi: MultiFinger, at time: Duration) {
        // A pinch's last step may still be waiting for its paced send; it goes out with that flush.
        let wasTap =
            multi.fingers == 2 && multi.kind == .undecided && time - multi.startTime < settings.longPressDuration
        if wasTap && settings.mode != .mediaControl {
            discrete(.rightClick, at: time)
        }
    }
}

// MARK: - State

private enum Phase: Sendable {
    case none
    case one(OneFinger)
    case multi(MultiFinger)

    var isSecondTapCandidate: Bool {
        if case .one(let finger) = self { return finger.secondTap }
        return false
    }
}

private struct OneFinger: Sendable {
    var start: Point
    var startTime: Duration
    var last: Point
    var lastTime: Duration
    var moved = false
    var dragging = false
    /// Began within the double-tap interval of a tap's release.
    var secondTap: Bool

    init(point: Point, time: Duration, secondTap: Bool) {
        start = point
        startTime = time
        last = point
        lastTime = time
        self.secondTap = secondTap
    }
}

private struct MultiFinger: Sendable {
    enum Kind: Sendable { case undecided, scroll, pinch, systemGesture }

    var fingers: Int
    var startTime: Duration
    var startCentroid: Point
    var startDistance: Double
    var lastCentroid: Point
    var kind = Kind.undecided
    /// A finger lifted: the gesture is over, the rest is ignored until all are up.
    var lifting = false

    init(fingers: Int, startTime: Duration, centroid: Point, distance: Double) {
        self.fingers = fingers
        self.startTime = startTime
        startCentroid = centroid
        startDistance = distance
        lastCentroid = centroid
    }
}

/// Movement waiting for the next paced send, with the sub-point remainders already sent around.
private struct PendingMotion: Sendable {
    private var cursor = Point.zero
    private var drag = Point.zero
    private var scroll = Point.zero
    private var pinch: (sent: Double, current: Double)?

    mutating func add(_ delta: Point, dragging: Bool) {
        if dragging {
            drag.x += delta.x
            drag.y += delta.y
        } else {
            cursor.x += delta.x
            cursor.y += delta.y
        }
    }

    mutating func addScroll(_ delta: Point) {
        scroll.x += delta.x
        scroll.y += delta.y
    }

    mutating func startPinch(from start: Double, to current: Double) {
        pinch = (start, current)
    }

    mutating func updatePinch(to current: Double) {
        pinch?.current = current
    }

    mutating func resetRemainders() {
        cursor = .zero
        drag = .zero
        scroll = .zero
    }

    /// The commands for everything that adds up to at least one whole point (or a 0.1 % zoom step).
    mutating func take() -> [Command] {
        var commands: [Command] = []
        if let delta = Self.whole(&cursor) { commands.append(.cursorMove(delta: delta)) }
        if let delta = Self.whole(&drag) { commands.append(.dragMove(delta: delta)) }
        if let delta = Self.whole(&scroll) { commands.append(.scroll(dx: delta.x, dy: delta.y)) }
        if let (sent, current) = pinch, sent > 0 {
            let scale = (current / sent * 1000).rounded() / 1000
            if scale != 1 {
                commands.append(.pinch(scale: scale))
                pinch = (sent * scale, current)
            }
        }
        return commands
    }

    private static func whole(_ value: inout Point) -> Point? {
        let x = value.x.rounded()
        let y = value.y.rounded()
        guard x != 0 || y != 0 else { return nil }
        value.x -= x
        value.y -= y
        return Point(x: x + 0, y: y + 0)  // + 0 turns -0 into 0
    }
}

extension Point {
    var length: Double { (x * x + y * y).squareRoot() }

    func distance(to other: Point) -> Double {
        Point(x: x - other.x, y: y - other.y).length
    }
}

extension [TouchPoint] {
    var centroid: Point {
        guard !isEmpty else { return .zero }
        let sum = reduce(Point.zero) { Point(x: $0.x + $1.location.x, y: $0.y + $1.location.y) }
        return Point(x: sum.x / Double(count), y: sum.y / Double(count))
    }

    /// The distance between the first two fingers (what a pinch changes).
    var spread: Double {
        count >= 2 ? self[0].location.distance(to: self[1].location) : 0
    }
}
