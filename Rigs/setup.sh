#!/usr/bin/env bash
# Installs every Debian package RemoteTouch HIL needs on a fresh Debian 12 machine, and the Bumble phone's Python
# packages (PyPI) into the checkout's own virtual environment, .venv-bumble.
#
# Idempotent: prints nothing and exits 0 when everything is already there; otherwise names each package it
# is about to install, installs exactly those, and fails loudly if apt or pip cannot.
#
#   bash Rigs/setup.sh            install what is missing (Debian packages need root, or sudo)
#   bash Rigs/setup.sh --check    list what is missing, install nothing (exit 1 if anything is)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"

# Build: the C libraries behind the CDBus and CEvdev system-library targets.
build_packages=(pkg-config libdbus-1-dev libevdev-dev)
# Rigs: the vm rig's emulator and guest userland (the guest shares this machine's root), the virtual rig's
# emulated controllers, BlueZ itself and a system bus.
rig_packages=(qemu-system-x86 bluez bluez-test-tools busybox-static cpio kmod dbus)
# The vm rig's two hosts for the network transports (Rigs/net/two-hosts.sh): namespaces and veth (iproute2),
# unshare (util-linux), one avahi-daemon per namespace, avahi-browse/avahi-publish to diagnose and test them.
net_packages=(iproute2 util-linux avahi-daemon avahi-utils)
# Tools the tests and rig scripts call. chromium: the report's rendering test (Tests/ReportTests) opens the HTML
# report in it headless (--dump-dom, --screenshot). python3-dbus: hil bench --reference's client (Rigs/reference).
# tcpdump: hil run's network.pcap; tshark: the timeline's packet times, and the test that decodes captures (with
# mergecap, from wireshark-common, which tshark depends on); editcap (wireshark-common): hil run cuts a kept scenario's window out of the run's capture.
tool_packages=(ca-certificates xz-utils zstd python3-jsonschema python3-dbus chromium tcpdump tshark)
# The Bumble phone (docs/bumble-phone.md): Debian's python3 makes its virtual environment (python3-venv: ensurepip).
bumble_packages=(python3 python3-venv)

packages=("${build_packages[@]}" "${rig_packages[@]}" "${net_packages[@]}" "${tool_packages[@]}" "${bumble_packages[@]}")

missing=()
for package in "${packages[@]}"; do
    status=$(dpkg-query -W -f='${db:Status-Status}' "$package" 2>/dev/null || true)
    [[ "$status" == "installed" ]] || missing+=("$package")
done

# The vm rig downloads (never installs) Debian's kernel and busybox for its guest: apt must know them.
guest_packages=(linux-image-amd64 busybox-static)
apt_knows_guest=yes
for package in "${guest_packages[@]}"; do
    apt-cache show "$package" >/dev/null 2>&1 || apt_knows_guest=no
done

# The Bumble phone's virtual environment: in the checkout (git-ignored), where the vm guest, which sees this
# machine's files read-only, can run it; byte-compiled here for the same reason. It is current when it holds
# exactly the pins of Rigs/bumble/requirements.txt (a copy is kept beside it).
venv="$root/.venv-bumble"
requirements="$root/Rigs/bumble/requirements.txt"
venv_state=current
if [[ ! -x "$venv/bin/python" ]]; then
    venv_state=missing
elif ! cmp -s "$requirements" "$venv/requirements.txt"; then
    venv_state=stale
fi

if [[ ${#missing[@]} -eq 0 && $apt_knows_guest == yes && $venv_state == current ]]; then
    exit 0
fi

if [[ "${1:-}" == "--check" ]]; then
    [[ ${#missing[@]} -eq 0 ]] || echo "setup: missing Debian packages: ${missing[*]}" >&2
    [[ $apt_knows_guest == yes ]] || echo "setup: apt does not know ${guest_packages[*]} (the vm guest's kernel); 'apt-get update' needed" >&2
    case $venv_state in
        missing) echo "setup: missing the Bumble phone's Python packages: no $venv" >&2 ;;
        stale) echo "setup: $venv does not hold the pins of Rigs/bumble/requirements.txt" >&2 ;;
    esac
    echo "setup: run 'bash Rigs/setup.sh' to install them" >&2
    exit 1
fi

# Installs Rigs/bumble/requirements.txt into a fresh .venv-bumble (pip from PyPI) and byte-compiles it.
install_bumble() {
    echo "setup: installing the Bumble phone's Python packages into $venv (PyPI)"
    rm -rf "$venv"
    if ! /usr/bin/python3 -m venv "$venv" >/tmp/hil-setup-venv.log 2>&1 \
        || ! "$venv/bin/pip" install -q --disable-pip-version-check --no-input -r "$requirements" \
            >>/tmp/hil-setup-venv.log 2>&1; then
        echo "setup: installing $requirements into $venv failed; its output:" >&2
        cat /tmp/hil-setup-venv.log >&2
        rm -rf "$venv"
        exit 1
    fi
    "$venv/bin/python" -m compileall -q "$venv/lib" >/dev/null
    cp "$requirements" "$venv/requirements.txt"
    echo "setup: installed $(grep -E '^bumble==' "$requirements") into $venv"
}

if [[ ${#missing[@]} -eq 0 && $apt_knows_guest == yes ]]; then
    install_bumble
    exit 0
fi

sudo=()
if [[ $(id -u) -ne 0 ]]; then
    if command -v sudo >/dev/null 2>&1; then
        sudo=(sudo)
    else
        echo "setup: need root to install: ${missing[*]} (run as root, or install sudo)" >&2
        exit 1
    fi
fi

export DEBIAN_FRONTEND=noninteractive
apt_options=(-o DPkg::Lock::Timeout=600 -o Dpkg::Use-Pty=0 -q)
echo "setup: apt-get update"
if ! "${sudo[@]}" apt-get "${apt_options[@]}" update >/tmp/hil-setup-apt-update.log 2>&1; then
    echo "setup: 'apt-get update' failed; its output:" >&2
    cat /tmp/hil-setup-apt-update.log >&2
    exit 1
fi
if [[ $apt_knows_guest == no ]]; then
    for package in "${guest_packages[@]}"; do
        apt-cache show "$package" >/dev/null 2>&1 || {
            echo "setup: apt still does not know $package after 'apt-get update'; check /etc/apt/sources.list" >&2
            exit 1
        }
    done
fi
if [[ ${#missing[@]} -gt 0 ]]; then
    echo "setup: installing ${#missing[@]} Debian package(s): ${missing[*]}"
    if ! "${sudo[@]}" apt-get "${apt_options[@]}" install -y --no-install-recommends "${missing[@]}" \
            >/tmp/hil-setup-apt-install.log 2>&1; then
        echo "setup: 'apt-get install ${missing[*]}' failed; its output:" >&2
        cat /tmp/hil-setup-apt-install.log >&2
        exit 1
    fi
    echo "setup: installed ${missing[*]}"
fi
[[ $venv_state == current ]] || install_bumble
