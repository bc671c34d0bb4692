import Dispatch
import Foundation

/// Turns SIGINT, SIGTERM and SIGHUP into a call, so a long run can stop its children before exiting.
/// While it exists the signals do not kill the process; `cancel()` restores the default behaviour.
final class InterruptForwarder {
    private let sources: [any DispatchSourceSignal]
    private static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    init(_ handler: @escaping @Sendable () -> Void) {
        sources = Self.signals.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                printError("hil: \(number == SIGINT ? "interrupted" : "signal \(number)"); stopping")
                handler()
            }
            source.resume()
            return source
        }
    }

    func cancel() {
        for source in sources { source.cancel() }
        for number in Self.signals { signal(number, SIG_DFL) }
    }
}
