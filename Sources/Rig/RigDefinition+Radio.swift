package import RigControl
import Foundation
import Radio
import StrictJSON

extension RigDefinition {
    /// How the emulated radio times ACL data (Rigs/README.md, "The radio model"): `"radio": {"model":
    /// "connectionEvents", "intervalMs": 15}` in a vm rig file; without it, `immediate`.
    package struct Radio: Sendable, Hashable {
        package enum Model: String, Sendable, Hashable, CaseIterable {
            /// `btvirt -L -lN`: the controllers hand ACL data to each other the moment a host gives it.
            case immediate
            /// `btvirt -L -s` with a `hil radio` bridge per controller: ACL data waits for its link's connection event.
            case connectionEvents
        }

        package var model: Model
        /// The connection interval the central's bluetoothd asks for (`[LE] Min/MaxConnectionInterval`); 0 when
        /// immediate.
        package var intervalMs: Double
        /// The chance that one transmission of an ACL packet fails and is sent again (connection events only): the
        /// `hil radio` bridges' `--error-rate`, 0 ≤ P < 1.
        package var packetErrorRate: Double

        package init(model: Model = .immediate, intervalMs: Double = 0, packetErrorRate: Double = 0) {
            self.model = model
            self.intervalMs = model == .immediate ? 0 : intervalMs
            self.packetErrorRate = model == .immediate ? 0 : packetErrorRate
        }

        /// `--radio-error-rate`'s value: 0 to under 1 (1 would lose every packet, and the link layer never gives up).
        /// - Throws: `RigError` `.rigFile` saying what is allowed.
        package static func errorRate(argument text: String) throws(RigError) -> Double {
            guard let rate = Double(text), BridgeCommand.errorRates.contains(rate) else {
                throw RigError(.rigFile, "--radio-error-rate takes 0 to under 1, not \(text) (0.1 fails one transmission in ten; 1 would lose every packet)")
            }
            return rate
        }

        /// `--radio-interval`'s value (hil run, hil bench): `immediate` or `0` for the immediate model, else the
        /// connection interval in ms (7.5 to 4000 in steps of 1.25) of the connection-event model.
        /// - Throws: `RigError` `.rigFile` saying what is allowed.
        package init(intervalArgument text: String) throws(RigError) {
            if text == "immediate" || Double(text) == 0 {
                self.init()
                return
            }
            guard let interval = Double(text), interval.isFinite, (7.5...4000).contains(interval),
                  RigDefinition.onIntervalGrid(interval)
            else {
                throw RigError(.rigFile, "--radio-interval takes 0 or immediate (btvirt delivers at once), or 7.5 to 4000 ms in "
                               + "steps of 1.25, not \(text)")
            }
            self.init(model: .connectionEvents, intervalMs: interval)
        }

        /// The interval in the 1.25 ms units of the HCI commands.
        package var intervalUnits: Int { RigDefinition.units(intervalMs, of: 1.25) }

        /// The vm guest's kernel command line words for it (guest-run.sh reads them): none when immediate, so the guest
        /// and its image behave as before; else the interval and the `hil` that runs `hil radio` there (the guest sees
        /// this host's files).
        package func kernelArguments(hil: String) -> [String] {
            guard model == .connectionEvents else { return [] }
            return ["HIL_RADIO_INTERVAL_MS=\(JSONWriter.numberText(intervalMs))", "HIL_RADIO_HIL=\(hil)"]
                + (packetErrorRate > 0 ? ["HIL_RADIO_ERROR_RATE=\(JSONWriter.numberText(packetErrorRate))"] : [])
        }

        /// `immediate`, `connection events every 15 ms`: for logs and reports.
        package var summary: String {
            model == .immediate ? "immediate" : "connection events every \(JSONWriter.numberText(intervalMs)) ms"
                + (packetErrorRate > 0 ? ", packet error rate \(JSONWriter.numberText(packetErrorRate))" : "")
        }
    }

    /// `{"model": "connectionEvents", "intervalMs": 15, "packetErrorRate": 0.1}`; connection events only in a vm rig
    /// (the guest-run.sh wiring); the error rate 0 ≤ P < 1, 0 when left out.
    static func radio(_ value: JSONValue, kind: Kind?, _ found: inout [JSONSchemaError]) -> Radio {
        var problems = JSONProblems()
        defer { found += problems.list }
        let path = JSONPath.root.appending("radio")
        guard let r = problems.attempt({ () throws(JSONSchemaError) in try value.object(at: path) }) else { return Radio() }
        problems.rejectUnknownKeys(of: r, allowed: ["model", "intervalMs", "packetErrorRate"], at: path)
        guard let modelValue = problems.attempt({ () throws(JSONSchemaError) in try r.required("model", at: path) }),
            let model = problems.attempt({ () throws(JSONSchemaError) in try modelValue.enumeration(Radio.Model.self, at: path.appending("model")) })
        else { return Radio() }
        guard model == .connectionEvents else {
            for key in ["intervalMs", "packetErrorRate"] where r[key] != nil {
                problems.append(JSONSchemaError(path.appending(key), "the immediate model has no \(key == "intervalMs" ? "interval" : "air to lose packets in"); remove it or use \"connectionEvents\""))
            }
            return Radio()
        }
        if let kind, kind != .vm {
            problems.append(JSONSchemaError(path.appending("model"), "connectionEvents is wired in the vm rig only (Rigs/vm/guest-run.sh); use \"immediate\" here"))
        }
        let intervalPath = path.appending("intervalMs")
        guard let intervalValue = problems.attempt({ () throws(JSONSchemaError) in try r.required("intervalMs", at: path) }),
            let interval = problems.attempt({ () throws(JSONSchemaError) in try intervalValue.number(at: intervalPath) })
        else { return Radio() }
        // Core spec: 7.5 ms to 4 s in steps of 1.25 ms.
        guard (7.5...4000).contains(interval), RigDefinition.onIntervalGrid(interval) else {
            problems.append(JSONSchemaError(intervalPath, "\(JSONWriter.numberText(interval)) is no connection interval: 7.5...4000 in steps of 1.25"))
            return Radio()
        }
        var rate = 0.0
        if let value = r["packetErrorRate"], let number = problems.attempt({ () throws(JSONSchemaError) in try value.number(at: path.appending("packetErrorRate")) }) {
            if BridgeCommand.errorRates.contains(number) {
                rate = number
            } else {
                problems.append(JSONSchemaError(path.appending("packetErrorRate"), "\(JSONWriter.numberText(number)) is no packet error rate: 0 ≤ P < 1"))
            }
        }
        return Radio(model: model, intervalMs: interval, packetErrorRate: rate)
    }
}
