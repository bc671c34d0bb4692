import Foundation
package import InputCodes
import RigControl
package import Scenario
import ComputerProcess

/// The computer side for `hil record`'s live mode: a fresh `hil peripheral` serving one transport (its own state
/// folder, so the phone pairs anew), its receipts log, and its uinput device's frames read as `hil run` reads them.
/// A real phone, or any client, drives it; `stop` ends it cleanly, so its receipts are complete.
package final class LiveRecording: Sendable {
    package struct Settings: Sendable {
        package var hil: String
        package var adapter: String
        package var uinputName: String
        /// The peripheral's folder: its state (pairings), log, receipts, pairing code file.
        package var folder: String
        package var transport: Transport
        /// tcp and udp: the computer host's network namespace and avahi-daemon's bus (nil: this host, the system bus).
        package var netns: String?
        package var avahiBus: String?

        package init(hil: String, adapter: String, uinputName: String, folder: String, transport: Transport) {
            self.hil = hil
            self.adapter = adapter
            self.uinputName = uinputName
            self.folder = folder
            self.transport = transport
        }
    }

    let peripheral: PeripheralUnderTest
    let collector: FrameCollector
    package let settings: Settings

    private init(peripheral: PeripheralUnderTest, collector: FrameCollector, settings: Settings) {
        self.peripheral = peripheral
        self.collector = collector
        self.settings = settings
    }

    /// Starts the computer, waits until it serves, and starts reading its input device.
    /// - Throws: the computer's error with its last lines when it does not serve; `RecordingError` `.computer` when its
    ///   device cannot be read.
    package static func start(_ settings: Settings) async throws -> LiveRecording {
        var launch = PeripheralUnderTest.Launch(
            hil: settings.hil, adapter: settings.adapter, uinputName: settings.uinputName, folder: settings.folder)
        switch settings.transport {
        case .ble, .hid: launch.endpoints = ["ble"]
        case .tcp, .udp:
            launch.endpoints = [settings.transport.rawValue]
            if let netns = settings.netns {
                launch.network = NetworkHosts(
                    phoneNetns: "", phoneBus: "", computerNetns: netns, computerBus: settings.avahiBus ?? "none")
            }
        }
        let peripheral = try await PeripheralUnderTest.start(launch)
        do {
            let collector = try await FrameCollector.open(settings.uinputName, grab: false)
            return LiveRecording(peripheral: peripheral, collector: collector, settings: settings)
        } catch {
            await peripheral.stop()
            throw RecordingError(.computer, "the computer serves, but its input device \"\(settings.uinputName)\" cannot be read: \(error); `hil doctor` checks access to /dev/input", cause: error)
        }
    }

    /// The receipts log's text so far (flushed every 250 ms; complete once stopped).
    package func receiptsLog() -> String {
        (try? String(contentsOfFile: peripheral.receiptsFile, encoding: .utf8)) ?? ""
    }

    package var receiptsFile: String { peripheral.receiptsFile }

    /// Every frame of the input device so far.
    package func frames() -> [EvdevFrame] { collector.frames(since: MonotonicTime(nanoseconds: 0)) }

    /// How many times the kernel dropped events because the reader fell behind (frames then are incomplete).
    package var droppedCount: Int { collector.droppedCount }

    /// The code the computer shows once a phone asks to pair; the phone's user types it.
    package func pairingCode() -> String? { peripheral.pairingCode() }

    /// Nil while the computer runs; else how it ended, with its last lines.
    package var ended: String? {
        peripheral.isRunning ? nil : "hil peripheral ended:\n\(peripheral.lastLines(15))"
    }

    /// Stops the computer as Ctrl-C does (its receipts are written out), then the reader; removes the pairing code
    /// file and the state folder (the phone's pairing). Returns the computer's exit status.
    package func stop() async -> Int32 {
        let status = await peripheral.stop()
        // The computer's device is gone: its reader ends by itself once it has read what was there (at most 100 ms).
        do {
            _ = try await collector.end(within: .milliseconds(100))
        } catch {
            // Cancelled: the reader is stopped at once below; the stop must finish all the same.
        }
        collector.stop()
        try? FileManager.default.removeItem(atPath: peripheral.codeFile)
        try? FileManager.default.removeItem(atPath: peripheral.stateDirectory)
        return status
    }
}
