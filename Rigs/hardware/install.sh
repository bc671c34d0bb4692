#!/usr/bin/env bash
# Prepares a Bluetooth-equipped Linux box to run RemoteTouch HIL nightly without root: a "hil" group and user,
# the D-Bus policy, the udev rule for uinput and the verifier's event node, the polkit rule that lets the group
# restart bluetoothd, hil built into /opt/remotetouch-hil, the rig file's LE connection parameters and one ATT
# bearer ([GATT] Channels = 1, the computer's ordering guarantee: docs/protocol.md, "Order") in bluetoothd's main.conf,
# and the systemd service and timer. Run once, as root, from the project folder:  sudo bash Rigs/hardware/install.sh
# HIL_BINARY=path installs a hil built elsewhere (the same commit) instead of building it here. On a box without
# systemd (a container, the vm guest of rehearse-in-vm.sh) the bus reloads its policy through D-Bus and no timer is
# installed: run nightly.sh from cron or by hand.
set -euo pipefail
[[ $(id -u) -eq 0 ]] || { echo "install: run as root (sudo bash Rigs/hardware/install.sh)" >&2; exit 1; }
cd "$(dirname "$0")/../.."
here=$(pwd)
getent group hil >/dev/null || groupadd --system hil
getent passwd hil >/dev/null || useradd --system --gid hil --home-dir /var/lib/hil --shell /usr/sbin/nologin hil
install -m 0644 Rigs/hardware/dbus/org.remotetouch.hil.conf /etc/dbus-1/system.d/org.remotetouch.hil.conf
install -m 0644 Rigs/hardware/udev/60-remotetouch-hil.rules /etc/udev/rules.d/60-remotetouch-hil.rules
# polkit (JavaScript rules, polkitd ≥ 106): group hil may restart bluetooth.service, for the restartBluetoothd step.
install -d -m 0755 /etc/polkit-1/rules.d
install -m 0644 Rigs/hardware/polkit/50-remotetouch-hil.rules /etc/polkit-1/rules.d/50-remotetouch-hil.rules
udevadm control --reload-rules && udevadm trigger --subsystem-match=misc --subsystem-match=input
systemd=false
[[ -d /run/systemd/system ]] && systemd=true
if $systemd; then
    systemctl reload dbus || true
else
    dbus-send --system --type=method_call --dest=org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus.ReloadConfig
fi
binary=${HIL_BINARY:-}
if [[ -z $binary ]]; then
    swift build -c release --product hil
    binary="$(swift build -c release --show-bin-path)/hil"
fi
install -d -m 0755 /opt/remotetouch-hil /opt/remotetouch-hil/Rigs
install -m 0755 "$binary" /opt/remotetouch-hil/hil
# The commit it was built from, for every night's results.json (nightly.sh passes it on as HIL_COMMIT).
if commit=$(git -c safe.directory="$here" rev-parse HEAD 2>/dev/null); then
    git -c safe.directory="$here" diff --quiet HEAD -- 2>/dev/null || commit+="+dirty"
    echo "$commit" >/opt/remotetouch-hil/commit
fi
# Both suites (Scenarios-nightly/requirements.json is a relative link to Scenarios/'s catalog: cp -r keeps it a link).
cp -r Scenarios Scenarios-nightly /opt/remotetouch-hil/
cp -r Rigs/*.json Rigs/hardware /opt/remotetouch-hil/Rigs/
# The rig file's LE connection parameters ("connection" in hardware.json) and its ATT bearers ("gattChannels", 1): the
# box's bluetoothd is the system's, which hil does not start, so they go into [LE] and [GATT] of its main.conf (the
# first original kept as main.conf.before-hil) and bluetooth restarts to hand them to the kernel. `hil rig main-conf`
# keeps every other line.
conf=/etc/bluetooth/main.conf
if [[ -e $conf && ! -e $conf.before-hil ]]; then cp -p "$conf" "$conf.before-hil"; fi
/opt/remotetouch-hil/hil rig main-conf --rig hardware --rigs /opt/remotetouch-hil/Rigs --base "$conf" >"$conf.hil-new"
mv "$conf.hil-new" "$conf"
if $systemd; then
    systemctl restart bluetooth
else
    echo "install: restart bluetoothd to read the rig's connection parameters in $conf"
fi
if $systemd; then
    install -m 0644 Rigs/hardware/systemd/hil-nightly.service Rigs/hardware/systemd/hil-nightly.timer /etc/systemd/system/
    systemctl daemon-reload
    systemctl enable --now hil-nightly.timer
else
    echo "install: no systemd here: no timer installed; run /opt/remotetouch-hil/Rigs/hardware/nightly.sh as user hil (cron, or by hand)"
fi
echo "install: done. Check with: sudo -u hil /opt/remotetouch-hil/hil doctor --rig hardware --rigs /opt/remotetouch-hil/Rigs"
echo "install: from $here; add your own user to group hil (usermod -aG hil \$USER) to run hil there by hand."
