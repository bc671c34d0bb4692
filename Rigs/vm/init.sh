#!/bin/sh
# /init of the HIL vm rig's initramfs (copied in by build-image.sh; runs on busybox).
# Loads the kernel modules listed in /lib/modules/load.list in order, builds the guest
# root as an overlay (tmpfs upper) over the host's / shared read-only as 9p tag
# `hostroot`, mounts the read-write 9p tag `hilshare` at /hil/share inside it, copies
# busybox and guest-run.sh to /hil, and switch_roots into /hil/guest-run.sh (as PID 1).
# Any failure here prints a message and powers the VM off; the host then sees no
# exit-code file in the share.
set -eu
export PATH=/bin

fail() {
    echo "HIL-RIG-ERROR initramfs: $*" >&2
    poweroff -f
    sleep 60
}
trap 'fail "init script failed (line ${LINENO:-?})"' EXIT
# HIL_DEBUG=1 on the kernel command line: print timestamps of the boot stages.
stage() { [ -z "${HIL_DEBUG:-}" ] || echo "HIL-STAGE $1 $(cut -d' ' -f1 /proc/uptime)"; }

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
# Only emergencies on the console: it carries the job's output.
echo 1 >/proc/sys/kernel/printk
# No modprobe on this side: modules are loaded explicitly below.
echo /bin/false >/proc/sys/kernel/modprobe

stage init
# busybox insmod reads no kernel command line, as modprobe does: a module's own words there
# (bluetooth.enable_ecred=1, which a rig with EATT asks for) are handed to its insmod here.
cmdline=$(cat /proc/cmdline)
while read -r mod; do
    [ -n "$mod" ] || continue
    name=${mod##*/}
    name=$(echo "${name%.ko}" | tr - _)
    params=""
    for word in $cmdline; do
        case $word in "$name".*=*) params="$params ${word#"$name".}" ;; esac
    done
    # shellcheck disable=SC2086 # one word per parameter
    insmod "/lib/modules/$mod" $params || fail "insmod $mod$params failed"
done </lib/modules/load.list

stage modules-loaded
mkdir -p /lower /rw /newroot
mount -t 9p -o ro,trans=virtio,version=9p2000.L,msize=512000,cache=loose hostroot /lower \
    || fail "cannot mount 9p tag hostroot"
mount -t tmpfs -o mode=755 tmpfs /rw
mkdir -p /rw/upper /rw/work
mount -t overlay overlay -o lowerdir=/lower,upperdir=/rw/upper,workdir=/rw/work /newroot \
    || fail "cannot mount the overlay root"

# The share goes to a path of the new root that guest-run.sh does not cover
# with a fresh tmpfs (as it does /run); a 9p tag can be mounted only once.
mkdir -p /newroot/hil/share /newroot/hil/bin
mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000 hilshare /newroot/hil/share \
    || fail "cannot mount 9p tag hilshare"
cp /bin/busybox /newroot/hil/bin/busybox
cp /guest-run.sh /newroot/hil/guest-run.sh
chmod 755 /newroot/hil/guest-run.sh

stage root-mounted
mount --move /dev /newroot/dev
mount --move /proc /newroot/proc
mount --move /sys /newroot/sys
exec switch_root /newroot /hil/guest-run.sh
