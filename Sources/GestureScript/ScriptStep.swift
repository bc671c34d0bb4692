package import GestureModel
package import RemoteTouchProtocol

/// One step of a gesture script: a gesture in shorthand, a raw touch trace, a button, a mode pick or a wait.
package enum ScriptStep: Sendable, Hashable {
    case swipe(from: Point, to: Point, duration: Duration, fingers: Int)
    case tap(at: Point, duration: Duration)
    case doubleTap(at: Point, gap: Duration)
    case longPress(at: Point, duration: Duration)
    case drag(at: Point, hold: Duration, by: Point, duration: Duration)
    case twoFingerTap(at: Point)
    case scroll(by: Point, duration: Duration)
    case pinch(scale: Double, duration: Duration)
    case threeFingerSwipe(direction: SwipeDirection, distance: Double, duration: Duration)
    case touches([TouchSample])
    case button(ButtonAction)
    case mode(ControlMode)
    case key(Key, modifiers: [KeyModifier])
    case text(String)
    case wait(Duration)
    /// The link drops without the phone asking: the rig powers the computer's adapter (or, with `side:
    /// .phone`, the phone's) off for the duration.
    case linkDrop(Duration, side: LinkSide = .computer)
    /// The phone's user disconnects from the computer (the central closes the link; no reconnecting follows).
    case disconnect
    /// The phone's user asks to connect again (R12.4's manual reconnect): one try, given up after the timeout.
    case reconnect(timeout: Duration)
    /// bluetoothd stops and starts again (SIGTERM, or systemctl restart where systemd runs it): every link goes;
    /// the computer must register its application and advertisement again and serve within 5 s.
    case restartBluetoothd
    /// The computer's RemoteTouch app restarts (stopped with SIGINT, started again on the same state folder):
    /// its pairings and lockout must survive (R4). The phone, its service gone, disconnects and connects again.
    case restartPeripheral
    /// The phone asks to pair (reads the pairing characteristic: the computer shows a code) and enters a code.
    case pair(PairCode)
    /// A hostile phone writes this many malformed commands as fast as the link takes them (broken and truncated
    /// JSON, random bytes, huge numbers, NaN, unknown cases, deep nesting).
    case malformedWrites(count: Int)
    /// The network between the phone and computer hosts gets these conditions (the kernel's netem on both hosts'
    /// interfaces), until the next `network` step; nil: back to none (`"reset"`). Network transports only.
    case network(NetworkConditions?)
    /// The network between the hosts drops every packet for the duration (netem loss 100 %, no RST, the
    /// interfaces stay up), as a Wi-Fi that stops carrying anything. Network transports only.
    case partition(Duration)
    /// A host that is not the phone sends this many movement packets to the computer's UDP port (udp only).
    case forgedPackets(count: Int, from: ForgedSource, packets: ForgedPackets = .movement)
    /// Another device opens a session of its own on a network transport's control port (tcp or udp), may enter a
    /// code, and sends commands: what the computer must refuse of a session that is not paired. Network transports only.
    case otherPhone(OtherPhone)
    /// Raw writes at their times, bypassing the gesture model: commands, hid reports, udp packets (what `hil record`
    /// writes from a computer's receipts).
    case send([SendItem])
    /// The vm rig's radio loses this share of transmissions, each sent again by the link layer, and the phone's stack
    /// moves the link to this interval (LE Connection Update), until a later `radio` step changes them; nil: back to
    /// the rig's own (`"reset"`). ble and hid only.
    case radio(RadioConditions?)
    /// The vm rig's radio carries nothing for the duration (`{"radio": {"blackoutMs": N}}`): past the link's
    /// supervision timeout the link ends (reason 0x08) and the phone reconnects. A link action. ble and hid only.
    case radioBlackout(Duration)

    /// The step's key in JSON, which is also how people name it.
    package var name: String {
        switch self {
        case .swipe: "swipe"
        case .tap: "tap"
        case .doubleTap: "doubleTap"
        case .longPress: "longPress"
        case .drag: "drag"
        case .twoFingerTap: "twoFingerTap"
        case .scroll: "scroll"
        case .pinch: "pinch"
        case .threeFingerSwipe: "threeFingerSwipe"
        case .touches: "touches"
        case .button: "button"
        case .mode: "mode"
        case .key: "key"
        case .text: "text"
        case .wait: "wait"
        case .linkDrop: "linkDrop"
        case .disconnect: "disconnect"
        case .reconnect: "reconnect"
        case .restartBluetoothd: "restartBluetoothd"
        case .restartPeripheral: "restartPeripheral"
        case .pair: "pair"
        case .malformedWrites: "malformedWrites"
        case .network: "network"
        case .partition: "partition"
        case .forgedPackets: "forgedPackets"
        case .otherPhone: "otherPhone"
        case .send: "send"
        case .radio, .radioBlackout: "radio"
        }
    }

    package static let names = [
        "swipe", "tap", "doubleTap", "longPress", "drag", "twoFingerTap", "scroll", "pinch", "threeFingerSwipe",
        "touches", "button", "mode", "key", "text", "wait", "linkDrop",
        "disconnect", "reconnect", "restartBluetoothd", "restartPeripheral", "pair", "malformedWrites", "network", "partition",
        "forgedPackets", "send", "radio", "otherPhone",
    ]

    /// Where gestures happen when a step does not say: the middle of an iPhone's touchpad area.
    package static let defaultPoint = Point(x: 180, y: 300)

    /// Whether the step acts on the link rather than sending input (judged by a `link` expectation).
    package var isLinkAction: Bool {
        if case .radioBlackout = self { return true }
        return Self.linkActionNames.contains(name)
    }

    /// The names of the steps that act on the link, for checks made on the JSON before a step is read. A radio step
    /// with `blackoutMs` is one too: its JSON's kind is `radioBlackoutKind` there.
    package static let linkActionNames = ["linkDrop", "disconnect", "reconnect", "restartBluetoothd", "restartPeripheral", "partition",
                                          radioBlackoutKind]

    /// How the checks on the JSON name a radio step with `blackoutMs` ("a radio blackout step is judged by …").
    package static let radioBlackoutKind = "radio blackout"

    /// Whether the step puts fingers on the screen (so it cannot start while a `touches` step holds some down).
    package var touchesTheScreen: Bool {
        switch self {
        case .swipe, .tap, .doubleTap, .longPress, .drag, .twoFingerTap, .scroll, .pinch, .threeFingerSwipe, .touches: true
        case .button, .mode, .key, .text, .wait, .linkDrop, .disconnect, .reconnect, .restartBluetoothd, .restartPeripheral, .pair,
             .malformedWrites, .network, .partition, .forgedPackets, .send, .radio, .radioBlackout, .otherPhone:
            false
        }
    }

    /// The step's inputs, starting at `start`.
    package func inputs(startingAt start: Duration, trace: TouchTrace = TouchTrace()) -> [TimedInput] {
        switch self {
        case .swipe(let from, let to, let duration, let fingers):
            return trace.swipe(from: from, to: to, duration: duration, fingers: fingers, start: start)
        case .tap(let point, let duration):
            return trace.press(at: point, duration: duration, start: start)
        case .doubleTap(let point, let gap):
            return trace.doubleTap(at: point, gap: gap, start: start)
        case .longPress(let point, let duration):
            return trace.press(at: point, duration: duration, start: start)
        case .drag(let point, let hold, let delta, let duration):
            return trace.longPressDrag(at: point, hold: hold, by: delta, duration: duration, start: start)
        case .twoFingerTap(let point):
            return trace.press(at: point, fingers: 2, start: start)
        case .scroll(let delta, let duration):
            let from = Self.defaultPoint
            return trace.swipe(
                from: from, to: Point(x: from.x + delta.x, y: from.y + delta.y), duration: duration, fingers: 2,
                start: start)
        case .pinch(let scale, let duration):
            return trace.pinch(at: Self.defaultPoint, scale: scale, duration: duration, start: start)
        case .threeFingerSwipe(let direction, let distance, let duration):
            let from = Self.defaultPoint
            let unit = direction.unit
            return trace.swipe(
                from: from, to: Point(x: from.x + unit.x * distance, y: from.y + unit.y * distance),
                duration: duration, fingers: 3, start: start)
        case .touches(let samples):
            return samples.map { TimedInput(start + $0.at, .touches($0.points)) }
        case .button(let action):
            return [TimedInput(start, .button(action))]
        case .mode(let mode):
            return [TimedInput(start, .mode(mode))]
        case .key(let key, let modifiers):
            return [TimedInput(start, .key(key, modifiers: modifiers))]
        case .text(let string):
            return [TimedInput(start, .text(string))]
        case .wait, .linkDrop, .disconnect, .reconnect, .restartBluetoothd, .restartPeripheral, .pair, .malformedWrites, .network,
             .partition, .forgedPackets, .send, .radio, .radioBlackout, .otherPhone:
            return []
        }
    }

    /// How long the step takes: the time of its last input, the wait, or a send step's last item.
    package func duration(trace: TouchTrace = TouchTrace()) -> Duration {
        if case .wait(let duration) = self { return duration }
        if case .send(let items) = self { return items.last?.at ?? .zero }
        return inputs(startingAt: .zero, trace: trace).last?.time ?? .zero
    }
}

