@testable import Bench
import Foundation
import Processes
import RemoteTouchProtocol
import RigControl
import Testing

/// `hil bench --reference`'s clients: how each is run, and how what it reports is read back.
@Suite("hil bench: the reference clients' command lines and outcomes")
struct ReferenceClientTests {
    static let hosts = NetworkHosts(phoneNetns: "hil-phone", phoneBus: "unix:path=/run/hil-net/phone/bus", computerNetns: "hil-computer",
                                    computerBus: "unix:path=/run/hil-net/computer/bus", computerAddress: "10.77.0.1")

    @Test("the network client runs in the phone's namespace, given the computer's address, its ports and the code file")
    func networkArguments() {
        let tcp = ReferenceClient.network(script: "Rigs/reference/net_bench_client.py", transport: "tcp", hosts: Self.hosts,
                                          codeFile: "/w/bench/pairing-code", ip: "/usr/sbin/ip")
        #expect(tcp.path == "python-tcp")
        #expect(tcp.arguments(rate: 100, count: 1000, sends: "/w/bench/python-tcp-0.sends") == [
            "/usr/sbin/ip", "netns", "exec", "hil-phone", "/usr/bin/python3", "Rigs/reference/net_bench_client.py",
            "--transport", "tcp", "--address", "10.77.0.1", "--port", "51423", "--code-file", "/w/bench/pairing-code",
            "--rate", "100.0", "--count", "1000", "--sends", "/w/bench/python-tcp-0.sends",
        ])
        let udp = ReferenceClient.network(script: "n.py", transport: "udp", hosts: Self.hosts, codeFile: "c", ip: "/usr/sbin/ip")
        #expect(udp.path == "python-udp")
        #expect(udp.command == [
            "/usr/sbin/ip", "netns", "exec", "hil-phone", "/usr/bin/python3", "n.py", "--transport", "udp", "--address", "10.77.0.1",
            "--port", "8889", "--udp-port", "8888", "--code-file", "c",
        ])
        // Without ip, where hil runs (the loopback tests below), on the ports given.
        let here = ReferenceClient.network(script: "n.py", transport: "udp", hosts: Self.hosts, codeFile: "c", ip: nil, port: 4000, udpPort: 4001)
        #expect(here.command.prefix(2) == ["/usr/bin/python3", "n.py"])
        #expect(here.command.contains("4000") && here.command.contains("4001"))
    }

    @Test("the ble client is run as before: the characteristic and the write path")
    func bleArguments() {
        let client = ReferenceClient.ble(script: "b.py", writePath: "fd", characteristic: "/org/bluez/hci1/dev_X/service0010/char0011")
        #expect(client.path == "python-fd")
        #expect(client.arguments(rate: 250, count: 10, sends: "s") == [
            "/usr/bin/python3", "b.py", "--characteristic", "/org/bluez/hci1/dev_X/service0010/char0011", "--write-path", "fd",
            "--rate", "250.0", "--count", "10", "--sends", "s",
        ])
    }

    @Test("the computer serves tcp and udp when hil's own path or the reference client's needs it")
    func networks() {
        #expect(BenchRunner.networkTransports(["dbus", "python-dbus"]) == [])
        #expect(BenchRunner.networkTransports(["tcp", "python-tcp", "udp", "python-udp"]) == ["tcp", "udp"])
        #expect(BenchRunner.networkTransports(["python-udp"]) == ["udp"])
    }

    static let client = ReferenceClient.network(script: "Rigs/reference/net_bench_client.py", transport: "tcp", hosts: hosts, codeFile: "c", ip: nil)

    @Test("a summary and its send times are read back as the stream's sends")
    func goodOutcome() throws {
        let outcome = try Self.client.outcome(
            ended: .exited(0), output: "{\"sent\": 2, \"achievedHz\": 99.5, \"blocked\": 0, \"refused\": 0}\n",
            sends: "1000 {\"cursorMove\":{\"delta\":[1,0]}}\n2000 {\"cursorMove\":{\"delta\":[2,0]}}\n", name: "/w/python-tcp-0")
        #expect(outcome.achievedHz == 99.5 && outcome.blocked == 0)
        #expect(outcome.sends == [.init(at: 1000, payload: "{\"cursorMove\":{\"delta\":[1,0]}}"),
                                  .init(at: 2000, payload: "{\"cursorMove\":{\"delta\":[2,0]}}")])
        // A whole number of Hz is still a rate.
        #expect(try Self.client.outcome(ended: .exited(0), output: "{\"sent\": 1, \"achievedHz\": 100, \"blocked\": 3}", sends: "5 udp aa00010000",
                                        name: "n").blocked == 3)
    }

    /// The error for a bad outcome names the client and quotes what it printed.
    static func failure(_ ended: ChildProcess.Termination, _ output: String, _ sends: String?) -> String {
        do {
            _ = try client.outcome(ended: ended, output: output, sends: sends, name: "/w/python-tcp-0")
            return "no error"
        } catch {
            return error.description
        }
    }

    @Test("a failed client, no summary, no send times, a bad line or a wrong count: an error naming the client and what it printed")
    func badOutcomes() {
        let failed = Self.failure(.exited(1), "net_bench_client: ClientError: cannot connect to the computer at 10.77.0.1:51423: [Errno 111] Connection refused\n", nil)
        #expect(failed.contains("python-tcp") && failed.contains("net_bench_client.py") && failed.contains("exited with status 1"))
        #expect(failed.contains("Connection refused") && failed.contains("/w/python-tcp-0.out"))
        let silent = Self.failure(.exited(0), "", "1 x\n")
        #expect(silent.contains("printed no summary line") && silent.contains("it printed: nothing"))
        let garbled = Self.failure(.exited(0), "Traceback (most recent call last):\n{not json\n", "1 x\n")
        #expect(garbled.contains("printed no summary line") && garbled.contains("{not json"))
        let noFile = Self.failure(.exited(0), "{\"sent\": 1, \"achievedHz\": 1.0, \"blocked\": 0}", nil)
        #expect(noFile.contains("wrote no send times to /w/python-tcp-0.sends"))
        let badLine = Self.failure(.exited(0), "{\"sent\": 2, \"achievedHz\": 1.0, \"blocked\": 0}", "1 x\nsoon y\n")
        #expect(badLine.contains("line 2") && badLine.contains("\"soon y\""))
        let short = Self.failure(.exited(0), "{\"sent\": 3, \"achievedHz\": 1.0, \"blocked\": 0}", "1 x\n2 y\n")
        #expect(short.contains("said it sent 3 command(s) but wrote 2 send time(s)"))
        #expect(Self.failure(.signaled(9), "", nil).contains("killed by signal 9"))
    }
}
