import Avahi
import Bench
import CommandMapping
import ComputerProcess
import DBus
import Evdev
import Evidence
import GestureModel
import GestureScript
import hil
import InputCodes
import Lab
import Mutations
import NetSocket
import Peripheral
import PhoneLinks
import Radio
import Recording
import Records
import RemoteTouchProtocol
import RigControl
import RunContext
import Runner
import Scenario
import ScenarioDriver
import StrictJSON
import System

/// One error of every type in Sources, with a hint where the type has hints, and the text it reads as.
enum ErrorSamples {
    static let all: [ErrorSample] = system + productModules + packageModules

    static let system: [ErrorSample] = [
        ErrorSample(
            error: SystemError(.systemCall, "cannot start /usr/sbin/tc", errno: .noSuchFileOrDirectory, details: "one\ntwo",
                               hint: "run `bash Rigs/setup.sh`"),
            expected: "cannot start /usr/sbin/tc: No such file or directory\n  | one\n  | two\n  → run `bash Rigs/setup.sh`"),
    ]

    /// The public modules' errors, thrown by the calls that throw them where their initializers are not public.
    static let productModules: [ErrorSample] = [
        ErrorSample(
            error: thrown { () throws(JSONParseError) in try JSONParser().parse("[1] x") },
            expected: "line 1, column 5: extra bytes after the JSON value"),
        ErrorSample(
            error: thrown { () throws(JSONSchemaError) in try JSONValue.string("x").number(at: .root.appending("delayMs")) },
            expected: "delayMs: expected a number, found a string"),
        ErrorSample(
            error: ProtocolError(.invalid, payload: "command", "cursorMove.delta[0]: expected a number, found a string"),
            expected: "command payload: cursorMove.delta[0]: expected a number, found a string"),
        ErrorSample(
            error: thrown { () throws(MappingError) in
                var mapper = CommandMapper()
                return try mapper.map(.text(string: "€"))
            },
            expected: "text character 0 \"€\" (U+20AC) cannot be typed on a US keyboard layout; nothing was typed"),
        ErrorSample(
            error: thrown { () throws(GestureSettingsError) in try Sensitivity(5) },
            expected: "sensitivity 5.0 is outside 0.5...3.0 (R8.1)"),
        ErrorSample(
            error: thrown { () throws(EvdevLog.ParseError) in try EvdevLog.frames("hello") },
            expected: "evdev.log line 1: cannot read \"hello\" (expected E: SECONDS TYPE CODE VALUE)"),
    ]