/// The code a `pair` step enters: the one the computer shows, a wrong one (the shown code with its last digit
/// changed), or given digits.
package enum PairCode: Sendable, Hashable {
    case shown
    case wrong
    case digits(String)
}

/// Delay, jitter and loss on the network between the hosts (`tc qdisc … netem delay D J loss L%`), applied to each
/// host's outgoing packets, so a round trip sees the delay twice and each direction loses `lossPercent`.
package struct NetworkConditions: Sendable, Hashable, CustomStringConvertible {
    package var delayMs: Double
    package var jitterMs: Double
    package var lossPercent: Double

    package init(delayMs: Double = 0, jitterMs: Double = 0, lossPercent: Double = 0) {
        self.delayMs = delayMs
        self.jitterMs = jitterMs
        self.lossPercent = lossPercent
    }

    package var description: String {
        "delay \(delayMs) ms ± \(jitterMs) ms, loss \(lossPercent) %"
    }
}

/// The air of the vm rig's radio model for a `radio` step: the share of transmissions that fail and are sent again
/// (the bridges' packet error rate), and the connection interval the phone moves the link to. nil: unchanged.
package struct RadioConditions: Sendable, Hashable, CustomStringConvertible {
    package var packetErrorPercent: Double?
    package var intervalMs: Double?

    package init(packetErrorPercent: Double? = nil, intervalMs: Double? = nil) {
        self.packetErrorPercent = packetErrorPercent
        self.intervalMs = intervalMs
    }

    package var description: String {
        [packetErrorPercent.map { "packet error rate \($0) %" }, intervalMs.map { "connection interval \($0) ms" }]
            .compactMap { $0 }.joined(separator: ", ")
    }
}

