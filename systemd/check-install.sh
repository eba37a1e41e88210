#!/usr/bin/env bash
# Check docs/install.md on fresh Debian roots: `make check-install` (as root; it needs network
# to Debian's archive and PyPI).
#
#   ./systemd/check-install.sh [--suite trixie|bookworm]... [--arch native|arm64]... [--keep]
#
# For each suite and architecture (by default trixie and bookworm; the machine's own
# architecture, and arm64 too where qemu-user-static can run it through binfmt_misc): a root
# made with debootstrap (cached as a tarball in $CHECK_INSTALL_DIR), the repository's
# committed HEAD cloned into it as the docs say, `sudo ./systemd/install.sh --without-lgpio`
# run in it (a chroot: the image-build path) and once more, then `companion check-config`, a
# short headless game (systemd/check_install_game.py) and `companion games` through the
# installed command. Each step's outcome and duration is printed; the status is non-zero
# when any step failed.

# The steps are functions that `step` runs, which shellcheck cannot follow, and the commands
# run in the root are in single quotes, to expand there.
# shellcheck disable=SC2317,SC2016
set -Euo pipefail

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
WORK=${CHECK_INSTALL_DIR:-/var/tmp/companion-check-install}
MIRROR=${CHECK_INSTALL_MIRROR:-http://deb.debian.org/debian}
# What Raspberry Pi OS Lite has and a minimal Debian root lacks: systemd, sudo, git.
INCLUDE=systemd,systemd-sysv,sudo,git,ca-certificates
NATIVE=$(dpkg --print-architecture)
SUITES=()
ARCHES=()
KEEP=0
RESULTS=()
FAILED=0

# The comment at the top of this file, up to its first line that is no comment.
usage() { awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; }

while [ $# -gt 0 ]; do
    case "$1" in
        --suite) SUITES+=("${2:?--suite needs a name}"); shift ;;
        --arch) ARCHES+=("${2:?--arch needs native or arm64}"); shift ;;
        --keep) KEEP=1 ;;
        -h|--help) usage; exit 0 ;;
        *) echo "check-install: unknown option $1" >&2; usage >&2; exit 2 ;;
    esac
    shift
