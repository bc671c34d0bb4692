#!/bin/bash
# Two hosts on one Linux kernel, for the network transports (tcp, udp, Bonjour discovery): the phone and the
# computer each get a network namespace, joined by a veth pair, and each namespace its own system-style D-Bus
# and its own avahi-daemon on it. Only real parts: iproute2, dbus-daemon and avahi-daemon from Debian.
#
#   host      netns          interface  address       D-Bus (DBUS_SYSTEM_BUS_ADDRESS)     mDNS host name
#   phone     hil-phone      hilp0      10.77.0.2/24  unix:path=/run/hil-net/phone/bus     hil-phone.local
#   computer  hil-computer   hilc0      10.77.0.1/24  unix:path=/run/hil-net/computer/bus  hil-computer.local
#
# Usage (as root; the vm rig's guest runs `up` at boot, see Rigs/vm/guest-run.sh):
#   two-hosts.sh up            create what is missing: namespaces, veth, both buses, both avahi-daemons, and wait
#                              until both avahi-daemons run (host names probed; Server.GetState = 2)
#   two-hosts.sh up --no-wait  the same, but return once the daemons are started (avahi still starting)
#   two-hosts.sh wait [SECS]   wait (default 30 s) until both avahi-daemons run
#   two-hosts.sh check         one line per part, `ok ` or `NO `; exit 1 when anything is not ready
#   two-hosts.sh env           the HIL_NET_* variables a job gets (NAME=value lines); prints them whatever the state
#   two-hosts.sh down          stop every process in both namespaces, delete them (and the veth), remove the buses
#
# Files: /run/hil-net/<host>/{bus,dbus.conf,avahi-daemon.conf,*.pid}; /run/hil-net/env (what `env` prints,
# written by a successful `up`); logs in $HIL_NET_LOGS as `up` was given it (default /run/hil-net/logs, else a
# link there): net-<host>-dbus.log, net-<host>-avahi.log. `down` keeps the logs.
#
# Each avahi-daemon gets a private /run/avahi-daemon (its pid file and socket paths are compiled in): it runs
# under `unshare --mount` with a fresh tmpfs there. Its D-Bus is the namespace's bus through
# DBUS_SYSTEM_BUS_ADDRESS, which libdbus honours for the system bus.
set -euo pipefail

# Under TCG every process costs 50-120 ms: this script forks as little as it can (bash builtins, arrays, one
# `ip -batch` per step, the daemons started side by side).
PATH=$PATH:/usr/sbin:/sbin  # avahi-daemon is in /usr/sbin, which a user's PATH may lack
RUN_DIR=/run/hil-net
LOG_DIR=${HIL_NET_LOGS:-$RUN_DIR/logs}
HOSTS=(phone computer)
declare -A NETNS=([phone]=hil-phone [computer]=hil-computer)
declare -A IFACE=([phone]=hilp0 [computer]=hilc0)
declare -A ADDRESS=([phone]=10.77.0.2 [computer]=10.77.0.1)
declare -A BUS=([phone]=unix:path=$RUN_DIR/phone/bus [computer]=unix:path=$RUN_DIR/computer/bus)
PREFIX_LENGTH=24
TOOL_HINT="run: bash Rigs/setup.sh"

say() { echo "two-hosts: $*"; }
die() { echo "two-hosts: error: $*" >&2; exit 1; }

