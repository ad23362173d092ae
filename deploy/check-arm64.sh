#!/usr/bin/env bash
# The Raspberry Pi's architecture, checked on this machine: builds (once, then
# cached) an arm64 Debian bookworm root from Debian's own packages with debootstrap,
# runs it through qemu-user-static, and inside it
#   - runs deploy/install.sh --no-systemd (the real installer; no running systemd,
#     no Pi camera packages) and checks the files, user and folder it wrote,
#   - runs `phase10 doctor`,
#   - reads the golden scenes with `phase10 read --json` and compares them with the
#     readings of this machine's own (x86) `phase10`,
#   - starts the service's own command line (the unit's ExecStart, as its user) and
#     plays a scripted turn over HTTP,
#   - loads the shipped odds tables and models and compares them with this machine's.
# What it proves and what it does not: deploy/README.md ("The Pi's architecture").
#
# Exit status: 0 passed (or skipped with --if-possible), 1 a step failed (named),
# 2 bad arguments, 3 this machine cannot run the check (the reason is given).
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
SOURCE_DIR="$(cd "$SCRIPT_DIR/.." && pwd)"
readonly SCRIPT_DIR SOURCE_DIR
readonly SUITE=bookworm ARCH=arm64 QEMU=qemu-aarch64-static
readonly TOOL_PACKAGES=(debootstrap qemu-user-static binfmt-support proot)
# Where the arm64 kernel handler is registered; a test may point it elsewhere.
readonly BINFMT_DIR=${PHASE10_BINFMT_DIR:-/proc/sys/fs/binfmt_misc}

CACHE_DIR=${PHASE10_ARM64_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/phase10-arm64}
MIRROR=${PHASE10_ARM64_MIRROR:-http://deb.debian.org/debian}
HOST_PHASE10=${PHASE10_HOST_COMMAND:-$SOURCE_DIR/.venv/bin/phase10}
RUNNER=auto
IF_POSSIBLE=0
PROBE=0
REBUILD=0
PORT=""
# The processor qemu emulates: a Pi 4's by default (Armv8.0: no dot product, no SVE),
# so OpenCV and ONNX Runtime pick the code paths a Pi 4 runs, not the newest ones.
CPU=${PHASE10_ARM64_CPU:-cortex-a72}

usage() {
    cat <<EOF
Usage: sudo bash deploy/check-arm64.sh [options]

Checks the Phase 10 Dice companion on the Raspberry Pi's architecture (arm64,
Debian $SUITE) under qemu: the real installer (--no-systemd), phase10 doctor, the
golden scenes read as on this machine, a turn played over HTTP, the shipped odds
tables and models. Needs root; the arm64 root is cached in
  $CACHE_DIR
so a second run does not build it again.

Options:
  --if-possible    when this machine cannot run the check, say why and exit 0
                   (what .ci/run uses); without it that exits 3
  --probe          only say whether and how the check can run here; change nothing
  --runner WHAT    chroot (binfmt handler, or an arm64 machine), proot (no binfmt
                   handler needed) or auto (default: chroot when possible, else proot)
  --cache DIR      cache folder (default above; env PHASE10_ARM64_CACHE)
  --mirror URL     Debian mirror for debootstrap (default $MIRROR)
  --rebuild        build the arm64 root again even when one is cached
  --port N         port for phase10 serve inside the root (default: a free one)
  --cpu NAME       processor qemu emulates: cortex-a72 (Pi 4, default), cortex-a76
                   (Pi 5), cortex-a53 (Pi 3, Zero 2 W) or max
  -h, --help       show this help and exit

Environment: PHASE10_ARM64=skip skips the check (say so in CI logs);
PHASE10_HOST_COMMAND is this machine's phase10 (default .venv/bin/phase10).
EOF
}

die() {
    echo "check-arm64.sh: error: $*" >&2
    exit 2
}

say() { printf 'arm64: %s\n' "$*"; }

