public import RemoteTouchProtocol

/// Builds touch traces from gesture shorthand, sampled as a phone's touch screen reports them.
///
/// Every builder starts at `start` and returns inputs ending with the lift (an empty touch set), so traces can
/// be concatenated. Positions move linearly over the duration; samples come every `sampleInterval`
/// (120 Hz, the rate of ProMotion touch reporting) plus one exactly at the end.
public struct TouchTrace: Sendable {
    public var sampleInterval: Duration

    public init(sampleInterval: Duration = .nanoseconds(8_333_333)) {
        self.sampleInterval = sampleInterval
    }

    /// One finger (or `fingers` fingers side by side, 20 pt apart) moving from `from` to `to`.
    public func swipe(from: Point, to: Point, duration: Duration, fingers: Int = 1, start: Duration = .zero)
        -> [TimedInput]
    {
        precondition(fingers >= 1 && fingers <= 3, "1 to 3 fingers")
        return path(duration: duration, start: start) { progress in
            let x = from.x + (to.x - from.x) * progress
            let y = from.y + (to.y - from.y) * progress
            return (0..<fingers).map { TouchPoint(id: $0, x: x + Double($0) * 20, y: y) }
        }
    }

    /// A touch that stays still for `duration` (a tap when short, a long press from 0.5 s).
    public func press(at point: Point, duration: Duration = .milliseconds(60), fingers: Int = 1,
                      start: Duration = .zero) -> [TimedInput]
    {
        let touches = (0..<fingers).map { TouchPoint(id: $0, x: point.x + Double($0) * 20, y: point.y) }
        return [TimedInput(start, .touches(touches)), TimedInput(start + duration, .touches([]))]
    }

    /// Two taps whose releases are `gap` apart from the first release to the second touch-down.
    public func doubleTap(at point: Point, gap: Duration, tapDuration: Duration = .milliseconds(60),
                          start: Duration = .zero) -> [TimedInput]
    {
        press(at: point, duration: tapDuration, start: start)
            + press(at: point, duration: tapDuration, start: start + tapDuration + gap)
    }

    /// Hold still for `hold`, then move by `by` over `duration` and lift: a drag and drop.
    public func longPressDrag(at point: Point, hold: Duration = .milliseconds(600), by delta: Point,
                              duration: Duration, start: Duration = .zero) -> [TimedInput]
    {
        let moving = path(duration: duration, start: start + hold) { progress in
            [TouchPoint(id: 0, x: point.x + delta.x * progress, y: point.y + delta.y * progress)]
        }
        return [TimedInput(start, .touches([TouchPoint(id: 0, location: point)]))] + moving
    }

    /// Two fingers `spread` points apart whose distance changes to `spread × scale`, about a fixed midpoint.
    public func pinch(at center: Point, spread: Double = 100, scale: Double, duration: Duration,
                      start: Duration = .zero) -> [TimedInput]
    {
        path(duration: duration, start: start) { progress in
            let half = spread * (1 + (scale - 1) * progress) / 2
            return [TouchPoint(id: 0, x: center.x - half, y: center.y), TouchPoint(id: 1, x: center.x + half, y: center.y)]
        }
    }

    private func path(duration: Duration, start: Duration, at: (Double) -> [TouchPoint]) -> [TimedInput] {
        var inputs = [TimedInput(start, .touches(at(0)))]
        var elapsed = sampleInterval
        while elapsed < duration {
            inputs.append(TimedInput(start + elapsed, .touches(at(elapsed / duration))))
            elapsed += sampleInterval
        }
        inputs.append(TimedInput(start + duration, .touches(at(1))))
        inputs.append(TimedInput(start + duration, .touches([])))
        return inputs
    }
}
