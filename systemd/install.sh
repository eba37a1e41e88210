#!/usr/bin/env bash
# Install the companion as a service on Raspberry Pi OS (Bookworm or newer). Safe to run twice.
#
#   sudo ./systemd/install.sh             install, enable and start the service
#   ./systemd/install.sh --dry-run        print every step, change nothing
#   ./systemd/install.sh --root DIR       write the files under DIR, print the system commands
#   ... --no-start                        install and enable, but do not (re)start now
#   ... --offline-system                  for an image being built: enable, never start
#   ... --without-lgpio                   a trial on a system that is not Raspberry Pi OS
#
# In a chroot, or wherever systemd is not running, --offline-system is taken by itself.
# The first step that fails stops the script with its name and a non-zero status.
set -Eeuo pipefail

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ROOT=""
DRY_RUN=0
START=1
PREFIX=/opt/companion
CONFIG=/etc/companion/companion.toml
UNIT=/etc/systemd/system/companion.service
COMMAND=/usr/local/bin/companion
SERVICE_USER=companion
# The hardware's groups; `input` is added only for a USB keyboard-style card reader.
GROUPS_WANTED=(gpio i2c spi dialout)
# What the companion needs from the system (docs/install.md says why): these, python3-lgpio
# unless --without-lgpio, and python3-evdev only for a USB keyboard-style card reader.
# gpiozero and the rest come from requirements.lock.
PACKAGES=(python3-venv i2c-tools)
LGPIO=1
# Why each is needed: said when a package is in none of the system's lists.
declare -A NEEDED_FOR=(
    [python3-venv]="it makes the companion's own Python environment"
    [python3-lgpio]="it drives the GPIO and comes only from Raspberry Pi OS's own archive \
(--without-lgpio installs a trial companion that cannot open the GPIO)"
    [i2c-tools]="docs/build.md checks the displays' wiring with its i2cdetect"
    [python3-evdev]="it reads the USB keyboard-style card reader the configuration names"
)
OFFLINE=0
UPDATED=0
STEP="start"
PLACED=0
UNIT_CHANGED=0

# The comment at the top of this file, up to its first line that is no comment.
usage() { awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; }

while [ $# -gt 0 ]; do
    case "$1" in
        --dry-run) DRY_RUN=1 ;;
        --root) ROOT=${2:?--root needs a directory}; shift ;;
        --no-start) START=0 ;;
        --offline-system) OFFLINE=1 ;;
        --without-lgpio) LGPIO=0 ;;
        -h|--help) usage; exit 0 ;;
        *) echo "install.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
    esac
    shift
done

# shellcheck disable=SC2034  # read by install-steps.sh, which says a failed step
declare -r SCRIPT=install.sh WHAT="the companion"
# shellcheck source=systemd/install-steps.sh disable=SC1091
. "$SRC/systemd/install-steps.sh"
trap 'failed $?' ERR

# The card reader's kind in the configuration the service will read ("" when none).
reader_kind() {
    local file=$ROOT$CONFIG
    [ -e "$file" ] || file=$SRC/systemd/companion.toml
    python3 - "$file" <<'PYTHON'
import sys
import tomllib

try:
    with open(sys.argv[1], "rb") as config:
        print(tomllib.load(config).get("reader", {}).get("kind", ""))
except (OSError, tomllib.TOMLDecodeError, AttributeError) as error:
    sys.exit(f"install.sh: cannot read {sys.argv[1]}: {error}")
PYTHON
}

check_root() {
    if [ "$DRY_RUN" = 0 ] && [ -z "$ROOT" ] && [ "$(id -u)" != 0 ]; then
        echo "install.sh: run it as root (sudo), or try --dry-run first" >&2
        exit 1
    fi
}

# Whether a package is installed or can be (outputs read whole: a grep -q that stops reading
# early would fail the pipeline).
available() {
    local status policy
    status=$(dpkg-query -W -f '${Status}' "$1" 2>/dev/null) || status=""
    policy=$(LC_ALL=C apt-cache policy "$1" 2>/dev/null) || policy=""
    [[ "$status" == *" installed" ]] || grep -q 'Candidate: [^(]' <<< "$policy"
}