done
[ ${#SUITES[@]} -gt 0 ] || SUITES=(trixie bookworm)

if [ "$(id -u)" != 0 ]; then
    echo "check-install: run it as root (it builds Debian roots with debootstrap)" >&2
    exit 2
fi

# Whether arm64 programs run here: qemu-user-static registered with binfmt_misc.
arm64_runs() {
    [ "$NATIVE" = arm64 ] && return 0
    [ -d /proc/sys/fs/binfmt_misc ] || return 1
    if [ ! -e /proc/sys/fs/binfmt_misc/status ]; then
        mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc 2>/dev/null || return 1
    fi
    if [ ! -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] && command -v update-binfmts >/dev/null; then
        update-binfmts --enable qemu-aarch64 >/dev/null 2>&1 || true
    fi
    [ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] && grep -qx enabled /proc/sys/fs/binfmt_misc/qemu-aarch64
}

need_tools() {
    local missing=()
    command -v debootstrap >/dev/null || missing+=(debootstrap)
    if [[ " ${ARCHES[*]} " == *" arm64 "* ]] && [ "$NATIVE" != arm64 ] \
        && [ ! -e /usr/bin/qemu-aarch64-static ]; then
        missing+=(qemu-user-static binfmt-support)
    fi
    if [ ${#missing[@]} -gt 0 ]; then
        echo "== installing ${missing[*]}"
        apt-get update -q >/dev/null && apt-get install -y -q "${missing[@]}" >/dev/null
    fi
}

if [ ${#ARCHES[@]} -eq 0 ]; then
    ARCHES=(native)
    [ "$NATIVE" = arm64 ] || ARCHES+=(arm64)
fi
need_tools
RUN_ARCHES=()
for arch in "${ARCHES[@]}"; do
    if [ "$arch" = arm64 ] && [ "$NATIVE" != arm64 ] && ! arm64_runs; then
        RESULTS+=("$(printf '%-16s %-22s %-8s %s' "*-arm64" "all" "skipped" \
            "binfmt_misc cannot run arm64 programs here (qemu-user-static)")")
        continue
    fi
    RUN_ARCHES+=("$arch")
done

mkdir -p "$WORK"
BUNDLE=$WORK/companion.bundle
git -C "$SRC" bundle create "$BUNDLE" HEAD 2>/dev/null
HEAD_SHORT=$(git -C "$SRC" rev-parse --short HEAD)
echo "== checking commit $HEAD_SHORT of $(git -C "$SRC" rev-parse --abbrev-ref HEAD)"

ROOT=""
LOG=""

unmount_root() {
    local point
    for point in dev/pts dev sys proc; do
        mountpoint -q "$ROOT/$point" 2>/dev/null && umount -l "$ROOT/$point"
    done
    return 0
}

# Run one step: its name, then the command; its outcome and duration go to the report.
step() {
    local name=$1 started took status
    shift
    started=$EPOCHREALTIME
    echo "-- $CASE: $name" >> "$LOG"
    "$@" >> "$LOG" 2>&1
    status=$?
    took=$(awk -v a="$started" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
    if [ "$status" = 0 ]; then
        RESULTS+=("$(printf '%-16s %-22s %-8s %6s s' "$CASE" "$name" ok "$took")")
        echo "   ok      $name (${took} s)"
    else
        RESULTS+=("$(printf '%-16s %-22s %-8s %6s s  (status %s, see %s)' \
            "$CASE" "$name" FAILED "$took" "$status" "$LOG")")
        echo "   FAILED  $name (${took} s, status $status): see $LOG"
        tail -n 5 "$LOG" | sed 's/^/     | /'
        FAILED=1
    fi
    return "$status"
}

# Inside the root, as a fresh login of root would run it (nothing of this shell's environment).
in_root() {
    chroot "$ROOT" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
        PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        bash -c "$1"
}

base_tarball() {
    local suite=$1 debarch=$2 tarball=$3 tmp
    tmp=$(mktemp -d "$WORK/base.XXXXXX")
    if [ "$debarch" = "$NATIVE" ]; then
        debootstrap --variant=minbase --include="$INCLUDE" --arch="$debarch" \
            "$suite" "$tmp" "$MIRROR" || { rm -rf "$tmp"; return 1; }
    elif ! debootstrap --foreign --variant=minbase --include="$INCLUDE" --arch="$debarch" \
            "$suite" "$tmp" "$MIRROR" ||
        ! chroot "$tmp" /debootstrap/debootstrap --second-stage; then
        rm -rf "$tmp"
        return 1
    fi
    tar -C "$tmp" -cf "$tarball" . && rm -rf "$tmp"
}

fresh_root() {
    rm -rf "$ROOT" && mkdir -p "$ROOT" && tar -C "$ROOT" -xf "$1" &&
        mount -t proc proc "$ROOT/proc" && mount -t sysfs sysfs "$ROOT/sys" &&
        mount --bind /dev "$ROOT/dev" && mount --bind /dev/pts "$ROOT/dev/pts" &&
        cp /etc/resolv.conf "$ROOT/etc/resolv.conf" &&
        cp "$BUNDLE" "$ROOT/root/companion.bundle" &&
        cp "$SRC/systemd/check_install_game.py" "$ROOT/root/check_install_game.py" &&
        local_trust
}

# Where this machine reaches the network through a proxy of its own certificate authority
# (certificates in /usr/local/share/ca-certificates), the root trusts it too, and so does pip
# (bookworm's reads its own bundle otherwise); the root is otherwise left as debootstrap made it.
local_trust() {
    local authorities=(/usr/local/share/ca-certificates/*.crt)
    [ -e "${authorities[0]}" ] || return 0
    cp "${authorities[@]}" "$ROOT/usr/local/share/ca-certificates/" &&
        in_root 'update-ca-certificates >/dev/null' &&
        printf '[global]\ncert = /etc/ssl/certs/ca-certificates.crt\n' > "$ROOT/etc/pip.conf"
}

installed() {
    in_root 'cd /root && git clone -q companion.bundle companion && cd companion &&
        sudo ./systemd/install.sh --without-lgpio' &&
        grep -q "enabled for the next boot without starting it" "$LOG" &&
        [ -L "$ROOT/etc/systemd/system/multi-user.target.wants/companion.service" ]
}

# The simulator keeps its journal where `companion games` then finds it by itself.
short_game() {
    in_root 'rm -rf /tmp/game && mkdir /tmp/game &&
        { companion simulate --headless --control /tmp/game/control.sock \
            > /tmp/game/simulate.log 2>&1 & } &&
        /opt/companion/venv/bin/python /root/check_install_game.py /tmp/game/control.sock &&
        wait $! && cat /tmp/game/simulate.log && ! grep -q "no fake Pico" /tmp/game/simulate.log'
}

for suite in "${SUITES[@]}"; do
    for arch in "${RUN_ARCHES[@]}"; do
        debarch=$arch
        [ "$arch" = native ] && debarch=$NATIVE
        CASE="$suite-$debarch"
        ROOT=$WORK/$CASE
        LOG=$WORK/$CASE.log
        : > "$LOG"
        echo "== $CASE"
        tarball=$WORK/base-$CASE.tar
        if [ -e "$tarball" ]; then
            echo "   (base root from $tarball)"
        else
            step "debootstrap" base_tarball "$suite" "$debarch" "$tarball" || continue
        fi
        trap unmount_root EXIT
        if step "fresh root" fresh_root "$tarball" &&
            step "install.sh" installed &&
            step "install.sh again" in_root 'cd /root/companion &&
                again=$(sudo ./systemd/install.sh --without-lgpio) && echo "$again" &&
                grep -q "^done:" <<< "$again"' &&
            step "check-config" in_root 'companion check-config /etc/companion/companion.toml' &&
            step "short headless game" short_game &&
            step "games" in_root 'games=$(companion games) && echo "$games" &&
                grep -q finished <<< "$games"'; then
            :
        fi
        unmount_root
        trap - EXIT
        [ "$KEEP" = 1 ] || rm -rf "$ROOT"
    done
done

echo
echo "check-install of $HEAD_SHORT:"
printf '%s\n' "${RESULTS[@]}"
exit "$FAILED"
