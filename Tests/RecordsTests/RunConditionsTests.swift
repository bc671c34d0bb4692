import Records
import Testing

/// What a run ran under (`RunConditions`): read from its environments, and what changed since an earlier run.
@Suite("A run's conditions: kernel, BlueZ, rig, radio, build, host, lanes")
struct RunConditionsTests {
    static let quiet = RunEnvironment(
        kernel: "6.1.0-56-amd64", bluez: "5.66", rig: "vm", host: "box1", lanes: 1, radio: "btvirt",
        radioModel: "connectionEvents", radioIntervalMs: 15, build: "release")

    @Test("one environment: each condition by name; the radio with its connection events")
    func fromOneEnvironment() {
        let conditions = RunConditions([Self.quiet])
        #expect(conditions.values == [
            "kernel": "6.1.0-56-amd64", "BlueZ": "5.66", "rig": "vm", "radio": "btvirt, connection events every 15 ms",
            "build": "release", "host": "box1", "lanes": "1",
        ])
    }

    @Test("shards: each condition's different values, sorted and joined; one a shard does not record is left out")
    func fromShards() {
        var other = Self.quiet
        other.host = "box0"
        other.build = nil
        let conditions = RunConditions([Self.quiet, other])
        #expect(conditions.values["host"] == "box0, box1")
        #expect(conditions.values["build"] == "release")
        #expect(RunConditions([RunEnvironment(rig: "hardware")]).values == ["rig": "hardware"])
    }

    @Test("changes since an earlier run: those known in both that differ, in the reports' order")
    func changes() {
        var newer = Self.quiet
        newer.kernel = "6.1.0-57-amd64"
        newer.lanes = 2
        newer.bluez = nil
        let changes = RunConditions([newer]).changes(since: RunConditions([Self.quiet]))
        #expect(changes.map(\.description) == ["kernel 6.1.0-56-amd64 → 6.1.0-57-amd64", "lanes 1 → 2"])
        #expect(RunConditions([Self.quiet]).changes(since: RunConditions([Self.quiet])).isEmpty)
    }
}
