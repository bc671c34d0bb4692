package import StrictJSON

/// Where the loop runs: a rig file under `Rigs/` (`vm.json`, `virtual.json`, `hardware.json`).
package struct RigDefinition: Sendable, Hashable {
    package enum Kind: String, Sendable, Hashable, CaseIterable {
        /// Two real adapters with a radio link between them, the system's bluetoothd.
        case hardware
        /// A kernel with hci_vhci and uinput: `btvirt -L -l2` makes two LE controllers.
        case virtual
        /// A QEMU guest booting Debian's kernel with this host's root over 9p, the virtual rig inside.
        case vm
    }

    /// How the two controllers come to exist.
    package enum Controllers: String, Sendable, Hashable, CaseIterable {
        /// `btvirt -L -l2`: two LE controllers joined by an emulated link (bluez-test-tools).
        case btvirt
        /// Adapters already present (USB dongles, built-in radios).
        case existing
    }

    /// Which bluetoothd serves the adapters.
    package enum Daemon: String, Sendable, Hashable, CaseIterable {
        /// The rig starts its own dbus-daemon and bluetoothd (the vm guest).
        case `private`
        /// The host's system bluetoothd on the system bus.
        case system
    }

    /// LE connection parameters the central asks for.
    package struct Connection: Sendable, Hashable {
        package var minIntervalMs: Double
        package var maxIntervalMs: Double
        package var latency: Int
        package var supervisionTimeoutMs: Int

        package init(minIntervalMs: Double = 7.5, maxIntervalMs: Double = 15, latency: Int = 0,
                    supervisionTimeoutMs: Int = 2000)
        {
            self.minIntervalMs = minIntervalMs
            self.maxIntervalMs = maxIntervalMs
            self.latency = latency
            self.supervisionTimeoutMs = supervisionTimeoutMs
        }
    }

    /// The QEMU guest of the vm rig.
    package struct Machine: Sendable, Hashable {
        package var memoryMiB: Int
        package var cpus: Int
        /// From QEMU's start until both adapters are powered.
        package var readyTimeoutSeconds: Int
        /// Pairs of btvirt controllers, each a peripheral and a central (hci0+hci1, hci2+hci3, …): `hil run` runs
        /// that many scenarios at once, one per lane.
        package var lanes: Int
        /// How long a job asked to stop (a first Ctrl-C, or the timeout) may take to end before QEMU is stopped. Keep
        /// it above `hil run`'s own 10 s for a scenario under way, or an interrupted run loses its results.
        package var stopGraceSeconds: Int

        package init(memoryMiB: Int = 2048, cpus: Int = 2, readyTimeoutSeconds: Int = 90, lanes: Int = 1,
                    stopGraceSeconds: Int = 30)
        {
            self.memoryMiB = memoryMiB
            self.cpus = cpus
            self.readyTimeoutSeconds = readyTimeoutSeconds
            self.lanes = lanes
            self.stopGraceSeconds = stopGraceSeconds
        }
    }

    package var name: String
    package var description: String
    package var kind: Kind
    /// The adapter the peripheral (computer side) registers on, e.g. `hci0`.
    package var peripheralAdapter: String
    /// The adapter the virtual central (phone side) uses, e.g. `hci1`.
    package var centralAdapter: String
    package var controllers: Controllers
    package var bluetoothd: Daemon
    package var connection: Connection
    /// The name of the uinput device the peripheral creates; verifiers find it by this name.
    package var uinputDeviceName: String
    /// Multiplies every scenario latency limit on this rig (emulated CPUs are slower than radios).
    package var latencyScale: Double
    /// Present for `kind: vm` only.
    package var machine: Machine?
    /// `kind: hardware` only: the adapters may be virtual controllers (a vm guest's btvirt), for rehearsing a box's
    /// setup in the guest (Rigs/hardware/rehearse-in-vm.sh). Its latencies then come from an emulated radio.
    package var virtualAdapters = false
    /// How the emulated radio times ACL data; `immediate` unless the rig file says otherwise.
    package var radio: Radio
    /// ATT bearers bluetoothd serves (main.conf `[GATT] Channels`): 1, the default, keeps ATT on its fixed channel,
    /// so the computer receives writes in the order the phone's stack sent them (docs/protocol.md, "Order"); 2 to 5
    /// allow EATT, whose bearers bluetoothd reads in any order.
    package var gattChannels = RigDefinition.defaultGattChannels
    /// The time rules' limits per build (`"stageLimits"`).
    package var stageLimits = StageLimits()

    /// One ATT bearer: the computer's ordering guarantee (docs/protocol.md, "Order").
    package static let defaultGattChannels = 1

    package init(name: String, description: String, kind: Kind, peripheralAdapter: String, centralAdapter: String,
                controllers: Controllers, bluetoothd: Daemon, connection: Connection = Connection(),
                uinputDeviceName: String = RigDefinition.defaultUinputDeviceName, latencyScale: Double = 1,
                machine: Machine? = nil, radio: Radio = Radio())
    {
        self.name = name
        self.description = description
        self.kind = kind
        self.peripheralAdapter = peripheralAdapter
        self.centralAdapter = centralAdapter
        self.controllers = controllers
        self.bluetoothd = bluetoothd
        self.connection = connection
        self.uinputDeviceName = uinputDeviceName
        self.latencyScale = latencyScale
        self.machine = machine
        self.radio = radio
    }

    /// The adapters of every lane: the first is the rig's pair; in a vm with `machine.lanes` N, btvirt makes
    /// hci0…hci(2N-1) and lane k (from 0) is hci(2k) for the computer and hci(2k+1) for the phone.
    package var lanes: [RigEnvironment.Lane] {
        let first = RigEnvironment.Lane(peripheral: peripheralAdapter, central: centralAdapter)
        return [first] + (1..<max(1, machine?.lanes ?? 1)).map { RigEnvironment.Lane(peripheral: "hci\(2 * $0)", central: "hci\(2 * $0 + 1)") }
    }

    /// The uinput device name documented for verifiers.
    package static let defaultUinputDeviceName = "RemoteTouch HIL Virtual Input"
}

