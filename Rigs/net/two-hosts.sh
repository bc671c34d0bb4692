#!/bin/bash
# The network transports' hosts on one Linux kernel (the "two hosts", phone and computer, and a third, the
# attacker: another device on the same Wi-Fi, for scenarios that send forged packets). Each host is a network
# namespace with one veth; the veths' other ends are the ports of one Linux bridge, hilbr0, in a namespace of its
# own (hil-lan), so the three share one L2 segment as devices on one Wi-Fi do, and the root namespace stays
# untouched. The phone and the computer each get their own system-style D-Bus and an avahi-daemon on it; the
# attacker gets neither. Only real parts: iproute2, dbus-daemon and avahi-daemon from Debian.
#
#   host      netns          interface  address       D-Bus (DBUS_SYSTEM_BUS_ADDRESS)     mDNS host name
#   phone     hil-phone      hilp0      10.77.0.2/24  unix:path=/run/hil-net/phone/bus     hil-phone.local
#   computer  hil-computer   hilc0      10.77.0.1/24  unix:path=/run/hil-net/computer/bus  hil-computer.local
#   attacker  hil-attacker   hila0      10.77.0.3/24  none                                 none
#   the LAN   hil-lan        hilbr0, a bridge whose ports hilp0-br, hilc0-br, hila0-br are the hosts' veth peers
#
# A host's namespace holds exactly one veth (`ip -n NETNS -o link show type veth`): the runner takes it down for a
# link fault and puts `tc qdisc ... netem` on it. The bridge runs no STP (a port forwards as soon as its link is
# up again), does no multicast snooping (mDNS reaches every port, querier or not), and hil-lan has no address and
# no IPv6 of its own (nothing but the hosts' frames on the LAN). br_netfilter, when loaded, is turned off in hil-lan.
#
# Usage (as root; the vm rig's guest runs `up` at boot, see Rigs/vm/guest-run.sh):
#   two-hosts.sh up            create what is missing: namespaces, bridge, veths, both buses, both avahi-daemons,
#                              and wait until both avahi-daemons run (host names probed; Server.GetState = 2)
#   two-hosts.sh up --no-wait  the same, but return once the daemons are started (avahi still starting)
#   two-hosts.sh wait [SECS]   wait (default 30 s) until both avahi-daemons run
#   two-hosts.sh check         one line per part, `ok ` or `NO `; exit 1 when anything is not ready
#   two-hosts.sh env           the HIL_NET_* variables a job gets (NAME=value lines); prints them whatever the state
#   two-hosts.sh down          stop every process in the namespaces, delete them (and the bridge and veths), remove
#                              the buses
#
# Files: /run/hil-net/<host>/{bus,dbus.conf,avahi-daemon.conf,*.pid}; /run/hil-net/env (what `env` prints,
# written by a successful `up`); logs in $HIL_NET_LOGS as `up` was given it (default /run/hil-net/logs, else a
# link there): net-<host>-dbus.log, net-<host>-avahi.log. `down` keeps the logs. lib.sh, beside this script,
# holds its helpers and the daemons' bring-up (the vm image copies both).
#
# Each avahi-daemon gets a private /run/avahi-daemon (its pid file and socket paths are compiled in): it runs
# under `unshare --mount` with a fresh tmpfs there. Its D-Bus is the namespace's bus through
# DBUS_SYSTEM_BUS_ADDRESS, which libdbus honours for the system bus.
set -euo pipefail

