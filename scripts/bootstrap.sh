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
  fonts-noto-color-emoji)

if command -v apt-get >/dev/null 2>&1; then
  missing=()
  for p in "${APT_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    SUDO=""
    [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    echo "bootstrap: installing ${missing[*]}" >&2
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
fi

PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
# bpe_lens_resources and tqdm: an editable install made before resources/ became package data lacks them
if ! .venv/bin/python -c "import bpe_core, bpe_lens_app, bpe_lens_resources, tqdm, PySide6, tokenizers, tiktoken, pytestqt, dask.distributed, pyarrow, PIL" \
    >/dev/null 2>&1; then
  .venv/bin/python -m pip install -q --upgrade pip
  .venv/bin/python -m pip install -q -e ".[test]"
fi