# Stop before changing anything, with one sentence, when a package is in none of the system's
# package lists (read again once, in case they are old or were never read on a fresh card).
need() {
    [ "$DRY_RUN" = 0 ] && [ -z "$ROOT" ] || return 0
    local package
    for package; do
        if ! available "$package" && [ "$UPDATED" = 0 ]; then
            UPDATED=1
            system apt-get update
        fi
        if ! available "$package"; then
            echo "install.sh: $package is in none of this system's package lists, and" \
                "${NEEDED_FOR[$package]}: the companion is NOT installed" >&2
            exit 1
        fi
    done
}

# The pinned wheels exist for 64-bit systems only: a 32-bit one stops here, in one sentence.
check_architecture() {
    [ "$DRY_RUN" = 0 ] && [ -z "$ROOT" ] || return 0
    local arch
    arch=$(dpkg --print-architecture)
    case "$arch" in
        arm64|amd64) ;;
        *)
            echo "install.sh: this system is $arch, and the companion's pinned packages exist" \
                "for 64-bit systems only (arm64: 64-bit Raspberry Pi OS): the companion is NOT" \
                "installed" >&2
            exit 1 ;;
    esac
}

install_packages() {
    step "system packages"
    local kind packages=("${PACKAGES[@]}")
    check_architecture
    [ "$LGPIO" = 0 ] || packages+=(python3-lgpio)
    need "${packages[@]}"
    system apt-get install -y --no-install-recommends "${packages[@]}"
    # The configuration is read with the system's Python, there from the packages above on.
    kind=$(reader_kind)
    if [ "$kind" = evdev ]; then
        need python3-evdev
        system apt-get install -y --no-install-recommends python3-evdev
    fi
}

create_user() {
    step "service user"
    if id -u "$SERVICE_USER" >/dev/null 2>&1 && [ -z "$ROOT" ]; then
        echo "unchanged: user $SERVICE_USER exists"
    else
        system useradd --system --user-group --home-dir /var/lib/companion \
            --shell /usr/sbin/nologin "$SERVICE_USER"
    fi
}

make_venv() {
    step "virtual environment in $PREFIX/venv"
    if [ -x "$ROOT$PREFIX/venv/bin/python" ]; then
        echo "unchanged: $PREFIX/venv exists"
    else
        # The system's lgpio (and evdev) are used through --system-site-packages: neither has
        # a wheel for every Python, and building them would need a compiler.
        system python3 -m venv --system-site-packages "$PREFIX/venv"
    fi
    # Only the versions pinned in requirements.lock (`make lock`), each a wheel checked against
    # its hash, so nothing is built and no build fetches anything; the build's own tools
    # (setuptools, babel) are among them. Then the companion itself, built with those tools.
    system "$PREFIX/venv/bin/pip" install --require-hashes --only-binary :all: --no-deps \
        -r "$SRC/requirements.lock"
    system "$PREFIX/venv/bin/pip" install --no-deps --no-build-isolation --upgrade "$SRC"
}

# The docs' commands on the PATH: /usr/local/bin/companion is the venv's command.
link_command() {
    step "command $COMMAND"
    local target=$PREFIX/venv/bin/companion
    if [ "$(readlink "$ROOT$COMMAND" 2>/dev/null)" = "$target" ]; then
        echo "unchanged: $COMMAND"
    elif [ "$DRY_RUN" = 1 ]; then
        echo "would link: $COMMAND -> $target"
    else
        mkdir -p "$(dirname "$ROOT$COMMAND")"
        ln -sfn "$target" "$ROOT$COMMAND"
        echo "linked: $COMMAND -> $target"
    fi
}

