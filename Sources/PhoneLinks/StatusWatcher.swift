package import InputCodes
import RemoteTouchProtocol
import Synchronization
package import Verifier

/// The phone's subscription to status notifications (R5), as the app keeps one while connected; keeps what
/// arrives with its CLOCK_MONOTONIC arrival time. `watch` again after a reconnect.
package final class StatusWatcher: Sendable {
    private let state = Mutex<(received: [StatusObservation], task: Task<Void, Never>?)>(([], nil))

    package var count: Int { state.withLock { $0.received.count } }

    /// The notifications that arrived between two times.
    package func received(from start: MonotonicTime, to end: MonotonicTime) -> [StatusObservation] {
        state.withLock { $0.received.filter { $0.at >= start && $0.at <= end } }
    }

    package func watch(_ central: BlueZCentral, _ link: BlueZCentral.Peripheral) async {
        guard let stream = try? await central.notifications(link.status) else { return }
        let task = Task { [self] in
            for await value in stream {
                guard let status = try? StatusData.decode(value) else { continue }
                let at = MonotonicTime.now()
                state.withLock { $0.received.append(StatusObservation(at: at, status: status)) }
            }
        }
        state.withLock { state in
            state.task?.cancel()
            state.task = task
        }
    }

    package func stop() {
        state.withLock { $0.task?.cancel() }
    }
}
