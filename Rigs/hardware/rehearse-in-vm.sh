#!/usr/bin/env bash
# A rehearsal of the hardware nightly path in the vm guest: the guest plays the Bluetooth box, and the nights run
# as the box's timer would run them.
#
#   bash Rigs/hardware/rehearse-in-vm.sh                       # 3 nights of both suites (about an hour here)
#   bash Rigs/hardware/rehearse-in-vm.sh --nights 2 --short    # 4 scenarios a night, one of them tcp (the rig test's form)
#   bash Rigs/hardware/rehearse-in-vm.sh --output DIR          # where the nights come back (default /tmp/hil-rehearsal)
#
# HIL=path uses a hil already built (release) instead of building it. From the host this builds hil, boots the vm
# rig (`hil vm exec`) and runs itself inside (--in-guest). There, as root, the guest (its system bus, btvirt's hci0
# and hci1, bluetoothd on the system bus, /dev/uinput) becomes the box:
#   1. systemd-udevd runs, so install.sh's udev rule applies to /dev/uinput and the verifier's event node for real;
#   2. Rigs/hardware/install.sh runs as on a box (HIL_BINARY: the hil built here): group and user hil, the D-Bus
#      policy (the guest's bus reloads it), the udev and polkit rules, hil and both suites in /opt/remotetouch-hil;
#   3. the installed Rigs/hardware.json names the guest's controllers (`virtualAdapters`: they are btvirt's) and
#      takes the vm rig's latencyScale (TCG is slower than a box);
#   4. what the guest cannot be: it has no systemd, so there is no timer, and the restartBluetoothd step
#      (`systemctl restart bluetooth.service` through the polkit rule) cannot run as user hil: the installed copy of
#      Scenarios-nightly/faults/bluetoothd-restart.json is left out, and the rehearsal says so;
#   5. `hil doctor --rig hardware` as user hil, then NIGHTS runs of nightly.sh as hil-nightly.service runs it: user
#      hil, UMask 0077, XDG_STATE_HOME, a clean environment, from /opt/remotetouch-hil, into /var/lib/hil/nightly.
# The nights and their history page come back to DIR/nightly. It ends with the last night's "N passed, M failed"
# and the page's path; the exit status is 0 only when every night passed and the history was written.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"

guest() {
    local nights=$1 short=$2 hil=$3
    say() { echo "rehearsal: $*"; }
    say "the guest as the box: $(uname -r), $(ls /sys/class/bluetooth | tr '\n' ' ')"
    /lib/systemd/systemd-udevd --daemon
    HIL_BINARY=$hil bash Rigs/hardware/install.sh
    udevadm settle --timeout=30
    local box=/opt/remotetouch-hil
    python3 - "$box/Rigs/hardware.json" Rigs/vm.json <<'PY'
import json, sys
rig = json.load(open(sys.argv[1]))
rig["virtualAdapters"] = True
rig["latencyScale"] = json.load(open(sys.argv[2]))["latencyScale"]
rig["description"] += " Rehearsed in the vm guest: its adapters are btvirt's controllers."
json.dump(rig, open(sys.argv[1], "w"), indent=2)
PY
    rm "$box/Scenarios-nightly/faults/bluetoothd-restart.json"
    say "left out: faults/bluetoothd-restart.json (restartBluetoothd restarts bluetooth.service through systemctl and the polkit rule; the guest has no systemd)"
    if [[ $short == 1 ]]; then
        find "$box/Scenarios" "$box/Scenarios-nightly" -name '*.json' ! -name requirements.json ! -name scenario.schema.json \
            ! -path '*/clicks/tap-and-double-tap.json' ! -path '*/permissions/uinput-denied-refuses-to-start.json' \
            ! -path '*/clicks/single-taps-301-ms-apart.json' ! -path '*/network/bonjour-discovery-and-click.json' -delete
        say "short form: $(find "$box/Scenarios" "$box/Scenarios-nightly" -name '*.json' ! -name requirements.json ! -name scenario.schema.json | wc -l) scenarios a night"
    fi
    # The box here is the guest: it cannot boot the vm rig the Bumble phone's runs ask for, and the mutation run
    # builds the tree with a Swift toolchain the box is not given. Each is rehearsed where it runs (the rig tests).
    say "left out: the Bumble phone's runs (HIL_BUMBLE=0: they boot the vm rig) and the mutation run (HIL_MUTANTS=0: it builds the tree)"
    install -d -o hil -g hil -m 0750 /var/lib/hil /var/lib/hil/state
    # As hil-nightly.service: user hil, UMask 0077, its Environment=, nothing else from this shell.
    as_hil() {
        env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/var/lib/hil LANG=C.UTF-8 \
            XDG_STATE_HOME=/var/lib/hil/state setpriv --reuid=hil --regid=hil --init-groups \
            bash -c 'umask 0077 && cd /opt/remotetouch-hil && exec "$@"' as-hil "$@"
    }
    say "hil doctor --rig hardware, as user hil:"
    as_hil ./hil doctor --rig hardware || say "hil doctor exited $? (the nights below show what that costs)"
    local failed=0
    for ((night = 1; night <= nights; night++)); do
        say "night $night of $nights"
        local status=0
        as_hil env HIL_BUMBLE=0 HIL_MUTANTS=0 Rigs/hardware/nightly.sh /var/lib/hil/nightly >"/tmp/night-$night.log" 2>&1 || status=$?
        grep -E '^[0-9]+ passed, ' "/tmp/night-$night.log" | tail -1 || true
        if ((status != 0)); then
            failed=$((failed + 1))
            say "night $night: nightly.sh exited $status; its last lines:"
            tail -n 40 "/tmp/night-$night.log"
        fi
    done
    mkdir -p "$HIL_SHARE/results"
    cp -r /var/lib/hil/nightly "$HIL_SHARE/results/"
    local latest
    latest=$(readlink /var/lib/hil/nightly/latest)
    [[ -s /var/lib/hil/nightly/$latest/history.html ]] || { say "no history page was written"; failed=$((failed + 1)); }
    say "$nights night(s), $failed failed; the history: nightly/$latest/history.html"
    ((failed == 0))
}

if [[ ${1:-} == --in-guest ]]; then
    guest "$2" "$3" "$4"
    exit
fi

nights=3 short=0 out=/tmp/hil-rehearsal
while (($#)); do
    case $1 in
    --nights) nights=${2:?--nights N}; shift 2 ;;
    --short) short=1; shift ;;
    --output) out=${2:?--output DIR}; shift 2 ;;
    *) echo "usage: bash Rigs/hardware/rehearse-in-vm.sh [--nights N] [--short] [--output DIR]" >&2; exit 64 ;;
    esac
done
[[ $nights =~ ^[1-9][0-9]?$ ]] || { echo "rehearse-in-vm: --nights is 1 to 99, not '$nights'" >&2; exit 64; }
hil=${HIL:-}
if [[ -z $hil ]]; then
    swift build -c release --product hil
    hil="$(swift build -c release --show-bin-path)/hil"
fi
[[ -x $hil ]] || { echo "rehearse-in-vm: $hil is not an executable hil" >&2; exit 64; }
hil=$(realpath "$hil")
rm -rf "$out"
status=0
"$hil" vm exec --timeout 3h --output "$out" -- bash Rigs/hardware/rehearse-in-vm.sh --in-guest "$nights" "$short" "$hil" || status=$?
[[ -e $out/nightly/latest ]] && echo "rehearsal: the history page: $out/nightly/$(readlink "$out/nightly/latest")/history.html"
exit "$status"