    static let packageModules: [ErrorSample] = [
        ErrorSample(
            error: AvahiError(.notFound, "no _remotetouch._tcp service found within 5 s", hint: "is avahi-daemon running?"),
            expected: "no _remotetouch._tcp service found within 5 s\n  → is avahi-daemon running?"),
        ErrorSample(
            error: thrown { () throws(EvdevError) in try UinputDevice(name: "hil error shape", uinputPath: "/nonexistent/uinput") },
            expected: "cannot open /nonexistent/uinput: No such file or directory\n  → no /nonexistent/uinput: load the uinput "
                + "module (sudo modprobe uinput) or use the vm rig (hil vm exec -- …)"),
        ErrorSample(
            error: NetSocketError(.bind, "cannot listen on TCP port 5000: Address already in use (errno 98)",
                                  hint: "`ss -ltnp` names the program"),
            expected: "cannot listen on TCP port 5000: Address already in use (errno 98)\n  → `ss -ltnp` names the program"),
        ErrorSample(
            error: PeripheralError(.adapter, "adapter hci0 did not power on within 10 s", hint: "check `bluetoothctl show hci0`"),
            expected: "adapter hci0 did not power on within 10 s\n  → check `bluetoothctl show hci0`"),
        ErrorSample(
            error: ReportError(.invalidResults, file: "results.json",
                               problems: ["runId: missing required key", "scenarios: expected an array, found a string"],
                               hint: "docs/results-format.md describes the format"),
            expected: "results.json: runId: missing required key\nresults.json: scenarios: expected an array, found a string\n"
                + "  → docs/results-format.md describes the format"),
        ErrorSample(
            error: ScriptError(.invalidJSON, file: "swipe.json", problems: ["not valid JSON: line 1, column 1: empty document"]),
            expected: "swipe.json: not valid JSON: line 1, column 1: empty document"),
        ErrorSample(error: DriverError(.linkDown, "command: the link is down"), expected: "command: the link is down"),

        ErrorSample(
            error: LabError(.place, "place box2 has no HILRig resource", hint: "add the HILRig resource to the exporter"),
            expected: "place box2 has no HILRig resource\n  → add the HILRig resource to the exporter"),
        ErrorSample(
            error: DBusError(name: "org.bluez.Error.NotPermitted", message: "Write not permitted"),
            expected: "org.bluez.Error.NotPermitted: Write not permitted"),
        ErrorSample(
            error: CentralError(.bluez, "subscribing to char0011: Not authorized", dbusName: "org.bluez.Error.NotAuthorized"),
            expected: "subscribing to char0011: Not authorized (org.bluez.Error.NotAuthorized)"),
        ErrorSample(
            error: RecordingError(.nothingToRecord, "receipts.log: the computer carried out no write: nothing to record"),
            expected: "receipts.log: the computer carried out no write: nothing to record"),
        ErrorSample(
            error: LinkError(.link, "hcitool -i hci1 lecup --handle 42 --min 24 --max 24 --latency 0 --timeout 200 failed: Could not change connection params: Input/output error(5)",
                             hint: "the computer's kernel refuses an interval above its own maximum"),
            expected: "hcitool -i hci1 lecup --handle 42 --min 24 --max 24 --latency 0 --timeout 200 failed: Could not change connection params: Input/output error(5)\n  → the computer's kernel refuses an interval above its own maximum"),
        ErrorSample(error: EvidenceError(.hosts, "no phone host to capture on"), expected: "no phone host to capture on"),
        ErrorSample(
            error: BenchError(.usage, "bench path \"bt\" does not exist", hint: "use dbus, fd, hid, tcp or udp"),
            expected: "bench path \"bt\" does not exist\n  → use dbus, fd, hid, tcp or udp"),
        ErrorSample(
            error: ComputerError(.computer, "the computer exited with status 1 before it served; its last lines: uinput: permission denied"),
            expected: "the computer exited with status 1 before it served; its last lines: uinput: permission denied"),
        ErrorSample(
            error: RunContextError(.hosts, "a partition step needs the rig's two hosts, and this rig has none", hint: "run in the vm rig"),
            expected: "a partition step needs the rig's two hosts, and this rig has none\n  → run in the vm rig"),
        ErrorSample(error: RunnerError(.interrupted, "interrupted while the computer started"), expected: "interrupted while the computer started"),
        ErrorSample(
            error: PhoneChoiceError(.invalid, "--phone bumble:pixel: no profile pixel; the Bumble phone's are bluez-like, minimal, ios-like, android-like"),
            expected: "--phone bumble:pixel: no profile pixel; the Bumble phone's are bluez-like, minimal, ios-like, android-like"),
        ErrorSample(
            error: MutationError(.catalogue, "no *.patch in Mutations/faults", hint: "pass --faults DIR"),
            expected: "no *.patch in Mutations/faults\n  → pass --faults DIR"),
        ErrorSample(
            error: thrown { () throws(RadioError) in
                var framer = H4Framer(source: "btvirt's socket /tmp/bt-server-le")
                return try framer.append([0x07, 0x00])
            },
            expected: "btvirt's socket /tmp/bt-server-le sent 0x07 where an H4 packet type (0x01 to 0x05) was due\n"
                + "  → the stream is out of step; restart the bridge (and btvirt)"),
        ErrorSample(
            error: RigError(.unknownRig, "no rig named \"lab\"", hint: "`hil doctor` lists the rigs"),
            expected: "no rig named \"lab\"\n  → `hil doctor` lists the rigs"),
    ]

    /// The error `body` throws; a `SystemError` saying so when it throws nothing (the samples' test then fails).
    static func thrown<E: ExplainedError>(_ body: () throws(E) -> some Any) -> any ExplainedError {
        do {
            _ = try body()
            return SystemError(SystemError.Code("notThrown"), "expected a \(E.self) to be thrown; nothing was")
        } catch {
            return error
        }
    }
}
