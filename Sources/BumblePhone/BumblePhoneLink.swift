
import Foundation
package import GestureScript
package import InputCodes
package import PhoneLinks
package import RemoteTouchProtocol
package import RigControl
package import Scenario
package import ScenarioDriver
import Synchronization
package import Verifier

/// The phone's BLE link on the Bumble phone (`BumbleHost`, docs/bumble-phone.md): a host stack of its own on the rig's
/// phone adapter, behind the same radio bridge as the BlueZ phone. The same commands, gesture model and verdicts as
/// `BLEPhoneLink`; what differs is the stack: its ATT MTU, EATT, write style, connection parameters and queue are the
/// scenario's profile (`PhoneChoice`), and each write is stamped when it left the phone's host (`SentWrite`).
package final class BumblePhoneLink: PhoneLink {
    package struct Settings: Sendable {
        /// The computer's adapter: the rig takes it down for link faults and the teardown, as for the BlueZ phone.
        package var peripheralAdapter: String
        /// The profile and its changed fields (`PhoneChoice.effective`).
        package var phone: PhoneChoice
        /// The hid transport: pointer changes as 6-byte reports on the report characteristic.
        package var reports = false
        package var latencyScale: Double
        package var emulatedControllers: Bool
        package var radio: RunningRig.Radio?
        package var supervisionTimeoutMs: Int

        /// The settings of a Bumble phone on `rig`'s lane, as a scenario runs it.
        package init(rig: RunningRig, peripheralAdapter: String, phone: PhoneChoice, reports: Bool) {
            self.peripheralAdapter = peripheralAdapter
            self.phone = phone
            self.reports = reports
            latencyScale = rig.latencyScale
            emulatedControllers = rig.emulatedControllers
            radio = rig.radio
            supervisionTimeoutMs = rig.supervisionTimeoutMs
        }
    }

    package let host: BumbleHost
    package let settings: Settings
    /// The computer's side through bluetoothd: its adapter powered off and on (faults, teardown).
    let computerSide: BlueZCentral
    let radio: LinkRadio
    /// `address`: the computer's, once found; `handle`: the link's; `statusFrom`: the first event of this scenario;
    /// `translator`, `buttons`: the hid reports' state; `connected`: the link is up as far as the phone knows; `mtu`:
    /// the link's ATT MTU; `wrote`: a command has been written on this connection (docs/protocol.md, "Priming").
    let state = Mutex<(address: String?, handle: Int?, statusFrom: Int, translator: PointerTranslator, buttons: MouseButtons,
                       connected: Bool, mtu: Int, wrote: Bool)>((nil, nil, 0, PointerTranslator(), [], false, 23, false))

    /// Sets the scenario's profile on `host`'s phone.
    /// - Throws: `LinkError` with the phone's own sentence when it refuses the profile.
    package init(host: BumbleHost, settings: Settings) async throws {
        self.host = host
        self.settings = settings
        radio = LinkRadio(settings.radio)
        computerSide = try await BlueZCentral.onSystemBus(adapter: settings.peripheralAdapter)
        let fields = settings.phone.fields.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        _ = try await host.ok("profile", [settings.phone.profile ?? PhoneChoice.defaultProfile] + fields)
        state.withLock { $0.statusFrom = host.eventCount }
    }

    package func connect() async throws -> String {
        let refused = ConnectionUpdate.acceptPhoneIntervals(on: settings.peripheralAdapter)
        let timeout = Int(20 * settings.latencyScale)
        let scan = try await host.ok("scan", [RemoteTouchService.serviceUUID, "\(timeout)"], timeout: .seconds(timeout + 5))
        guard let address = scan.string("address") else { throw LinkError(.link, "the Bumble phone's scan named no address") }
        do {
            try await open(address, timeout: timeout)
        } catch {
            throw LinkError(.link, "\(error)" + (refused.map { "; the computer's adapter kept its [LE] maximum: \($0)" } ?? ""))
        }
        return address
    }

    /// Connects to `address` and finds the service: the connection's handle kept, the link up.
    private func open(_ address: String, timeout: Int) async throws {
        let connected = try await host.ok("connect", [address, scanType(address), "\(timeout)"], timeout: .seconds(timeout + 10))
        _ = try await host.ok("discover", timeout: .seconds(20))
        state.withLock { state in
            state.address = address
            state.handle = connected.number("handle").map { Int($0) }
            state.connected = true
            state.mtu = connected.number("mtu").map { Int($0) } ?? 23
            state.wrote = false
        }
    }

    /// The address type the scan saw: an emulated controller's public address unless the scan said random.
    private func scanType(_ address: String) -> String { "public" }

    package func sendStamped(_ command: Command, confirmed: Bool) async throws -> [SentWrite] {
        if settings.reports, let inputs = state.withLock({ $0.translator.translate(command) }) {
            var sent: [SentWrite] = []
            for report in inputs.flatMap({ $0.reports() }) {
                let changes = state.withLock { state in
                    defer { state.buttons = report.buttons }
                    return state.buttons != report.buttons
                }
                let stamp = try await write("report", report.encoded(), kind: confirmed ? "with" : changes ? "button" : "motion")
                sent.append(SentWrite(PointerPayload.text(report.encoded(), format: .hid), leftHost: stamp))
            }
            return sent
        }
        let bytes = command.encoded()
        let kind = confirmed ? "with" : PointerTranslator.isMovement(command) ? "motion" : "button"
        return [SentWrite(String(decoding: bytes, as: UTF8.self), leftHost: try await write("command", bytes, kind: kind))]
    }

    package func send(_ command: Command, confirmed: Bool) async throws -> [String] {
        try await sendStamped(command, confirmed: confirmed).map(\.payload)
    }

    package func sendMalformed(_ bytes: [UInt8]) async throws -> [String] {
        _ = try await write("command", bytes, kind: "motion")
        return [String(decoding: bytes, as: UTF8.self)]
    }

    package func sendRecordedStamped(_ payload: SendPayload, confirmed: Bool) async throws -> [SentWrite] {
        switch payload {
        case .command(let command):
            let bytes = command.encoded()
            return [SentWrite(payload.description, leftHost: try await write("command", bytes, kind: confirmed ? "with" : "button"))]
        case .report(let report):
            guard settings.reports else {
                throw LinkError(.wrongTransport, "a send step's report items go to the hid transport's report characteristic; this run is ble (the scenario's run.transports should say [\"hid\"])")
            }
            return [SentWrite(payload.description, leftHost: try await write("report", report.encoded(), kind: confirmed ? "with" : "motion"))]
        case .packet:
            throw LinkError(.wrongTransport, "a send step's packet items go to the udp transport's movement port; this run is \(settings.reports ? "hid" : "ble")")
        }
    }

    package func sendRecorded(_ payload: SendPayload, confirmed: Bool) async throws -> [String] {
        try await sendRecordedStamped(payload, confirmed: confirmed).map(\.payload)
    }

    /// One ATT write of `characteristic`; returns when its first ACL fragment left the phone's host.
    /// - Throws: `LinkError` `.link` with the phone's sentence (and the ATT error the computer answered, if any).
    private func write(_ characteristic: String, _ bytes: [UInt8], kind: String) async throws -> MonotonicTime? {
        // A connection's first command must fit one write (docs/protocol.md, "Priming"): a longer one (at MTU 23, the
        // mode command) goes after the phone's priming write, as a phone of that MTU does.
        let (mtu, wrote) = state.withLock { state in
            defer { if characteristic == "command" { state.wrote = true } }
            return (state.mtu, state.wrote)
        }
        if characteristic == "command", !wrote, bytes.count > mtu - 3 {
            _ = try await host.ok("prime", ["command"], timeout: .seconds(30))
        }
        let reply = try await host.request("write", [characteristic, Self.hex(bytes), kind], timeout: .seconds(30))
        guard reply.object["ok"] == .bool(true) else {
            throw LinkError(.link, "the Bumble phone's write of \(bytes.count) byte(s) to \(characteristic) failed: \(Self.why(reply))")
        }
        return reply.number("tAcl").map { MonotonicTime(nanoseconds: UInt64($0)) }
    }

    /// A refused request's words: the phone's sentence and the ATT error the computer answered.
    static func why(_ reply: BumbleHost.Line) -> String {
        (reply.string("error") ?? "no reason given") + (reply.string("attErrorName").map { " (\($0))" } ?? "")
    }

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }

    static func bytes(hex text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = text.startIndex
        while let next = text.index(index, offsetBy: 2, limitedBy: text.endIndex), index < text.endIndex {
            if let byte = UInt8(text[index..<next], radix: 16) { bytes.append(byte) }
            index = next
        }
        return bytes
    }

    /// docs/protocol.md's priming, which every phone does first on a connection (command; the report too for hid),
    /// and a fresh report state: the computer let go of every button when the link went.
    package func openFastPath() async throws {
        state.withLock { state in
            state.translator = PointerTranslator()
            state.buttons = []
        }
        _ = try await host.ok("prime", [settings.reports ? "all" : "command"], timeout: .seconds(30))
    }

    package func closeFastPath() {}

    package func requestPairing() async throws {
        _ = try await host.ok("read", ["pairing"], timeout: .seconds(20))
    }

    package func enterCode(_ digits: String) async throws -> PairingObservation {
        let written = try await host.request("write", ["pairing", Self.hex(Array(digits.utf8)), "with"], timeout: .seconds(30))
        let refusal = written.object["ok"] == .bool(true) ? nil : Self.why(written)
        let read = try await host.ok("read", ["pairing"], timeout: .seconds(20))
        let bytes = Self.bytes(hex: read.string("hex") ?? "")
        do {
            return PairingObservation(refusal: refusal, status: try PairingStatus.decode(bytes))
        } catch {
            throw LinkError(.pairing, "the pairing characteristic's value is not a PairingStatus: \(error) (\(String(decoding: bytes, as: UTF8.self)))", cause: error)
        }
    }

    package func watchStatus() async {
        _ = try? await host.ok("subscribe", ["status"])
    }

    package func statuses(from start: MonotonicTime, to end: MonotonicTime) -> [StatusObservation] {
        statusNotifications().filter { $0.at >= start && $0.at <= end }
    }

    package var statusCount: Int { statusNotifications().count }

    /// The status notifications of this scenario, stamped when the phone's host got them.
    private func statusNotifications() -> [StatusObservation] {
        host.events(from: state.withLock { $0.statusFrom }).compactMap { line in
            guard line.event == "notify", line.string("char") == "status",
                  let status = try? StatusData.decode(Self.bytes(hex: line.string("hex") ?? "")) else { return nil }
            return StatusObservation(at: MonotonicTime(nanoseconds: line.t), status: status)
        }
    }

    package func reconnect(timeout: Duration) async -> String? {
        guard let address = state.withLock({ $0.address }) else { return "the phone knows no computer" }
        do {
            try await open(address, timeout: max(1, Int(timeout.milliseconds / 1000)))
            return nil
        } catch {
            return "\(error)"
        }
    }

    package func disconnect() async throws {
        _ = try await host.ok("disconnect")
        state.withLock { $0.connected = false }
        radio.linkEnded()
    }

    package func forgetComputer() async throws {
        if state.withLock({ $0.connected }) { try await disconnect() }
    }

    package func connectAgain(timeout: Duration) async -> String? {
        do {
            _ = try await connect()
            return nil
        } catch {
            return "\(error)"
        }
    }
}
