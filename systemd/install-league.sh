#!/usr/bin/env bash
# Install the club's league alone (`companion league`, and with --broker Mosquitto) on a
# Debian or Ubuntu laptop or server: none of the table's hardware. Safe to run twice.
#
#   sudo ./systemd/install-league.sh             install, enable and start the league
#   ... --broker                                 also Mosquitto, with the club's example config
#   ./systemd/install-league.sh --dry-run        print every step, change nothing
#   ./systemd/install-league.sh --root DIR       write the files under DIR, print the commands
#   ... --no-start                               install and enable, but do not (re)start now
#
# The first step that fails stops the script with its name and a non-zero status.
set -Eeuo pipefail

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ROOT=""
DRY_RUN=0
START=1
BROKER=0
PREFIX=/opt/companion
CONFIG=/etc/companion/league.toml
UNIT=/etc/systemd/system/companion-league.service
MOSQUITTO=/etc/mosquitto
PACKAGES=(python3-venv python3-pip)
STEP="start"
PLACED=0

usage() { sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; }

while [ $# -gt 0 ]; do
    case "$1" in
        --dry-run) DRY_RUN=1 ;;
        --root) ROOT=${2:?--root needs a directory}; shift ;;
        --no-start) START=0 ;;
        --broker) BROKER=1 ;;
        -h|--help) usage; exit 0 ;;
        *) echo "install-league.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
    esac
    shift
done

# shellcheck disable=SC2034  # read by install-steps.sh, which says a failed step
declare -r SCRIPT=install-league.sh WHAT="the league"
# shellcheck source=systemd/install-steps.sh disable=SC1091
. "$SRC/systemd/install-steps.sh"
trap 'failed $?' ERR

# The club's name in the league's configuration (the example's when there is none yet).
club_name() {
    local file=$ROOT$CONFIG
    [ -e "$file" ] || file=$SRC/systemd/league.toml
    python3 - "$file" <<'PYTHON'
import re
import sys
import tomllib

try:
    with open(sys.argv[1], "rb") as config:
        club = tomllib.load(config).get("league", {}).get("club", "club")
except (OSError, tomllib.TOMLDecodeError, AttributeError) as error:
    sys.exit(f"install-league.sh: cannot read {sys.argv[1]}: {error}")
if not isinstance(club, str) or not re.fullmatch(r"[A-Za-z0-9_-]{1,32}", club):
    sys.exit(f"install-league.sh: {sys.argv[1]}: club must be 1 to 32 letters, digits, - or _")
print(club)
PYTHON
}

check_root() {
    if [ "$DRY_RUN" = 0 ] && [ -z "$ROOT" ] && [ "$(id -u)" != 0 ]; then
        echo "install-league.sh: run it as root (sudo), or try --dry-run first" >&2
        exit 1
    fi
}

install_packages() {
    step "system packages"
    local packages=("${PACKAGES[@]}")
    [ "$BROKER" = 1 ] && packages+=(mosquitto)
    system apt-get install -y --no-install-recommends "${packages[@]}"
}

make_venv() {
    step "virtual environment in $PREFIX/venv"
    if [ -x "$ROOT$PREFIX/venv/bin/python" ]; then
        echo "unchanged: $PREFIX/venv exists"
    else
        system python3 -m venv "$PREFIX/venv"
    fi
    # Only the league's pins of requirements.lock, each file checked against its hash; then
    # the companion itself, without the table's hardware libraries.
    system "$PREFIX/venv/bin/pip" install --require-hashes --no-deps -r "$SRC/requirements-league.lock"
    system "$PREFIX/venv/bin/pip" install --no-deps --no-build-isolation --upgrade "$SRC"
}

install_docs() {
    step "documentation in $PREFIX/docs"
    place "$SRC/docs/club.md" "$PREFIX/docs/club.md" 644
    place "$SRC/docs/club/league-board.png" "$PREFIX/docs/club/league-board.png" 644
}

install_config() {
    step "configuration"
    place "$SRC/systemd/league.toml" "$CONFIG" 600 1
}

install_broker() {
    [ "$BROKER" = 1 ] || return 0
    step "broker"
    local club acl changed=0
    club=$(club_name)
    acl=$(mktemp)
    sed "s/myclub/$club/g" "$SRC/systemd/mosquitto/companion-club.acl" > "$acl"
    place "$SRC/systemd/mosquitto/companion-club.conf" "$MOSQUITTO/conf.d/companion-club.conf" 644
    changed=$PLACED
    place "$acl" "$MOSQUITTO/companion-club.acl" 640 1
    if [ "$PLACED" = 1 ]; then
        changed=1
        system chgrp mosquitto "$MOSQUITTO/companion-club.acl"
    fi
    rm -f "$acl"
    if [ ! -e "$ROOT$MOSQUITTO/companion-club.passwords" ]; then
        echo "next: make the passwords (docs/club.md), e.g."
        echo "  sudo mosquitto_passwd -c $MOSQUITTO/companion-club.passwords league"
    fi
    if [ "$changed" = 1 ] && [ "$START" = 1 ]; then
        system systemctl restart mosquitto.service
    fi
}

install_unit() {
    step "service"
    place "$SRC/systemd/companion-league.service" "$UNIT" 644
    if [ "$PLACED" = 1 ]; then
        system systemctl daemon-reload
    fi
    system systemctl enable companion-league.service
    if [ "$START" = 1 ]; then
        system systemctl restart companion-league.service
    fi
}

finish() {
    # shellcheck disable=SC2034  # failed() in install-steps.sh names the step
    STEP="finish"
    if [ "$DRY_RUN" = 1 ]; then
        echo "dry run: nothing was changed"
    else
        echo "done: the league is installed${ROOT:+ under $ROOT}; its settings: $CONFIG"
    fi
}

check_root
install_packages
make_venv
install_docs
install_config
install_broker
install_unit
finish
