#!/usr/bin/env bash
# Set up BPE Lens from nothing on Debian/Ubuntu: system packages, a venv in .venv, the package + test extras.
# Idempotent: a second run only checks. Used by the README's Quick start and by .ci/run.
set -euo pipefail
cd "$(dirname "$0")/.."

APT_PACKAGES=(python3 python3-venv python3-pip
  # Qt 6 (offscreen and xcb) needs these on a slim image (../shared/FACTS.md)
  libgl1 libegl1 libglib2.0-0 libfontconfig1 libfreetype6 libxkbcommon0 libx11-6 libdbus-1-3
  libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 libxcb-image0 libxcb-render-util0 libxkbcommon-x11-0
  libxcb-shape0 libxcb-xkb1 libxcb-randr0 libxcb-xinerama0
  # CJK glyphs in token chips (DejaVu alone renders Han as boxes)
  fonts-wqy-microhei fonts-dejavu-core
  # emoji in the encode pane (color glyphs; without it emoji show as boxes)
  fonts-noto-color-emoji
  # a virtual display: the README tells users without one to run the app under xvfb-run
  xvfb xauth
  # a window manager: the screen-size journeys check a real title bar under Xvfb (test_journeys_screens.py)
  openbox)

# apt waits for a lock another process holds (an unattended upgrade, another install) up to this long
APT_LOCK_WAIT_S=${BPE_LENS_APT_LOCK_WAIT_S:-300}

if command -v apt-get >/dev/null 2>&1; then
  missing=()
  for p in "${APT_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    SUDO=""
    [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    echo "bootstrap: installing ${missing[*]}" >&2
    apt_get() { $SUDO env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout="$APT_LOCK_WAIT_S" "$@"; }
    # 'update' takes the lists lock, which DPkg::Lock::Timeout does not cover: retry while it is held
    waited=0
    until apt_get update -qq; do
      if [ "$waited" -ge "$APT_LOCK_WAIT_S" ]; then
        echo "bootstrap: apt-get update failed (another process holding the apt lock for ${APT_LOCK_WAIT_S} s?)" >&2
        exit 1
      fi
      sleep 5; waited=$((waited + 5))
    done
    apt_get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
fi

PY=${PYTHON:-python3}
if ! "$PY" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
  echo "bootstrap: BPE Lens needs Python 3.11 or newer; $PY is $("$PY" -V 2>&1 || echo "not a working Python") (set PYTHON=/path/to/python3.11)" >&2
  exit 1
fi
VENV=${BPE_LENS_VENV:-.venv}
if [ ! -x "$VENV/bin/python" ]; then
  "$PY" -m venv "$VENV"
fi
# pyproject.toml says what is needed: every requirement (and the test extra's) is checked against what
# is installed, so a package removed from the venv, or one at a version below a declared bound, is
# installed again; no list is kept here by hand
if ! "$VENV/bin/python" scripts/requirements_met.py test >/dev/null 2>&1; then
  "$VENV/bin/python" -m pip install -q --upgrade pip
  "$VENV/bin/python" -m pip install -q -e ".[test]"
  if ! unmet=$("$VENV/bin/python" scripts/requirements_met.py test); then
    echo "bootstrap: still unmet after pip install:" >&2
    echo "$unmet" >&2
    exit 1
  fi
fi