install_docs() {
    step "documentation in $PREFIX/docs"
    local doc
    for doc in "$SRC"/docs/*.md; do
        place "$doc" "$PREFIX/docs/$(basename "$doc")" 644
    done
}

enable_buses() {
    step "I2C and SPI"
    if command -v raspi-config >/dev/null 2>&1; then
        system raspi-config nonint do_i2c 0
        system raspi-config nonint do_spi 0
    else
        echo "note: raspi-config not found: enable I2C and SPI in /boot/firmware/config.txt"
    fi
}

install_config() {
    step "configuration"
    place "$SRC/systemd/companion.toml" "$CONFIG" 644 1
}

# The bus speeds docs/build.md describes, from the configuration: bus 1 at the speed of the
# devices on it ([lcd] or [oled] i2c_hz, 100 kHz by default), and bus 4 (GPIO8/9 on a Pi 4)
# when the OLED has it to itself. A line already there with another speed is replaced.
set_bus_speeds() {
    step "I2C bus speeds"
    local boot_config=$ROOT/boot/firmware/config.txt toml=$ROOT$CONFIG
    [ -e "$toml" ] || toml=$SRC/systemd/companion.toml
    local wanted line prefix
    wanted=$(python3 - "$toml" <<'PY'
import sys, tomllib
with open(sys.argv[1], "rb") as file:
    config = tomllib.load(file)
speeds = {}
for name in ("lcd", "oled"):
    section = config.get(name)
    if isinstance(section, dict):
        speeds.setdefault(int(section.get("port", 1)), int(section.get("i2c_hz", 100000)))
print(f"dtparam=i2c_arm_baudrate|dtparam=i2c_arm_baudrate={speeds.get(1, 100000)}")
if 4 in speeds:
    print(f"dtoverlay=i2c4|dtoverlay=i2c4,pins_8_9,baudrate={speeds[4]}")
PY
)
    for pair in $wanted; do
        prefix=${pair%%|*}
        line=${pair#*|}
        if [ -e "$boot_config" ] && grep -qxF "$line" "$boot_config"; then
            echo "unchanged: $line"
        elif [ "$DRY_RUN" = 1 ]; then
            echo "would set in /boot/firmware/config.txt: $line"
        else
            mkdir -p "$(dirname "$boot_config")"
            touch "$boot_config"
            sed -i -E "/^${prefix}([=,]|$)/d" "$boot_config"
            echo "$line" >> "$boot_config"
            echo "set in /boot/firmware/config.txt: $line (takes effect after a reboot)"
        fi
    done
}

join_groups() {
    step "hardware groups"
    local groups=("${GROUPS_WANTED[@]}") group kind
    kind=$(reader_kind)
    if [ "$kind" = evdev ]; then
        groups+=(input)
    elif [ -z "$ROOT" ] && id -nG "$SERVICE_USER" 2>/dev/null | grep -qw input; then
        # No keyboard-style reader any more: the service no longer reads keyboards.
        system gpasswd -d "$SERVICE_USER" input
    fi
    for group in "${groups[@]}"; do
        if getent group "$group" >/dev/null 2>&1 || [ -n "$ROOT" ] || [ "$DRY_RUN" = 1 ]; then
            system usermod -a -G "$group" "$SERVICE_USER"
        else
            echo "note: no group $group on this system (not a Raspberry Pi OS image?)"
        fi
    done
}

# Whether systemd runs this system now (sd_booted(3)), outside a chroot: else it is an image
# being built (or --offline-system said so), where the unit is enabled but nothing is started.
systemd_running() {
    [ "$OFFLINE" = 0 ] && [ -d /run/systemd/system ] &&
        ! { command -v systemd-detect-virt >/dev/null && systemd-detect-virt --chroot --quiet; }
}

install_unit() {
    step "service"
    place "$SRC/systemd/companion.service" "$UNIT" 644
    UNIT_CHANGED=$PLACED
    if [ -z "$ROOT" ] && ! systemd_running; then
        echo "offline system (an image being built, or a chroot): enabled for the next boot" \
            "without starting it"
        system systemctl enable companion.service
        return 0
    fi
    if [ "$UNIT_CHANGED" = 1 ]; then
        system systemctl daemon-reload
    fi
    system systemctl enable companion.service
    if [ "$START" = 1 ]; then
        system systemctl restart companion.service
    fi
}

finish() {
    # shellcheck disable=SC2034  # failed() in install-steps.sh names the step
    STEP="finish"
    if [ "$DRY_RUN" = 1 ]; then
        echo "dry run: nothing was changed"
    else
        echo "done: the companion is installed${ROOT:+ under $ROOT}"
    fi
}

check_root
install_packages
create_user
make_venv
link_command
install_docs
enable_buses
install_config
set_bus_speeds
join_groups
install_unit
finish
