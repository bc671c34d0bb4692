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

    var now: Duration
    var lastInput: Duration
    var lastSend: Duration?
    var lastMotionSend: Duration?
    var outputs: [GestureOutput] = []

    var phase: Phase = .none
    var motion = PendingMotion()
    var flushAt: Duration?
    var afterFlush: [Command] = []
    /// Release time of a tap that may still become the first half of a double tap.
    var pendingTapRelease: Duration?
    /// A system-originated command waiting for the idle send interval.
    var queuedSystem: (time: Duration, command: Command)?

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

    mutating func begin(at time: Duration) {
        precondition(time >= now, "time went backwards: \(time) after \(now)")
        // Timers due strictly before the input fire first; one due at the same instant sees the input
        // (a second tap exactly 300 ms after the first still makes a double tap).
        fireTimers(through: time, inclusive: false)
        now = time
    }

    mutating func end() -> [GestureOutput] {
        defer { outputs.removeAll() }
        return outputs
    }

    mutating func noteInput(at time: Duration) {
        lastInput = time
        if activity == .idle {
            activity = .active
            outputs.append(GestureOutput(time, .activity(.active)))
        }
    }

    mutating func emit(_ command: Command, at time: Duration) {
        outputs.append(GestureOutput(time, .send(command)))
        lastSend = time
    }

    /// A non-movement command: sent now, or right after pending movement so order is kept.
    mutating func discrete(_ command: Command, at time: Duration) {
        if flushAt != nil {
            afterFlush.append(command)
        } else {
            emit(command, at: time)
        }
    }

    mutating func flushPendingTap(at time: Duration) {
        guard pendingTapRelease != nil else { return }
        pendingTapRelease = nil
        discrete(.tap(type: .single), at: time)
    }

    // MARK: Timers

    enum Timer { case flush, singleTap, idle, system }

    func deadlines() -> [(time: Duration, timer: Timer)] {
        var list: [(Duration, Timer)] = []
        if let flushAt { list.append((flushAt, .flush)) }
        if let release = pendingTapRelease, !phase.isSecondTapCandidate {
            list.append((release + settings.doubleTapInterval, .singleTap))
        }
        if activity == .active { list.append((lastInput + settings.idleTimeout, .idle)) }
        if let queuedSystem { list.append((queuedSystem.time, .system)) }
        return list.map { (time: $0.0, timer: $0.1) }
    }

    mutating func fireTimers(through time: Duration, inclusive: Bool) {
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

    mutating func requestFlush(at time: Duration) {
        guard flushAt == nil else { return }
        if let lastMotionSend, time < lastMotionSend + settings.sendInterval {
            flushAt = lastMotionSend + settings.sendInterval
        } else {
            flush(at: time)
        }
    }

    mutating func flush(at time: Duration) {
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

}
