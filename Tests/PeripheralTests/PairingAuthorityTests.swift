import Foundation
import Peripheral
import RemoteTouchProtocol
import HILTestSupport
import Testing

private let phone = "00:AA:01:01:00:01"
private let intruder = "11:22:33:44:55:66"

/// Codes shown to the user, captured as the peripheral would print them.
final class ShownCodes: @unchecked Sendable {
    // Safety: guarded by `lock`.
    private let lock = NSLock()
    private var codes: [String] = []
    var all: [String] { lock.withLock { codes } }
    var last: String? { all.last }
    func record(_ code: PairingCode, _: Duration) { lock.withLock { codes.append(code.digits) } }
}

@Suite("Pairing (R4, security section)")
struct PairingAuthorityTests {
    func authority(_ shown: ShownCodes, file: String? = nil) throws -> PairingAuthority {
        try PairingAuthority(stateFile: file, onCodeShown: shown.record)
    }

    @Test("a read shows a fresh 6-digit code; the right code pairs; only then is the central paired")
    func pairs() throws {
        let shown = ShownCodes()
        let pairing = try authority(shown)
        #expect(pairing.read(by: phone, now: 1000) == PairingStatus(state: .awaitingCode, attemptsRemaining: 3, secondsRemaining: 60))
        let code = try #require(shown.last)
        #expect(code.count == 6)
        #expect(!pairing.isPaired(phone))
        #expect(try pairing.write(Array(code.utf8), by: phone, now: 1010) == .paired)
        #expect(pairing.isPaired(phone))
        #expect(!pairing.isPaired(intruder))
        #expect(pairing.read(by: phone, now: 1011) == PairingStatus(state: .paired, attemptsRemaining: 3))
    }

    @Test("reading again within the 60 s shows the same code, counting down")
    func sameCode() throws {
        let shown = ShownCodes()
        let pairing = try authority(shown)
        _ = pairing.read(by: phone, now: 0)
        #expect(pairing.read(by: phone, now: 20.5) == PairingStatus(state: .awaitingCode, attemptsRemaining: 3, secondsRemaining: 40))
        #expect(shown.all.count == 1)
    }

    @Test("the code expires after 60 s; the next read shows a new one")
    func expiry() throws {
        let shown = ShownCodes()
        let pairing = try authority(shown)
        _ = pairing.read(by: phone, now: 0)
        let old = try #require(shown.last)
        #expect(try pairing.write(Array(old.utf8), by: phone, now: 60) == .codeExpired)
        _ = pairing.read(by: phone, now: 61)
        #expect(shown.all.count == 2)
        #expect(try pairing.write(Array(shown.last!.utf8), by: phone, now: 62) == .paired)
    }

    @Test("writing a code before reading one: refused, no attempt counted")
    func noCode() throws {
        let pairing = try authority(ShownCodes())
        #expect(try pairing.write(Array("123456".utf8), by: phone, now: 0) == .noCodeRequested)
    }

    @Test("3 wrong codes lock pairing out for 5 minutes, for every central; then it works again")
    func lockout() throws {
        let shown = ShownCodes()
        let pairing = try authority(shown)
        _ = pairing.read(by: intruder, now: 0)
        let right = try #require(shown.last)
        let wrong = right == "000000" ? "000001" : "000000"
        #expect(try pairing.write(Array(wrong.utf8), by: intruder, now: 1) == .wrongCode(attemptsRemaining: 2))
        #expect(try pairing.write(Array(wrong.utf8), by: intruder, now: 2) == .wrongCode(attemptsRemaining: 1))
        #expect(try pairing.write(Array(wrong.utf8), by: intruder, now: 3) == .lockedOut(secondsRemaining: 300))
        #expect(try pairing.write(Array(right.utf8), by: intruder, now: 4) == .lockedOut(secondsRemaining: 299))
        #expect(pairing.read(by: phone, now: 100) == PairingStatus(state: .lockedOut, attemptsRemaining: 0, secondsRemaining: 203))
        #expect(shown.all.count == 1)
        _ = pairing.read(by: phone, now: 303)
        #expect(shown.all.count == 2)
        #expect(try pairing.write(Array(shown.last!.utf8), by: phone, now: 304) == .paired)
    }

    @Test("a malformed code is refused and costs no attempt", arguments: ["12345", "abcdef", "1234567", ""])
    func malformed(text: String) throws {
        let pairing = try authority(ShownCodes())
        _ = pairing.read(by: phone, now: 0)
        #expect(throws: ProtocolError.self) { try pairing.write(Array(text.utf8), by: phone, now: 1) }
        #expect(pairing.read(by: phone, now: 2).attemptsRemaining == 3)
    }

    @Test("pairings and the lockout survive a restart, in a 0600 file")
    func persistence() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/pairing.json"
        let shown = ShownCodes()
        let first = try authority(shown, file: file)
        _ = first.read(by: phone, now: 0)
        #expect(try first.write(Array(shown.last!.utf8), by: phone, now: 1) == .paired)
        _ = first.read(by: intruder, now: 2)
        for second in 3...5 {
            _ = try first.write(Array((shown.last == "999999" ? "999998" : "999999").utf8), by: intruder, now: Double(second))
        }
        let attributes = try FileManager.default.attributesOfItem(atPath: file)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let restarted = try authority(ShownCodes(), file: file)
        #expect(restarted.isPaired(phone))
        #expect(restarted.read(by: intruder, now: 10) == PairingStatus(state: .lockedOut, attemptsRemaining: 0, secondsRemaining: 295))
    }

    @Test("a broken state file is named, with what to do")
    func brokenStateFile() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/pairing.json"
        try Data("{ not json".utf8).write(to: URL(fileURLWithPath: file))
        do {
            _ = try PairingAuthority(stateFile: file, onCodeShown: { _, _ in })
            Issue.record("loaded a broken file")
        } catch {
            #expect("\(error)".contains("\(file): not valid JSON"))
            #expect("\(error)".contains("move it away"))
        }
    }
}
