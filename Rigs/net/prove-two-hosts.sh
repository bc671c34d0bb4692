#!/bin/bash
# Proves the two hosts of two-hosts.sh work, with Debian's own tools only, and says how long each part took:
#   1. (--cycle) down, then up --no-wait and wait: the bring-up's cost on this machine
#   2. both avahi-daemons running (two-hosts.sh wait), every part ready (two-hosts.sh check)
#   3. the computer publishes _claude-controller._tcp on port 51423 with a TXT record (avahi-publish on the
#      computer's bus, inside hil-computer), and the phone browses and resolves it (avahi-browse on the phone's
#      bus, inside hil-phone): name, host, address 10.77.0.1, port and TXT must all come back
#   4. TCP from the phone to a listener in the computer's namespace at 10.77.0.1:51423
#   5. the namespaces are apart: the phone's namespace has no route to an address the computer does not have
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

if [ "${HIL_RIG:-}" = vm ] && [ "$(env | grep -c '^HIL_NET_')" != 6 ]; then
    fail "in the vm rig, but the job did not get the six HIL_NET_* variables: $(env | grep '^HIL_NET_' | tr '\n' ' ')"
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

if [ "${1:-}" = --cycle ]; then
    bash "$net" down >/dev/null
    start=$(now_ms)
    bash "$net" up --no-wait >/dev/null || fail "two-hosts.sh up --no-wait failed"
    say "up --no-wait (namespaces, veth, 2 buses, 2 avahi-daemons started) in $(since "$start")"
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
echo "two-hosts: proven"
