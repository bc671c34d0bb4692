#!/bin/bash
# Builds the HIL vm rig's guest boot image from Debian packages only: the kernel that
# linux-image-amd64 depends on (linux-image-6.1.0-*-amd64) and busybox-static, fetched
# with `apt-get download` (nothing is installed). Writes to CACHE_DIR:
#   vmlinuz    the Debian kernel as packaged
#   vmlinux    the same kernel uncompressed (QEMU boots it via PVH, ~3 s faster)
#   initrd.gz  cpio newc + gzip: busybox, the rig's modules in insmod order
#              (lib/modules/load.list), init.sh as /init, guest-run.sh (with this image's
#              two-hosts.sh path filled in)
#   two-hosts.sh, lib.sh  copies of ../net/two-hosts.sh and the lib.sh it sources, which the
#              guest runs at boot (the network transports' hosts); copies, so the image never
#              depends on the checkout that built it
#   stamp, modules.txt
# CACHE_DIR defaults to
#   ${XDG_CACHE_HOME:-$HOME/.cache}/hil/vm/<kernel-version>-<sha256 of the rig scripts>
# and is printed as the last line of stdout. An image already built there for the same
# kernel and scripts is reused at once; a new one is built aside and renamed into place.
# Progress goes to stderr.
#
# Usage: build-image.sh [--check] [CACHE_DIR]
#   --check  builds nothing: prints the image's folder, and exits 0 when the image is built there,
#            3 when it is not (hil doctor says which); other failures exit 1 with their reason.
# Needs: apt-get/apt-cache (with `apt-get update` done), dpkg-deb, depmod and modprobe
# (kmod), cpio, gzip, xz, sha256sum (zstd only if the kernel's modules are .ko.zst).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
check=
if [ "${1:-}" = --check ]; then check=1; shift; fi
log() { echo "build-image: $*" >&2; }
die() { echo "build-image: error: $*" >&2; exit 1; }

for tool in apt-cache apt-get dpkg-deb depmod modprobe cpio gzip sha256sum; do
    command -v "$tool" >/dev/null || die "'$tool' not found (apt-get install -y apt dpkg kmod cpio gzip coreutils)"
done

# Modules the rig needs, in load order; dependencies are added before each one.
# ctr, sha512_generic and drbg give the kernel a stdrng, which the ECDH self-test of
# ecdh_generic needs; without it SMP (LE pairing) is never registered. bluetooth.ko
# itself depends on ecdh_generic, so hci_vhci comes last. veth joins each of the network transports'
# hosts' namespaces to the bridge that is their LAN (../net/two-hosts.sh: bridge, which brings
# its dependencies stp and llc); sch_netem is the qdisc that delays and drops on a host's veth.
# br_netfilter stays out: bridged frames never meet iptables.
MODULES=(virtio_pci 9pnet_virtio 9p overlay evdev uinput
         af_alg algif_hash algif_skcipher cmac ecb ccm
         ctr sha512_generic drbg ecdh_generic hci_vhci
         veth bridge sch_netem)
OPTIONAL_MODULES=(virtio_rng)

