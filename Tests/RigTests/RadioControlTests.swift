import Foundation
import HILTestSupport
import Radio
import RigControl
import Synchronization
import Testing

/// The radio spoken to in one type (issue 53 item 3): each bridge answers each numbered command, and the sender gets
/// every answer, a refusal included; a bridge that does not answer is named.
@Suite("RadioControl: typed commands to every bridge, each one's answer back")
struct RadioControlTests {
    static func folder() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("radio-control-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test("every bridge gets the command and answers it: what it holds, or why it refused")
    func answered() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let bridges = try AnsweringBridges(2, in: folder) { command in
            if case .errorRate(let rate) = command, rate > 0.2 { return .init(accepted: false, message: "this bridge takes up to 0.2") }
            if case .errorRate(let rate) = command { return .init(errorRate: rate, message: "packet error rate now \(rate)") }
            return .init(message: "state")
        }
        defer { bridges.stop() }
        let control = RadioControl(folder: folder)
        #expect(try control.fifos() == ["\(folder)/control-0", "\(folder)/control-1"])
        let held = try await control.send(.errorRate(0.1))
        #expect(held.map(\.accepted) == [true, true] && held.map(\.errorRate) == [0.1, 0.1])
        #expect(held.first?.links == [BridgeAnswer.Link(handle: 0x2a, intervalMs: 15, anchorNs: 1)])
        let refused = try await control.send(.errorRate(0.3))
        #expect(refused.map(\.accepted) == [false, false])
        #expect(refused.first?.message == "this bridge takes up to 0.2")
    }

    @Test("no FIFO in the folder, or a bridge that never answers: an error that names the folder or the FIFO")
    func silent() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let control = RadioControl(folder: folder)
        let none = await #expect(throws: RigError.self) { _ = try await control.send(.state) }
        #expect(none?.what.contains("no radio bridge's control FIFO (control-K) in \(folder)") == true, "\(String(describing: none))")
        let bridges = try AnsweringBridges(1, in: folder) { _ in nil }
        defer { bridges.stop() }
        let error = await #expect(throws: RigError.self) { _ = try await control.send(.state, timeout: .milliseconds(300)) }
        #expect(error?.what.contains("no answer to \"state\"") == true && error?.what.contains("control-0") == true, "\(String(describing: error))")
    }
}
