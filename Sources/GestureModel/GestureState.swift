import RemoteTouchProtocol

// MARK: - State

enum Phase: Sendable {
    case none
    case one(OneFinger)
    case multi(MultiFinger)

    var isSecondTapCandidate: Bool {
        if case .one(let finger) = self { return finger.secondTap }
        return false
    }
}

struct OneFinger: Sendable {
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

struct MultiFinger: Sendable {
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
struct PendingMotion: Sendable {
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
