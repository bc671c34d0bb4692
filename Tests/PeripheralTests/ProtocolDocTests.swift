import DBus
import Foundation
import HILTestSupport
@testable import Peripheral
import RemoteTouchProtocol
import Testing

/// What docs/protocol.md states as behaviour, held to the code so the two cannot drift.
@Suite("docs/protocol.md as a contract: its tables and stated behaviour against the computer's code")
struct ProtocolDocTests {
    @Test("the error-code table lists every StatusError.Code, in order, with its transports")
    func errorCodes() throws {
        let rows = try markdownTable("docs/protocol.md", under: "## Error codes")
        let documented = rows.map { row in
            (code: codeSpan(row[0]), transports: row[1].components(separatedBy: ", "))
        }
        #expect(documented.map(\.code) == StatusError.Code.allCases.map(\.rawValue))
        for (row, code) in zip(documented, StatusError.Code.allCases) {
            #expect(row.transports == code.transports, "\(code.rawValue): documented \(row.transports), the code says \(code.transports)")
        }
    }

    @Test("a refused write with response: NotAuthorized for pairing matters, Failed for the rest; a report's never fails")
    func writeErrors() {
        func name(_ code: StatusError.Code, _ on: GattEndpoint.Written) -> String? {
            GattEndpoint.writeError(StatusError(code, "why"), on: on)?.name
        }
        #expect(name(.notPaired, .command) == "org.bluez.Error.NotAuthorized")
        #expect(name(.invalidCommand, .command) == "org.bluez.Error.Failed")
        #expect(name(.injectionFailed, .command) == "org.bluez.Error.Failed")
        for code in [StatusError.Code.wrongCode, .lockedOut, .codeExpired, .noCode] {
            #expect(name(code, .pairing) == "org.bluez.Error.NotAuthorized")
        }
        for code in StatusError.Code.allCases {
            #expect(name(code, .report) == nil, "a refused report (\(code.rawValue)) failed its write")
        }
    }

    @Test("reading the report characteristic: 6 bytes, the buttons held now from any transport, no motion")
    func reportRead() throws {
        let (host, _, codes, _) = try ComputerHostTests.host(devnode: nil)
        #expect(GattEndpoint.reportValue(host.processor) == [0, 0, 0, 0, 0, 0])
        _ = host.pairingRead(by: "tcp:10.77.0.2")
        _ = try host.pairingWrite(Array(try #require(codes.last).utf8), by: "tcp:10.77.0.2")
        _ = host.command(Array(#"{"dragStart":{}}"#.utf8), from: "tcp:10.77.0.2")
        _ = host.command(Array(#"{"cursorMove":{"delta":[40,-3]}}"#.utf8), from: "tcp:10.77.0.2")
        #expect(GattEndpoint.reportValue(host.processor) == [1, 0, 0, 0, 0, 0])
        _ = host.processor.handlePointer([0x06, 5, 0, 0, 0, 1], from: "tcp:10.77.0.2", format: .hid)
        #expect(GattEndpoint.reportValue(host.processor) == [6, 0, 0, 0, 0, 0])
    }

    @Test("the pairing code file is the six digits and a newline, mode 0600, replaced whole")
    func pairingCodeFile() throws {
        let folder = NSTemporaryDirectory() + "hil-code-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/code"
        StateFile.writePairingCode(try PairingCode("042917"), to: file)
        #expect(FileManager.default.contents(atPath: file) == Data("042917\n".utf8))
        let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        StateFile.writePairingCode(try PairingCode("000001"), to: file)
        #expect(FileManager.default.contents(atPath: file) == Data("000001\n".utf8))
    }

    @Test("the default Bonjour instance name is the first label of this machine's host name")
    func instanceName() {
        #expect(TCPSettings.defaultServiceName(hostName: "vm-guest.lab.example") == "RemoteTouch on vm-guest")
        #expect(TCPSettings.defaultServiceName(hostName: "bench") == "RemoteTouch on bench")
    }
}