# Under TCG every process costs 50-120 ms: this script forks as little as it can (bash builtins, arrays, one
# `ip -batch` per namespace and step, the namespaces and the daemons set up side by side).
PATH=$PATH:/usr/sbin:/sbin  # avahi-daemon is in /usr/sbin, which a user's PATH may lack
RUN_DIR=/run/hil-net
LOG_DIR=${HIL_NET_LOGS:-$RUN_DIR/logs}
HOSTS=(phone computer)             # the hosts with a bus and an avahi-daemon
ALL_HOSTS=(phone computer attacker)
declare -A NETNS=([phone]=hil-phone [computer]=hil-computer [attacker]=hil-attacker)
declare -A IFACE=([phone]=hilp0 [computer]=hilc0 [attacker]=hila0)  # the bridge's port for each: ${IFACE}-br
declare -A ADDRESS=([phone]=10.77.0.2 [computer]=10.77.0.1 [attacker]=10.77.0.3)
declare -A BUS=([phone]=unix:path=$RUN_DIR/phone/bus [computer]=unix:path=$RUN_DIR/computer/bus)
LAN_NETNS=hil-lan
BRIDGE=hilbr0
PREFIX_LENGTH=24
TOOL_HINT="run: bash Rigs/setup.sh"
BR_NETFILTER=/proc/sys/net/bridge/bridge-nf-call-iptables  # present when br_netfilter is loaded

