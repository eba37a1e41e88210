# What both installers share (install.sh, install-league.sh): a failed step said in one line,
# the steps named, system commands only run for a real install, and files put in place.
# The installer sets SCRIPT (its name), WHAT (what it installs), ROOT, DRY_RUN and STEP first.
# shellcheck shell=bash disable=SC2034  # PLACED is read by the installer that sources this

failed() {
    local status=$1
    [ "$BASHPID" = "$$" ] || exit "$status"  # in a subshell: the main shell reports it
    echo "$SCRIPT: step \"$STEP\" failed (status $status): $WHAT is NOT installed" >&2
    exit "$status"
}

step() {
    STEP=$1
    echo "== $1"
}

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
# Sets PLACED=1 when the file was (or, in a dry run, would be) written, else PLACED=0.
place() {
    local from=$1 to=$ROOT$2 mode=$3 keep_existing=${4:-0}
    PLACED=0
    if [ -e "$to" ] && { [ "$keep_existing" = 1 ] || cmp -s "$from" "$to"; }; then
        echo "unchanged: $2"
        return 0
    fi
    if [ "$DRY_RUN" = 1 ]; then
        echo "would install: $2"
    else
        install -D -m "$mode" "$from" "$to"
        echo "installed: $2"
    fi
    PLACED=1
}
