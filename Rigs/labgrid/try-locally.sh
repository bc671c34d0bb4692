#!/usr/bin/env bash
# A labgrid lab on this one machine, for real: a coordinator on loopback, one exporter per "box", each box a network
# namespace with its own sshd (reached only over SSH, through a veth), and `hil lab run` reserving the boxes, running
# a shard of the suite on each (each box brings up its own vm rig), merging, and giving everything back.
#
#   bash Rigs/labgrid/try-locally.sh [--boxes N] [--broken-box] [--interrupt-after SECONDS] [--keep]
#                                    [--output DIR] [--port PORT] [-- hil run arguments…]
#
#   --boxes N              boxes (places) to make and reserve (default 2)
#   --broken-box           add one more box whose checkout is missing: its health check fails, it is reported and
#                          given back, and the others run
#   --interrupt-after S    send SIGINT (Ctrl-C) to hil lab run after S seconds, and check it gave every place back and
#                          cancelled every reservation
#   --interrupt-mid-run    the same, once every healthy box has finished a scenario (at most 600 s)
#   --output DIR           hil lab run's output (default lab-results)
#   --port PORT            the coordinator's port on 127.0.0.1 (default 20408)
#   --keep                 leave the lab up afterwards (prints how to reach it and how to take it down)
#   hil run arguments      default: Scenarios
#
# Exit status 0 only when hil lab run passed (or, with --interrupt-after, stopped with 130) and no place is left locked
# and no reservation left open. Needs root (namespaces, sshd). Installs what it needs: openssh-server (Debian),
# labgrid into .venv-labgrid (venv.sh), builds hil if it is not built and the vm rig's guest image if not cached.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"

boxes=2 broken=0 interrupt_after="" keep=0 output=lab-results port=20408
run_args=()
while [ $# -gt 0 ]; do
    case "$1" in
        --boxes) boxes="$2"; shift 2 ;;
        --broken-box) broken=1; shift ;;
        --interrupt-after) interrupt_after="$2"; shift 2 ;;
        --interrupt-mid-run) interrupt_after=mid-run; shift ;;
        --output) output="$2"; shift 2 ;;
        --port) port="$2"; shift 2 ;;
        --keep) keep=1; shift ;;
        --) shift; run_args=("$@"); break ;;
        -h|--help) sed -n '2,23p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "try-locally: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done
