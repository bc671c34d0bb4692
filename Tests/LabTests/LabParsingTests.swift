import Foundation
@testable import Lab
import Records
import Testing

@Suite("labgrid-client's output, read: env, places, reserve and lock")
struct LabParsingTests {
    /// `labgrid-client -p box2 env`, as labgrid 26.0.1 prints it.
    static let env = """
        targets:
          box2:
            resources:
            - HILRig:
                kind: vm
                adapters: hci0,hci1
                transports: ble,hid,tcp,udp
                bluez: '5.66'
                checkout: /work/main
                kernel: 6.1.0
            - NetworkService:
                port: 2222
                address: 10.78.2.2
                username: root

        """

    @Test("a place's env gives the box's SSH address and its rig")
    func env() throws {
        let box = try LabBox(place: "box2", env: Self.env)
        #expect(box == LabBox(place: "box2", address: "10.78.2.2", port: 2222, username: "root", rig: [
            "kind": "vm", "adapters": "hci0,hci1", "transports": "ble,hid,tcp,udp", "bluez": "5.66", "checkout": "/work/main", "kernel": "6.1.0",
        ]))
        #expect(box.checkout == "/work/main")
        #expect(box.hil == ".build/debug/hil")
        #expect(box.summary == "box2 (root@10.78.2.2:2222; kind vm, adapters hci0,hci1, bluez 5.66, kernel 6.1.0, transports ble,hid,tcp,udp)")
    }

    @Test("a place without NetworkService or HILRig is an error naming the place and the fix")
    func envMissing() {
        let noService = Self.env.components(separatedBy: "    - NetworkService:")[0]
        #expect(throws: LabError.self) { try LabBox(place: "box2", env: noService) }
        do {
            _ = try LabBox(place: "box2", env: noService)
        } catch {
            #expect(error.description.contains("place box2 has no NetworkService"))
            #expect(error.description.contains("Rigs/labgrid/exporter.yaml"))
        }
        let noRig = Self.env.replacingOccurrences(of: "- HILRig:", with: "- Other:")
        do {
            _ = try LabBox(place: "box2", env: noRig)
            Issue.record("no error without HILRig")
        } catch {
            #expect(error.description.contains("place box2 has no HILRig"))
        }
    }

    @Test("places -v: tags (values with commas), holder, comment")
    func places() {
        let text = """
            Place 'box1':
              comment: health ok 2026-11-24T07:30:00Z
              tags: kind=hil, transports=ble,hid,tcp,udp
              matches:
                box1/box1/*
              acquired: vm/root
              acquired resources:
              created: 2026-11-24 07:20:39.800657
            Place 'box2':
              tags: kind=hil
              matches:
                box2/box2/*
              acquired: None
              acquired resources:
            """
        let places = LabPlace.parse(text)
        #expect(places == [
            LabPlace(name: "box1", tags: ["kind": "hil", "transports": "ble,hid,tcp,udp"], acquired: "vm/root", comment: "health ok 2026-11-24T07:30:00Z"),
            LabPlace(name: "box2", tags: ["kind": "hil"], acquired: nil, comment: nil),
        ])
        let table = LabStatusTable.render(places, coordinator: "127.0.0.1:20408")
        #expect(table.contains("box1   vm/root  kind=hil transports=ble,hid,tcp,udp  health ok 2026-11-24T07:30:00Z"), "\(table)")
        #expect(table.contains("box2   free     kind=hil"), "\(table)")
        #expect(table.hasSuffix("2 place(s) at 127.0.0.1:20408, 1 held"))
        #expect(LabStatusTable.render([], coordinator: "c:1") == "no places on the coordinator at c:1")
    }

    @Test("reserve --shell's token and lock's place")
    func tokenAndPlace() {
        #expect(Labgrid.token(in: "export LG_TOKEN=QTGKT8VFRG\n") == "QTGKT8VFRG")
        #expect(Labgrid.token(in: "something else\n") == nil)
        #expect(Labgrid.lockedPlace(in: "acquired place box1\n") == "box1")
        #expect(Labgrid.lockedPlace(in: "labgrid-client: Error: You have already acquired place box1.") == nil)
    }

    @Test("remote commands: words quoted for the box's shell, run in its checkout, ssh never asks")
    func remoteCommand() {
        let box = LabBox(place: "box1", address: "10.78.1.2", port: 22, rig: ["checkout": "/srv/hil checkout"])
        let remote = LabRemote(box: box, sshConfig: "/tmp/lab/ssh_config")
        let arguments = remote.sshArguments([box.hil, "run", "--filter", "it's", "Scenarios"])
        #expect(arguments.prefix(2) == ["-F", "/tmp/lab/ssh_config"])
        #expect(arguments.contains("BatchMode=yes"))
        #expect(arguments.suffix(2) == ["root@10.78.1.2", #"cd '/srv/hil checkout' && .build/debug/hil run --filter 'it'\''s' Scenarios"#])
        #expect(LabRemote.quote("") == "''")
        #expect(LabRemote.quote("a;b") == "'a;b'")
        #expect(LabRemote.quote("kind=hil") == "kind=hil")
    }

    @Test("lab.json: each box's health, shard, results and whether it was given back")
    func labRecord() {
        let record = LabRecord(coordinator: "127.0.0.1:20408", boxes: [
            .init(place: "box1", box: "box1 (root@10.78.1.2:22)", health: "ok", shard: RunShard(index: 1, count: 1),
                  results: "box1/results/results.json", released: true),
            .init(place: "box3", box: "box3 (root@10.78.3.2:22)", health: "failed", healthOutput: "hil doctor: no rig can run here", released: true),
        ], outcome: "passed", wallMs: 1234.4)
        let text = record.jsonText
        #expect(text.contains(#""format" : "hil-lab\/1""#))
        #expect(text.contains(#""shard" : "1\/1""#))
        #expect(text.contains(#""healthOutput" : "hil doctor: no rig can run here""#))
        #expect(text.contains(#""shard" : null"#))
        #expect(text.contains(#""wallMs" : 1234"#))
    }
}
