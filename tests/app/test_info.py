"""``bpe-lens --info`` reports everything a bug report needs, the app says in one line that it has no
display instead of letting Qt abort, and ``--install-desktop`` makes a menu entry that starts (issue 25)."""
from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

from bpe_lens_app import display
from bpe_lens_app import info


def _run(*args, env=None):
    base = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    return subprocess.run([sys.executable, "-m", "bpe_lens_app", *args], capture_output=True, text=True,
                          env={**base, **(env or {})}, timeout=120)


def test_info_names_every_dependency_extra_and_font(capsys):
    info.print_info()
    out = capsys.readouterr().out
    for name in ("pyqtgraph", "nltk", "numpy", "regex", "tqdm", "tokenizers", "tiktoken", "sentencepiece", "dask",
                 "distributed", "pyarrow", "Pillow", "zstandard", "CJK font", "emoji font", "display"):
        assert f"\n{name}:" in out, name


def test_a_missing_extra_names_what_installs_it(monkeypatch):
    monkeypatch.setattr(info, "_dist_version", lambda name: "not installed" if name == "pyarrow" else "1.0")
    assert dict(info.extras())["pyarrow"] == "not installed (pip install 'bpe-lens[parquet]')"


def test_without_a_display_the_app_says_so_in_one_line():
    out = _run()
    assert out.returncode == 2
    assert out.stderr.splitlines() == [
        "bpe-lens: no display (DISPLAY and WAYLAND_DISPLAY are not set): run it under 'xvfb-run -a bpe-lens', "
        "or set QT_QPA_PLATFORM=offscreen to run without a window"]


def test_a_display_nobody_serves_is_said_too(tmp_path):
    found = display.missing_display({"DISPLAY": ":97"}, x11_sockets=str(tmp_path))
    assert found.startswith("no X server answers on DISPLAY=:97: run it under 'xvfb-run -a bpe-lens'")
    (tmp_path / "X97").touch()
    assert display.missing_display({"DISPLAY": ":97.0"}, x11_sockets=str(tmp_path)) == ""
    assert display.missing_display({"DISPLAY": "remote:0"}, x11_sockets=str(tmp_path)) == ""  # not checked


def test_install_desktop_writes_an_entry_that_starts_this_installation_and_uninstall_removes_it(tmp_path):
    env = {"XDG_DATA_HOME": str(tmp_path)}
    out = _run("--install-desktop", env=env)
    assert out.returncode == 0, out.stderr
    entry = tmp_path / "applications" / "bpe-lens.desktop"
    icon = tmp_path / "icons" / "hicolor" / "256x256" / "apps" / "bpe-lens.png"
    assert entry.is_file() and icon.is_file() and str(entry) in out.stderr and out.stdout == ""
    fields = dict(line.split("=", 1) for line in entry.read_text().splitlines() if "=" in line)
    assert fields["Icon"] == str(icon)
    exec_args = fields["Exec"].split()
    assert exec_args[-1] == "%f" and Path(exec_args[0]).is_absolute() and os.access(exec_args[0], os.X_OK)
    # the entry's command really starts this installation: ask it its version
    started = subprocess.run(exec_args[:-1] + ["--version"], capture_output=True, text=True, timeout=120)
    assert started.returncode == 0 and started.stdout.startswith("bpe-lens ")
    out = _run("--uninstall-desktop", env=env)
    assert out.returncode == 0 and not entry.exists() and not icon.exists()
    assert _run("--uninstall-desktop", env=env).stderr.strip() == "bpe-lens: removed nothing (no menu entry was installed)"


def test_info_fails_when_an_app_module_does_not_import(monkeypatch):
    """A wheel that left a package out (features.variants, seen in the issue-26 user test) started no window, and
    --info still said "all checks passed": now every app module is imported and the one that fails is named."""
    assert "modules import" in info._check_app_modules()
    import importlib

    real = importlib.import_module

    def missing(name, *a, **k):
        if name == "bpe_lens_app.features.training.rule_runs":
            raise ModuleNotFoundError("No module named 'bpe_lens_app.features.variants'")
        return real(name, *a, **k)

    monkeypatch.setattr(importlib, "import_module", missing)
    out = io.StringIO()
    assert info.print_info(out) == 1
    assert "app modules:    FAILED — bpe_lens_app.features.training.rule_runs does not import" in out.getvalue()
