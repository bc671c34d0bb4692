import Foundation
import HILTestSupport
import Testing

/// The vm rig's hosts for the network transports (Rigs/net/two-hosts.sh): the guest brings them up at boot and
/// passes them to the job as HIL_NET_*; Bonjour crosses the bridge between the phone and the computer through one
/// avahi-daemon each, and the attacker, a third host on the same bridge, reaches the computer.
@Suite("vm rig, the network transports' two hosts and the attacker", .serialized, .tags(.rig), .inSharedGuest)
struct TwoHostsOnRig {
    @Test("the guest's hosts are up, a service published in hil-computer is browsed and resolved from hil-phone with its TXT record, and a datagram from hil-attacker reaches hil-computer")
    func publishAndBrowse() async throws {
        let binary = try hilBinary()
        // Everything through the job's variables, as a transport would: the computer publishes on its bus inside
        // its namespace, the phone browses on its own.
        let script = #"""
            set -u
            env | grep '^HIL_NET_' | sort
            grep -oE '^(veth|bridge|sch_netem) ' /proc/modules | sed 's/^/module /'
            for ns in "$HIL_NET_PHONE_NETNS" "$HIL_NET_COMPUTER_NETNS" "$HIL_NET_ATTACKER_NETNS"; do
                echo "veths $ns: $(ip -n "$ns" -o link show type veth | cut -d: -f2 | tr -d ' \n')"
            done
            bash Rigs/net/two-hosts.sh wait 30 || exit 1
            computer() { DBUS_SYSTEM_BUS_ADDRESS=$HIL_NET_COMPUTER_BUS ip netns exec "$HIL_NET_COMPUTER_NETNS" "$@"; }
            phone() { DBUS_SYSTEM_BUS_ADDRESS=$HIL_NET_PHONE_BUS ip netns exec "$HIL_NET_PHONE_NETNS" "$@"; }
            computer avahi-publish -s 'HIL rig test' _claude-controller._tcp 51423 version=1 pairing=required >/tmp/publish.log 2>&1 &
            n=0
            until phone avahi-browse -rtp _claude-controller._tcp >/tmp/browse.txt 2>&1 && grep -q '^=' /tmp/browse.txt; do
                n=$((n + 1)); [ $n -lt 40 ] || { echo "not browsed:"; cat /tmp/browse.txt /tmp/publish.log; exit 1; }
                sleep 0.25
            done
            grep '^=' /tmp/browse.txt | sed 's/^/browsed /'
            computer busybox nc -l -p 51423 >/tmp/received &
            n=0
            until phone bash -c "echo over-tcp >/dev/tcp/$HIL_NET_COMPUTER_ADDRESS/51423" 2>/dev/null; do
                n=$((n + 1)); [ $n -lt 100 ] || { echo "no TCP connection"; exit 1; }
                sleep 0.1
            done
            sleep 0.3
            echo "received $(cat /tmp/received)"
            computer python3 -c 'import socket; s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind(("", 8888)); s.settimeout(60); print("bound", flush=True); d, a = s.recvfrom(64); print("udp", d.hex(), "from", a[0], flush=True)' >/tmp/udp 2>&1 &
            n=0
            until grep -q bound /tmp/udp; do n=$((n + 1)); [ $n -lt 600 ] || { echo "no UDP socket"; cat /tmp/udp; exit 1; }; sleep 0.1; done
            ip netns exec "$HIL_NET_ATTACKER_NETNS" python3 -c 'import socket, sys; socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b"\xaa\x00\x05\x05\x00", (sys.argv[1], 8888))' "$HIL_NET_COMPUTER_ADDRESS"
            wait $!
            cat /tmp/udp | grep '^udp '
            '\#(binary)' doctor | grep -A 3 'two hosts'
            """#
        let run = try inGuest("bash", script, seconds: 150)
        let text = run.output
        #expect(run.status == 0, "\(text.suffix(3000))")
        #expect(!run.output.contains("HIL-NET-ERROR"), "\(run.output.suffix(3000))")
        let variables = run.output.split(separator: "\n").filter { $0.hasPrefix("HIL_NET_") }.map(String.init)
        #expect(variables == [
            "HIL_NET_ATTACKER_ADDRESS=10.77.0.3", "HIL_NET_ATTACKER_NETNS=hil-attacker",
            "HIL_NET_COMPUTER_ADDRESS=10.77.0.1", "HIL_NET_COMPUTER_BUS=unix:path=/run/hil-net/computer/bus",
            "HIL_NET_COMPUTER_NETNS=hil-computer", "HIL_NET_PHONE_ADDRESS=10.77.0.2",
            "HIL_NET_PHONE_BUS=unix:path=/run/hil-net/phone/bus", "HIL_NET_PHONE_NETNS=hil-phone",
        ], "\(run.output.suffix(3000))")
        #expect(run.output.contains("module veth") && run.output.contains("module bridge") && run.output.contains("module sch_netem"),
                "\(run.output.suffix(3000))")
        // One veth in each host's namespace (the runner's link faults and netem find it so); its peer is a bridge port.
        for line in ["veths hil-phone: hilp0@if", "veths hil-computer: hilc0@if", "veths hil-attacker: hila0@if"] {
            let found = run.output.split(separator: "\n").first { $0.hasPrefix(line) }
            #expect(found.map { $0.dropFirst(line.count).allSatisfy(\.isNumber) } == true, "\(line): \(run.output.suffix(3000))")
        }
        // Resolved on the phone's veth: the computer's host name and address, the port, and the TXT record.
        let browsed = run.output.split(separator: "\n").first { $0.hasPrefix("browsed =;hilp0;IPv4;HIL\\032rig\\032test;_claude-controller._tcp;local;") }
        let resolved = try #require(browsed, "not resolved from hil-phone:\n\(run.output.suffix(3000))")
        #expect(resolved.contains(";hil-computer.local;10.77.0.1;51423;"), "\(resolved)")
        #expect(resolved.contains("\"version=1\"") && resolved.contains("\"pairing=required\""), "\(resolved)")
        #expect(run.output.contains("received over-tcp"), "\(run.output.suffix(3000))")
        #expect(run.output.contains("ok  phone: netns hil-phone, 10.77.0.2, avahi running"), "\(run.output.suffix(3000))")
        #expect(run.output.contains("ok  computer: netns hil-computer, 10.77.0.1, avahi running"), "\(run.output.suffix(3000))")
        #expect(run.output.contains("udp aa00050500 from 10.77.0.3"), "\(run.output.suffix(3000))")
        #expect(run.output.contains("ok  attacker: netns hil-attacker, 10.77.0.3"), "\(run.output.suffix(3000))")
    }
}