NET_DIR=${BASH_SOURCE[0]%/*}
[ "$NET_DIR" != "${BASH_SOURCE[0]}" ] || NET_DIR=.
[ -r "$NET_DIR/lib.sh" ] ||
    { echo "two-hosts: error: $NET_DIR/lib.sh missing: it belongs beside two-hosts.sh (git checkout Rigs/net/lib.sh; the vm image copies both, so rebuild it: bash Rigs/vm/build-image.sh)" >&2; exit 1; }
# shellcheck source=lib.sh
source "$NET_DIR/lib.sh"

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

network_commands() { # what `ip -batch` must create in the root namespace, in $COMMANDS: the namespaces, the bridge
    local host ns iface lan_links=  # and each host's veth pair that are missing (one `ip` to list hil-lan's links)
    COMMANDS=
    if netns_exists "$LAN_NETNS"; then
        lan_links=$(ip -n "$LAN_NETNS" -o link show 2>&1) || die "cannot list the links in $LAN_NETNS: $lan_links"
    else
        COMMANDS+="netns add $LAN_NETNS"$'\n'
    fi
    [[ $lan_links == *": $BRIDGE: "* ]] || COMMANDS+="link add $BRIDGE netns $LAN_NETNS type bridge"$'\n'
    for host in "${ALL_HOSTS[@]}"; do
        ns=${NETNS[$host]}
        iface=${IFACE[$host]}
        [[ $lan_links != *": $iface-br@"* ]] || continue  # its pair is whole: a veth pair is made and goes as one
        if ! netns_exists "$ns"; then
            COMMANDS+="netns add $ns"$'\n'
        else  # an end without its port (an older layout's veth, hil-lan deleted): made afresh
            ip -n "$ns" link del "$iface" >/dev/null 2>&1 || :
        fi
        COMMANDS+="link add $iface netns $ns type veth peer name $iface-br netns $LAN_NETNS"$'\n'
    done
}

ensure_network() { # namespaces, bridge, veths, addresses, links up: one `ip -batch`, then one per namespace at once
    local host out lan pid failed=0 pids=()
    network_commands
    if [ -n "$COMMANDS" ]; then
        out=$(ip -batch - <<<"$COMMANDS" 2>&1) ||
            die "cannot create the namespaces, the bridge $BRIDGE and the veth pairs: $out (the kernel needs network namespaces and the modules veth and bridge, which the vm rig's image loads; /run must be writable)"
    fi
    # The bridge: no STP, no multicast snooping, no IPv6 address of its own or its ports'; every port up.
    lan="link set $BRIDGE type bridge stp_state 0 forward_delay 0 mcast_snooping 0"$'\n'
    lan+="link set $BRIDGE addrgenmode none up"$'\n'
    for host in "${ALL_HOSTS[@]}"; do lan+="link set ${IFACE[$host]}-br addrgenmode none master $BRIDGE up"$'\n'; done
    ip -n "$LAN_NETNS" -batch - <<<"$lan" &
    pids+=($!)
    for host in "${ALL_HOSTS[@]}"; do
        ip -n "${NETNS[$host]}" -batch - <<EOF &
link set lo up
addr replace ${ADDRESS[$host]}/$PREFIX_LENGTH dev ${IFACE[$host]}
link set ${IFACE[$host]} multicast on up
EOF
        pids+=($!)
    done
    if [ -e "$BR_NETFILTER" ]; then  # br_netfilter loaded: bridged frames would go through hil-lan's iptables
        # shellcheck disable=SC2016  # the inner bash's variable
        ip netns exec "$LAN_NETNS" "$BASH" -c \
            'for f in /proc/sys/net/bridge/bridge-nf-call-{iptables,ip6tables,arptables}; do echo 0 >"$f"; done' &
        pids+=($!)
    fi
    # Each job by its pid: `wait -n` once returned 127 with every job already reaped (bash 5.2), failing an `up`
    # whose every command had succeeded.
    for pid in "${pids[@]}"; do wait "$pid" || failed=$?; done
    [ "$failed" -eq 0 ] ||
        die "cannot set up the bridge $BRIDGE, the addresses or the links (ip failed with status $failed; see above): as root, bash Rigs/net/two-hosts.sh down, then up"
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
    local hosts="hil-phone 10.77.0.2, hil-computer 10.77.0.1 and hil-attacker 10.77.0.3 on bridge $BRIDGE ($LAN_NETNS)"
    since "$start"
    if [ "${1:-}" = --no-wait ]; then
        cmd_env >"$RUN_DIR/env"
        say "up after $SINCE s: $hosts; a bus each for the phone and the computer, their avahi-daemons starting (\`two-hosts.sh wait\` until both run)"
        return 0
    fi
    cmd_wait 30
    cmd_env >"$RUN_DIR/env"
    since "$start"
    say "up after $SINCE s: $hosts; a bus and a running avahi-daemon each for the phone and the computer"
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

report() { # OK? TEXT: a line of `check`
    if [ "$1" = yes ]; then echo "ok  $2"; else echo "NO  $2"; FAILED=1; fi
}

check_lan() { # the namespaces, the bridge, br_netfilter
    local ns line flags value problems=()
    for ns in "$LAN_NETNS" "${NETNS[phone]}" "${NETNS[computer]}" "${NETNS[attacker]}"; do
        if netns_exists "$ns"; then report yes "namespace $ns"; else report no "namespace $ns: missing (two-hosts.sh up)"; fi
    done
    netns_exists "$LAN_NETNS" || return 0
    if ! line=$(ip -n "$LAN_NETNS" -d -o link show "$BRIDGE" 2>/dev/null); then
        report no "bridge $BRIDGE in $LAN_NETNS: missing (two-hosts.sh up)"
        return 0
    fi
    flags=${line#*<}
    flags=,${flags%%>*},
    [[ $flags == *,UP,* ]] || problems+=(down)
    [[ $line == *" stp_state 0 "* ]] || problems+=("STP on")
    [[ $line == *" mcast_snooping 0 "* ]] || problems+=("multicast snooping on")
    if [ ${#problems[@]} -eq 0 ]; then
        report yes "bridge $BRIDGE in $LAN_NETNS: up, STP off, multicast snooping off (mDNS floods to every port)"
    else
        report no "bridge $BRIDGE in $LAN_NETNS: ${problems[*]} (two-hosts.sh up sets it right)"
    fi
    if [ ! -e "$BR_NETFILTER" ]; then
        report yes "bridge netfilter: br_netfilter not loaded (bridged frames bypass iptables)"
    elif value=$(ip netns exec "$LAN_NETNS" cat "$BR_NETFILTER" 2>/dev/null) && [ "$value" = 0 ]; then
        report yes "bridge netfilter: br_netfilter loaded, off in $LAN_NETNS"
    else
        report no "bridge netfilter: br_netfilter loaded and on in $LAN_NETNS: its iptables would see bridged frames (two-hosts.sh up turns it off)"
    fi
}

check_hosts() { # each host's one veth, its address, and its bridge port
    local host ns iface address line veths port state ports=
    if netns_exists "$LAN_NETNS"; then ports=$(bridge -n "$LAN_NETNS" link show 2>/dev/null || :); fi
    for host in "${ALL_HOSTS[@]}"; do
        ns=${NETNS[$host]}
        iface=${IFACE[$host]}
        address=${ADDRESS[$host]}/$PREFIX_LENGTH
        port=
        if [[ $ports == *": $iface-br@"* ]]; then port=${ports#*": $iface-br@"} && port=${port%%$'\n'*}; fi
        if ! netns_exists "$ns" || ! line=$(ip -n "$ns" -o -4 addr show dev "$iface" 2>/dev/null) ||
            ! veths=$(ip -n "$ns" -o link show type veth 2>/dev/null); then
            report no "veth $iface in $ns (the $host): missing (two-hosts.sh up)"
        elif [[ $line != *" inet $address "* ]]; then
            report no "veth $iface in $ns (the $host): no address $address (two-hosts.sh up)"
        elif [[ $veths != *": $iface@"* || $veths == *$'\n'* ]]; then
            report no "veth $iface in $ns (the $host): $ns must hold one veth, $iface, and holds: $(echo "$veths" | cut -d: -f2 | tr -d '\n')"
        elif [[ $veths != *LOWER_UP* ]]; then
            report no "veth $iface in $ns (the $host): $address, but the link is down (or its bridge port is)"
        elif [[ $port != *" master $BRIDGE state forwarding"* ]]; then
            state=${port#*" master $BRIDGE state "}
            [ "$state" != "$port" ] && state=${state%% *} || state="not on $BRIDGE"
            report no "veth $iface in $ns (the $host): $address, up, but its port $iface-br is $state, not forwarding (a link just up takes a moment: check again; if it stays so, two-hosts.sh down, then up)"
        else
            report yes "veth $iface in $ns (the $host): $address, up, on $BRIDGE through port $iface-br (forwarding)"
        fi
    done
}

check_daemons() { # the phone's and the computer's bus and avahi-daemon
    local host state name
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
}

cmd_check() {
    FAILED=0
    check_lan
    check_hosts
    check_daemons
    return "$FAILED"
}

cmd_env() {
    local host name
    for host in "${HOSTS[@]}"; do
        name=${host^^}
        echo "HIL_NET_${name}_NETNS=${NETNS[$host]}"
        echo "HIL_NET_${name}_BUS=${BUS[$host]}"
        echo "HIL_NET_${name}_ADDRESS=${ADDRESS[$host]}"
    done
    echo "HIL_NET_ATTACKER_NETNS=${NETNS[attacker]}"
    echo "HIL_NET_ATTACKER_ADDRESS=${ADDRESS[attacker]}"
}

remove_namespace() { # NETNS [PIDFILE...]: stop the processes named and every process in the namespace, delete it
    local ns=$1 file pid pids=()
    shift
    for file in "$@"; do
        if [ -r "$file" ] && read -r pid <"$file"; then pids+=("$pid"); fi
    done
    if netns_exists "$ns"; then
        # shellcheck disable=SC2207  # pids: words
        pids+=($(ip netns pids "$ns" 2>/dev/null || :))
    fi
    stop_pids "${pids[@]}"
    if netns_exists "$ns"; then ip netns del "$ns"; fi  # takes its links along: a host's veth, and so its bridge port
}

cmd_down() {
    local host
    [ "$EUID" = 0 ] || die "down needs root: run it as root"
    for host in "${ALL_HOSTS[@]}"; do
        remove_namespace "${NETNS[$host]}" "$RUN_DIR/$host"/*.pid
        if [ -d "$RUN_DIR/$host" ]; then rm -rf "${RUN_DIR:?}/$host"; fi
    done
    remove_namespace "$LAN_NETNS"  # and the bridge
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
