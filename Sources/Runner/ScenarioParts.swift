import ScenarioDriver
import Synchronization
import ComputerProcess
import Verifier

/// What a scenario's setup and steps made, filled in as they go: its teardown, which runs outside that cancellable
/// work, finds the link and the computer even when the work threw or an interrupt cancelled it half-way.
final class ScenarioParts: Sendable {
    /// What the end's checks found once the steps ran (the steps themselves are judged once the computer stopped).
    struct Judged: Sendable {
        var findings: ScenarioFindings
        var message: String
        var statusNotifications: Int
    }

    private struct State {
        var phone: (any PhoneLink)?
        var computer: PeripheralComputer?
        var drive: ScenarioDriver.Drive?
        var note = ""
    }

    private let state = Mutex(State())

    var phone: (any PhoneLink)? {
        get { state.withLock { $0.phone } }
        set { state.withLock { $0.phone = newValue } }
    }

    var computer: PeripheralComputer? {
        get { state.withLock { $0.computer } }
        set { state.withLock { $0.computer = newValue } }
    }

    var drive: ScenarioDriver.Drive? {
        get { state.withLock { $0.drive } }
        set { state.withLock { $0.drive = newValue } }
    }

    /// What the standby computer had to say (a computer started ahead that could not be used).
    var note: String {
        get { state.withLock { $0.note } }
        set { state.withLock { $0.note = newValue } }
    }
}