extension RigDefinition {
    /// Reads a rig file's JSON, collecting every problem with its JSON path.
    package static func parse(_ value: JSONValue) throws(RigFileProblems) -> RigDefinition {
        var problems: [JSONSchemaError] = []
        func read<T>(_ body: () throws(JSONSchemaError) -> T) -> T? {
            do { return try body() } catch {
                problems.append(error)
                return nil
            }
        }
        guard let object = read({ () throws(JSONSchemaError) in try value.object(at: .root) }) else {
            throw RigFileProblems(problems)
        }
        let keys = ["name", "description", "kind", "peripheralAdapter", "centralAdapter", "controllers", "bluetoothd",
                    "connection", "uinputDeviceName", "latencyScale", "machine", "virtualAdapters", "radio", "gattChannels",
                    "stageLimits"]
        problems += object.unknownKeyProblems(allowed: keys, at: .root)
        func field(_ key: String) -> JSONValue? { read { () throws(JSONSchemaError) in try object.required(key, at: .root) } }
        func string(_ key: String) -> String? {
            guard let value = field(key) else { return nil }
            return read { () throws(JSONSchemaError) in try value.string(at: .root.appending(key)) }
        }
        func adapter(_ key: String) -> String? {
            guard let name = string(key) else { return nil }
            guard name.hasPrefix("hci"), let number = Int(name.dropFirst(3)), number >= 0 else {
                problems.append(JSONSchemaError(.root.appending(key), "expected an adapter name like \"hci0\", found \"\(name)\""))
                return nil
            }
            return name
        }
        let name = string("name")
        let description = string("description")
        let kind = field("kind").flatMap { v in read { () throws(JSONSchemaError) in try v.enumeration(Kind.self, at: .root.appending("kind")) } }
        let peripheral = adapter("peripheralAdapter")
        let central = adapter("centralAdapter")
        if let peripheral, peripheral == central {
            problems.append(JSONSchemaError(.root.appending("centralAdapter"), "the central needs its own adapter, not \(peripheral) again"))
        }
        let controllers = field("controllers").flatMap { v in
            read { () throws(JSONSchemaError) in try v.enumeration(Controllers.self, at: .root.appending("controllers")) }
        }
        let daemon = field("bluetoothd").flatMap { v in
            read { () throws(JSONSchemaError) in try v.enumeration(Daemon.self, at: .root.appending("bluetoothd")) }
        }
        let connection = object["connection"].map { Self.connection($0, &problems) } ?? Connection()
        let uinputName = object["uinputDeviceName"].map { Self.uinputName($0, &problems) } ?? RigDefinition.defaultUinputDeviceName
        let radio = object["radio"].map { Self.radio($0, kind: kind, &problems) } ?? Radio()
        var scale = 1.0
        if let value = object["latencyScale"],
            let n = read({ () throws(JSONSchemaError) in try Self.inRange(value, 0.1...100, at: .root.appending("latencyScale")) })
        {
            scale = n
        }
        var machine = object["machine"].flatMap { Self.machine($0, &problems) }
        if kind == Kind.vm && machine == nil && object["machine"] == nil {
            machine = Machine()
        }
        if let kind, kind != .vm, object["machine"] != nil {
            problems.append(JSONSchemaError(.root.appending("machine"), "only a rig of kind \"vm\" has a machine"))
        }
        let virtualAdapters = Self.virtualAdapters(object["virtualAdapters"], kind: kind, &problems)
        // BlueZ takes 1 to 5 (src/main.c clamps [GATT] Channels to that range).
        let gattChannels = object["gattChannels"].flatMap { v in
            read { () throws(JSONSchemaError) in try v.integer(at: .root.appending("gattChannels"), in: 1...5) }
        } ?? Self.defaultGattChannels
        let stageLimits = object["stageLimits"].map { Self.stageLimits($0, &problems) } ?? StageLimits()
        guard problems.isEmpty, let name, let description, let kind, let peripheral, let central, let controllers,
            let daemon
        else {
            throw RigFileProblems(problems)
        }
        var rig = RigDefinition(
            name: name, description: description, kind: kind, peripheralAdapter: peripheral, centralAdapter: central,
            controllers: controllers, bluetoothd: daemon, connection: connection, uinputDeviceName: uinputName,
            latencyScale: scale, machine: machine, radio: radio)
        rig.virtualAdapters = virtualAdapters
        rig.gattChannels = gattChannels
        rig.stageLimits = stageLimits
        return rig
    }

