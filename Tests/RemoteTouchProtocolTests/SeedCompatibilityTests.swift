import Foundation
import HILTestSupport
import RemoteTouchProtocol
import Testing

// The seed's types, declared exactly as seeds/remotetouch-design.md declares them, plus our extension cases
// written the same way. Foundation's synthesized Codable is the reference the real apps use.
private enum SeedCommand: Codable, Equatable {
    case cursorMove(delta: CGPoint)
    case tap(type: SeedClickType)
    case button(action: SeedButtonAction)
    case modeChange(mode: SeedControlMode)
    case mediaControl(action: SeedMediaAction)
    case pinch(scale: CGFloat)
    case scroll(dx: CGFloat, dy: CGFloat)
    case rightClick
    case dragStart
    case dragMove(delta: CGPoint)
    case dragEnd
    case systemGesture(gesture: String)
    case keyPress(key: String, modifiers: [String])
    case text(string: String)
}

private enum SeedClickType: String, Codable { case single, double }
private enum SeedButtonAction: String, Codable { case back, forward }
private enum SeedControlMode: String, Codable { case presentation, mediaControl, basicMouse }
private enum SeedMediaAction: String, Codable { case playPause, volumeUp, volumeDown }

private struct SeedStatusData: Codable, Equatable {
    let batteryLevel: Int
    let timestamp: Date
    let connectionQuality: Int
}

private func seed(_ command: Command) -> SeedCommand {
    switch command {
    case .cursorMove(let delta): .cursorMove(delta: CGPoint(x: delta.x, y: delta.y))
    case .tap(let type): .tap(type: SeedClickType(rawValue: type.rawValue)!)
    case .button(let action): .button(action: SeedButtonAction(rawValue: action.rawValue)!)
    case .modeChange(let mode): .modeChange(mode: SeedControlMode(rawValue: mode.rawValue)!)
    case .mediaControl(let action): .mediaControl(action: SeedMediaAction(rawValue: action.rawValue)!)
    case .pinch(let scale): .pinch(scale: CGFloat(scale))
    case .scroll(let dx, let dy): .scroll(dx: dx, dy: dy)
    case .rightClick: .rightClick
    case .dragStart: .dragStart
    case .dragMove(let delta): .dragMove(delta: CGPoint(x: delta.x, y: delta.y))
    case .dragEnd: .dragEnd
    case .systemGesture(let gesture): .systemGesture(gesture: gesture.rawValue)
    case .keyPress(let key, let modifiers): .keyPress(key: key.rawValue, modifiers: modifiers.map(\.rawValue))
    case .text(let string): .text(string: string)
    }
}

@Suite("Compatibility with the seed's synthesized Codable")
struct SeedCompatibilityTests {
    @Test("our bytes decode with JSONDecoder to the same command", arguments: commandVectors)
    func oursDecodeWithFoundation(command: Command, json: String) throws {
        let decoded = try JSONDecoder().decode(SeedCommand.self, from: Data(command.encoded()))
        #expect(decoded == seed(command))
    }

    @Test("JSONEncoder's bytes decode with ours to the same command", arguments: commandVectors)
    func foundationDecodesWithOurs(command: Command, json: String) throws {
        let bytes = try JSONEncoder().encode(seed(command))
        #expect(try Command.decode(Array(bytes)) == command)
    }

    @Test("payloads with at most one key are byte-identical to JSONEncoder's", arguments: commandVectors)
    func byteIdentical(command: Command, json: String) throws {
        // JSONEncoder writes several keys in hash order (on Apple platforms too); one key has one order.
        switch command {
        case .scroll, .keyPress: return
        default: break
        }
        let bytes = try JSONEncoder().encode(seed(command))
        #expect(String(decoding: bytes, as: UTF8.self) == json)
    }

    @Test("random movement commands agree both ways")
    func randomMovement() throws {
        var generator = SplitMix64(seed: 7)
        for _ in 0..<500 {
            let x = (Double.random(in: -32767...32767, using: &generator) * 100).rounded() / 100
            let y = Double(Int.random(in: -500...500, using: &generator))
            let command = Command.cursorMove(delta: Point(x: x, y: y))
            let foundation = try JSONEncoder().encode(seed(command))
            #expect(Array(foundation) == command.encoded())
            #expect(try Command.decode(Array(foundation)) == command)
        }
    }

    @Test("StatusData agrees with the seed's struct both ways, Date as seconds since 2001")
    func statusData() throws {
        let ours = StatusData(batteryLevel: 85, timestamp: 785_000_000.5, connectionQuality: 90)
        let decoded = try JSONDecoder().decode(SeedStatusData.self, from: Data(ours.encoded()))
        #expect(decoded == SeedStatusData(
            batteryLevel: 85, timestamp: Date(timeIntervalSinceReferenceDate: 785_000_000.5), connectionQuality: 90))
        let theirs = try JSONEncoder().encode(decoded)
        #expect(try StatusData.decode(Array(theirs)) == ours)
    }

    @Test("our error extension does not break the seed's decoder")
    func statusErrorIgnored() throws {
        let status = StatusData(
            batteryLevel: 40, timestamp: 1, connectionQuality: 70,
            error: StatusError(code: "invalidCommand", message: "not valid JSON"))
        let decoded = try JSONDecoder().decode(SeedStatusData.self, from: Data(status.encoded()))
        #expect(decoded.batteryLevel == 40)
    }
}
