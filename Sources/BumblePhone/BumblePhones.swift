import Foundation
import Synchronization

/// The run's Bumble phones, one for each lane's phone adapter: started when a scenario first needs one (Bumble's
/// import takes 7–25 s in the vm guest), kept for the run, started again when one exited (a phone that died fails its
/// scenario; the next gets a new one), and closed at the run's end, which gives the adapters back to bluetoothd.
package final class BumblePhones: Sendable {
    private let program: BumbleHost.Program
    private let latencyScale: Double
    private let progress: @Sendable (String) -> Void
    private let hosts = Mutex<[String: BumbleHost]>([:])

    /// - Parameter progress: a line for the run's console as a phone starts.
    package init(_ program: BumbleHost.Program, latencyScale: Double, progress: @escaping @Sendable (String) -> Void) {
        self.program = program
        self.latencyScale = latencyScale
        self.progress = progress
    }

    /// The phone on `adapter`, started (and the adapter taken from bluetoothd) if there is none or it exited.
    /// - Throws: `LinkError` when it cannot start or take the adapter, with its last lines.
    package func host(on adapter: String) async throws -> BumbleHost {
        if let running = hosts.withLock({ $0[adapter] }), !running.hasEnded { return running }
        let clock = ContinuousClock.now
        progress("hil run: starting the Bumble phone on \(adapter) (Bumble's import takes 7–25 s in the vm guest)")
        let host = try await BumbleHost.start(program, latencyScale: latencyScale, log: nil)
        do {
            let opened = try await host.ok("open", [adapter], timeout: .seconds(30))
            progress("hil run: the Bumble phone owns \(adapter) (\(opened.string("address") ?? "?")), ready in \(Int((ContinuousClock.now - clock).milliseconds)) ms")
        } catch {
            await host.stop()
            throw error
        }
        hosts.withLock { $0[adapter] = host }
        return host
    }

    /// Closes every phone: its link down, its adapter back to bluetoothd.
    package func stopAll() async {
        for host in hosts.withLock({ $0.values }) { await host.stop() }
        hosts.withLock { $0 = [:] }
    }
}
