import Central
import RemoteTouchProtocol
import Synchronization

/// The phone's subscription to status notifications (R5), as the app keeps one while connected; counts
/// what arrives. `watch` again after a reconnect.
final class StatusWatcher: Sendable {
    private let state = Mutex<(count: Int, task: Task<Void, Never>?)>((0, nil))

    var count: Int { state.withLock { $0.count } }

    func watch(_ central: BlueZCentral, _ link: BlueZCentral.Peripheral) async {
        guard let stream = try? await central.notifications(link.status) else { return }
        let task = Task { [self] in
            for await value in stream where (try? StatusData.decode(value)) != nil {
                state.withLock { $0.count += 1 }
            }
        }
        state.withLock { state in
            state.task?.cancel()
            state.task = task
        }
    }

    func stop() {
        state.withLock { $0.task?.cancel() }
    }
}