    /// `"virtualAdapters": true`, on a hardware rig only.
    private static func virtualAdapters(_ value: JSONValue?, kind: Kind?, _ found: inout [JSONSchemaError]) -> Bool {
        guard let value else { return false }
        let path = JSONPath.root.appending("virtualAdapters")
        guard case .bool(let allowed) = value else {
            found.append(JSONSchemaError(path, "expected true or false"))
            return false
        }
        if let kind, kind != .hardware {
            found.append(JSONSchemaError(path, "only a rig of kind \"hardware\" takes virtualAdapters: the \(kind.rawValue) rig's adapters are virtual anyway"))
        }
        return allowed
    }

    /// A uinput device name: 1 to 79 bytes (UINPUT_MAX_NAME_SIZE is 80 with the terminating NUL).
    private static func uinputName(_ value: JSONValue, _ found: inout [JSONSchemaError]) -> String {
        let path = JSONPath.root.appending("uinputDeviceName")
        do {
            let text = try value.string(at: path)
            if !text.isEmpty && text.utf8.count <= 79 { return text }
            found.append(JSONSchemaError(path, "a uinput device name has 1 to 79 bytes, found \(text.utf8.count)"))
        } catch {
            found.append(error)
        }
        return RigDefinition.defaultUinputDeviceName
    }

    /// `{"memoryMiB": 2048, "cpus": 2, "readyTimeoutSeconds": 120, "lanes": 1, "stopGraceSeconds": 30}`
    private static func machine(_ value: JSONValue, _ found: inout [JSONSchemaError]) -> Machine? {
        var problems = JSONProblems()
        defer { found += problems.list }
        let path = JSONPath.root.appending("machine")
        guard let m = problems.attempt({ () throws(JSONSchemaError) in try value.object(at: path) }) else { return nil }
        problems.rejectUnknownKeys(of: m, allowed: ["memoryMiB", "cpus", "readyTimeoutSeconds", "lanes", "stopGraceSeconds"], at: path)
        var parsed = Machine()
        if let v = m["memoryMiB"], let n = problems.attempt({ () throws(JSONSchemaError) in try v.integer(at: path.appending("memoryMiB"), in: 256...65536) }) { parsed.memoryMiB = n }
        if let v = m["cpus"], let n = problems.attempt({ () throws(JSONSchemaError) in try v.integer(at: path.appending("cpus"), in: 1...64) }) { parsed.cpus = n }
        if let v = m["readyTimeoutSeconds"], let n = problems.attempt({ () throws(JSONSchemaError) in try v.integer(at: path.appending("readyTimeoutSeconds"), in: 5...3600) }) { parsed.readyTimeoutSeconds = n }
        if let v = m["lanes"], let n = problems.attempt({ () throws(JSONSchemaError) in try v.integer(at: path.appending("lanes"), in: 1...4) }) { parsed.lanes = n }
        if let v = m["stopGraceSeconds"], let n = problems.attempt({ () throws(JSONSchemaError) in try v.integer(at: path.appending("stopGraceSeconds"), in: 1...600) }) { parsed.stopGraceSeconds = n }
        return parsed
    }

    static func inRange(_ value: JSONValue, _ range: ClosedRange<Double>, at path: JSONPath)
        throws(JSONSchemaError) -> Double
    {
        let number = try value.number(at: path)
        guard range.contains(number) else {
            throw JSONSchemaError(.outOfRange, path, "\(JSONWriter.numberText(number)) is outside \(JSONWriter.numberText(range.lowerBound))...\(JSONWriter.numberText(range.upperBound))")
        }
        return number
    }
}

/// Every problem found in one rig file, each with its JSON path.
package struct RigFileProblems: Error, Sendable {
    package var problems: [JSONSchemaError]
    package init(_ problems: [JSONSchemaError]) { self.problems = problems }
}
