#!/bin/bash
# Proves the hosts of two-hosts.sh work (phone, computer and attacker on one bridge), with Debian's own tools
# only (iproute2, avahi-utils, busybox, python3), and says how long each part took:
#   1. (--cycle) down, then up --no-wait and wait: the bring-up's cost on this machine
#   2. both avahi-daemons running (two-hosts.sh wait), every part ready (two-hosts.sh check)
#   3. the computer publishes _claude-controller._tcp on port 51423 with a TXT record (avahi-publish on the
#      computer's bus, inside hil-computer), and the phone browses and resolves it (avahi-browse on the phone's
#      bus, inside hil-phone): name, host, address 10.77.0.1, port and TXT must all come back
#   4. TCP from the phone to a listener in the computer's namespace at 10.77.0.1:51423
#   5. the namespaces are apart: the phone's namespace has no route to an address the computer does not have
#   6. the attacker, a third host on the same LAN: each host's namespace holds exactly one veth (the runner's
#      link faults and netem need that), the attacker pings the computer, a UDP datagram it sends arrives at a
#      socket bound in hil-computer from 10.77.0.3, and its own mDNS query (multicast, through the bridge) is
#      answered by the computer's avahi with the service of step 3
#   7. netem on the phone's veth (tc qdisc ... netem delay 20ms 5ms loss 5%) raises the phone's ping RTT to the
#      computer, and deleting it restores it; the phone's link down and up again (a link fault) comes back
# Ends with `two-hosts: proven` (exit 0), or the first failure (exit 1). As root, with the network up, e.g. in
# the vm rig: hil vm exec -- bash Rigs/net/prove-two-hosts.sh --cycle
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
net=$here/two-hosts.sh
SERVICE_TYPE=_claude-controller._tcp
PORT=51423
NAME="HIL computer $$"
TXT="pairing=required"
work=$(mktemp -d /tmp/hil-prove.XXXXXX)
pids=()

