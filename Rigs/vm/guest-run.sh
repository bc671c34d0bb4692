#!/bin/sh
# Guest side of the HIL vm rig: PID 1 after switch_root (see init.sh), running on the
# host's root filesystem (read-only 9p + tmpfs overlay). Brings up the virtual
# Bluetooth rig (dbus-daemon, `btvirt -L -lN`, bluetoothd), waits until hci0…hci(N-1)
# are powered, brings up the network transports' hosts (two-hosts.sh: namespaces
# hil-phone, hil-computer and hil-attacker, each on a veth to the bridge hilbr0 in
# hil-lan; a D-Bus and an avahi-daemon each for the phone and the computer), prints
# `HIL-RIG-READY <seconds since boot>`, runs the host's job and powers the VM off. If
# the two hosts fail, it prints `HIL-NET-ERROR <why>` and the job still runs, without
# the HIL_NET_* variables.
#
# Share (/hil/share, 9p tag `hilshare`, read-write) contract:
#   in : job.sh     POSIX sh script run with `sh`, cwd /, stdin /dev/null; it does its
#                   own `cd`/`export`. stdout and stderr are the serial console: a tty
#                   (so output is line-buffered and streams live) set to -onlcr (plain
#                   \n), with TERM=dumb against colours and progress bars.
#                   Environment: PATH, HOME=/root, LANG=C.UTF-8, TERM=dumb,
#                   HIL_RIG=vm, HIL_SHARE=/hil/share, HIL_SCRATCH=/run/hil-scratch (tmpfs:
#                   hil run keeps each scenario's files there while it runs, as every
#                   write to the share crosses to QEMU), and when the hosts are up
#                   HIL_NET_{PHONE,COMPUTER}_{NETNS,BUS,ADDRESS} and
#                   HIL_NET_ATTACKER_{NETNS,ADDRESS} (two-hosts.sh env; the
#                   avahi-daemons may still be probing their host names: see
#                   net_start). Processes the job leaves behind are not waited
#                   for: the VM powers off when job.sh exits.
#        interrupt  made by the host to stop the job (Ctrl-C, timeout): the job gets SIGTERM
#   out: exit-code  the job's exit status, or 125 if the rig never became ready
#        rig-error  one line: why the rig failed (only then)
#        logs/      btvirt.log, bluetoothd.log, dbus.log, dmesg.log, radio-K.log (a bridge
#                   each, with the radio model), net.log (the two
#                   hosts' bring-up, with times since boot), net-{phone,computer}-{dbus,avahi}.log
# Kernel command line knobs (the kernel hands name=value words to init's environment):
#   HIL_READY_TIMEOUT=SECS  how long to wait for the rig (default 30)
#   HIL_CONTROLLERS=N       how many btvirt controllers, hci0…hci(N-1), 2 per lane (default 2)
#   HIL_RIG_UP=0            start nothing (no dbus, btvirt, bluetoothd): a bare guest
#   HIL_RADIO_INTERVAL_MS=MS the radio model (../README.md, "The radio model"): instead of `btvirt -L -lN`, start
#                           `btvirt -L -s` and one `hil radio` bridge per controller (bluetoothd-main.conf in the
#                           share pins the central's interval to MS); absent or 0: immediate. bluetoothd always reads
#                           the share's bluetoothd-main.conf: the rig file's connection parameters in [LE]
#   HIL_RADIO_HIL=PATH      the hil that runs `hil radio` (the host's build, seen through the shared root); each
#                           bridge reads its control FIFO /run/hil-radio/control-K, and the job gets
#                           HIL_RADIO_CONTROL=/run/hil-radio
set -eu

PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export PATH
SHARE=/hil/share
LOGS=/run/hil-logs
BUSYBOX=/hil/bin/busybox
READY_TIMEOUT=${HIL_READY_TIMEOUT:-30}
CONTROLLERS=${HIL_CONTROLLERS:-2}
RADIO_INTERVAL_MS=${HIL_RADIO_INTERVAL_MS:-0}
# HIL_RADIO_ERROR_RATE=P: each bridge fails a transmission with chance P and sends it again (hil radio --error-rate).
RADIO_ERROR_RATE=${HIL_RADIO_ERROR_RATE:-0}
RADIO_HIL=${HIL_RADIO_HIL:-}
# btvirt's LE server socket: a fixed path in BlueZ (emulator/main.c). /tmp is the host's, under the guest's overlay.
RADIO_SOCKET=/tmp/bt-server-le
# Each bridge's control FIFO (control-K): `hil calibrate` writes `delay MS` to them; the job learns the folder
# through HIL_RADIO_CONTROL.
RADIO_CONTROL=/run/hil-radio
radio_vars=
ADAPTERS=$(awk -v n="$CONTROLLERS" 'BEGIN { for (i = 0; i < n; i++) printf "hci%d ", i }')
RIG_FAILED_STATUS=125
# The image's copy of Rigs/net/two-hosts.sh (its lib.sh beside it); build-image.sh fills the path in.
NET_SCRIPT=@NET_SCRIPT@