[ ${#run_args[@]} -gt 0 ] || run_args=(Scenarios)
[ "$(id -u)" = 0 ] || { echo "try-locally: needs root (network namespaces, sshd)" >&2; exit 2; }

say() { echo "try-locally: $*" >&2; }

# --- what it needs ---------------------------------------------------------------------------------------------
if [ ! -x /usr/sbin/sshd ]; then
    say "installing openssh-server (Debian) for the boxes' sshd"
    apt-get update -qq
    # Its package scripts would start a system-wide sshd: not wanted here.
    policy_made=0
    if [ ! -e /usr/sbin/policy-rc.d ]; then printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d; chmod +x /usr/sbin/policy-rc.d; policy_made=1; fi
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openssh-server >/dev/null
    [ $policy_made = 0 ] || rm -f /usr/sbin/policy-rc.d
fi
bin="$(bash Rigs/labgrid/venv.sh)"
if [ ! -x .build/debug/hil ]; then say "building hil"; swift build 2>&1 | tail -n 2; fi
hil="$root/.build/debug/hil"
client=("$bin/labgrid-client" -x "127.0.0.1:$port")

# --- the lab ---------------------------------------------------------------------------------------------------
state="$(mktemp -d /tmp/hil-lab.XXXXXX)"
total=$((boxes + broken))
pids=()
teardown() {
    set +e
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null; done
    # A process started with SIGTERM blocked (inherited from whoever started this script) would never end: wait 5 s
    # for the coordinator and exporters, then SIGKILL what is left.
    for _ in $(seq 1 50); do
        alive=0
        for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
        [ $alive = 1 ] || break
        sleep 0.1
    done
    for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && { say "pid $pid ignored SIGTERM; killed"; kill -KILL "$pid"; }; done
    for i in $(seq 1 "$total"); do
        [ -s "$state/sshd$i.pid" ] && kill "$(cat "$state/sshd$i.pid")" 2>/dev/null
        ip netns del "hil-box$i" 2>/dev/null
        ip link del "hlb$i" 2>/dev/null
    done
    wait 2>/dev/null
    rm -rf "$state"
}
if [ $keep = 0 ]; then trap teardown EXIT; fi

mkdir -p /run/sshd "$state/coordinator"
ssh-keygen -q -t ed25519 -N '' -C hil-lab-client -f "$state/client_key"
ssh-keygen -q -t ed25519 -N '' -C hil-lab-box -f "$state/host_key"
cp "$state/client_key.pub" "$state/authorized_keys"
cat > "$state/sshd_config" <<CONF
HostKey $state/host_key
AuthorizedKeysFile $state/authorized_keys
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
PrintMotd no
Subsystem sftp internal-sftp
CONF
: > "$state/known_hosts"
for i in $(seq 1 "$total"); do echo "10.78.$i.2 $(cat "$state/host_key.pub")" >> "$state/known_hosts"; done
cat > "$state/ssh_config" <<CONF
Host 10.78.*
    IdentityFile $state/client_key
    IdentitiesOnly yes
    UserKnownHostsFile $state/known_hosts
    StrictHostKeyChecking yes
CONF

for i in $(seq 1 "$total"); do
    ns="hil-box$i"
    ip netns del "$ns" 2>/dev/null || true
    ip link del "hlb$i" 2>/dev/null || true
    ip netns add "$ns"
    ip link add "hlb$i" type veth peer name eth0 netns "$ns"
    ip addr add "10.78.$i.1/24" dev "hlb$i"
    ip link set "hlb$i" up
    ip -n "$ns" addr add "10.78.$i.2/24" dev eth0
    ip -n "$ns" link set eth0 up
    ip -n "$ns" link set lo up
    ip netns exec "$ns" /usr/sbin/sshd -f "$state/sshd_config" -o "ListenAddress=10.78.$i.2" -o "PidFile=$state/sshd$i.pid"
done
say "$total box(es) up: network namespaces hil-box1…hil-box$total, sshd on 10.78.N.2"

(cd "$state/coordinator" && exec "$bin/labgrid-coordinator" -l "127.0.0.1:$port" > "$state/coordinator.log" 2>&1) &
pids+=($!)
for _ in $(seq 1 50); do "${client[@]}" places >/dev/null 2>&1 && break; sleep 0.2; done
"${client[@]}" places >/dev/null || { say "the coordinator did not come up:"; cat "$state/coordinator.log" >&2; exit 1; }

bluez="$(bluetoothd --version 2>/dev/null || echo unknown)"
# The boxes' namespaces have no route out: the vm rig's guest image (Debian's kernel, fetched with apt-get) is built
# here first, as a real box's rig is set up before it joins a lab. Its folder is named after the kernel it boots.
image="$(bash Rigs/vm/build-image.sh | tail -n 1)" || { say "building the vm rig's guest image failed (above)"; exit 1; }
kernel="$(basename "$image" | sed 's/-[0-9a-f]\{12\}$//')"
for i in $(seq 1 "$total"); do
    checkout="$root"
    [ "$i" -le "$boxes" ] || checkout="/srv/hil-checkout-that-is-not-there"
    sed -e "s|@PLACE@|box$i|g" -e "s|@ADDRESS@|10.78.$i.2|" -e "s|@USERNAME@|root|" -e "s|@PORT@|22|" -e "s|@KIND@|vm|" \
        -e "s|@ADAPTERS@|hci0,hci1|" -e "s|@BLUEZ@|$bluez|" -e "s|@KERNEL@|$kernel|" -e "s|@TRANSPORTS@|ble,hid,tcp,udp|" \
        -e "s|@CHECKOUT@|$checkout|" Rigs/labgrid/exporter.yaml > "$state/box$i.yaml"
    "$bin/labgrid-exporter" -c "127.0.0.1:$port" -n "box$i" --hostname "10.78.$i.2" "$state/box$i.yaml" > "$state/exporter$i.log" 2>&1 &
    pids+=($!)
done
for i in $(seq 1 "$total"); do
    for _ in $(seq 1 50); do "${client[@]}" resources 2>/dev/null | grep -q "box$i/box$i" && break; sleep 0.2; done
    "${client[@]}" -p "box$i" create
    "${client[@]}" -p "box$i" add-match "box$i/box$i/*"
    "${client[@]}" -p "box$i" set-tags kind=hil transports=ble,hid,tcp,udp
done
say "coordinator on 127.0.0.1:$port with $total place(s) tagged kind=hil"
"$hil" lab status --coordinator "127.0.0.1:$port" --labgrid-client "$bin/labgrid-client"

# Boxes that share this machine's cores: each box's vm guest gets its share of them (machine.cpus) and latency limits
# scaled by as much (latencyScale), in a rig folder of their own passed to every box's hil run, unless --rigs is given.
# Two guests with all the cores each load each other enough to change verdicts (Rigs/README.md, "lanes").
if [ "$boxes" -gt 1 ] && ! printf '%s\n' "${run_args[@]}" | grep -q '^--rigs'; then
    per=$(( $(nproc) / boxes )); [ "$per" -ge 1 ] || per=1
    mkdir -p "$state/rigs"
    cp Rigs/*.json "$state/rigs/"
    for entry in Rigs/*/; do ln -s "$root/${entry%/}" "$state/rigs/"; done   # vm/, net/…: the rig files' scripts
    python3 - "$state/rigs/vm.json" "$per" "$boxes" <<'PY'
import json, sys
path, cpus, boxes = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rig = json.load(open(path))
scale = rig["latencyScale"] * max(1, rig["machine"]["cpus"] // cpus)
rig["machine"]["cpus"] = cpus
rig["latencyScale"] = scale
rig["description"] += f" For {boxes} boxes on one machine: {cpus} CPU(s) each, latency scale {scale}."
json.dump(rig, open(path, "w"), indent=2)
PY
    say "each box's vm guest: $per CPU(s) of $(nproc), latency scale $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["latencyScale"])' "$state/rigs/vm.json") ($state/rigs/vm.json)"
    run_args=(--rigs "$state/rigs" "${run_args[@]}")
fi

# --- the run ---------------------------------------------------------------------------------------------------
set +e
start=$(date +%s)
"$hil" lab run --coordinator "127.0.0.1:$port" --labgrid-client "$bin/labgrid-client" --places "$total" --tags kind=hil \
    --ssh-config "$state/ssh_config" --output "$output" --reserve-timeout 60s "${run_args[@]}" &
lab=$!
if [ "$interrupt_after" = mid-run ]; then
    # Every healthy box's hil run has printed a scenario's verdict ([1/31] PASSED …): the run is in full swing.
    for _ in $(seq 1 600); do
        running=0
        for i in $(seq 1 "$boxes"); do grep -qE '^\[[0-9]+/[0-9]+\] ' "$output/box$i/hil-run.log" 2>/dev/null && running=$((running + 1)); done
        [ "$running" -lt "$boxes" ] || break
        kill -0 "$lab" 2>/dev/null || break
        sleep 1
    done
    say "interrupting hil lab run (SIGINT) mid-run: $running of $boxes box(es) running scenarios, $(( $(date +%s) - start )) s in"
    kill -INT "$lab" 2>/dev/null || true
elif [ -n "$interrupt_after" ]; then
    sleep "$interrupt_after"
    say "interrupting hil lab run (SIGINT) after $interrupt_after s"
    kill -INT "$lab" 2>/dev/null || true
fi
wait "$lab"
status=$?
set -e
say "hil lab run exited with status $status after $(( $(date +%s) - start )) s"

# --- what is left ----------------------------------------------------------------------------------------------
"$hil" lab status --coordinator "127.0.0.1:$port" --labgrid-client "$bin/labgrid-client"
locked="$("${client[@]}" -v places | grep -c '^  acquired: [^N]' || true)"
reservations="$("${client[@]}" reservations | grep -c '^Reservation ' || true)"
say "places left locked: $locked; reservations left: $reservations"
[ -f "$output/results.json" ] && grep -m1 -o '"passed" : [0-9]*' "$output/results.json" >/dev/null && \
    say "merged report: $output/results.json, $output/report.html, $output/lab.json"
if [ $keep = 1 ]; then
    say "left up (--keep): LG_COORDINATOR=127.0.0.1:$port $bin/labgrid-client places; ssh -F $state/ssh_config root@10.78.1.2"
fi
expected=0
[ -z "$interrupt_after" ] || expected=130
if [ "$status" = "$expected" ] && [ "$locked" = 0 ] && [ "$reservations" = 0 ]; then
    say "OK"
    exit 0
fi
say "FAILED: hil lab run exited $status (wanted $expected), $locked place(s) locked, $reservations reservation(s) open"
exit 1
