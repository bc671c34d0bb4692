import Foundation
package import RemoteTouchProtocol
import StrictJSON
import Synchronization

/// Who may drive this computer: the pairing rules of R4 and the seed's security section.
///
/// - A read of the pairing characteristic by an unpaired central asks for a code: a fresh 6-digit code from
///   the system's secure generator, shown to the user (`onCodeShown`), valid for `codeLifetime` (60 s).
/// - A write of the right code pairs the central; a wrong one costs an attempt; after `maxAttempts` (3)
///   wrong codes pairing is locked out for `lockout` (5 minutes) — for every central, so rotating addresses
///   does not help a brute force. A malformed write (not 6 digits) is refused without costing an attempt.
/// - Paired centrals and the lockout survive restarts: a JSON file in the state folder, mode 0600.
///
/// Time is passed in (`now`), wall-clock seconds, so the lockout means the same after a restart.
package final class PairingAuthority: Sendable {
    package struct Settings: Sendable {
        package var codeLifetime: Duration = .seconds(60)
        package var maxAttempts = 3
        package var lockout: Duration = .seconds(300)
        package init() {}
    }

    package enum Outcome: Sendable, Equatable {
        case paired
        /// Wrong code; attempts left before the lockout.
        case wrongCode(attemptsRemaining: Int)
        case lockedOut(secondsRemaining: Int)
        case codeExpired
        case noCodeRequested
        case alreadyPaired
    }

    package let settings: Settings
    /// Where paired centrals and the lockout are kept; nil keeps them in memory only.
    package let stateFile: String?
    private let onCodeShown: @Sendable (PairingCode, _ validFor: Duration) -> Void
    private let state: Mutex<State>

    struct State: Sendable {
        var paired: [String: Double] = [:]  // central address → paired at (Unix seconds)
        var failures = 0
        var lockedUntil: Double?
        var code: (value: PairingCode, expires: Double)?
    }

    /// - Throws: when `stateFile` exists but cannot be read as a pairing state file (its path and why).
    package init(settings: Settings = Settings(), stateFile: String?,
                onCodeShown: @escaping @Sendable (PairingCode, Duration) -> Void) throws
    {
        self.settings = settings
        self.stateFile = stateFile
        self.onCodeShown = onCodeShown
        state = Mutex(try Self.load(stateFile))
    }

    package func isPaired(_ central: String) -> Bool {
        state.withLock { $0.paired[central] != nil }
    }

    package var pairedCentrals: [String] {
        state.withLock { $0.paired.keys.sorted() }
    }

    /// What a read of the pairing characteristic returns to `central`; an unpaired central's read shows a
    /// fresh code when none is active (the seed's "request pairing").
    package func read(by central: String, now: Double) -> PairingStatus {
        let (status, shown): (PairingStatus, (PairingCode, Duration)?) = state.withLock { state in
            let remaining = settings.maxAttempts - state.failures
            if state.paired[central] != nil {
                return (PairingStatus(state: .paired, attemptsRemaining: remaining), nil)
            }
            if let until = state.lockedUntil, until > now {
                return (PairingStatus(state: .lockedOut, attemptsRemaining: 0, secondsRemaining: Int((until - now).rounded(.up))), nil)
            }
            if let code = state.code, code.expires > now {
                return (PairingStatus(state: .awaitingCode, attemptsRemaining: remaining,
                                      secondsRemaining: Int((code.expires - now).rounded(.up))), nil)
            }
            let fresh = PairingCode.generate()
            let lifetime = Double(settings.codeLifetime.components.seconds)
            state.code = (fresh, now + lifetime)
            return (PairingStatus(state: .awaitingCode, attemptsRemaining: remaining, secondsRemaining: Int(lifetime)),
                    (fresh, settings.codeLifetime))
        }
        if let (code, lifetime) = shown { onCodeShown(code, lifetime) }
        return status
    }

    /// A write of the pairing characteristic by `central`.
    /// - Throws: `ProtocolError` for a payload that is not 6 digits (no attempt is counted).
    package func write(_ bytes: [UInt8], by central: String, now: Double) throws(ProtocolError) -> Outcome {
        let code = try PairingCode.decode(bytes)
        let (outcome, changed) = state.withLock { state -> (Outcome, Bool) in
            if state.paired[central] != nil { return (.alreadyPaired, false) }
            if let until = state.lockedUntil {
                if until > now { return (.lockedOut(secondsRemaining: Int((until - now).rounded(.up))), false) }
                state.lockedUntil = nil
                state.failures = 0
            }
            guard let active = state.code else { return (.noCodeRequested, false) }
            guard active.expires > now else {
                state.code = nil
                return (.codeExpired, false)
            }
            if active.value == code {
                state.paired[central] = now
                state.code = nil
                state.failures = 0
                return (.paired, true)
            }
            state.failures += 1
            if state.failures >= settings.maxAttempts {
                state.lockedUntil = now + Double(settings.lockout.components.seconds)
                state.code = nil
                return (.lockedOut(secondsRemaining: Int(settings.lockout.components.seconds)), true)
            }
            return (.wrongCode(attemptsRemaining: settings.maxAttempts - state.failures), true)
        }
        if changed { save() }
        return outcome
    }

    /// Forgets a central (it must pair again).
    package func unpair(_ central: String) {
        state.withLock { _ = $0.paired.removeValue(forKey: central) }
        save()
    }

    // MARK: Persistence

    private static func load(_ path: String?) throws -> State {
        guard let path, FileManager.default.fileExists(atPath: path) else { return State() }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw PeripheralError(.pairingState, "\(path): cannot read the pairing state (check its permissions)")
        }
        do {
            let object = try JSONParser().parse(data).object(at: .root)
            var state = State()
            if let paired = object["paired"] {
                for entry in try paired.object(at: .root.appending("paired")).entries {
                    state.paired[entry.key] = try entry.value.number(at: .root.appending("paired").appending(entry.key))
                }
            }
            if let failures = object["failures"] {
                state.failures = try failures.integer(at: .root.appending("failures"), in: 0...1000)
            }
            if let until = object["lockedUntil"], until != .null {
                state.lockedUntil = try until.number(at: .root.appending("lockedUntil"))
            }
            return state
        } catch let error as JSONParseError {
            throw PeripheralError(
                .pairingState, "\(path): not valid JSON (\(error)); move it away to start with no paired centrals")
        } catch {
            throw PeripheralError(.pairingState, "\(path): \(error); move it away to start with no paired centrals")
        }
    }

    private func save() {
        guard let stateFile else { return }
        let snapshot = state.withLock { $0 }
        var paired = JSONObject()
        for (address, time) in snapshot.paired.sorted(by: { $0.key < $1.key }) { paired.set(address, .number(time)) }
        let document: JSONValue = .object(JSONObject([
            ("paired", .object(paired)),
            ("failures", .number(Double(snapshot.failures))),
            ("lockedUntil", snapshot.lockedUntil.map(JSONValue.number) ?? .null),
        ]))
        StateFile.write(JSONWriter(pretty: true).string(document) + "\n", to: stateFile)
    }
}
