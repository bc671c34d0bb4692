import Foundation
import HILTestSupport
import Testing

/// The vm rig's two hosts for the network transports (Rigs/net/two-hosts.sh): the guest brings them up at boot
/// and passes them to the job as HIL_NET_*; Bonjour crosses the veth between them through one avahi-daemon each.
@Suite("vm rig, the network transports' two hosts", .serialized, .tags(.rig))
struct TwoHostsOnRig {
    @Test("the guest's two hosts are up, and a service published in hil-computer is browsed and resolved from hil-phone with its TXT record")
    func publishAndBrowse() throws {
        let binary = try hilBinary()
        // Everything through the job's variables, as a transport would: the computer publishes on its bus inside
        // its namespace, the phone browses on its own.
        let script = #"""
            set -u
            env | grep '^HIL_NET_' | sort
            grep -oE '^(veth|sch_netem) ' /proc/modules | sed 's/^/module /'
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
            '\#(binary)' doctor | grep -A 2 'two hosts'
            """#
        let run = try hil(["vm", "exec", "--timing", "--", "bash", "-c", script])
        let text = run.output + run.errors
        #expect(run.status == 0, "\(text.suffix(3000))")
        #expect(!run.output.contains("HIL-NET-ERROR"), "\(run.output.suffix(3000))")
        let variables = run.output.split(separator: "\n").filter { $0.hasPrefix("HIL_NET_") }.map(String.init)
        #expect(variables == [
            "HIL_NET_COMPUTER_ADDRESS=10.77.0.1", "HIL_NET_COMPUTER_BUS=unix:path=/run/hil-net/computer/bus",
            "HIL_NET_COMPUTER_NETNS=hil-computer", "HIL_NET_PHONE_ADDRESS=10.77.0.2",
            "HIL_NET_PHONE_BUS=unix:path=/run/hil-net/phone/bus", "HIL_NET_PHONE_NETNS=hil-phone",
        ], "\(run.output.suffix(3000))")
        #expect(run.output.contains("module veth") && run.output.contains("module sch_netem"), "\(run.output.suffix(3000))")
        // Resolved on the phone's veth: the computer's host name and address, the port, and the TXT record.
        let browsed = run.output.split(separator: "\n").first { $0.hasPrefix("browsed =;hilp0;IPv4;HIL\\032rig\\032test;_claude-controller._tcp;local;") }
        let resolved = try #require(browsed, "not resolved from hil-phone:\n\(run.output.suffix(3000))")
        #expect(resolved.contains(";hil-computer.local;10.77.0.1;51423;"), "\(resolved)")
        #expect(resolved.contains("\"version=1\"") && resolved.contains("\"pairing=required\""), "\(resolved)")
        #expect(run.output.contains("received over-tcp"), "\(run.output.suffix(3000))")
        #expect(run.output.contains("ok  phone: netns hil-phone, 10.77.0.2, avahi running"), "\(run.output.suffix(3000))")
        #expect(run.output.contains("ok  computer: netns hil-computer, 10.77.0.1, avahi running"), "\(run.output.suffix(3000))")
    }
}
