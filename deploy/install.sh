#!/usr/bin/env bash
# Install or upgrade the Phase 10 Dice companion on a Raspberry Pi (Raspberry Pi OS
# Bookworm, 64-bit) so that it starts at boot and phones find it as http://phase10.local.
#
# Idempotent: every step first checks whether it is already done and then says
# "ok: ..." (nothing to do) or "done: ..." (changed something). --dry-run only
# lists the steps as "would: ..." and changes nothing (it runs anywhere, as any user).
# --no-systemd installs without a running systemd (a chroot: deploy/check-arm64.sh):
# it writes every file, user and folder but skips what needs systemd, and says so.
# The app directory (--prefix) is replaced on upgrade; the data directory and the
# config file are never overwritten.
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
SOURCE_DIR="$(cd "$SCRIPT_DIR/.." && pwd)"
readonly SCRIPT_DIR SOURCE_DIR

DEFAULT_PREFIX=/opt/phase10
DEFAULT_DATA_DIR=/var/lib/phase10
readonly DEFAULT_PREFIX DEFAULT_DATA_DIR DEFAULT_PORT=8000
readonly SERVICE=phase10 SERVICE_USER=phase10 CAMERA_GROUP=video
# PHASE10_ROOT puts every system file under another folder: the tests install into
# a temporary "root" with stand-ins for apt, systemctl and the user commands.
readonly ROOT=${PHASE10_ROOT:-}
readonly CONFIG_DIR=$ROOT/etc/phase10
readonly CONFIG_FILE="$CONFIG_DIR/config.toml"
readonly UNIT_FILE=$ROOT/etc/systemd/system/phase10.service
readonly AVAHI_FILE=$ROOT/etc/avahi/services/phase10.service
readonly LINK=$ROOT/usr/local/bin/phase10
readonly HOSTS=$ROOT/etc/hosts
# Always needed; python3-venv and pip build the app's environment, avahi answers for .local.
readonly BASE_PACKAGES=(python3 python3-venv python3-pip avahi-daemon libnss-mdns sqlite3)
# Only in the Raspberry Pi OS archive: picamera2 must come from apt, not pip.
readonly CAMERA_PACKAGES=(python3-picamera2 rpicam-apps-lite)
# Any of these gives `rpicam-hello --list-cameras`; the desktop image's full rpicam-apps
# must not be swapped for the lite one.
readonly CAMERA_TOOLS=(rpicam-apps rpicam-apps-lite libcamera-apps libcamera-apps-lite)

PREFIX=$DEFAULT_PREFIX
DATA_DIR=$DEFAULT_DATA_DIR
PORT=$DEFAULT_PORT
HOST_NAME=phase10
SET_HOST_NAME=1
START=1
NO_SYSTEMD=0
DRY_RUN=0
PRINT_FILE=""
CHANGED=0
FAILING_STEP=""

usage() {
    cat <<EOF
Usage: sudo bash deploy/install.sh [options]

Installs (or upgrades) the Phase 10 Dice companion as the systemd service
"$SERVICE", reachable at http://$HOST_NAME.local:PORT. Safe to run again.

Options:
  --dry-run          list every step as "would: ..." and change nothing
  --port N           port of the scorepad page (default $DEFAULT_PORT; an existing
                     config file keeps its own port)
  --prefix DIR       app directory, replaced on upgrade (default $DEFAULT_PREFIX)
  --data-dir DIR     database directory, kept on upgrade (default $DEFAULT_DATA_DIR)
  --hostname NAME    mDNS host name, so the page is http://NAME.local (default phase10)
  --keep-hostname    leave the host name as it is
  --no-start         enable the service for the next boot but do not start it now
  --no-systemd       for a root without a running systemd (a chroot): write the unit,
                     config, mDNS file, user and data folder, but skip systemctl and
                     the host name (implies --keep-hostname and --no-start)
  --print WHAT       print the file the installer would write (unit, avahi or
                     config) with these options applied, and exit
  -h, --help         show this help and exit
EOF
}

die() {
    echo "install.sh: error: $*" >&2
    exit 2
}

