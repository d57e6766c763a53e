#!/usr/bin/env bash
# The lower bounds pyproject.toml declares are promises: install exactly those (uv's lowest-direct
# resolution: every direct dependency at its declared minimum) into .venv-lowest and run the fast suite
# and the app's start there (issue 25). Run by .ci/run after the README's test command; needs
# scripts/bootstrap.sh's system packages. Arguments go to pytest (default: -m "not slow").
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
VENV=${BPE_LENS_LOWEST_VENV:-.venv-lowest}
rm -rf "$VENV" .venv-uv
"$PY" -m venv .venv-uv  # uv itself comes from PyPI, like every other tool the project uses
.venv-uv/bin/python -m pip install -q uv
"$PY" -m venv "$VENV"
.venv-uv/bin/uv pip install -q --python "$VENV/bin/python" --resolution lowest-direct -e ".[test]"
echo "lowest versions: $("$VENV/bin/python" -m pip list --format=freeze 2>/dev/null \
  | grep -iE '^(pyside6-essentials|pyqtgraph|nltk|numpy|regex|tqdm|tokenizers|tiktoken|dask|pyarrow|pillow)==' | tr '\n' ' ')"
QT_QPA_PLATFORM=offscreen "$VENV/bin/bpe-lens" --info >/dev/null  # the app's checks, Qt started on a platform
if [ $# -eq 0 ]; then set -- -m "not slow"; fi
"$VENV/bin/python" -m pytest -p no:cacheprovider "$@"