say() { echo "prove: $*"; }
fail() { echo "prove: FAILED: $*" >&2; exit 1; }
now_ms() { echo $(($(date +%s%N) / 1000000)); }
since() { awk -v a="$1" -v b="$(now_ms)" 'BEGIN { printf "%.2f s", (b - a) / 1000 }'; }
cleanup() {
    [ ${#pids[@]} -eq 0 ] || kill "${pids[@]}" 2>/dev/null || :
    rm -rf "$work"
}
trap cleanup EXIT

if [ "${HIL_RIG:-}" = vm ] && [ "$(env | grep -c '^HIL_NET_')" != 8 ]; then
    fail "in the vm rig, but the job did not get the eight HIL_NET_* variables: $(env | grep '^HIL_NET_' | tr '\n' ' ')"
fi
# The variables a job gets: the script's own, which must match the environment's when it has them (in the rig).
while IFS='=' read -r name value; do
    if [ -n "${!name:-}" ] && [ "${!name}" != "$value" ]; then fail "$name=${!name} in the environment, but two-hosts.sh says $value"; fi
    declare "$name=$value"
done < <(bash "$net" env)

on() { # HOST COMMAND...: run in the host's namespace with its bus as the system bus
    local host=$1
    shift
    if [ "$host" = phone ]; then
        DBUS_SYSTEM_BUS_ADDRESS=$HIL_NET_PHONE_BUS ip netns exec "$HIL_NET_PHONE_NETNS" "$@"
    else
        DBUS_SYSTEM_BUS_ADDRESS=$HIL_NET_COMPUTER_BUS ip netns exec "$HIL_NET_COMPUTER_NETNS" "$@"
    fi
}

# --- The attacker (HIL_NET_ATTACKER_*) and the phone's link: steps 6 and 7 ---
attacker() { ip netns exec "$HIL_NET_ATTACKER_NETNS" "$@"; }
PING=(ping)
command -v ping >/dev/null 2>&1 || PING=(busybox ping)  # iputils-ping is not always installed; busybox's ping is
avg_rtt() { # PING_OUTPUT: the average round trip in ms, from the min/avg/max line (iputils' and busybox's alike)
    local line avg
    line=$(grep 'min/avg/max' <<<"$1") || return 1
    IFS=/ read -r _ avg _ <<<"${line#*= }"
    echo "$avg"
}
only_veth() { # NETNS: its one veth's name (what the runner takes down and puts netem on), or a failure
    local lines
    lines=$(ip -n "$1" -o link show type veth)
    [ "$(grep -c . <<<"$lines")" = 1 ] || fail "$1 must hold exactly one veth, and holds: $(cut -d: -f2 <<<"$lines" | tr '\n' ' ')"
    lines=$(cut -d: -f2 <<<"$lines")
    echo "${lines# }"
}
# A UDP socket bound in the computer's namespace: prints "bound", then what the first datagram held and its source.
UDP_RECEIVER='
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind((sys.argv[1], int(sys.argv[2])))
s.settimeout(60)
print("bound", flush=True)
data, source = s.recvfrom(2048)
print("received", data.hex(), "from", source[0], "port", source[1], flush=True)'
# An mDNS query for a service type's PTR records, sent from the attacker's address to 224.0.0.251:5353 from
# another port (a "legacy unicast" query: the answer comes back to that port), repeated until answered.
MDNS_QUERY='
import socket, struct, sys
service, source = sys.argv[1], sys.argv[2]
name = b"".join(bytes([len(label)]) + label.encode() for label in service.split(".")) + b"\0"
query = struct.pack("!6H", 0x4849, 0, 1, 0, 0, 0) + name + struct.pack("!2H", 12, 1)
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_IF, socket.inet_aton(source))
s.bind((source, 0))
s.settimeout(0.5)
for attempt in range(20):
    s.sendto(query, ("224.0.0.251", 5353))
    try:
        data, sender = s.recvfrom(9000)
    except socket.timeout:
        continue
    if data[:2] == query[:2]:
        print("answer from", sender[0], data.hex())
        sys.exit(0)
sys.exit("no answer in 10 s")'

prove_attacker() {
    local ns out line start deadline name_hex
    for ns in "$HIL_NET_PHONE_NETNS" "$HIL_NET_COMPUTER_NETNS" "$HIL_NET_ATTACKER_NETNS"; do
        say "$ns holds one veth: $(only_veth "$ns")"
    done
    start=$(now_ms)
    out=$(attacker "${PING[@]}" -c 1 -W 5 "$HIL_NET_COMPUTER_ADDRESS" 2>&1) ||
        fail "hil-attacker cannot ping the computer at $HIL_NET_COMPUTER_ADDRESS: $out (bash Rigs/net/two-hosts.sh check)"
    say "ping from hil-attacker ($HIL_NET_ATTACKER_ADDRESS): $(grep -m 1 'bytes from' <<<"$out") ($(since "$start"))"

    start=$(now_ms)
    on computer python3 -c "$UDP_RECEIVER" "$HIL_NET_COMPUTER_ADDRESS" 8888 >"$work/udp.out" 2>&1 &
    pids+=($!)
    deadline=$((start + 30000))  # python3 starts in 1 to 3 s under TCG, more on a loaded machine
    until grep -q '^bound' "$work/udp.out" 2>/dev/null; do
        [ "$(now_ms)" -lt "$deadline" ] || fail "no UDP socket bound in hil-computer within 30 s: $(cat "$work/udp.out")"
        sleep 0.05
    done
    say "python3 bound a UDP socket to $HIL_NET_COMPUTER_ADDRESS:8888 in hil-computer ($(since "$start"))"
    start=$(now_ms)
    deadline=$((start + 30000))
    attacker python3 -c 'import socket, sys; s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.sendto(b"\xaa\x00\x05\x05\x00", (sys.argv[1], 8888))' \
        "$HIL_NET_COMPUTER_ADDRESS" || fail "python3 in hil-attacker could not send the datagram"
    until grep -q '^received' "$work/udp.out"; do
        [ "$(now_ms)" -lt "$deadline" ] || fail "the datagram from hil-attacker did not arrive in hil-computer: $(cat "$work/udp.out")"
        sleep 0.02
    done
    line=$(grep -m 1 '^received' "$work/udp.out")
    say "UDP hil-attacker -> $HIL_NET_COMPUTER_ADDRESS:8888, recvfrom in hil-computer: $line ($(since "$start"))"
    [[ $line == "received aa00050500 from $HIL_NET_ATTACKER_ADDRESS port "* ]] ||
        fail "expected aa00050500 from $HIL_NET_ATTACKER_ADDRESS"

    start=$(now_ms)
    out=$(attacker python3 -c "$MDNS_QUERY" "$SERVICE_TYPE.local" "$HIL_NET_ATTACKER_ADDRESS" 2>&1) ||
        fail "the attacker's mDNS query for $SERVICE_TYPE got no answer: $out"
    name_hex=$(printf '%s' "$NAME" | od -An -tx1 | tr -d ' \n')
    [[ $out == "answer from $HIL_NET_COMPUTER_ADDRESS "*"$name_hex"* ]] ||
        fail "the answer to the attacker's mDNS query is not the computer's, or lacks \"$NAME\": $out"
    say "mDNS query from hil-attacker to 224.0.0.251:5353 for $SERVICE_TYPE: answered by $HIL_NET_COMPUTER_ADDRESS with \"$NAME\" ($(since "$start"))"
}

prove_netem() {
    local ns=$HIL_NET_PHONE_NETNS iface out base slow loss back start deadline
    iface=$(only_veth "$ns")
    iface=${iface%%@*}
    out=$(on phone "${PING[@]}" -c 10 -i 0.1 -W 2 "$HIL_NET_COMPUTER_ADDRESS" 2>&1 || :)
    base=$(avg_rtt "$out") || fail "ping from hil-phone got no answer: $out"
    tc -n "$ns" qdisc replace dev "$iface" root netem delay 20ms 5ms loss 5% ||
        fail "tc qdisc replace ... netem on $iface in $ns failed (the kernel needs sch_netem, which the vm image loads)"
    say "$(tc -n "$ns" qdisc show dev "$iface" | head -n 1) on $iface in $ns"
    out=$(on phone "${PING[@]}" -c 20 -i 0.1 -W 2 "$HIL_NET_COMPUTER_ADDRESS" 2>&1 || :)
    slow=$(avg_rtt "$out") || fail "ping from hil-phone through netem got no answer: $out"
    loss=$(grep -o '[0-9.]*% packet loss' <<<"$out" || :)
    tc -n "$ns" qdisc del dev "$iface" root || fail "tc qdisc del dev $iface root in $ns failed"
    out=$(on phone "${PING[@]}" -c 10 -i 0.1 -W 2 "$HIL_NET_COMPUTER_ADDRESS" 2>&1 || :)
    back=$(avg_rtt "$out") || fail "ping from hil-phone after the qdisc's removal got no answer: $out"
    say "ping hil-phone -> $HIL_NET_COMPUTER_ADDRESS, average RTT: $base ms; with netem $slow ms (${loss:-loss unknown}); without it again $back ms"
    awk -v b="$base" -v s="$slow" -v a="$back" 'BEGIN { exit !(s >= b + 10 && a < s - 10) }' ||
        fail "netem's 20 ms delay did not show: $base ms, then $slow ms, then $back ms"

    ip -n "$ns" link set "$iface" down
    if on phone "${PING[@]}" -c 1 -W 1 "$HIL_NET_COMPUTER_ADDRESS" >/dev/null 2>&1; then fail "the computer answers with $iface down"; fi
    ip -n "$ns" link set "$iface" up
    start=$(now_ms)
    deadline=$((start + 10000))
    until on phone "${PING[@]}" -c 1 -W 1 "$HIL_NET_COMPUTER_ADDRESS" >/dev/null 2>&1; do
        [ "$(now_ms)" -lt "$deadline" ] || fail "the computer did not answer within 10 s of $iface up again"
    done
    say "$iface down: the computer unreachable from hil-phone; up again: reachable after $(since "$start")"
}

if [ "${1:-}" = --cycle ]; then
    bash "$net" down >/dev/null
    start=$(now_ms)
    bash "$net" up --no-wait >/dev/null || fail "two-hosts.sh up --no-wait failed"
    say "up --no-wait (namespaces, bridge, veths, 2 buses, 2 avahi-daemons started) in $(since "$start")"
    bash "$net" wait 60 >/dev/null || fail "the avahi-daemons did not reach running"
    say "both avahi-daemons running $(since "$start") after the start of up"
fi

start=$(now_ms)
bash "$net" wait 60 >/dev/null || fail "the avahi-daemons are not running: $(bash "$net" check 2>&1 | grep '^NO' | tr '\n' ' ')"
say "avahi running on both hosts (waited $(since "$start"))"
bash "$net" check || fail "two-hosts.sh check found parts not ready"

# Discovery: browse on the phone first, then publish on the computer, and time the first resolved answer.
on phone avahi-browse --resolve --parsable "$SERVICE_TYPE" >"$work/browse.out" 2>"$work/browse.err" &
pids+=($!)
sleep 0.5  # the browser is registered on the phone's avahi before the service exists
start=$(now_ms)
on computer avahi-publish --service "$NAME" "$SERVICE_TYPE" "$PORT" "$TXT" >"$work/publish.out" 2>&1 &
pids+=($!)
deadline=$((start + 20000))
until grep -q "^=;hilp0;IPv4;" "$work/browse.out" 2>/dev/null; do
    [ "$(now_ms)" -lt "$deadline" ] ||
        fail "the phone did not resolve the computer's $SERVICE_TYPE within 20 s; browse: $(cat "$work/browse.out" "$work/browse.err"); publish: $(cat "$work/publish.out")"
    sleep 0.02
done
say "published in hil-computer -> resolved in hil-phone in $(since "$start")"
line=$(grep -m 1 "^=;hilp0;IPv4;" "$work/browse.out")
say "resolved: $line"
escaped=$(echo "$NAME" | sed 's/ /\\032/g')
expected="=;hilp0;IPv4;$escaped;$SERVICE_TYPE;local;hil-computer.local;10.77.0.1;$PORT;\"$TXT\""
[ "$line" = "$expected" ] || fail "expected $expected"
# The one-shot form a person would type (-t: stop once the cache is read).
oneshot=$(on phone avahi-browse --resolve --parsable --terminate "$SERVICE_TYPE" | grep -F "=;hilp0;IPv4;$escaped;" || :)
[ -n "$oneshot" ] || fail "avahi-browse -rtp in hil-phone did not list the service"
say "avahi-browse -rtp in hil-phone: $oneshot"

# TCP from the phone to the computer's namespace.
on computer busybox nc -l -p "$PORT" >"$work/received" 2>&1 &
pids+=($!)
start=$(now_ms)
deadline=$((start + 10000))
until on phone bash -c "echo hello-from-the-phone >/dev/tcp/10.77.0.1/$PORT" 2>/dev/null; do
    [ "$(now_ms)" -lt "$deadline" ] || fail "no TCP connection from hil-phone to 10.77.0.1:$PORT within 10 s"
    sleep 0.05
done
until grep -q hello-from-the-phone "$work/received"; do
    [ "$(now_ms)" -lt "$deadline" ] || fail "the listener in hil-computer did not receive the phone's bytes"
    sleep 0.02
done
say "TCP hil-phone -> 10.77.0.1:$PORT (hil-computer) delivered in $(since "$start")"

# Apart: the phone's namespace knows only its /24; the computer's address is not its own.
if on phone ip -4 addr show | grep -q ' 10\.77\.0\.1/'; then fail "hil-phone has the computer's address"; fi
if on phone ip route get 192.0.2.1 >/dev/null 2>&1; then fail "hil-phone has a route out of 10.77.0.0/24"; fi
say "hil-phone has only 10.77.0.2/24 and no route elsewhere"
prove_attacker
prove_netem
echo "two-hosts: proven"
