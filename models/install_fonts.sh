#!/usr/bin/env bash
# Install the outline fonts the face classifier is trained and evaluated on: every Debian
# package named in vision/synth/font_library.py (the one list). Training needs them all; the
# app none; the tests that read dice sets in fonts training never saw need the held-out ones
# (`--held-out`, what CI installs) and skip without them. Run as root (or through sudo) on
# Debian or Raspberry Pi OS.
set -euo pipefail
cd "$(dirname "$0")/.."
python=${PYTHON:-.venv/bin/python}
# --held-out: only the held-out prints (Split.HELD_OUT, what the tests' unseen dice sets use);
# the held-out scripts and hands (Split.HANDWRITTEN) come with the full install.
split=None
if [ "${1:-}" = "--held-out" ]; then
    split=Split.HELD_OUT
    shift
fi
packages=$("$python" -c "from vision.synth.font_library import Split, packages; print(*packages($split))")
if [ "${1:-}" = "--list" ]; then
    echo "$packages"
    exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "install_fonts: apt-get not found; install these Debian packages by hand: $packages" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086  # one word per package
apt-get install -y -qq --no-install-recommends $packages
echo "install_fonts: installed $(echo "$packages" | wc -w) font packages"