cache_root=${XDG_CACHE_HOME:-$HOME/.cache}/hil/vm
# Which kernel linux-image-amd64 stands for: apt-cache reads every package list for it (1.4 s here, where apt keeps
# no binary cache), so the answer is kept until the lists change (their names, sizes and times: apt-get update).
lists_key=$(stat -c '%n %s %Y' /var/lib/apt/lists/*Packages* 2>/dev/null | sha256sum | cut -c1-12)
resolved=$cache_root/kernel-package.$lists_key
kpkg=$(cat "$resolved" 2>/dev/null) || true
if [ -z "$kpkg" ]; then
    kpkg=$(apt-cache depends linux-image-amd64 2>/dev/null |
           awk '$1 == "Depends:" && $2 ~ /^linux-image-[0-9]/ { print $2; exit }') || true
    [ -n "$kpkg" ] || die "cannot tell which kernel package linux-image-amd64 depends on; run 'apt-get update' first"
    mkdir -p "$cache_root" && rm -f "$cache_root"/kernel-package.* && echo "$kpkg" >"$resolved" || :
fi
kver=${kpkg#linux-image-}
net_script=$here/../net/two-hosts.sh
net_lib=$here/../net/lib.sh  # sourced by two-hosts.sh, from the folder it is in
for file in "$net_script" "$net_lib"; do
    [ -f "$file" ] || die "$file missing (the guest's network bring-up): git checkout Rigs/net"
done
# The key covers every file the image holds or runs: a change to any (MODULES above included) builds a new image.
key=$(cat "$here/build-image.sh" "$here/init.sh" "$here/guest-run.sh" "$net_script" "$net_lib" | sha256sum | cut -c1-12)
stamp="$kver $key"

out=${1:-$cache_root/$kver-$key}
case $out in /*) ;; *) out=$PWD/$out ;; esac  # the guest finds two-hosts.sh by this path
if [ -s "$out/vmlinuz" ] && [ -s "$out/initrd.gz" ] && [ "$(cat "$out/stamp" 2>/dev/null)" = "$stamp" ]; then
    echo "$out"
    exit 0
fi
if [ -n "$check" ]; then
    echo "$out"
    exit 3
fi

log "building image $kver-$key into $out"
work=$(mktemp -d "${TMPDIR:-/tmp}/hil-image.XXXXXX")
stage=
cleanup() {
    rm -rf "$work"
    if [ -n "$stage" ]; then rm -rf "$stage"; fi
}
trap cleanup EXIT
# apt downloads as user _apt when that user may write the directory.
chmod 755 "$work"
mkdir "$work/deb"
if [ "$(id -u)" = 0 ] && id _apt >/dev/null 2>&1; then chown _apt "$work/deb"; fi

download() {
    log "downloading Debian package $1"
    (cd "$work/deb" && apt-get -q download "$1" >&2) ||
        die "apt-get download $1 failed; run 'apt-get update' (as root) and retry"
}
download "$kpkg"
download busybox-static

kroot=$work/kernel
log "extracting $kpkg and busybox-static"
dpkg-deb -x "$work/deb/${kpkg}"_*.deb "$kroot"
dpkg-deb -x "$work"/deb/busybox-static_*.deb "$work/busybox"
[ -f "$kroot/boot/vmlinuz-$kver" ] || die "no boot/vmlinuz-$kver in $kpkg"
[ -d "$kroot/lib/modules/$kver" ] || die "no lib/modules/$kver in $kpkg"

log "depmod -b $kroot $kver"
depmod -b "$kroot" "$kver"

# Resolve the insmod order; an empty config keeps the host's /etc/modprobe.d out.
root=$work/initramfs
mkdir -p "$root"/{bin,dev,proc,sys,lib/modules} "$work/empty.d"
declare -A seen=()
order=()
resolve() { # MODULE REQUIRED(yes|no)
    local lines line path name
    if ! lines=$(modprobe -C "$work/empty.d" -d "$kroot" -S "$kver" --show-depends "$1" 2>&1); then
        [ "$2" = yes ] || { log "optional module $1 not available: skipped"; return 0; }
        die "module $1: $lines"
    fi
    while read -r line; do
        case $line in
            builtin\ *) log "module ${line#builtin } is built into the kernel" ;;
            insmod\ *)
                path=$(echo "$line" | awk '{ print $2 }')
                name=$(basename "$path")
                name=${name%.xz}; name=${name%.zst}; name=${name%.gz}
                [ -z "${seen[$name]:-}" ] || continue
                seen[$name]=1
                case $path in  # busybox insmod reads plain .ko only: decompress here
                    *.ko.xz) xz -dc "$path" >"$root/lib/modules/$name" ;;
                    *.ko.zst) zstd -qdc "$path" >"$root/lib/modules/$name" ;;
                    *.ko.gz) gzip -dc "$path" >"$root/lib/modules/$name" ;;
                    *) cp "$path" "$root/lib/modules/$name" ;;
                esac
                order+=("$name")
                ;;
            *) die "module $1: unexpected modprobe output: $line" ;;
        esac
    done <<<"$lines"
}
for m in "${MODULES[@]}"; do resolve "$m" yes; done
for m in "${OPTIONAL_MODULES[@]}"; do resolve "$m" no; done
printf '%s\n' "${order[@]}" >"$root/lib/modules/load.list"
log "insmod order: ${order[*]}"

cp "$work/busybox/bin/busybox" "$root/bin/busybox"
for applet in $("$root/bin/busybox" --list); do
    [ "$applet" = busybox ] || ln -s busybox "$root/bin/$applet"
done
install -m 755 "$here/init.sh" "$root/init"
# guest-run.sh runs the image's copy of two-hosts.sh: the guest sees the host's root, so this path.
case $out in *[\'\\]*) die "the image folder $out must not contain a quote or a backslash" ;; esac
grep -q '^NET_SCRIPT=@NET_SCRIPT@$' "$here/guest-run.sh" || die "guest-run.sh has no NET_SCRIPT=@NET_SCRIPT@ line to fill in"
awk -v value="'$out/two-hosts.sh'" '$0 == "NET_SCRIPT=@NET_SCRIPT@" { print "NET_SCRIPT=" value; next } { print }' \
    "$here/guest-run.sh" >"$root/guest-run.sh"
chmod 755 "$root/guest-run.sh"

mkdir -p "$(dirname "$out")"
stage=$(mktemp -d "$(dirname "$out")/.build.XXXXXX")
log "writing initrd.gz"
(cd "$root" && find . -print0 | LC_ALL=C sort -z | cpio --null -o -H newc -R 0:0 --quiet) |
    gzip -9 -n >"$stage/initrd.gz"
cp "$kroot/boot/vmlinuz-$kver" "$stage/vmlinuz"
install -m 755 "$net_script" "$stage/two-hosts.sh"
install -m 644 "$net_lib" "$stage/lib.sh"
# Also the uncompressed ELF kernel: QEMU boots it through its PVH entry point, which
# skips the firmware's real-mode boot and the in-guest decompression (~3 s under TCG).
# Debian's bzImage holds an xz stream; without xz or that stream, the launcher boots vmlinuz.
xz_at=$(LC_ALL=C grep -obUaP '\xfd7zXZ\x00' "$stage/vmlinuz" | head -n 1 | cut -d: -f1) || true
if [ -n "$xz_at" ] && command -v xz >/dev/null &&
    tail -c +"$((xz_at + 1))" "$stage/vmlinuz" >"$work/vmlinux.xz" &&
    xz -dc --single-stream "$work/vmlinux.xz" >"$stage/vmlinux" 2>/dev/null &&
    [ "$(head -c 4 "$stage/vmlinux" | od -An -c | tr -d ' ')" = '177ELF' ]; then
    log "extracted vmlinux (PVH boot)"
else
    log "warning: could not extract vmlinux from vmlinuz; the VM boots the slower vmlinuz"
    rm -f "$stage/vmlinux"
fi
printf '%s\n' "${order[@]}" >"$stage/modules.txt"
echo "$stamp" >"$stage/stamp"
chmod 755 "$stage"

# Publish atomically: a reader sees the old directory or the complete new one.
if [ -e "$out" ]; then
    old="$out.old.$$"
    mv -T "$out" "$old"
    mv -T "$stage" "$out"
    stage=
    rm -rf "$old"
elif mv -T "$stage" "$out" 2>/dev/null; then
    stage=
else  # lost a race with a concurrent build of the same image?
    [ "$(cat "$out/stamp" 2>/dev/null)" = "$stamp" ] || die "cannot move the image to $out"
fi
if [ $# -eq 0 ]; then  # default cache: keep the three newest images (~75 MB each)
    # shellcheck disable=SC2012  # names are ours: <kernel-version>-<hex>
    ls -1dt "$cache_root"/*-*/ 2>/dev/null | tail -n +4 | while read -r stale; do
        log "removing old image ${stale%/}"
        rm -rf "${stale%/}"
    done
fi
log "done: $(du -h "$out/vmlinuz" | cut -f1) vmlinuz, $(du -h "$out/initrd.gz" | cut -f1) initrd.gz"
echo "$out"
