# Sourced by two-hosts.sh (bash, never run on its own): its helpers, and each avahi host's D-Bus and
# avahi-daemon. It uses two-hosts.sh's settings: RUN_DIR, LOG_DIR, NETNS, IFACE, BUS.
#
# Under TCG every process costs 50-120 ms: these helpers start none where a bash builtin does (read, printf,
# [[ ]], $EPOCHREALTIME), and the daemons are started side by side.
# shellcheck shell=bash disable=SC2034  # NOW, SINCE: results for the caller

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
    [ -n "$1" ] && [ -r "/proc/$1/stat" ] && read -r stat 2>/dev/null <"/proc/$1/stat" && [[ $stat != *") Z "* ]]
}
alive() { # PIDFILE: the process it names runs
    local pid=
    [ -r "$1" ] && read -r pid <"$1" && running "$pid"
}

last_lines() { # LOG: its last lines, for an error message
    if [ -s "$1" ]; then echo "; last lines of $1:"; tail -n 5 "$1" | sed 's/^/    /'; else echo "; $1 is empty"; fi
}

netns_exists() { [ -e "/run/netns/$1" ]; }

write_file() { # FILE: standard input into it (read and printf are builtins: no `cat` to start)
    local text
    IFS= read -r -d '' text || :
    printf '%s' "$text" >"$1"
}

remove() { # FILE...: those that exist (`rm` costs a process)
    local file
    for file in "$@"; do if [ -e "$file" ] || [ -L "$file" ]; then rm -f "$file"; fi; done
}

stop_pidfile() { # PIDFILE: stop the daemon it names, if any (a stale or half-started one before a restart)
    local pid=
    if [ -r "$1" ] && read -r pid <"$1" && running "$pid"; then kill "$pid" 2>/dev/null || :; fi
    remove "$1"
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

# --- An avahi host's system bus and avahi-daemon (the phone and the computer; the attacker has neither) ---

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