now() { NOW=${EPOCHREALTIME//[.,]/}; NOW=$((NOW / 1000)); }  # milliseconds, in $NOW
since() { # START_MS: seconds since then, as text in $SINCE
    now
    SINCE=$(((NOW - $1) / 1000)).$(((NOW - $1) % 1000 / 100))
}
nap() { # sleep 50 ms without starting a process: a read that times out on a pipe nobody writes (needs /dev/fd)
    if [ -z "${NAP_FD:-}" ]; then
        if [ -e /dev/fd/0 ]; then exec {NAP_FD}<> <(:); else NAP_FD=none; fi
    fi
    if [ "$NAP_FD" = none ]; then sleep 0.05; else read -r -t 0.05 -u "$NAP_FD" _ || :; fi
}

running() { # PID: it runs and is not a zombie
    local stat
    [ -n "$1" ] && [ -r "/proc/$1/stat" ] && read -r stat <"/proc/$1/stat" 2>/dev/null && [[ $stat != *") Z "* ]]
}
alive() { # PIDFILE: the process it names runs
    local pid=
    [ -r "$1" ] && read -r pid <"$1" && running "$pid"
}

bus_answers() { # HOST
    dbus-send --bus="${BUS[$1]}" --print-reply --reply-timeout=2000 --dest=org.freedesktop.DBus \
        /org/freedesktop/DBus org.freedesktop.DBus.GetId >/dev/null 2>&1
}

avahi_state() { # HOST: prints Server.GetState (2 = running), nothing when avahi does not answer
    local reply
    reply=$(dbus-send --bus="${BUS[$1]}" --print-reply=literal --reply-timeout=2000 --dest=org.freedesktop.Avahi \
        / org.freedesktop.Avahi.Server.GetState 2>/dev/null) || return 0
    echo "${reply##* }"
}

state_name() {
    case $1 in
        0) echo invalid ;; 1) echo "registering (probing its host name)" ;; 2) echo running ;;
        3) echo "in a host name collision" ;; 4) echo "in failure" ;; "") echo "not on its bus" ;; *) echo "in state $1" ;;
    esac
}

last_lines() { # LOG: its last lines, for an error message
    if [ -s "$1" ]; then echo "; last lines of $1:"; tail -n 5 "$1" | sed 's/^/    /'; else echo "; $1 is empty"; fi
}

