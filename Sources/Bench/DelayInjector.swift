import Foundation
package import RigControl
package import RunContext
import System

/// Where `hil calibrate` puts a known delay for one transport, and how.
///
/// - tcp and udp: the kernel's netem on the phone host's interface, where every packet to the computer leaves (egress;
///   netem delays only what leaves an interface, so on the computer's it would delay only its answers). The baseline
///   runs with `netem delay 0ms` in place, so both pass the same qdisc.
/// - ble and hid: the vm rig's radio model. Each bridge (`hil radio --control`) reads `delay MS` from its FIFO in the
///   rig's control folder (`RunningRig.Radio`) and adds it to every ACL packet that arrives after, before its
///   connection event: the phone's writes and the computer's answers alike, as a slower radio would.
package enum DelayInjector: Sendable, CustomStringConvertible {
    case netem(interface: String, netns: String)
    case radio(RunningRig.Radio)

    /// The seed of the dithered sends (`SendSchedule`) for a transport whose packets wait for the radio's periodic
    /// connection events; nil for netem, which holds a packet for the delay alone, at any phase.
    package var sendDither: UInt64? {
        if case .radio = self { return 0x6361_6C69_6272_6174 } // "calibrat"
        return nil
    }

    /// The injector for `transport`.
    /// - Throws: `BenchError` when it is no transport, or the rig cannot delay it: no two hosts for tcp and udp; for
    ///   ble and hid, no radio model (its control folder unset, or with no FIFO in it).
    package static func make(for transport: String, context: RunContext) throws -> DelayInjector {
        switch transport {
        case "tcp", "udp":
            let hosts = try context.networkHosts(for: "hil calibrate on \(transport)")
            return .netem(interface: try hosts.phoneInterface(), netns: hosts.phoneNetns)
        case "ble", "hid":
            let remedy = "run it in the vm rig with its radio model (Rigs/vm.json's \"radio\": connection events, the default), or calibrate tcp and udp"
            guard let radio = context.rig.radio else {
                throw BenchError(.wrongTransport, "\(transport): the delay goes into the radio model's bridges, and rig \(context.rig.name) started none; \(remedy)")
            }
            return .radio(radio)
        default:
            throw BenchError(.wrongTransport, "\(transport) is not a transport (ble, hid, tcp, udp)")
        }
    }

    /// Puts `ms` in place of the last delay (0: the baseline); for the radio, once every bridge answered it holds it.
    /// - Throws: `BenchError` naming the interface or FIFO that refused it, or the bridge's refusal.
    package func apply(_ ms: Double) async throws {
        switch self {
        case .netem(let interface, let netns):
            try Netem.apply(Netem.arguments(delayMs: ms), on: interface, in: netns)
        case .radio(let radio):
            let holding: RadioHolding
            do {
                holding = try await radio.setDelay(milliseconds: ms)
            } catch {
                throw BenchError(.wrongTransport, "cannot set the radio model's delay: \(error.what) (\(error.hint ?? ""))")
            }
            if let refusal = holding.refusal {
                throw BenchError(.wrongTransport, "the radio model's delay of \(Self.number(ms)) ms: \(refusal)")
            }
            if let other = holding.delaysMs.first(where: { abs($0 - ms) > 1e-9 }) {
                throw BenchError(.wrongTransport, "the radio bridge did not take a delay of \(Self.number(ms)) ms: it holds \(Self.number(other)) ms")
            }
        }
    }

    /// Takes the delay away; errors are dropped (it runs on the way out).
    package func clear() async {
        switch self {
        case .netem(let interface, let netns): try? Netem.apply(nil, on: interface, in: netns)
        case .radio: try? await apply(0)
        }
    }

    /// How the delay was injected, for calibrate.json's `injection`.
    package var description: String {
        switch self {
        case .netem(let interface, let netns):
            "netem delay D on \(interface) in \(netns) (the phone host's egress to the computer); D = 0ms for the baseline"
        case .radio(let radio):
            "the radio model's extra delay D on every ACL packet, both directions, before its connection event (`delay D` to the bridges in \(radio.control.folder)); D = 0 for the baseline"
        }
    }

    /// A delay as the progress and held-key lines say it: `5ms`, `2.5ms`.
    static func milliseconds(_ value: Double) -> String { number(value) + "ms" }

    /// `5`, `2.5`: a delay's number, as the bridges' `delay MS` takes it.
    static func number(_ value: Double) -> String { NumberText.plain(value) }
}
