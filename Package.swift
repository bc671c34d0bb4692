// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "RemoteTouchHIL",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "hil", targets: ["hil"]),
        .library(name: "RemoteTouchProtocol", targets: ["RemoteTouchProtocol"]),
        .library(name: "GestureModel", targets: ["GestureModel"]),
        .library(name: "CommandMapping", targets: ["CommandMapping"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
    ],
    targets: [
        // C libraries, only behind system-library targets.
        .systemLibrary(
            name: "CDBus",
            pkgConfig: "dbus-1",
            providers: [.apt(["libdbus-1-dev"])]
        ),
        // GNU extensions Swift's Glibc module does not declare: setns(2), pipe2, posix_spawn's closefrom and chdir.
        .systemLibrary(name: "CLinux"),
        .systemLibrary(
            name: "CEvdev",
            pkgConfig: "libevdev",
            providers: [.apt(["libevdev-dev"])]
        ),

        // Errno, an owning FileDescriptor and the one error shape, in swift-system's manner.
        .target(name: "System", dependencies: ["CLinux"]),
        // Child processes in swift-subprocess's manner: spawn, await the exit, tear down by steps, run and collect.
        .target(name: "Processes", dependencies: ["System", "CLinux", "Waiting"]),

        // Pure core: no hardware, no C.
        .target(name: "StrictJSON"),
        // Waiting: the one cancellation-aware poll, an event raced against a named timeout, and pacing.
        .target(name: "Waiting"),
        .target(name: "InputCodes"),
        .target(name: "RemoteTouchProtocol", dependencies: ["StrictJSON"]),
        .target(name: "GestureModel", dependencies: ["RemoteTouchProtocol"]),
        .target(name: "CommandMapping", dependencies: ["RemoteTouchProtocol", "InputCodes"]),
        .target(name: "GestureScript", dependencies: ["StrictJSON", "RemoteTouchProtocol", "GestureModel", "Radio", "System"]),
        // Latency distributions (HdrHistogram): count, p50, p95, p99, max, per gesture kind and per stage.
        .target(name: "LatencyStats", dependencies: [.product(name: "Histogram", package: "hdrhistogram-swift")]),

        // Linux input: uinput injection and evdev reading (libevdev), CLOCK_MONOTONIC time; a device's node awaited
        // on /dev/input's changes (Processes' FolderWatch).
        .target(name: "Evdev", dependencies: ["CEvdev", "InputCodes", "System", "Processes", "Waiting"]),
        // D-Bus over libdbus-1: one thread owns the connection; async calls, exported objects, signals.
        .target(name: "DBus", dependencies: ["CDBus", "TextMarkup", "Waiting", "System"]),

        // The one escaper of each markup language the package writes: HTML/XML and Markdown table cells.
        .target(name: "TextMarkup"),

        // TCP sockets for the network transports, opened in a network namespace when the rig has two hosts.
        .target(name: "NetSocket", dependencies: ["CLinux", "System"]),

        // The radio model: a bridge between the kernel's /dev/vhci and btvirt's server socket that holds ACL data
        // until its link's next connection event (`hil radio`).
        // Optimized in every build, the debug one too: each packet of the vm rig's links passes two bridges, and the
        // debug build's loop added 2.7 ms to a hop in the guest where the optimized one adds 0.6 (docs/measurements.md,
        // "The radio model"). A root package may pass flags; -O after SwiftPM's -Onone wins.
        .target(name: "Radio", dependencies: ["CLinux", "System", "LatencyStats"], swiftSettings: [.unsafeFlags(["-O"])]),

        // Bonjour through avahi-daemon's D-Bus API: publish (entry groups), browse and resolve.
        .target(name: "Avahi", dependencies: ["DBus", "Waiting", "System"]),

        // BlueZ's D-Bus names and object paths, shared by the computer side and the phone side.
        .target(name: "BlueZAPI"),

        // The computer side on Linux: BlueZ GATT application, pairing, status, uinput output.
        .target(
            name: "Peripheral",
            dependencies: [
                "DBus", "BlueZAPI", "Evdev", "RemoteTouchProtocol", "CommandMapping", "InputCodes", "StrictJSON", "Records", "NetSocket", "Avahi", "Waiting", "System",
            ]),

        // The verifier: what a scenario step expects of the evdev frames, and the verdict.
        .target(name: "Mutations", dependencies: ["Records", "Processes", "System", "TextMarkup"]),
        .target(name: "Verifier", dependencies: ["InputCodes", "RemoteTouchProtocol", "GestureModel", "LatencyStats", "Records", "System"]),

        // Scenarios: gesture scripts with expectations, limits and run settings.
        .target(
            name: "Scenario",
            dependencies: ["GestureScript", "GestureModel", "Verifier", "StrictJSON", "InputCodes", "RemoteTouchProtocol", "System"]),

        // The scenario driver: a scenario's steps in time against a PhoneLink and a ComputerUnderTest (the phone's
        // gesture model, pacing, idle, reconnect policy, segments judged by the Verifier); no BlueZ, no evdev. Also
        // the offline link and computer behind `hil replay`.
        .target(
            name: "ScenarioDriver",
            dependencies: ["Scenario", "GestureModel", "GestureScript", "RemoteTouchProtocol", "Verifier", "InputCodes", "CommandMapping", "StrictJSON", "Records", "Waiting", "System", "LatencyStats"]),

        // The phone's links for every transport (ble and hid over BlueZ with the BLE client, tcp and udp over
        // sockets and Bonjour), and the faults a rig can inject into each.
        .target(
            name: "PhoneLinks",
            dependencies: [
                "DBus", "BlueZAPI", "RemoteTouchProtocol", "ScenarioDriver", "GestureScript", "InputCodes",
                "Verifier", "NetSocket", "Avahi", "RigControl", "Waiting", "System",
            ]),

        // The phone on a second, independent host stack: Bumble (Rigs/bumble/phone.py) driven over its line protocol.
        .target(
            name: "BumblePhone",
            dependencies: [
                "PhoneLinks", "GestureScript", "InputCodes", "RemoteTouchProtocol", "RigControl", "Scenario", "ScenarioDriver", "Verifier",
                "Processes", "StrictJSON", "System", "Waiting",
            ]),

        // The computer under test: the `hil peripheral` process, its standby twin, and the evdev frames it injects.
        .target(name: "ComputerProcess", dependencies: ["ScenarioDriver", "Evdev", "InputCodes", "Records", "RigControl", "Waiting", "Processes", "System"]),

        // Evidence of a scenario: HCI and network captures, packet times, the timeline.
        .target(name: "Evidence", dependencies: ["ScenarioDriver", "Scenario", "InputCodes", "Records", "RigControl", "NetSocket", "Waiting", "Processes", "System"]),

        // Recording: a session's receipts and frames → a scenario of send steps with derived expectations, and the
        // computer side of a live recording (hil record).
        .target(
            name: "Recording",
            dependencies: [
                "Scenario", "GestureScript", "Records", "InputCodes", "RemoteTouchProtocol", "Verifier", "StrictJSON", "System",
                "ComputerProcess", "RigControl",
            ]),

        // What a run's scenarios, benches and soaks share: the rig's context, the run's stop, the scratch folder.
        .target(name: "RunContext", dependencies: ["Evidence", "GestureScript", "ScenarioDriver", "Records", "RigControl", "Waiting", "Processes", "System"]),

        // hil bench, hil soak and hil calibrate: streams through the real link (the PhoneLinks links, paired to
        // ComputerProcess's computer), latency, rate and loss.
        .target(
            name: "Bench",
            dependencies: [
                "RunContext", "PhoneLinks", "ComputerProcess", "ScenarioDriver", "Records", "InputCodes", "LatencyStats",
                "RemoteTouchProtocol", "RigControl", "Processes", "System", "StrictJSON",
            ]),

        // The run session: the plan, lanes, the stop and the exit-code policy; a scenario's setup, steps and teardown.
        .target(
            name: "Runner",
            dependencies: [
                "RunContext", "Scenario", "ScenarioDriver", "PhoneLinks", "BumblePhone", "ComputerProcess", "Evidence", "Verifier",
                "Records", "Report", "RigControl", "System",
            ]),

        // The results model and the file formats it owns: results.json (read, written, merged), the receipts log, the
        // ready file, bench.json, soak.json, timeline.json. The computer side may import it; it renders nothing.
        .target(name: "Records", dependencies: ["StrictJSON", "LatencyStats", "System"]),
        // Renders records: the self-contained HTML report, the Markdown summary, junit.xml, the baseline comparison.
        .target(name: "Report", dependencies: ["Records", "StrictJSON", "LatencyStats", "TextMarkup", "System"]),

        // Many boxes on labgrid: places reserved and locked through labgrid-client, shards run over SSH, merged.
        .target(name: "Lab", dependencies: ["Processes", "System", "Records", "Report", "Waiting"]),

        // Rigs set up and launched, for `hil` alone: rig files, the catalog, the host probe, the vm guest, the re-exec.
        .target(name: "Rig", dependencies: ["RigControl", "Radio", "StrictJSON", "Processes", "System"]),
        // The running rig's controls, for links, bench, evidence and the computer: its hosts and namespaces, tc/netem,
        // connection updates, bluetoothd, the HCI watches, the radio bridges; `RunningRig`, the rig a run is on.
        .target(name: "RigControl", dependencies: ["Radio", "NetSocket", "Processes", "System", "Waiting"]),

        // Fuzzing: the decoders and their invariants (FuzzTargets), and the libFuzzer entry point (Fuzz/run.sh
        // builds it with -sanitize=fuzzer; built normally it replays a corpus).
        .target(name: "FuzzTargets", dependencies: ["RemoteTouchProtocol", "CommandMapping"]),
        .executableTarget(name: "hil-fuzz", dependencies: ["FuzzTargets"]),

        // The command-line tool: argument parsing and wiring only.
        .executableTarget(
            name: "hil",
            dependencies: [
                "RemoteTouchProtocol", "CommandMapping", "GestureScript", "Rig", "RigControl", "BumblePhone", "Peripheral", "DBus", "Scenario", "ScenarioDriver", "Runner", "RunContext", "Bench", "Evidence",
                "Records", "Report", "Recording", "InputCodes", "StrictJSON", "Lab", "GestureModel", "Waiting", "Processes",
                "Radio", "NetSocket", "System", "Verifier", "Mutations",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        .target(
            name: "HILTestSupport", dependencies: ["NetSocket", "RemoteTouchProtocol", "DBus", "Processes", "LatencyStats", "Records", "StrictJSON", "Radio"],
            path: "Tests/HILTestSupport"),
        .testTarget(name: "WaitingTests", dependencies: ["Waiting", "HILTestSupport"]),
        .testTarget(name: "StrictJSONTests", dependencies: ["StrictJSON", "HILTestSupport"]),
        .testTarget(name: "RemoteTouchProtocolTests", dependencies: ["RemoteTouchProtocol", "StrictJSON", "HILTestSupport"]),
        .testTarget(name: "GestureModelTests", dependencies: ["GestureModel", "RemoteTouchProtocol"]),
        .testTarget(name: "CommandMappingTests", dependencies: ["CommandMapping", "InputCodes", "RemoteTouchProtocol"]),
        .testTarget(name: "GestureScriptTests", dependencies: ["GestureScript", "GestureModel", "RemoteTouchProtocol", "StrictJSON"]),
        .testTarget(name: "SystemTests", dependencies: ["System"]),
        .testTarget(name: "NetSocketTests", dependencies: ["NetSocket"]),
        .testTarget(name: "ProcessesTests", dependencies: ["Processes", "System", "Waiting"]),
        .testTarget(name: "RadioTests", dependencies: ["Radio", "HILTestSupport", "LatencyStats"]),
        .testTarget(name: "RigTests", dependencies: ["Rig", "RigControl", "Radio", "Processes", "StrictJSON", "System", "HILTestSupport"]),
        .testTarget(name: "EvdevTests", dependencies: ["Evdev", "InputCodes", "System"]),
        .testTarget(name: "DBusTests", dependencies: ["DBus", "Avahi", "HILTestSupport", "Waiting"]),
        .testTarget(
            name: "ScenarioDriverTests",
            dependencies: ["ScenarioDriver", "Scenario", "Verifier", "GestureScript", "InputCodes", "StrictJSON", "Records", "RemoteTouchProtocol", "HILTestSupport"]),
        .testTarget(name: "LatencyStatsTests", dependencies: ["LatencyStats"]),
        .testTarget(name: "InputCodesTests", dependencies: ["InputCodes"]),
        // The results model and its file formats: results.json read and merged, the receipts log, the ready file.
        .testTarget(name: "RecordsTests", dependencies: ["Records", "LatencyStats", "HILTestSupport"]),
        .testTarget(name: "RunContextTests", dependencies: ["RunContext", "RigControl", "Records", "HILTestSupport"]),
        .testTarget(name: "FuzzTargetsTests", dependencies: ["FuzzTargets"]),
        .testTarget(
            name: "RunnerTests",
            dependencies: ["Runner", "RunContext", "ScenarioDriver", "Records", "Report", "RigControl", "Scenario", "StrictJSON", "HILTestSupport"]),
        .testTarget(
            name: "PhoneLinksTests",
            dependencies: [
                "PhoneLinks", "BlueZAPI", "DBus", "NetSocket", "RemoteTouchProtocol", "HILTestSupport",
            ]),
        .testTarget(
            name: "BenchTests",
            dependencies: [
                "Bench", "RunContext", "ScenarioDriver", "InputCodes", "LatencyStats", "NetSocket", "Processes", "Records", "RemoteTouchProtocol",
                "RigControl", "Radio", "StrictJSON", "HILTestSupport",
            ]),
        .testTarget(name: "EvidenceTests", dependencies: ["Evidence", "InputCodes", "Records"]),
        .testTarget(name: "ComputerProcessTests", dependencies: ["ComputerProcess", "InputCodes", "Processes", "RigControl"]),
        .testTarget(
            name: "ReportTests", dependencies: ["Records", "Report", "LatencyStats", "StrictJSON", "Processes", "System", "HILTestSupport"],
            exclude: ["Snapshots"]),
        .testTarget(
            name: "RecordingTests",
            dependencies: ["Recording", "Scenario", "ScenarioDriver", "Records", "InputCodes", "StrictJSON", "HILTestSupport"]),
        .testTarget(name: "LabTests", dependencies: ["Lab", "Records", "HILTestSupport"]),
        .testTarget(name: "MutationsTests", dependencies: ["Mutations", "Records", "Scenario", "Processes", "HILTestSupport"]),
        .testTarget(name: "VerifierTests", dependencies: ["Verifier", "Records", "InputCodes", "RemoteTouchProtocol", "LatencyStats", "HILTestSupport"]),
        .testTarget(
            name: "ScenarioTests",
            dependencies: ["Scenario", "ScenarioDriver", "Records", "Verifier", "GestureScript", "StrictJSON", "InputCodes", "RemoteTouchProtocol", "Processes", "HILTestSupport"],
            exclude: ["Fixtures"]),
        .testTarget(
            name: "PeripheralTests",
            dependencies: [
                "Peripheral", "DBus", "Evdev", "RemoteTouchProtocol", "CommandMapping", "InputCodes", "Records", "HILTestSupport",
                "NetSocket",
            ]),
        // The command line: every command's options, their values and help, what goes to which stream.
        .testTarget(
            name: "hilTests",
            dependencies: [
                "hil", "HILTestSupport", "Scenario", "GestureScript", "Peripheral", "Rig", "RigControl", "Radio", "Records", "Runner", "System",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .testTarget(name: "SystemLibraryTests", dependencies: ["CDBus", "CEvdev", "InputCodes"]),
        // The layout's house rules, read from Package.swift, the sources and the docs as text: the module graph (no
        // dead import, arrows down docs/architecture.md's layers), file sizes, polling, one spawner; HILTestSupport's
        // runCapturing runs Benchmarks/lib/medians.py.
        .testTarget(name: "PackageLayoutTests", dependencies: ["HILTestSupport"]),
        // Every error type of the package, one instance each: the one error shape (System's ExplainedError).
        .testTarget(
            name: "ErrorShapeTests",
            dependencies: [
                "hil", "System", "StrictJSON", "RemoteTouchProtocol", "CommandMapping", "GestureModel", "InputCodes", "GestureScript",
                "Records", "Evdev", "NetSocket", "DBus", "Avahi", "Peripheral", "ScenarioDriver", "Lab", "PhoneLinks", "Recording", "RigControl", "Scenario",
                "Radio", "Bench", "ComputerProcess", "Evidence", "RunContext", "Runner", "Mutations",
            ]),
    ]
)

// The rig's tests, in targets of their own: suites that boot the vm guest or run inside a rig (the shared guest runs
// this package's test bundle with a filter). `HIL_TESTS=unit swift test` (docs/developing.md) leaves them out of the
// package: the fast loop between edits, which needs no rig. `swift test` alone runs everything.
let rigTestTargets: [Target] = [
    .testTarget(name: "EvdevRigTests", dependencies: ["Evdev", "InputCodes", "HILTestSupport"]),
    .testTarget(
        name: "PeripheralRigTests",
        dependencies: [
            "PhoneLinks", "ComputerProcess", "DBus", "Evdev", "RemoteTouchProtocol", "CommandMapping", "InputCodes", "Processes",
            "HILTestSupport",
        ]),
    .testTarget(name: "RadioRigTests", dependencies: ["Radio", "System", "NetSocket", "Processes", "HILTestSupport"]),
    // Boots the real vm rig through the built `hil`; depends on it so `swift test` builds it.
    .testTarget(name: "VMRigIntegrationTests", dependencies: ["hil", "Rig", "Processes", "HILTestSupport"]),
]
if Context.environment["HIL_TESTS"] != "unit" {
    package.targets += rigTestTargets
}

// One place for language settings, applied to every target (swift-log / swift-nio habit).
for target in package.targets where target.type != .system {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    settings.append(.enableUpcomingFeature("InternalImportsByDefault"))
    target.swiftSettings = settings
}