uptime_s() { cut -d' ' -f1 /proc/uptime; }
# HIL_DEBUG=1 on the kernel command line: print timestamps of the boot stages.
stage() { [ -z "${HIL_DEBUG:-}" ] || echo "HIL-STAGE $1 $(uptime_s)"; }

# Copy the logs to the share, then power off (never returns; PID 1 must not exit).
finish() {
    trap - EXIT
    mkdir -p "$SHARE/logs" 2>/dev/null || :
    dmesg >"$LOGS/dmesg.log" 2>&1 || :
    # The radio bridges write their totals (packets held, how long after their events they went) when stopped.
    for pid in $radio_pids; do kill -TERM "$pid" 2>/dev/null || :; done
    for pid in $radio_pids; do
        waited=0
        while alive "$pid" && [ "$waited" -lt 20 ]; do sleep 0.05; waited=$((waited + 1)); done
    done
    cp "$LOGS"/*.log "$SHARE/logs/" 2>/dev/null || :
    sync
    echo 0 >/proc/sys/kernel/printk  # no "reboot: Power down" after the job's output
    "$BUSYBOX" poweroff -f
    while :; do sleep 60; done
}

rig_error() {
    echo "HIL-RIG-ERROR $*"
    echo "$*" >"$SHARE/rig-error" || :
    echo "--- diagnostics ---"
    echo "adapters:" /sys/class/bluetooth/*
    ls -l /dev/uinput /dev/vhci 2>&1 || :
    for f in btvirt bluetoothd dbus $(cd "$LOGS" 2>/dev/null && ls radio-*.log 2>/dev/null | sed 's/\.log$//'); do
        echo "--- last lines of $f.log ---"
        tail -n 15 "$LOGS/$f.log" 2>/dev/null || :
    done
    echo "--- kernel messages (bluetooth/crypto) ---"
    dmesg 2>/dev/null | grep -i -E 'bluetooth|hci|ecdh|drbg|alg|uinput|error|fail' | tail -n 20 || :
    echo "$RIG_FAILED_STATUS" >"$SHARE/exit-code" || :
    finish
}
trap 'rig_error "guest-run.sh failed unexpectedly"' EXIT

# The network transports' two hosts (two-hosts.sh), brought up once the adapters are ready: started beside
# BlueZ they slowed its bring-up by as much as they took. HIL-RIG-READY waits for `up --no-wait` (namespaces,
# bridge, veths, both buses listening, both avahi-daemons started: 0.5 to 0.8 s under TCG), not for the avahi-daemons
# to finish probing their host names (about 2 s more); a job that publishes or browses waits for that itself
# (Server.GetState = 2, or `two-hosts.sh wait`). The wait started below only logs when they run. The two hosts
# never fail the rig: without them BLE jobs run as before, and the job gets no HIL_NET_* variables.
net_pid=
net_vars=
net_start() {
    echo "up started at $(uptime_s) s since boot" >"$LOGS/net.log"
    if [ ! -f "$NET_SCRIPT" ]; then
        echo "two-hosts: error: $NET_SCRIPT not found (the vm image's copy of Rigs/net/two-hosts.sh)" >>"$LOGS/net.log"
        return 0
    fi
    HIL_NET_LOGS="$LOGS" bash "$NET_SCRIPT" up --no-wait >>"$LOGS/net.log" 2>&1 &
    net_pid=$!
}
net_finish() {
    if [ -n "$net_pid" ] && wait "$net_pid" && [ -s /run/hil-net/env ]; then
        while read -r line; do net_vars="$net_vars $line"; done </run/hil-net/env  # `two-hosts.sh env`, as `up` wrote it
        echo "up (avahi-daemons starting), seen at $(uptime_s) s since boot" >>"$LOGS/net.log"
        stage net-up
        { HIL_NET_LOGS="$LOGS" bash "$NET_SCRIPT" wait 60 && echo "avahi-daemons running at $(uptime_s) s since boot"; } \
            >>"$LOGS/net.log" 2>&1 &
    else
        reason=$(grep -m 1 'two-hosts: error: ' "$LOGS/net.log" | sed 's/.*two-hosts: error: //') || :
        [ -n "$reason" ] || reason=$(grep -v ' since boot$' "$LOGS/net.log" | tail -n 1)
        echo "HIL-NET-ERROR ${reason:-two-hosts.sh up failed} (the job runs without HIL_NET_*; logs: net.log, net-*.log)"
        echo "failed, seen at $(uptime_s) s since boot" >>"$LOGS/net.log"
    fi
}

# The radio model (HIL_RADIO_INTERVAL_MS above 0): btvirt's server makes a controller for each client of its LE
# socket, and one `hil radio` per controller bridges it to a controller of the kernel's (/dev/vhci), holding ACL data
# until its link's next connection event. The bridges start at once (each takes a Swift start-up); their controllers
# get hci0…hci(N-1) in whatever order they come, and all are alike. Sets btvirt_pid and radio_pids.
radio_pids=
radio_start() {
    [ -x "$RADIO_HIL" ] || rig_error "the radio model needs hil: HIL_RADIO_HIL='$RADIO_HIL' is no executable"
    mkdir -p "$RADIO_CONTROL"
    radio_vars="HIL_RADIO_CONTROL=$RADIO_CONTROL"
    rm -f "$RADIO_SOCKET"
    btvirt -L -s >"$LOGS/btvirt.log" 2>&1 &
    btvirt_pid=$!
    waited=0
    while [ ! -S "$RADIO_SOCKET" ]; do
        alive "$btvirt_pid" || rig_error "btvirt -L -s exited"
        [ "$waited" -lt 50 ] || rig_error "btvirt -L -s made no $RADIO_SOCKET within 5 s"
        sleep 0.1
        waited=$((waited + 1))
    done
    i=0
    while [ "$i" -lt "$CONTROLLERS" ]; do
        "$RADIO_HIL" radio --vhci /dev/vhci --socket "$RADIO_SOCKET" --interval-ms "$RADIO_INTERVAL_MS" --error-rate "$RADIO_ERROR_RATE" \
            --control "$RADIO_CONTROL/control-$i" --log "$LOGS/radio-$i.log" >>"$LOGS/radio-$i.log" 2>&1 &
        radio_pids="$radio_pids $!"
        i=$((i + 1))
    done
    stage radio-started
}

# Running and not a zombie (PID 1 sh does not reap background jobs until `wait`).
alive() {
    [ -r "/proc/$1/stat" ] && ! grep -q ') Z ' "/proc/$1/stat" 2>/dev/null
}

# Fresh /run: the host's copy holds its own dbus and bluetoothd sockets and pid files. /tmp stays the
# host's (through the overlay, so guest writes stay in the guest): a project checked out under /tmp, as a
# CI clone may be, must be visible to the job.
mount -t tmpfs -o mode=755,nosuid,nodev tmpfs /run
mkdir -p /dev/pts /dev/shm "$LOGS"
mount -t devpts -o mode=620,ptmxmode=666 devpts /dev/pts
mount -t tmpfs -o mode=1777,nosuid,nodev tmpfs /dev/shm
mount -t debugfs none /sys/kernel/debug
# What udev would make: bash's process substitution (<(...)) needs /dev/fd.
[ -e /dev/fd ] || ln -s /proc/self/fd /dev/fd
echo hil-vm >/proc/sys/kernel/hostname
ip link set lo up 2>/dev/null || :
# Plain \n on the serial console (the host side adds \r if it shows a terminal).
stty -onlcr </dev/console 2>/dev/null || :

[ -c /dev/uinput ] || rig_error "/dev/uinput missing (uinput module not loaded?)"
[ -r "$SHARE/job.sh" ] || rig_error "no job.sh in the share"

stage guest-run
if [ "${HIL_RIG_UP:-1}" = 0 ]; then
    # A bare guest (hil vm exec --bare): the kernel's hci_vhci and uinput, nothing started. For testing
    # rig bring-up code itself, such as the virtual rig's.
    echo "HIL-RIG-READY $(uptime_s) bare"
else
    mkdir -p /run/dbus
    dbus-daemon --system --fork >"$LOGS/dbus.log" 2>&1 || rig_error "dbus-daemon --system failed to start"
    stage dbus-started
    # The rig file's connection parameters (the radio's interval pinned under the radio model), in [LE] of the
    # host's main.conf: VMRunner writes it into the share.
    [ -r "$SHARE/bluetoothd-main.conf" ] || rig_error "no bluetoothd-main.conf in the share: the rig's connection parameters"
    mkdir -p /run/hil-bluetooth
    cp "$SHARE/bluetoothd-main.conf" /run/hil-bluetooth/main.conf
    bluetoothd_args="-f /run/hil-bluetooth/main.conf"
    if [ "$RADIO_INTERVAL_MS" = 0 ]; then
        btvirt -L "-l$CONTROLLERS" >"$LOGS/btvirt.log" 2>&1 &
        btvirt_pid=$!
    else
        radio_start
    fi
    # shellcheck disable=SC2086
    /usr/libexec/bluetooth/bluetoothd -n $bluetoothd_args >"$LOGS/bluetoothd.log" 2>&1 &
    bluetoothd_pid=$!

    # Adapter property via D-Bus; prints "true", "false" or nothing (no such adapter yet).
    powered() {
        dbus-send --system --print-reply=literal --reply-timeout=2000 --dest=org.bluez \
            "/org/bluez/$1" org.freedesktop.DBus.Properties.Get \
            string:org.bluez.Adapter1 string:Powered 2>/dev/null | awk '{print $NF}'
    }

    power_on() {
        dbus-send --system --print-reply --reply-timeout=5000 --dest=org.bluez \
            "/org/bluez/$1" org.freedesktop.DBus.Properties.Set \
            string:org.bluez.Adapter1 string:Powered variant:boolean:true >/dev/null 2>&1 || :
    }

    stage daemons-started
    start=$(uptime_s)
    deadline=$(awk -v s="$start" -v t="$READY_TIMEOUT" 'BEGIN { printf "%d", s + t }')
    while :; do
        ready=yes
        for hci in $ADAPTERS; do
            case $(powered "$hci") in
                true) ;;
                false) stage "$hci-unpowered"; ready=no; power_on "$hci" ;;
                *) ready=no ;;
            esac
        done
        [ "$ready" = yes ] && break
        now=$(uptime_s)
        if [ "${now%.*}" -ge "$deadline" ]; then
            rig_error "not all of $ADAPTERS powered after ${READY_TIMEOUT}s"
        fi
        alive "$btvirt_pid" || rig_error "btvirt exited"
        alive "$bluetoothd_pid" || rig_error "bluetoothd exited"
        for pid in $radio_pids; do alive "$pid" || rig_error "a hil radio bridge exited (logs: radio-*.log)"; done
        sleep 0.1
    done
    stage adapters-ready
    net_start
    echo "adapters ready at $(uptime_s) s since boot" >>"$LOGS/net.log"
    net_finish
    echo "HIL-RIG-READY $(uptime_s)"
fi

trap 'rig_error "guest-run.sh failed while running the job"' EXIT
set +e
# $net_vars: NAME=value words without spaces (two-hosts.sh env), or nothing.
# shellcheck disable=SC2086
mkdir -p /run/hil-scratch
env -i PATH="$PATH" HOME=/root LANG=C.UTF-8 TERM=dumb HIL_RIG=vm HIL_SHARE="$SHARE" HIL_SCRATCH=/run/hil-scratch $net_vars $radio_vars \
    sh "$SHARE/job.sh" </dev/null >/dev/console 2>&1 &
job_pid=$!
# The host asks the job to stop (a first Ctrl-C, or the timeout) by creating $SHARE/interrupt: the job gets SIGTERM
# (a background job of a non-interactive shell ignores SIGINT), ends as on Ctrl-C (a hil run writes its results so
# far), and the guest powers off as after any job.
(
    while [ ! -e "$SHARE/interrupt" ]; do sleep 1; done
    echo "HIL-INTERRUPT $(uptime_s)"
    kill -TERM "$job_pid" 2>/dev/null
) &
interrupt_watch=$!
wait "$job_pid"
status=$?
kill "$interrupt_watch" 2>/dev/null
set -e
echo "$status" >"$SHARE/exit-code"
finish
