import ArgumentParser
import DBus
import Foundation
import System
import Peripheral
import RemoteTouchProtocol

/// Runs the computer side in the foreground: a real phone running RemoteTouch can drive this machine.
struct PeripheralCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "peripheral",
        abstract: "Run the RemoteTouch peripheral: advertise, pair with a 6-digit code, inject commands through uinput.",
        discussion: """
            Registers the RemoteTouch GATT service (12345678-1234-1234-1234-123456789ABC) with bluetoothd on the \
            adapter, advertises it, and injects every command of a paired central through a uinput device \
            named "RemoteTouch HIL Virtual Input". A central that reads the pairing characteristic gets a code \
            shown here (and written to --pairing-code-file); it expires after 60 s; 3 wrong codes lock pairing \
            for --lockout. Pairings persist in the state folder. Ctrl-C unregisters and releases held keys.

            Needs write access to /dev/uinput and a running bluetoothd; `hil doctor` checks both.
            """
    )

    @Option(help: ArgumentHelp("Adapter to register on.", discussion: "Default: $HIL_PERIPHERAL_ADAPTER, else hci0."))
    var adapter: String?

    @Option(help: "Advertised local name.")
    var name = "RemoteTouch"

    @Option(help: ArgumentHelp("Folder for pairings, the lockout and peripheral.log.",
                               discussion: "Default: $XDG_STATE_HOME/hil/peripheral or ~/.local/state/hil/peripheral.",
                               valueName: "dir"))
    var stateDir: String?

    @Option(help: ArgumentHelp("Also write each new pairing code to this file (mode 0600).", valueName: "file"))
    var pairingCodeFile: String?

    @Option(help: "Name of the uinput device (verifiers find it by this name).")
    var uinputName = "RemoteTouch HIL Virtual Input"

    @Option(help: ArgumentHelp("The uinput device node.", valueName: "path"))
    var uinputPath = "/dev/uinput"

    /// The ranges of its number options (`OptionRange`: in their help, and the check that refuses a value outside).
    static let ranges = (
        lockout: OptionRange<DurationArgument>("--lockout", atLeast: .seconds(1)),
        battery: OptionRange<Int>("--battery", 0, to: 100, unit: "%"))

    @Option(parsing: .unconditional, help: DurationArgument.help(
        "How long 3 wrong codes lock pairing (R4; shorter for tests).", range: ranges.lockout))
    var lockout = DurationArgument(.seconds(300))

    @Option(parsing: .unconditional, help: ranges.battery.help("Battery level to report when this machine has no battery."))
    var battery = 100

    @Option(help: ArgumentHelp(
        "Own this well-known name on the bus (e.g. org.remotetouch.HIL), so a second computer side on the box is refused.",
        discussion: "A box that runs hil without root allows group hil to own org.remotetouch.HIL (Rigs/hardware/dbus).",
        valueName: "name"))
    var busName: String?

    @Option(help: ArgumentHelp("Write each command's receipt and uinput write times (CLOCK_MONOTONIC) to this file.",
                               discussion: "One line per write: received ns, written ns of each frame (none when it writes no frame, - if refused), payload. hil run uses it for the per-stage latency breakdown.",
                               valueName: "file"))
    var receiptsLog: String?

    @Option(help: ArgumentHelp("Write a ready record to this file once every transport serves.",
                               discussion: "One JSON object, written atomically once every --transport serves, and again after each re-registration (a bluetoothd restart), registrations counting the writes: {\"ready\":true,\"pid\":…,\"adapter\":\"hci0\",\"uinputDevice\":\"/dev/input/event3\",\"endpoints\":[\"ble\"],\"registrations\":1}. hil run waits for it instead of reading the log; it is removed on a clean stop.",
                               valueName: "file"))
    var readyFile: String?

    @Option(help: ArgumentHelp("Start, then wait until this file exists before creating the uinput device, connecting to the bus and registering.",
                               discussion: "hil run starts the next scenario's computer this way while the current scenario runs, so a process start is not spent between scenarios.",
                               valueName: "file"))
    var startWhen: String?

    @Option(help: ArgumentHelp("The transports to serve at once, sharing pairing and the command path: one, or several separated by commas (ble,tcp).",
                               discussion: "ble: the GATT service above, with the hid transport's report characteristic (…9AC0, 6-byte reports). tcp: the iPad design's network path, length-prefixed JSON on --tcp-port, published over Bonjour as _claude-controller._tcp through avahi-daemon. udp: the connectivity layer's Wi-Fi path, 5-byte movement packets on --udp-port and a TCP control connection on --control-port (docs/protocol.md).",
                               valueName: "transport"))
    var transport = ComputerTransports([.ble])

    @Option(help: "TCP port of the tcp transport.")
    var tcpPort: UInt16 = TCPSettings.defaultPort

    @Option(help: "UDP port of the udp transport's movement packets.")
    var udpPort: UInt16 = MovementService.udpPort

    @Option(help: "TCP port of the udp transport's control connection.")
    var controlPort: UInt16 = MovementService.controlPort

    @Option(help: ArgumentHelp("Listen for tcp and udp in this network namespace (ip netns), as the rig's computer host.", valueName: "name"))
    var netns: String?

    @Option(help: ArgumentHelp("The D-Bus address of avahi-daemon's bus, or `none` not to publish over Bonjour.",
                               discussion: "Default: the system bus. The vm rig's computer host has its own (HIL_NET_COMPUTER_BUS).",
                               valueName: "address"))
    var avahiBus: String?

    @Option(help: ArgumentHelp("The Bonjour instance name.", discussion: "Default: \"RemoteTouch on <host name>\".", valueName: "name"))
    var serviceName: String?

    func validate() throws {
        if let adapter, !(adapter.hasPrefix("hci") && Int(adapter.dropFirst(3)) != nil) {
            throw ValidationError("--adapter takes a name like hci0, not \(adapter)")
        }
        try Self.ranges.battery.check(battery)
        if transport.values.contains(.tcp) && transport.values.contains(.udp) && tcpPort == controlPort {
            throw ValidationError("--tcp-port and --control-port are both \(tcpPort): the tcp and udp transports need a port each")
        }
        try Self.ranges.lockout.check(lockout)
        if uinputName.isEmpty || uinputName.utf8.count > 79 { throw ValidationError("--uinput-name has 1 to 79 bytes") }
    }

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let stateBase = environment["XDG_STATE_HOME"].map { $0 + "/hil" } ?? (NSHomeDirectory() + "/.local/state/hil")
        var configuration = PeripheralConfiguration(stateDirectory: stateDir ?? stateBase + "/peripheral")
        configuration.adapter = try adapter ?? RigOptions.peripheralAdapter()
        configuration.name = name
        configuration.pairingCodeFile = pairingCodeFile
        configuration.uinputName = uinputName
        configuration.uinputPath = uinputPath
        configuration.fallbackBatteryLevel = battery
        configuration.pairing.lockout = lockout.duration
        configuration.receiptsFile = receiptsLog
        configuration.busName = busName
        configuration.readyFile = readyFile
        configuration.startSignal = startWhen.map(StartSignal.init(path:))
        configuration.endpoints = transport.values
        configuration.tcp.port = tcpPort
        configuration.tcp.netns = netns
        configuration.tcp.serviceName = serviceName
        configuration.udp.port = controlPort
        configuration.udp.udpPort = udpPort
        configuration.udp.netns = netns
        if let avahiBus { configuration.tcp.avahiBus = avahiBus == "none" ? nil : .address(avahiBus) }
        try FileManager.default.createDirectory(
            atPath: configuration.stateDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let log = PeripheralLog(path: configuration.stateDirectory + "/peripheral.log")

        let peripheral: RemoteTouchPeripheral
        do {
            peripheral = try await RemoteTouchPeripheral.start(configuration, log: log)
        } catch {
            printError("hil peripheral: \(error)")
            throw ExitCause.noUsableRig.exit
        }
        let (stop, stopper) = AsyncStream<Void>.makeStream()
        let interrupts = InterruptForwarder { stopper.yield() }
        defer { interrupts.cancel() }
        log.info("running; Ctrl-C to stop (state in \(configuration.stateDirectory))")
        for await _ in stop { break }
        await peripheral.stop()
    }
}
