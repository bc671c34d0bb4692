#!/bin/sh
# Guest side of the HIL vm rig: PID 1 after switch_root (see init.sh), running on the
# host's root filesystem (read-only 9p + tmpfs overlay). Brings up the virtual
# Bluetooth rig (dbus-daemon, `btvirt -L -lN`, bluetoothd), waits until hci0…hci(N-1)
# are powered, prints `HIL-RIG-READY <seconds since boot>`, runs the host's job and
# powers the VM off.
#
# Share (/hil/share, 9p tag `hilshare`, read-write) contract:
#   in : job.sh     POSIX sh script run with `sh`, cwd /, stdin /dev/null; it does its
#                   own `cd`/`export`. stdout and stderr are the serial console: a tty
#                   (so output is line-buffered and streams live) set to -onlcr (plain
#                   \n), with TERM=dumb against colours and progress bars.
#                   Environment: PATH, HOME=/root, LANG=C.UTF-8, TERM=dumb,
#                   HIL_RIG=vm, HIL_SHARE=/hil/share. Processes the job leaves behind
#                   are not waited for: the VM powers off when job.sh exits.
#   out: exit-code  the job's exit status, or 125 if the rig never became ready
#        rig-error  one line: why the rig failed (only then)
#        logs/      btvirt.log, bluetoothd.log, dbus.log, dmesg.log
# Kernel command line knobs (the kernel hands name=value words to init's environment):
#   HIL_READY_TIMEOUT=SECS  how long to wait for the rig (default 30)
#   HIL_CONTROLLERS=N       how many btvirt controllers, hci0…hci(N-1), 2 per lane (default 2)
#   HIL_RIG_UP=0            start nothing (no dbus, btvirt, bluetoothd): a bare guest
set -eu

PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export PATH
SHARE=/hil/share
LOGS=/run/hil-logs
BUSYBOX=/hil/bin/busybox
READY_TIMEOUT=${HIL_READY_TIMEOUT:-30}
CONTROLLERS=${HIL_CONTROLLERS:-2}
ADAPTERS=$(awk -v n="$CONTROLLERS" 'BEGIN { for (i = 0; i < n; i++) printf "hci%d ", i }')
RIG_FAILED_STATUS=125

uptime_s() { cut -d' ' -f1 /proc/uptime; }
# HIL_DEBUG=1 on the kernel command line: print timestamps of the boot stages.
stage() { [ -z "${HIL_DEBUG:-}" ] || echo "HIL-STAGE $1 $(uptime_s)"; }

# Copy the logs to the share, then power off (never returns; PID 1 must not exit).
finish() {
    trap - EXIT
    mkdir -p "$SHARE/logs" 2>/dev/null || :
    dmesg >"$LOGS/dmesg.log" 2>&1 || :
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
    for f in btvirt bluetoothd dbus; do
        echo "--- last lines of $f.log ---"
        tail -n 15 "$LOGS/$f.log" 2>/dev/null || :
    done
    echo "--- kernel messages (bluetooth/crypto) ---"
    dmesg 2>/dev/null | grep -i -E 'bluetooth|hci|ecdh|drbg|alg|uinput|error|fail' | tail -n 20 || :
    echo "$RIG_FAILED_STATUS" >"$SHARE/exit-code" || :
    finish
}
trap 'rig_error "guest-run.sh failed unexpectedly"' EXIT

# Fresh /run: the host's copy holds its own dbus and bluetoothd sockets and pid files. /tmp stays the
# host's (through the overlay, so guest writes stay in the guest): a project checked out under /tmp, as a
# CI clone may be, must be visible to the job.
mount -t tmpfs -o mode=755,nosuid,nodev tmpfs /run
mkdir -p /dev/pts /dev/shm "$LOGS"
mount -t devpts -o mode=620,ptmxmode=666 devpts /dev/pts
mount -t tmpfs -o mode=1777,nosuid,nodev tmpfs /dev/shm
mount -t debugfs none /sys/kernel/debug
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
    btvirt -L "-l$CONTROLLERS" >"$LOGS/btvirt.log" 2>&1 &
    btvirt_pid=$!
    /usr/libexec/bluetooth/bluetoothd -n >"$LOGS/bluetoothd.log" 2>&1 &
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

    # Running and not a zombie (PID 1 sh does not reap background jobs until `wait`).
    alive() {
        [ -r "/proc/$1/stat" ] && ! grep -q ') Z ' "/proc/$1/stat" 2>/dev/null
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
        sleep 0.1
    done
    echo "HIL-RIG-READY $(uptime_s)"
fi

trap 'rig_error "guest-run.sh failed while running the job"' EXIT
set +e
env -i PATH="$PATH" HOME=/root LANG=C.UTF-8 TERM=dumb HIL_RIG=vm HIL_SHARE="$SHARE" \
    sh "$SHARE/job.sh" </dev/null >/dev/console 2>&1
status=$?
set -e
echo "$status" >"$SHARE/exit-code"
finish