need_value() {
    [[ $# -ge 2 && -n $2 ]] || die "$1 needs a value (see --help)"
}

parse_args() {
    while [[ $# -gt 0 ]]; do
        case $1 in
            --if-possible) IF_POSSIBLE=1 ;;
            --probe) PROBE=1 ;;
            --runner) need_value "$@"; RUNNER=$2; shift ;;
            --cache) need_value "$@"; CACHE_DIR=$2; shift ;;
            --mirror) need_value "$@"; MIRROR=$2; shift ;;
            --rebuild) REBUILD=1 ;;
            --port) need_value "$@"; PORT=$2; shift ;;
            --cpu) need_value "$@"; CPU=$2; shift ;;
            -h | --help) usage; exit 0 ;;
            *) die "unknown option '$1' (see --help)" ;;
        esac
        shift
    done
    case $CPU in
        cortex-a53 | cortex-a72 | cortex-a76 | max) ;;
        *) die "--cpu '$CPU': expected cortex-a72, cortex-a76, cortex-a53 or max" ;;
    esac
    case $RUNNER in
        auto | chroot | proot) ;;
        *) die "--runner '$RUNNER': expected chroot, proot or auto" ;;
    esac
    if [[ -n $PORT ]] && { ! [[ $PORT =~ ^[0-9]{1,5}$ ]] || ((PORT < 1024 || PORT > 65535)); }; then
        die "--port '$PORT' is not a port number (1024-65535)"
    fi
    [[ $MIRROR =~ ^https?://[^[:space:]]+$ ]] || die "--mirror '$MIRROR' is not an http(s) address"
    [[ $CACHE_DIR == /* ]] || CACHE_DIR=$PWD/$CACHE_DIR
}

# ---------------------------------------------------------------- can it run here?

cannot_run() {
    # Says why the check cannot run on this machine, then skips or fails.
    if ((IF_POSSIBLE)); then
        say "skipped: $*"
        exit 0
    fi
    echo "check-arm64.sh: cannot run here: $*" >&2
    exit 3
}

binfmt_enabled() {
    [[ -r $BINFMT_DIR/qemu-aarch64 ]] && [[ $(head -n 1 "$BINFMT_DIR/qemu-aarch64") == enabled ]]
}

native_arm64() {
    [[ $(uname -m) == aarch64 ]]
}

install_tools() {
    # The tools come from Debian's own packages, installed only when missing.
    local missing=() tool
    for tool in debootstrap "$QEMU" proot; do
        command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
    done
    ((${#missing[@]})) || return 0
    if ((PROBE)); then
        say "would install: ${TOOL_PACKAGES[*]} (missing: ${missing[*]})"
        return 0
    fi
    if command -v apt-get >/dev/null 2>&1; then
        say "installing ${TOOL_PACKAGES[*]} (missing: ${missing[*]})"
        {
            apt-get update -qq
            DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
                "${TOOL_PACKAGES[@]}"
        } >/dev/null 2>&1 || say "could not install ${TOOL_PACKAGES[*]} with apt-get"
    fi
}

enable_binfmt() {
    # Registers qemu's arm64 handler with the kernel when it is not yet.
    binfmt_enabled && return 0
    ((PROBE == 0)) || return 1
    [[ -e $BINFMT_DIR/register ]] \
        || mount -t binfmt_misc binfmt_misc "$BINFMT_DIR" >/dev/null 2>&1 || true
    if command -v update-binfmts >/dev/null 2>&1; then
        update-binfmts --enable qemu-aarch64 >/dev/null 2>&1 \
            || update-binfmts --import qemu-aarch64 >/dev/null 2>&1 || true
    fi
    binfmt_enabled
}

choose_runner() {
    # Sets RUNNER to chroot or proot, or says why neither can run here.
    case ${PHASE10_ARM64:-} in
        skip | 0 | off | no) cannot_run "PHASE10_ARM64=${PHASE10_ARM64} asks to skip it" ;;
    esac
    [[ $(uname -s) == Linux ]] || cannot_run "needs Linux (debootstrap, chroot, qemu-user)"
    ((EUID == 0)) || cannot_run "needs root (debootstrap, chroot and mounts); run it with sudo"
    install_tools
    command -v debootstrap >/dev/null 2>&1 || ((PROBE)) \
        || cannot_run "needs debootstrap (apt-get install ${TOOL_PACKAGES[*]})"
    if native_arm64; then
        [[ $RUNNER != proot ]] || cannot_run "--runner proot is for emulation; this is an arm64 machine"
        RUNNER=chroot
        CPU=native
        say "runner: chroot (this machine is arm64: no emulation)"
        return 0
    fi
    command -v "$QEMU" >/dev/null 2>&1 || ((PROBE)) \
        || cannot_run "needs $QEMU (apt-get install qemu-user-static)"
    if [[ $RUNNER != proot ]] && enable_binfmt; then
        RUNNER=chroot
        say "runner: chroot through the kernel's binfmt handler ($BINFMT_DIR/qemu-aarch64)"
        return 0
    fi
    [[ $RUNNER != chroot ]] \
        || cannot_run "--runner chroot: no binfmt handler for arm64 in $BINFMT_DIR, and it could not be registered"
    if command -v proot >/dev/null 2>&1; then
        [[ $RUNNER == proot ]] || say "no binfmt handler for arm64 could be registered in $BINFMT_DIR"
        RUNNER=proot
        say "runner: proot -q $QEMU (no kernel handler needed)"
        return 0
    fi
    if ((PROBE)); then
        say "would need: a binfmt handler for arm64 or proot (apt-get install proot)"
        return 0
    fi
    cannot_run "no binfmt handler for arm64 in $BINFMT_DIR (none registered, and it could" \
        "not be: binfmt_misc not mountable here) and no proot to emulate without one"
}

# ---------------------------------------------------------------- steps

STEP=""
STEP_STARTED=0
TIMES=()

step() {
    STEP=$1
    STEP_STARTED=$SECONDS
    say "step: $STEP"
}

step_done() {
    TIMES+=("$STEP: $((SECONDS - STEP_STARTED)) s")
}

# shellcheck disable=SC2329  # run by the EXIT trap
on_exit() {
    local status=$?
    if ((status != 0)) && [[ -n $STEP ]]; then
        echo "check-arm64.sh: FAILED at step: $STEP (exit status $status)" >&2
    fi
}

base_packages() {
    # The installer's own package list: the cached root has them, so the installer's
    # package step is checked (already done) without downloading them on every run.
    sed -n 's/^readonly BASE_PACKAGES=(\(.*\))$/\1/p' "$SCRIPT_DIR/install.sh"
}

base_key() {
    printf '%s %s %s %s\n' "$SUITE" "$ARCH" "$MIRROR" "$(base_packages)" | sha256sum | cut -c1-12
}

build_base() {
    # BASE: a pristine arm64 root, built once and reused while its key is the same.
    local packages
    packages=$(base_packages)
    [[ -n $packages ]] || { echo "no BASE_PACKAGES in deploy/install.sh" >&2; return 1; }
    if [[ -f $BASE.ok ]] && ((REBUILD == 0)); then
        say "cached arm64 root: $BASE"
        return 0
    fi
    rm -rf "$BASE" "$BASE.ok"
    mkdir -p "$BASE"
    local include log=$CACHE_DIR/debootstrap.log
    # debootstrap's resolver takes no virtual package: dbus is the system bus avahi needs.
    include="ca-certificates,dbus,$(tr ' ' ',' <<<"$packages")"
    mkdir -p "$CACHE_DIR/debs"
    say "debootstrap $SUITE $ARCH from $MIRROR with $include (log: $log)"
    if ! {
        if [[ $RUNNER == chroot ]]; then
            nice -n 19 debootstrap --arch="$ARCH" --variant=minbase --include="$include" \
                --cache-dir="$CACHE_DIR/debs" "$SUITE" "$BASE" "$MIRROR"
        else
            nice -n 19 debootstrap --foreign --arch="$ARCH" --variant=minbase \
                --include="$include" --cache-dir="$CACHE_DIR/debs" "$SUITE" "$BASE" "$MIRROR"
            nice -n 19 proot -q "$QEMU" -0 -r "$BASE" -b /proc -b /sys -b /dev -w / \
                /debootstrap/debootstrap --second-stage
        fi
    } >"$log" 2>&1; then
        tail -n 20 "$log" >&2
        [[ ! -f $BASE/debootstrap/debootstrap.log ]] || tail -n 20 "$BASE/debootstrap/debootstrap.log" >&2
        return 1
    fi
    # No daemon starts inside the root, ever.
    printf '#!/bin/sh\nexit 101\n' >"$BASE/usr/sbin/policy-rc.d"
    chmod 0755 "$BASE/usr/sbin/policy-rc.d"
    rm -rf "$BASE/var/cache/apt/archives/"*.deb
    date -u +%FT%TZ >"$BASE.ok"
}

copy_source() {
    # The working tree as install.sh sees a checkout on the Pi (no .git, no .venv, no caches).
    rm -rf "$ROOTFS/src"
    mkdir -p "$ROOTFS/src/phase10"
    tar -C "$SOURCE_DIR" --exclude=./.git --exclude=./.venv --exclude='./.venv-*' \
        --exclude=./.cache --exclude='*.egg-info' --exclude=./build --exclude=__pycache__ \
        --exclude=.pytest_cache --exclude=.ruff_cache --exclude=./data -cf - . \
        | tar -C "$ROOTFS/src/phase10" -xf -
}

x86_reference() {
    # This machine's own readings, odds and models: what the arm64 ones must match.
    [[ -x $HOST_PHASE10 ]] || {
        echo "no phase10 on this machine at $HOST_PHASE10: run 'make test' first" \
            "(or set PHASE10_HOST_COMMAND)" >&2
        return 1
    }
    local python
    python=$(dirname "$HOST_PHASE10")/python
    mkdir -p "$ROOTFS/reference"
    (cd "$SOURCE_DIR" && nice -n 19 "$python" deploy/arm64_checks.py reference \
        --phase10 "$HOST_PHASE10" --out "$ROOTFS/reference")
}

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

inside() {
    # inside COMMAND...: run a command in the arm64 root (as root, from /src/phase10).
    local env=(env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
        HOME=/root LANG=C.UTF-8 TERM=dumb PYTHONDONTWRITEBYTECODE=1 PIP_DISABLE_PIP_VERSION_CHECK=1
        PIP_DEFAULT_TIMEOUT=180 PIP_CERT=/etc/ssl/certs/ca-certificates.crt
        SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt QEMU_CPU="$CPU")
    if [[ $RUNNER == chroot ]]; then
        nice -n 19 chroot "$ROOTFS" "${env[@]}" bash -c 'cd /src/phase10 && exec "$@"' inside "$@"
    else
        [[ -f $RUN_DIR/cpuinfo ]] || pi_cpuinfo >"$RUN_DIR/cpuinfo"
        nice -n 19 proot -q "$QEMU" -0 -r "$ROOTFS" -b /proc -b /sys -b /dev \
            -b "$RUN_DIR/cpuinfo:/proc/cpuinfo" \
            -b "$CACHE_DIR/pip:/root/.cache/pip" -w /src/phase10 "${env[@]}" "$@"
    fi
}

run_checks() {
    # Everything after the root exists; runs inside a private mount namespace (chroot)
    # so its mounts vanish with it, whatever happens.
    step "copy the working tree into the arm64 root"
    copy_source
    cp /etc/resolv.conf "$ROOTFS/etc/resolv.conf" 2>/dev/null || true
    # This machine's own certificate authorities (a site's proxy): trusted inside too.
    local authority
    for authority in /usr/local/share/ca-certificates/*.crt; do
        [[ -f $authority ]] && cat "$authority" >>"$ROOTFS/etc/ssl/certs/ca-certificates.crt"
    done
    step_done

    step "read the golden scenes, odds tables and models on this machine (x86 reference)"
    x86_reference
    step_done

    step "install with deploy/install.sh --no-systemd (pip from PyPI for arm64)"
    inside bash deploy/install.sh --no-systemd --keep-hostname --port "$PORT" \
        | tee "$ROOTFS/reference/install.log"
    step_done

    local checks
    for checks in installed doctor read serve assets; do
        step "$(check_title "$checks")"
        inside python3 deploy/arm64_checks.py "$checks" --reference /reference --port "$PORT"
        step_done
    done

    step "run deploy/install.sh --no-systemd again: nothing to change"
    inside bash deploy/install.sh --no-systemd --keep-hostname --port "$PORT" \
        >"$ROOTFS/reference/install-again.log"
    if grep '^done:' "$ROOTFS/reference/install-again.log"; then
        echo "the second install changed something (above)" >&2
        return 1
    fi
    step_done
}

check_title() {
    case $1 in
        installed) echo "check what the installer wrote (unit, config, mDNS, user, data folder, link)" ;;
        doctor) echo "run phase10 doctor" ;;
        read) echo "read the golden scenes with phase10 read --json and compare with x86" ;;
        serve) echo "start the unit's phase10 serve as its user and play a turn over HTTP" ;;
        assets) echo "load the shipped odds tables and models and compare with x86" ;;
    esac
}

pi_cpuinfo() {
    # qemu-user (7.2) shows programs this machine's own /proc/cpuinfo; ONNX Runtime's
    # cpuinfo finds no Arm core in it and crashes on import. The root gets the
    # /proc/cpuinfo of an Arm machine with this machine's processors and qemu's core.
    local part=0xd08 range first last cpu # Cortex-A72; A76: 0xd0b; A53: 0xd03
    case $CPU in cortex-a76 | max) part=0xd0b ;; cortex-a53) part=0xd03 ;; esac
    local ranges
    IFS=, read -r -a ranges </sys/devices/system/cpu/present
    for range in "${ranges[@]}"; do
        first=${range%-*}
        last=${range#*-}
        for ((cpu = first; cpu <= last; cpu++)); do
            printf 'processor\t: %d\nBogoMIPS\t: 108.00\nFeatures\t: fp asimd evtstrm crc32 cpuid\n' "$cpu"
            printf 'CPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: 0x0\n'
            printf 'CPU part\t: %s\nCPU revision\t: 3\n\n' "$part"
        done
    done
}

mount_root() {
    # Fresh root for this run: an overlay on the cached base (or a copy where overlays
    # are not available), with /proc, /sys, /dev and the pip cache from outside.
    mkdir -p "$RUN_DIR/upper" "$RUN_DIR/work" "$ROOTFS"
    if ! mount -t overlay overlay -o "lowerdir=$BASE,upperdir=$RUN_DIR/upper,workdir=$RUN_DIR/work" \
        "$ROOTFS" 2>/dev/null; then
        cp -a "$BASE/." "$ROOTFS/"
    fi
    mount -t proc proc "$ROOTFS/proc"
    if ! native_arm64; then
        pi_cpuinfo >"$RUN_DIR/cpuinfo"
        mount --bind "$RUN_DIR/cpuinfo" "$ROOTFS/proc/cpuinfo"
    fi
    mount --rbind /sys "$ROOTFS/sys"
    mount --rbind /dev "$ROOTFS/dev"
    mkdir -p "$ROOTFS/root/.cache/pip"
    mount --bind "$CACHE_DIR/pip" "$ROOTFS/root/.cache/pip"
}

main() {
    parse_args "$@"
    choose_runner
    if ((PROBE)); then
        say "probe: the check can run here ($RUNNER); cache: $CACHE_DIR"
        return 0
    fi
    trap on_exit EXIT
    local started=$SECONDS
    mkdir -p "$CACHE_DIR/pip"
    BASE=$CACHE_DIR/base-$SUITE-$ARCH-$(base_key)
    RUN_DIR=$CACHE_DIR/run
    ROOTFS=$RUN_DIR/root
    readonly BASE RUN_DIR ROOTFS
    [[ -n $PORT ]] || PORT=$(free_port)

    step "build the arm64 Debian $SUITE root with debootstrap (cached)"
    build_base
    step_done

    step "remove the previous run's root"
    if mountpoint -q "$ROOTFS" 2>/dev/null; then
        umount -R "$ROOTFS" 2>/dev/null || umount -lR "$ROOTFS"
    fi
    rm -rf "$RUN_DIR"
    if [[ $RUNNER == chroot ]]; then
        # Re-enter this script in a private mount namespace: every mount goes with it.
        step_done
        STEP=""
        env PHASE10_ARM64_STAGE=inner BASE="$BASE" RUN_DIR="$RUN_DIR" ROOTFS="$ROOTFS" \
            PHASE10_ARM64_PORT="$PORT" unshare --mount --propagation private bash "$0" "$@"
    else
        mkdir -p "$ROOTFS"
        cp -a "$BASE/." "$ROOTFS/"
        step_done
        run_checks
        report_times
    fi
    say "passed in $((SECONDS - started)) s (runner: $RUNNER, emulated $CPU; cache: $CACHE_DIR)"
}

report_times() {
    local line
    for line in "${TIMES[@]}"; do
        say "time: $line"
    done
    if [[ -f $ROOTFS/reference/frame-times.txt ]]; then
        say "$(cat "$ROOTFS/reference/frame-times.txt")"
    fi
}

inner() {
    # The chroot runner's second half, inside the private mount namespace.
    trap on_exit EXIT
    readonly BASE RUN_DIR ROOTFS PORT
    step "prepare a fresh root for this run"
    mount_root
    step_done
    run_checks
    report_times
}

# One block, read whole before it runs: editing this file during a run cannot change it.
{
    if [[ ${PHASE10_ARM64_STAGE:-} == inner ]]; then
        parse_args "$@"
        RUNNER=chroot
        PORT=$PHASE10_ARM64_PORT
        inner
    else
        main "$@"
    fi
    exit
}
