import RemoteTouchProtocol

/// Touches: one finger (swipe, tap, drag, media swipes) and several (scroll, pinch, right click, system gestures).
extension GestureProcessor {
    // MARK: Touches

    mutating func touches(_ points: [TouchPoint], at time: Duration) {
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

    mutating func moveOne(_ finger: inout OneFinger, to point: Point, at time: Duration) {
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

    mutating func liftOne(_ finger: OneFinger, at time: Duration) {
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

    mutating func startMulti(_ points: [TouchPoint], at time: Duration, startedAt: Duration? = nil) {
        phase = .multi(
            MultiFinger(
                fingers: min(points.count, 3), startTime: startedAt ?? time,
                centroid: points.centroid, distance: points.spread))
    }

    mutating func moveMulti(_ multi: inout MultiFinger, _ points: [TouchPoint], at time: Duration) {
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

    mutating func addScroll(from start: Point, to end: Point) {
        let gain = settings.scrollSensitivity.value
        motion.addScroll(Point(x: (end.x - start.x) * gain, y: (end.y - start.y) * gain))
    }

    mutating func endMulti(_ multi: MultiFinger, at time: Duration) {
        // A pinch's last step may still be waiting for its paced send; it goes out with that flush.
        let wasTap =
            multi.fingers == 2 && multi.kind == .undecided && time - multi.startTime < settings.longPressDuration
        if wasTap && settings.mode != .mediaControl {
            discrete(.rightClick, at: time)
        }
    }
}