/// Who sends a `forgedPackets` step's packets: the rig's third host (another device on the same network), or the
/// phone app's own movement socket, its bound address and port (a replay from the phone's source: injected while
/// its session lasts, refused once it has ended).
/// `phoneOtherPort`: the phone's own address from a port its session did not bind (refused: a binding is address and
/// port).
package enum ForgedSource: String, Sendable, Hashable, CaseIterable {
    case attacker, phone, phoneOtherPort

    /// The i-th forged packet: a plausible movement to the right (5, 6 or 7 counts), as the phone would send it.
    package static func packet(_ index: Int) -> UDPPacket {
        UDPPacket(header: .movement, dx: 5 + index % 3, dy: 0)
    }
}

/// What a `forgedPackets` step sends: `movement` (0xAA, as the phone's), or `control` (0xBB packets carrying a click,
/// which the computer must never take over UDP: docs/protocol.md, "Control over UDP is refused").
package enum ForgedPackets: String, Sendable, Hashable, CaseIterable {
    case movement, control

    /// The i-th packet of this kind.
    package func packet(_ index: Int) -> UDPPacket {
        switch self {
        case .movement: ForgedSource.packet(index)
        case .control: UDPPacket(header: .control, buttons: index % 2 == 0 ? .left : [], dx: 0, dy: 0)
        }
    }
}

/// Another device's session (`otherPhone`): from the phone's host (its address, so a session of another transport
/// from the same address) or the attacker's, on a network transport's control port; the code it enters (none, or the
/// code the phone paired with, which its use must have spent) and the commands it sends.
package struct OtherPhone: Sendable, Hashable {
    package enum Host: String, Sendable, Hashable, CaseIterable { case phone, attacker }
    package enum Code: String, Sendable, Hashable, CaseIterable { case none, spent }
    /// The port it connects to: tcp's (51423) or the udp transport's control connection (8889).
    package enum Port: String, Sendable, Hashable, CaseIterable { case tcp, udp }

    package var from: Host
    package var transport: Port
    package var code: Code
    package var commands: [Command]

    package init(from: Host, transport: Port, code: Code, commands: [Command]) {
        self.from = from
        self.transport = transport
        self.code = code
        self.commands = commands
    }
}

/// Whose radio a `linkDrop` turns off.
package enum LinkSide: String, Sendable, Hashable, CaseIterable {
    case computer, phone
}

package enum SwipeDirection: String, Sendable, Hashable, CaseIterable {
    case up, down, left, right

    /// Screen coordinates: y grows downwards.
    var unit: Point {
        switch self {
        case .up: Point(x: 0, y: -1)
        case .down: Point(x: 0, y: 1)
        case .left: Point(x: -1, y: 0)
        case .right: Point(x: 1, y: 0)
        }
    }
}

/// A raw touch sample of a `touches` step: its time from the step's start and the fingers down.
package struct TouchSample: Sendable, Hashable {
    package var at: Duration
    package var points: [TouchPoint]

    package init(at: Duration, points: [TouchPoint]) {
        self.at = at
        self.points = points
    }
}