require_tools() {
    [ "$EUID" = 0 ] || die "$1 needs root (network namespaces, mounts): run it as root"
    local tool package
    for tool in ip:iproute2 unshare:util-linux setsid:util-linux mount:mount dbus-daemon:dbus-daemon \
        dbus-send:dbus-bin avahi-daemon:avahi-daemon; do
        package=${tool#*:}
        tool=${tool%%:*}
        command -v "$tool" >/dev/null 2>&1 || die "$tool not installed (Debian package $package): $TOOL_HINT"
    done
}

netns_exists() { [ -e "/run/netns/$1" ]; }

ensure_network() { # namespaces, the veth pair, addresses, links up: three `ip -batch` runs at most
    local host out commands=
    netns_exists hil-phone || commands+="netns add hil-phone"$'\n'
    netns_exists hil-computer || commands+="netns add hil-computer"$'\n'
    if [ -n "$commands" ] || ! ip -n hil-computer link show hilc0 >/dev/null 2>&1 ||
        ! ip -n hil-phone link show hilp0 >/dev/null 2>&1; then
        if [ -z "$commands" ]; then  # half a pair, from an interrupted `up`
            { ip -n hil-computer link del hilc0 || ip -n hil-phone link del hilp0 || :; } >/dev/null 2>&1
        fi
        commands+="link add hilc0 netns hil-computer type veth peer name hilp0 netns hil-phone"$'\n'
        out=$(ip -batch - <<<"$commands" 2>&1) ||
            die "cannot create the namespaces and the veth pair hilc0/hilp0: $out (the kernel needs network namespaces and veth: module veth, which the vm rig's image loads; /run must be writable)"
    fi
    for host in "${HOSTS[@]}"; do
        ip -n "${NETNS[$host]}" -batch - <<EOF &
link set lo up
addr replace ${ADDRESS[$host]}/$PREFIX_LENGTH dev ${IFACE[$host]}
link set ${IFACE[$host]} multicast on up
EOF
    done
    for host in "${HOSTS[@]}"; do wait -n || die "cannot set the addresses and links up (ip -batch failed; see above)"; done
}

write_file() { # FILE: standard input into it (read and printf are builtins: no `cat` to start)
    local text
    IFS= read -r -d '' text || :
    printf '%s' "$text" >"$1"
}

remove() { # FILE...: those that exist (`rm` costs a process)
    local file
    for file in "$@"; do if [ -e "$file" ] || [ -L "$file" ]; then rm -f "$file"; fi; done
}

write_bus_config() { # HOST
    write_file "$RUN_DIR/$1/dbus.conf" <<EOF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<!-- The $1's system bus in the two-hosts rig (Rigs/net/two-hosts.sh): private to the rig, so permissive. -->
<busconfig>
  <type>system</type>
  <listen>${BUS[$1]}</listen>
  <auth>EXTERNAL</auth>
  <!-- Any local user may connect (avahi-daemon runs as user avahi), own any name (org.freedesktop.Avahi among
       them), send and receive: what avahi-dbus.conf grants root and avahi, and more. The packages' policy files
       (/usr/share/dbus-1/system.d) are not included: they would only restrict, and parsing them costs time. -->
  <policy context="default">
    <allow user="*"/>
    <allow own="*"/>
    <allow send_destination="*" eavesdrop="true"/>
    <allow receive_sender="*"/>
  </policy>
</busconfig>
EOF
}

write_avahi_config() { # HOST
    write_file "$RUN_DIR/$1/avahi-daemon.conf" <<EOF
# The $1's avahi-daemon in the two-hosts rig (Rigs/net/two-hosts.sh).
[server]
host-name=${NETNS[$1]}
domain-name=local
use-ipv4=yes
use-ipv6=no
allow-interfaces=${IFACE[$1]}
enable-dbus=yes
ratelimit-interval-usec=1000000
ratelimit-burst=1000

[wide-area]
enable-wide-area=no

[publish]
publish-workstation=no
publish-hinfo=no
publish-addresses=yes
publish-aaaa-on-ipv4=no
publish-a-on-ipv6=no

[reflector]
enable-reflector=no
EOF
}

stop_pidfile() { # PIDFILE: stop the daemon it names, if any (a stale or half-started one before a restart)
    local pid=
    if [ -r "$1" ] && read -r pid <"$1" && running "$pid"; then kill "$pid" 2>/dev/null || :; fi
    remove "$1"
}

# The daemons: setsid (their own session, away from a terminal's signals), then every wrapper execs, so $! is
# the daemon's pid. Each log starts afresh with its daemon.
start_bus() { # HOST: started unless it runs and its socket is there
    local host=$1 socket=$RUN_DIR/$1/bus pidfile=$RUN_DIR/$1/dbus.pid
    if alive "$pidfile" && [ -S "$socket" ]; then return 0; fi
    stop_pidfile "$pidfile"
    remove "$socket"
    write_bus_config "$host"
    setsid ip netns exec "${NETNS[$host]}" dbus-daemon --config-file="$RUN_DIR/$host/dbus.conf" --nofork --nopidfile \
        </dev/null >"$LOG_DIR/net-$host-dbus.log" 2>&1 &
    echo $! >"$pidfile"
}

await_bus() { # HOST: until its socket exists (dbus-daemon listens before it serves; clients queue)
    local host=$1 start
    now
    start=$NOW
    until [ -S "$RUN_DIR/$host/bus" ]; do
        alive "$RUN_DIR/$host/dbus.pid" || die "the $host's dbus-daemon exited$(last_lines "$LOG_DIR/net-$host-dbus.log")"
        now
        [ $((NOW - start)) -lt 10000 ] ||
            die "the $host's dbus-daemon did not listen on ${BUS[$host]} within 10 s$(last_lines "$LOG_DIR/net-$host-dbus.log")"
        nap
    done
}

start_avahi() { # HOST: started unless it runs
    local host=$1 pidfile=$RUN_DIR/$1/avahi.pid
    if alive "$pidfile"; then return 0; fi
    stop_pidfile "$pidfile"
    write_avahi_config "$host"
    # Its own /run/avahi-daemon: a mount namespace (unshare --mount) with a fresh tmpfs there.
    # --no-chroot: chrooted in /etc/avahi it could never reach the bus again, whose socket is under /run/hil-net
    #   (avahi connects before the chroot, and in a chroot gives up instead of waiting for a restarted bus); a
    #   throwaway rig gains nothing from that confinement. Root is still dropped (to user avahi, which our bus
    #   policy lets own org.freedesktop.Avahi): no --no-drop-root.
    # shellcheck disable=SC2016  # $1 is the inner shell's
    DBUS_SYSTEM_BUS_ADDRESS=${BUS[$host]} setsid ip netns exec "${NETNS[$host]}" unshare --mount --propagation private \
        sh -c 'mount -t tmpfs -o mode=755,nosuid,nodev tmpfs /run/avahi-daemon && exec avahi-daemon --file="$1" --no-chroot' \
        sh "$RUN_DIR/$host/avahi-daemon.conf" </dev/null >"$LOG_DIR/net-$host-avahi.log" 2>&1 &
    echo $! >"$pidfile"
}

avahi_still_starting() { # HOST: we started it and its log does not yet say "Server startup complete" (read
    local line log=$LOG_DIR/net-$1-avahi.log  # without starting a process); unknown (no pid file or log): false
    [ -e "$RUN_DIR/$1/avahi.pid" ] && [ -r "$log" ] || return 1
    while IFS= read -r line; do
        [[ $line != "Server startup complete."* ]] || return 1
    done <"$log"
    return 0
}

cmd_up() { # [--no-wait]
    local start host
    now
    start=$NOW
    require_tools up
    local folder folders=("$LOG_DIR" "$RUN_DIR/phone" "$RUN_DIR/computer" /run/avahi-daemon)
    for folder in "${folders[@]}"; do
        if [ ! -d "$folder" ]; then mkdir -p "${folders[@]}"; break; fi
    done
    remove "$RUN_DIR/env"
    # Logs elsewhere (the vm guest's): /run/hil-net/logs points there, for the other subcommands and for people.
    if [ "$LOG_DIR" != "$RUN_DIR/logs" ] && [ ! -e "$RUN_DIR/logs" ]; then ln -sfn "$LOG_DIR" "$RUN_DIR/logs"; fi
    ensure_network
    for host in "${HOSTS[@]}"; do start_bus "$host"; done
    for host in "${HOSTS[@]}"; do await_bus "$host"; done
    for host in "${HOSTS[@]}"; do start_avahi "$host"; done
    since "$start"
    if [ "${1:-}" = --no-wait ]; then
        cmd_env >"$RUN_DIR/env"
        say "up after $SINCE s: hil-phone 10.77.0.2 and hil-computer 10.77.0.1 on veth, a bus each, avahi-daemons starting (\`two-hosts.sh wait\` until both run)"
        return 0
    fi
    cmd_wait 30
    cmd_env >"$RUN_DIR/env"
    since "$start"
    say "up after $SINCE s: hil-phone 10.77.0.2 and hil-computer 10.77.0.1 on veth, a bus and a running avahi-daemon each"
}

cmd_wait() { # SECONDS: until both avahi-daemons run, confirmed on their buses (Server.GetState = 2)
    local seconds=$1 start host state pending=("${HOSTS[@]}") left
    case $seconds in '' | *[!0-9]*) die "wait takes whole seconds, not '$seconds'" ;; esac
    now
    start=$NOW
    while :; do
        left=()
        for host in "${pending[@]}"; do
            if [ -e "$RUN_DIR/$host/avahi.pid" ] && ! alive "$RUN_DIR/$host/avahi.pid"; then
                die "the $host's avahi-daemon exited$(last_lines "$LOG_DIR/net-$host-avahi.log")"
            fi
            # Its log says when it runs, and only then is the bus asked (a dbus-send costs 100 ms under TCG).
            # Without its pid file or log the bus is asked every time.
            if avahi_still_starting "$host"; then left+=("$host"); continue; fi
            state=$(avahi_state "$host")
            [ "$state" = 2 ] || left+=("$host")
        done
        [ ${#left[@]} -gt 0 ] || break
        pending=("${left[@]}")
        now
        if [ $((NOW - start)) -ge $((seconds * 1000)) ]; then
            for host in "${pending[@]}"; do
                echo "two-hosts: error: the $host's avahi-daemon is $(state_name "$(avahi_state "$host")") after $seconds s$(last_lines "$LOG_DIR/net-$host-avahi.log")" >&2
            done
            exit 1
        fi
        nap
    done
    since "$start"
    say "both avahi-daemons running (waited $SINCE s)"
}

cmd_check() {
    local failed=0 host ns iface address line state name
    report() { # OK? TEXT
        if [ "$1" = yes ]; then echo "ok  $2"; else echo "NO  $2"; failed=1; fi
    }
    for host in "${HOSTS[@]}"; do
        ns=${NETNS[$host]}
        if netns_exists "$ns"; then report yes "namespace $ns"; else report no "namespace $ns: missing (two-hosts.sh up)"; fi
    done
    for host in "${HOSTS[@]}"; do
        ns=${NETNS[$host]}
        iface=${IFACE[$host]}
        address=${ADDRESS[$host]}/$PREFIX_LENGTH
        if ! netns_exists "$ns" || ! line=$(ip -n "$ns" -o -4 addr show dev "$iface" 2>/dev/null); then
            report no "veth $iface in $ns: missing (two-hosts.sh up)"
        elif [[ $line != *" inet $address "* ]]; then
            report no "veth $iface in $ns: no address $address"
        elif [[ $(ip -n "$ns" link show "$iface") != *LOWER_UP* ]]; then
            report no "veth $iface in $ns: $address, but the link is down"
        else
            report yes "veth $iface in $ns: $address, up"
        fi
    done
    for host in "${HOSTS[@]}"; do
        if bus_answers "$host"; then report yes "bus $host: ${BUS[$host]}"; else report no "bus $host: ${BUS[$host]} does not answer"; fi
    done
    for host in "${HOSTS[@]}"; do
        state=$(avahi_state "$host")
        if [ "$state" = 2 ]; then
            name=$(dbus-send --bus="${BUS[$host]}" --print-reply=literal --reply-timeout=2000 --dest=org.freedesktop.Avahi \
                / org.freedesktop.Avahi.Server.GetHostNameFqdn 2>/dev/null || :)
            report yes "avahi $host: running (state 2) as ${name##* }"
        else
            report no "avahi $host: $(state_name "$state")"
        fi
    done
    return "$failed"
}

cmd_env() {
    local host name
    for host in "${HOSTS[@]}"; do
        name=${host^^}
        echo "HIL_NET_${name}_NETNS=${NETNS[$host]}"
        echo "HIL_NET_${name}_BUS=${BUS[$host]}"
        echo "HIL_NET_${name}_ADDRESS=${ADDRESS[$host]}"
    done
}

stop_pids() { # PID...: TERM, up to 3 s, then KILL
    local n=0 pid any
    [ $# -gt 0 ] || return 0
    kill "$@" 2>/dev/null || :
    while [ $n -lt 60 ]; do
        any=
        for pid in "$@"; do if running "$pid"; then any=yes; fi; done
        [ -n "$any" ] || return 0
        nap
        n=$((n + 1))
    done
    kill -KILL "$@" 2>/dev/null || :
}

cmd_down() {
    local host ns pids pid file
    [ "$EUID" = 0 ] || die "down needs root: run it as root"
    for host in "${HOSTS[@]}"; do
        ns=${NETNS[$host]}
        pids=()
        for file in "$RUN_DIR/$host"/*.pid; do
            if [ -r "$file" ] && read -r pid <"$file"; then pids+=("$pid"); fi
        done
        if netns_exists "$ns"; then
            # shellcheck disable=SC2207  # pids: words
            pids+=($(ip netns pids "$ns" 2>/dev/null || :))
        fi
        stop_pids "${pids[@]}"
        if netns_exists "$ns"; then ip netns del "$ns"; fi  # takes its end of the veth, and so the pair, along
        rm -rf "${RUN_DIR:?}/$host"
    done
    remove "$RUN_DIR/env"
    say "down"
}

case ${1:-} in
    up) cmd_up "${2:-}" ;;
    wait) cmd_wait "${2:-30}" ;;
    check) cmd_check ;;
    env) cmd_env ;;
    down) cmd_down ;;
    *)
        echo "usage: $0 up [--no-wait]|wait [SECONDS]|check|env|down   (see the comment at the top of this script)" >&2
        exit 2
        ;;
esac
