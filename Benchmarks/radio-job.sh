#!/bin/sh
# The in-guest job of Benchmarks/radio-in-one-guest.sh (which fills in the @NAMES@): for each round and each radio,
# bring that radio up (btvirt, the bridges, bluetoothd, both adapters powered) and run one `hil bench` on it.
set -u
cd "@ROOT@"
# Results go to the share (the guest's writes under /tmp stay in the guest); hil rig exec --output copies them.
out="$HIL_SHARE/results"; hil="@HIL@"; socket=/tmp/bt-server-le
conf=/run/hil-bluetooth/main.conf
[ -r "$conf" ] || { echo "radio-job: no $conf: the guest was not booted with the radio model"; exit 1; }
mkdir -p "$out"
pids=

say() { echo "radio-job: $*"; }

stop_radio() {
    pkill -TERM -x bluetoothd 2>/dev/null
    # The bridges first, so that each writes its totals to its log; btvirt closing their sockets would fail them.
    pkill -TERM -f " radio --vhci " 2>/dev/null
    waited=0
    while pgrep -f " radio --vhci " >/dev/null; do
        [ "$waited" -lt 100 ] || break
        sleep 0.1; waited=$((waited + 1))
    done
    for pid in $pids; do kill -TERM "$pid" 2>/dev/null; done
    pkill -TERM -x btvirt 2>/dev/null
    waited=0
    while pgrep -x bluetoothd >/dev/null || pgrep -x btvirt >/dev/null || pgrep -f " radio --vhci " >/dev/null \
        || [ -n "$(ls /sys/class/bluetooth 2>/dev/null)" ]; do
        [ "$waited" -lt 100 ] || { say "the last radio did not stop within 10 s"; ps ax; exit 1; }
        sleep 0.1; waited=$((waited + 1))
    done
    pids=
}

powered() {
    dbus-send --system --print-reply=literal --reply-timeout=2000 --dest=org.bluez "/org/bluez/$1" \
        org.freedesktop.DBus.Properties.Get string:org.bluez.Adapter1 string:Powered 2>/dev/null | awk '{print $NF}'
}

# start_radio NAME LOG-PREFIX: immediate, bridged or an interval in ms, each with an optional -att (one ATT bearer,
# as the rig's main.conf has it) or -eatt (EATT: 3 bearers, bluetoothd's own default).
start_radio() {
    units=
    channels=
    case $1 in *-eatt) channels=3 ;; *-att) channels=1 ;; esac
    set -- "${1%-*att}" "$2"
    case $1 in
        immediate) btvirt -L -l2 >"$2-btvirt.log" 2>&1 & pids="$!" ;;
        *)
            interval=0
            [ "$1" = bridged ] || interval=$1
            rm -f "$socket"
            btvirt -L -s >"$2-btvirt.log" 2>&1 & pids="$!"
            waited=0
            while [ ! -S "$socket" ]; do
                [ "$waited" -lt 50 ] || { say "btvirt -L -s made no $socket within 5 s"; exit 1; }
                sleep 0.1; waited=$((waited + 1))
            done
            for k in 0 1; do
                "$hil" radio --vhci /dev/vhci --socket "$socket" --interval-ms "$interval" --log "$2-radio-$k.log" \
                    >>"$2-radio-$k.log" 2>&1 &
                pids="$pids $!"
            done
            [ "$interval" = 0 ] || units=$(awk -v i="$interval" 'BEGIN { printf "%d", i / 1.25 + 0.5 }') ;;
    esac
    # The rig's main.conf, with the interval pinned to this radio's (the bridged and immediate radios keep the rig's).
    if [ -n "$units" ]; then
        sed -e "s/^MinConnectionInterval *=.*/MinConnectionInterval=$units/" \
            -e "s/^MaxConnectionInterval *=.*/MaxConnectionInterval=$units/" "$conf" >/run/hil-bluetooth/bench.conf
    else
        cp "$conf" /run/hil-bluetooth/bench.conf
    fi
    # -att: one ATT bearer (bluetoothd's [GATT] Channels = 1): no EATT channels, so no L2CAP credits to wait for;
    # -eatt: 3. The rig's main.conf names Channels already (RigDefinition.bluetoothdMainConf): that line is replaced.
    if [ -n "$channels" ]; then
        if grep -q '^Channels *=' /run/hil-bluetooth/bench.conf; then
            sed -i "s/^Channels *=.*/Channels=$channels/" /run/hil-bluetooth/bench.conf
        elif grep -q '^\[GATT\]' /run/hil-bluetooth/bench.conf; then
            sed -i "s/^\[GATT\]/[GATT]\nChannels = $channels/" /run/hil-bluetooth/bench.conf
        else
            printf '\n[GATT]\nChannels = %s\n' "$channels" >>/run/hil-bluetooth/bench.conf
        fi
    fi
    /usr/libexec/bluetooth/bluetoothd -n -f /run/hil-bluetooth/bench.conf >"$2-bluetoothd.log" 2>&1 &
    waited=0
    until [ "$(powered hci0)" = true ] && [ "$(powered hci1)" = true ]; do
        [ "$waited" -lt 300 ] || { say "hci0 and hci1 not powered within 30 s with radio $1"; exit 1; }
        for hci in hci0 hci1; do
            [ "$(powered $hci)" = false ] && dbus-send --system --print-reply --reply-timeout=5000 --dest=org.bluez \
                "/org/bluez/$hci" org.freedesktop.DBus.Properties.Set string:org.bluez.Adapter1 string:Powered \
                variant:boolean:true >/dev/null 2>&1
        done
        sleep 0.1; waited=$((waited + 1))
    done
}

for round in $(seq @ROUNDS@); do
    for radio in @RADIOS@; do
        name=$radio-$round
        stop_radio
        start_radio "$radio" "$out/$name"
        case ${radio%-*att} in
            immediate|bridged) model=immediate; interval= ;;
            *) model=connectionEvents; interval=${radio%-*att} ;;
        esac
        capture=
        if [ "@CAPTURE@" = 1 ]; then
            btmon -w "/run/hil-scratch/$name.btsnoop" >/dev/null 2>&1 & capture=$!
            sleep 1
        fi
        HIL_RADIO_MODEL=$model HIL_RADIO_INTERVAL_MS=$interval "$hil" bench @ARGS@ --output "$out/$name" \
            >"$out/$name.txt" 2>&1
        status=$?
        # What the emulated controllers and bluetoothd cost in CPU over this radio's life (bring-up and bench).
        ps -eo pid,cputime,etime,args | grep -E " radio --vhci |btvirt|bluetoothd| (bench|peripheral) " | grep -v grep >"$out/$name-cpu.txt"
        if [ -n "$capture" ]; then
            kill -INT "$capture"; wait "$capture"
            cp "/run/hil-scratch/$name.btsnoop" "$out/"
        fi
        [ "$status" = 0 ] || { say "$name: hil bench exited $status:"; tail -n 20 "$out/$name.txt"; exit 1; }
        echo "$name $(grep -E '^(link p50 ms|p99 ms|achieved Hz|lost \(link\))' "$out/$name.txt" | tr -s ' ' | tr '\n' '|')"
    done
done
stop_radio