need_value() {
    [[ $# -ge 2 && -n $2 ]] || die "$1 needs a value (see --help)"
}

parse_args() {
    while [[ $# -gt 0 ]]; do
        case $1 in
            --dry-run) DRY_RUN=1 ;;
            --port) need_value "$@"; PORT=$2; shift ;;
            --prefix) need_value "$@"; PREFIX=$2; shift ;;
            --data-dir) need_value "$@"; DATA_DIR=$2; shift ;;
            --hostname) need_value "$@"; HOST_NAME=$2; shift ;;
            --keep-hostname) SET_HOST_NAME=0 ;;
            --no-start) START=0 ;;
            --no-systemd) NO_SYSTEMD=1 ;;
            --print) need_value "$@"; PRINT_FILE=$2; shift ;;
            -h | --help) usage; exit 0 ;;
            *) die "unknown option '$1' (see --help)" ;;
        esac
        shift
    done
    if ((NO_SYSTEMD)); then
        SET_HOST_NAME=0
        START=0
    fi
    if ! [[ $PORT =~ ^[0-9]{1,5}$ ]] || ((PORT < 1 || PORT > 65535)); then
        die "--port '$PORT' is not a port number (1-65535)"
    fi
    local option path
    for option in --prefix --data-dir; do
        path=$PREFIX
        [[ $option == --prefix ]] || path=$DATA_DIR
        [[ $path == /* ]] || die "$option '$path' must be an absolute path"
        # Kept plain: the paths go into a systemd unit and through sed.
        [[ $path =~ ^[A-Za-z0-9._/+-]+$ ]] \
            || die "$option '$path': use only letters, digits and . _ - + / in the path"
        case $path/ in
            /home/* | /root/*) die "$option '$path': the service cannot see home folders (ProtectHome)" ;;
        esac
    done
    PREFIX=${PREFIX%/}
    DATA_DIR=${DATA_DIR%/}
    [[ $HOST_NAME =~ ^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$ ]] \
        || die "--hostname '$HOST_NAME' is not a host name (lower-case letters, digits, '-')"
    case $PRINT_FILE in
        "" | unit | avahi | config) ;;
        *) die "--print '$PRINT_FILE': expected unit, avahi or config" ;;
    esac
}

# ---------------------------------------------------------------- rendered files

render_unit() {
    # The unit with this install's paths; a data dir outside /var/lib cannot be a
    # StateDirectory, so it is made writable explicitly instead.
    local text
    text=$(sed -e "s#$DEFAULT_PREFIX/#$PREFIX/#g" -e "s#$DEFAULT_DATA_DIR#$DATA_DIR#g" \
        "$SCRIPT_DIR/phase10.service")
    if [[ $DATA_DIR != "$DEFAULT_DATA_DIR" ]]; then
        text=$(sed -e '/^StateDirectory/d' \
            -e "s#^ProtectSystem=full#ProtectSystem=full\nReadWritePaths=$DATA_DIR#" <<<"$text")
    fi
    printf '%s\n' "$text"
}

render_avahi() {
    sed -e "s#<port>[0-9]*</port>#<port>$PORT</port>#" "$SCRIPT_DIR/phase10.avahi.service"
}

render_config() {
    sed -e "s#^port = .*#port = $PORT#" -e "s#^data_dir = .*#data_dir = \"$DATA_DIR\"#" \
        "$SCRIPT_DIR/config.toml"
}

# ---------------------------------------------------------------- helpers

say() { printf '%s\n' "$*"; }
warn() { printf 'warn: %s\n' "$*"; }

# step DESCRIPTION CHECK ACTION: skip when CHECK succeeds, else run ACTION.
# CHECK functions only read the system, so the dry run calls them too.
step() {
    local description=$1 check=$2 action=$3
    if ((DRY_RUN)); then
        if "$check" 2>/dev/null; then
            say "would: $description (already done)"
        else
            say "would: $description"
        fi
        return 0
    fi
    if "$check" 2>/dev/null; then
        say "ok: $description"
    else
        FAILING_STEP=$description
        "$action"
        FAILING_STEP=""
        CHANGED=1
        say "done: $description"
    fi
}

is_installed() {
    dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'
}

same_content() {
    # same_content FILE RENDER_FUNCTION: the installed file equals what we would write.
    [[ -f $1 ]] && cmp -s "$1" <("$2")
}

venv_python() { printf '%s/venv/bin/python' "$PREFIX"; }

source_id() {
    # A fingerprint of the checkout's files, so an unchanged checkout is not reinstalled.
    (
        cd "$SOURCE_DIR"
        # ./data is where `make run` keeps games in a checkout: not part of the app.
        find . \( -name .git -o -name .venv -o -name __pycache__ -o -name '*.egg-info' \
            -o -name build -o -name node_modules -o -name .pytest_cache -o -name .ruff_cache \
            -o -path ./data \) -prune -o -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum \
            | sha256sum
    ) | cut -c1-16
}

configured_port() {
    # The port the service will really use: the existing config file wins over --port.
    if [[ -r $CONFIG_FILE ]]; then
        python3 - "$CONFIG_FILE" "$PORT" <<'PY' 2>/dev/null || printf '%s' "$PORT"
import sys, tomllib
with open(sys.argv[1], "rb") as handle:
    print(tomllib.load(handle).get("port", int(sys.argv[2])))
PY
    else
        printf '%s' "$PORT"
    fi
}

local_ip() {
    hostname -I 2>/dev/null | awk '{print $1}'
}

# ---------------------------------------------------------------- steps

is_raspberry_pi_os() {
    # The camera packages live in the Raspberry Pi archive only, set up by these files.
    [[ -f $ROOT/etc/rpi-issue || -f $ROOT/etc/apt/sources.list.d/raspi.list ]]
}

packages_wanted() {
    WANTED=("${BASE_PACKAGES[@]}")
    is_raspberry_pi_os || return 0
    WANTED+=(python3-picamera2)
    local tools
    for tools in "${CAMERA_TOOLS[@]}"; do
        if is_installed "$tools"; then
            WANTED+=("$tools")
            return 0
        fi
    done
    WANTED+=(rpicam-apps-lite)
}

check_packages() {
    local package
    packages_wanted
    for package in "${WANTED[@]}"; do
        is_installed "$package" || return 1
    done
}

do_packages() {
    packages_wanted
    if ! is_raspberry_pi_os; then
        warn "not Raspberry Pi OS: skipping ${CAMERA_PACKAGES[*]}; the Pi camera will not work," \
            "set camera = \"device:0\" or \"demo\" in $CONFIG_FILE"
    fi
    apt-get update -q
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${WANTED[@]}"
}

check_user() {
    id -u "$SERVICE_USER" >/dev/null 2>&1 && id -nG "$SERVICE_USER" | grep -qw "$CAMERA_GROUP"
}

do_user() {
    getent group "$CAMERA_GROUP" >/dev/null || groupadd --system "$CAMERA_GROUP"
    if id -u "$SERVICE_USER" >/dev/null 2>&1; then
        usermod -a -G "$CAMERA_GROUP" "$SERVICE_USER"
    else
        useradd --system --user-group --groups "$CAMERA_GROUP" --home-dir "$DATA_DIR" \
            --no-create-home --shell /usr/sbin/nologin "$SERVICE_USER"
    fi
}

check_data_dir() {
    [[ -d $DATA_DIR && $(stat -c %U "$DATA_DIR") == "$SERVICE_USER" ]]
}

do_data_dir() {
    install -d -o "$SERVICE_USER" -g "$SERVICE_USER" -m 0750 "$DATA_DIR"
}

check_venv() {
    [[ -x $(venv_python) ]] && "$(venv_python)" -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
        && grep -q '^include-system-site-packages = true' "$PREFIX/venv/pyvenv.cfg"
}

do_venv() {
    # --clear: a broken or old-Python environment is rebuilt from scratch.
    install -d -m 0755 "$PREFIX"
    python3 -m venv --clear --system-site-packages "$PREFIX/venv"
    "$(venv_python)" -m pip install --quiet --upgrade pip
}

check_app() {
    [[ -f $PREFIX/source-id && $(cat "$PREFIX/source-id") == "$(source_id)" ]] \
        && [[ -x $PREFIX/venv/bin/phase10 && -L $LINK ]]
}

do_app() {
    # Built from a copy, so root leaves no build files in the user's checkout.
    # Dependencies first (numpy kept below 2 to match apt's picamera2 and simplejpeg),
    # then the app itself forcibly, so the environment holds exactly this checkout.
    local copy
    copy=$(mktemp -d)
    tar -C "$SOURCE_DIR" --exclude=.git --exclude=.venv --exclude='*.egg-info' \
        --exclude=build --exclude=__pycache__ --exclude=./data -cf - . | tar -C "$copy" -xf -
    local pip=("$(venv_python)" -m pip install --quiet --root-user-action=ignore
        --disable-pip-version-check --constraint "$SCRIPT_DIR/pi-constraints.txt")
    "${pip[@]}" "$copy"
    "${pip[@]}" --force-reinstall --no-deps "$copy"
    rm -rf "${copy:?}"
    source_id >"$PREFIX/source-id"
    install -d -m 0755 "$(dirname "$LINK")"
    ln -sfn "$PREFIX/venv/bin/phase10" "$LINK"
}

check_config() {
    [[ -f $CONFIG_FILE ]]
}

do_config() {
    install -d -m 0755 "$CONFIG_DIR"
    # Readable by the service only: it may hold the PIN.
    render_config | install -m 0640 -o root -g "$SERVICE_USER" /dev/stdin "$CONFIG_FILE"
}

check_unit() {
    same_content "$UNIT_FILE" render_unit
}

do_unit() {
    render_unit | install -D -m 0644 /dev/stdin "$UNIT_FILE"
    ((NO_SYSTEMD)) || systemctl daemon-reload
}

check_avahi() {
    same_content "$AVAHI_FILE" render_avahi_for_config
}

render_avahi_for_config() {
    PORT=$(configured_port) render_avahi
}

do_avahi() {
    install -d -m 0755 "$(dirname "$AVAHI_FILE")"
    render_avahi_for_config | install -m 0644 /dev/stdin "$AVAHI_FILE"
    ((NO_SYSTEMD)) || systemctl reload-or-restart avahi-daemon || warn "could not reload avahi-daemon"
}

check_hostname() {
    ((SET_HOST_NAME == 0)) || [[ $(hostname) == "$HOST_NAME" ]]
}

do_hostname() {
    hostnamectl set-hostname "$HOST_NAME"
    # sudo and avahi resolve the host's own name through /etc/hosts.
    if grep -q '^127\.0\.1\.1' "$HOSTS"; then
        sed -i "s/^127\.0\.1\.1.*/127.0.1.1\t$HOST_NAME/" "$HOSTS"
    else
        printf '127.0.1.1\t%s\n' "$HOST_NAME" >>"$HOSTS"
    fi
    systemctl restart avahi-daemon || warn "could not restart avahi-daemon"
}

check_enabled() {
    systemctl is-enabled --quiet "$SERVICE"
}

do_enable() {
    systemctl enable --quiet "$SERVICE"
}

check_running() {
    # Restart when anything above changed, so an upgrade takes effect now.
    ((CHANGED == 0)) && systemctl is-active --quiet "$SERVICE"
}

do_start() {
    systemctl restart "$SERVICE"
}

wait_for_health() {
    local port=$1
    python3 - "$port" <<'PY'
import json, sys, time, urllib.request
# The scorepad's health route (the one `phase10 doctor` asks first): 200 and "ok": true.
url = f"http://127.0.0.1:{sys.argv[1]}/api/health"
for _ in range(60):
    try:
        with urllib.request.urlopen(url, timeout=2) as reply:
            answer = json.load(reply)
        if isinstance(answer, dict) and answer.get("ok") is True:
            sys.exit(0)
    except (OSError, ValueError):
        pass
    time.sleep(1)
sys.exit(1)
PY
}

preflight() {
    if ((DRY_RUN)); then
        say "dry run: nothing on this system will be changed"
        [[ $EUID -eq 0 ]] || say "note: a real install needs root (sudo)"
        command -v apt-get >/dev/null || say "note: a real install needs apt-get (Raspberry Pi OS)"
        return 0
    fi
    [[ $EUID -eq 0 || -n $ROOT ]] || die "run as root: sudo bash $0 $*"
    local tool
    for tool in apt-get dpkg-query systemctl python3; do
        [[ $tool != systemctl ]] || ((NO_SYSTEMD == 0)) || continue
        command -v "$tool" >/dev/null || die "'$tool' not found: this installer is for Raspberry Pi OS (Debian Bookworm)"
    done
    python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
        || die "Python 3.11 or newer is needed (Raspberry Pi OS Bookworm has it)"
}

report() {
    local port ip local_url ip_url
    port=$(configured_port)
    ip=$(local_ip)
    local_url="http://$HOST_NAME.local:$port"
    [[ $SET_HOST_NAME -eq 1 ]] || local_url="http://$(hostname).local:$port"
    ip_url="http://${ip:-IP-ADDRESS}:$port"
    if ((DRY_RUN)); then
        say "would: show the page's addresses $local_url and $ip_url with a QR code"
        return 0
    fi
    local healthy=1
    if ((START)); then
        if wait_for_health "$port"; then
            say "ok: the scorepad answers on port $port"
        else
            healthy=0
            warn "the service did not answer on port $port within a minute;" \
                "see: journalctl -u $SERVICE -n 50   and: sudo phase10 doctor"
        fi
    elif ((NO_SYSTEMD)); then
        say "note: not enabled or started (--no-systemd): no systemd to run $SERVICE.service here"
    else
        say "note: not started (--no-start); it starts at the next boot or with: sudo systemctl start $SERVICE"
    fi
    say ""
    say "The scorepad is at:"
    say "  $local_url"
    say "  $ip_url"
    say "Scan to open it on a phone on the same Wi-Fi:"
    # Phones resolve an IP address more reliably than a .local name.
    local qr_url=$local_url
    [[ -z $ip ]] || qr_url=$ip_url
    "$PREFIX/venv/bin/phase10" qr "$qr_url" || warn "could not draw the QR code"
    say "Check the set-up any time with: sudo phase10 doctor"
    ((healthy))
}

name_failed_step() {
    # A step's action that stops the installer (set -e) is named, not just its last output.
    local status=$?
    ((status == 0)) || [[ -z $FAILING_STEP ]] || echo "install.sh: error: step failed: $FAILING_STEP" >&2
}

main() {
    trap name_failed_step EXIT
    parse_args "$@"
    case $PRINT_FILE in
        unit) render_unit; return 0 ;;
        avahi) render_avahi; return 0 ;;
        config) render_config; return 0 ;;
    esac
    preflight "$@"
    packages_wanted
    local packages="${WANTED[*]}"
    is_raspberry_pi_os || packages+=" (not Raspberry Pi OS: no ${CAMERA_PACKAGES[*]})"
    step "install system packages with apt: $packages" check_packages do_packages
    step "create service user $SERVICE_USER in group $CAMERA_GROUP" check_user do_user
    step "create data directory $DATA_DIR owned by $SERVICE_USER (kept on upgrade)" \
        check_data_dir do_data_dir
    step "create virtual environment $PREFIX/venv that sees the system's picamera2" \
        check_venv do_venv
    step "install the app from $SOURCE_DIR into $PREFIX/venv and link $LINK" check_app do_app
    step "write $CONFIG_FILE (port $PORT, data_dir $DATA_DIR) unless it exists" \
        check_config do_config
    if [[ -f $CONFIG_FILE && $(configured_port) != "$PORT" ]]; then
        warn "$CONFIG_FILE keeps port $(configured_port) (not $PORT): edit it to change the port," \
            "then run this installer again"
    fi
    step "install systemd unit $UNIT_FILE (runs phase10 serve --config $CONFIG_FILE)" \
        check_unit do_unit
    step "publish _http._tcp on port $(configured_port) over mDNS in $AVAHI_FILE" \
        check_avahi do_avahi
    if ((NO_SYSTEMD)); then
        local verb="skip"
        ((DRY_RUN == 0)) || verb="would: skip"
        say "$verb (--no-systemd): systemctl daemon-reload, reloading avahi-daemon, setting the" \
            "host name, enabling and starting $SERVICE.service"
    else
        step "set the host name to $HOST_NAME so the page is http://$HOST_NAME.local" \
            check_hostname do_hostname
        step "enable $SERVICE.service at boot" check_enabled do_enable
    fi
    if ((START)); then
        step "start $SERVICE.service (restart after an upgrade)" check_running do_start
    elif ((NO_SYSTEMD == 0)); then
        local verb="skip"
        ((DRY_RUN == 0)) || verb="would: skip"
        say "$verb starting $SERVICE.service now (--no-start)"
    fi
    report
}

main "$@"
