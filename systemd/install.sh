#!/usr/bin/env bash
# Install the companion as a service on Raspberry Pi OS (Bookworm or newer). Safe to run twice.
#
#   sudo ./systemd/install.sh             install, enable and start the service
#   ./systemd/install.sh --dry-run        print every step, change nothing
#   ./systemd/install.sh --root DIR       write the files under DIR, print the system commands
#   ... --no-start                        install and enable, but do not (re)start now
set -euo pipefail

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ROOT=""
DRY_RUN=0
START=1
PREFIX=/opt/companion
SERVICE_USER=companion
GROUPS_WANTED=(gpio i2c spi dialout input)
PACKAGES=(python3-venv python3-pip python3-dev python3-lgpio python3-gpiozero i2c-tools fonts-dejavu-core)

usage() { sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; }

while [ $# -gt 0 ]; do
    case "$1" in
        --dry-run) DRY_RUN=1 ;;
        --root) ROOT=${2:?--root needs a directory}; shift ;;
        --no-start) START=0 ;;
        -h|--help) usage; exit 0 ;;
        *) echo "install.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
    esac
    shift
done

# System commands only run for a real install; with --root or --dry-run they are printed.
system() {
    if [ "$DRY_RUN" = 1 ] || [ -n "$ROOT" ]; then
        echo "would run: $*"
    else
        echo "+ $*"
        "$@"
    fi
}

# Copy a file into place unless an identical one is there; keep_existing=1 never overwrites.
place() {
    local from=$1 to=$ROOT$2 mode=$3 keep_existing=${4:-0}
    if [ -e "$to" ] && { [ "$keep_existing" = 1 ] || cmp -s "$from" "$to"; }; then
        echo "unchanged: $2"
        return 1
    fi
    if [ "$DRY_RUN" = 1 ]; then
        echo "would install: $2"
    else
        install -D -m "$mode" "$from" "$to"
        echo "installed: $2"
    fi
    return 0
}

# The bus speeds docs/build.md describes, from the configuration: bus 1 at the speed of the
# devices on it ([lcd] or [oled] i2c_hz, 100 kHz by default), and bus 4 (GPIO8/9 on a Pi 4)
# when the OLED has it to itself. A line already there with another speed is replaced.
set_bus_speeds() {
    local boot_config=$ROOT/boot/firmware/config.txt toml=$ROOT/etc/companion/companion.toml
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

if [ "$DRY_RUN" = 0 ] && [ -z "$ROOT" ] && [ "$(id -u)" != 0 ]; then
    echo "install.sh: run it as root (sudo), or try --dry-run first" >&2
    exit 1
fi

echo "== system packages"
system apt-get install -y --no-install-recommends "${PACKAGES[@]}"

echo "== service user"
if id -u "$SERVICE_USER" >/dev/null 2>&1 && [ -z "$ROOT" ]; then
    echo "unchanged: user $SERVICE_USER exists"
else
    system useradd --system --user-group --home-dir /var/lib/companion \
        --shell /usr/sbin/nologin "$SERVICE_USER"
fi
for group in "${GROUPS_WANTED[@]}"; do
    if getent group "$group" >/dev/null 2>&1 || [ -n "$ROOT" ] || [ "$DRY_RUN" = 1 ]; then
        system usermod -a -G "$group" "$SERVICE_USER"
    else
        echo "note: no group $group on this system (not a Raspberry Pi OS image?)"
    fi
done

echo "== virtual environment in $PREFIX/venv"
if [ -x "$ROOT$PREFIX/venv/bin/python" ]; then
    echo "unchanged: $PREFIX/venv exists"
else
    # The OS's lgpio and gpiozero are used through --system-site-packages (no wheel on 3.13).
    system python3 -m venv --system-site-packages "$PREFIX/venv"
fi
system "$PREFIX/venv/bin/pip" install --upgrade "$SRC[pi,usbhid]"

echo "== documentation in $PREFIX/docs"
for doc in "$SRC"/docs/*.md; do
    place "$doc" "$PREFIX/docs/$(basename "$doc")" 644 || true
done

echo "== I2C and SPI"
if command -v raspi-config >/dev/null 2>&1; then
    system raspi-config nonint do_i2c 0
    system raspi-config nonint do_spi 0
else
    echo "note: raspi-config not found: enable I2C and SPI in /boot/firmware/config.txt"
fi

echo "== configuration"
place "$SRC/systemd/companion.toml" /etc/companion/companion.toml 644 1 || true

echo "== I2C bus speeds"
set_bus_speeds

echo "== service"
unit_changed=0
place "$SRC/systemd/companion.service" /etc/systemd/system/companion.service 644 && unit_changed=1
[ "$unit_changed" = 1 ] && system systemctl daemon-reload
system systemctl enable companion.service
if [ "$START" = 1 ]; then
    system systemctl restart companion.service
fi
echo "done: the companion is installed${ROOT:+ under $ROOT}"
