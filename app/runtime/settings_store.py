"""What the app remembers between runs (QSettings): the training settings, the font size, the theme
and the recent corpora and vocabularies.

Every function takes the ``QSettings`` to use, so the main window and the tests (which always pass
a temporary file, never the user's configuration) go through the same code. A stored value that
no longer makes sense (a preset renamed, a setting removed) is ignored rather than trusted.
"""
from __future__ import annotations

import json
import os
from typing import List, Optional

from PySide6.QtCore import QSettings

from bpe_core import BPELensError, TrainerConfig, make_config
from bpe_core.base import check_config, config_to_dict

CONFIG_KEY = "training/config"
FONT_KEY = "view/font_size"
THEME_KEY = "view/theme"
EXPORT_KEY = "last_export_dir"
MAX_RECENT = 8


def save_config(settings: QSettings, config: TrainerConfig) -> None:
    settings.setValue(CONFIG_KEY, json.dumps(config_to_dict(config)))


def saved_config(settings: QSettings) -> Optional[TrainerConfig]:
    """The last training settings, rebuilt on top of their preset; None when absent or stale."""
    raw = settings.value(CONFIG_KEY)
    if not raw:
        return None
    try:
        fields = json.loads(raw)
        config = make_config(fields.pop("preset"), **fields)
        check_config(config)
    except (BPELensError, ValueError, TypeError, KeyError, AttributeError):
        return None
    return config


def save_font_size(settings: QSettings, points: int) -> None:
    settings.setValue(FONT_KEY, int(points))


def saved_font_size(settings: QSettings) -> Optional[int]:
    try:
        value = int(settings.value(FONT_KEY, 0))
    except (TypeError, ValueError):
        return None
    return value or None


def save_theme(settings: QSettings, name: str) -> None:
    settings.setValue(THEME_KEY, name)


def saved_theme(settings: QSettings, choices=("system", "light", "dark")) -> str:
    """The theme last chosen (View → Theme); ``system`` when none was, or the stored one is unknown."""
    value = settings.value(THEME_KEY, "system")
    return value if value in choices else "system"


def recent(settings: QSettings, key: str) -> List[str]:
    """The list stored under ``key``, newest first (QSettings returns one string for a one-item list)."""
    value = settings.value(key, [])
    return [value] if isinstance(value, str) else list(value or [])


def remember(settings: QSettings, key: str, path: str) -> None:
    """Put ``path`` first in the list under ``key`` (once; at most :data:`MAX_RECENT`)."""
    rest = [p for p in recent(settings, key) if p != path]
    settings.setValue(key, [path] + rest[: MAX_RECENT - 1])


def folders_in_use(settings: QSettings) -> List[str]:
    """The folders the app reads and writes in: the last one used and those of recent files."""
    paths = recent(settings, "recent") + recent(settings, "recent_vocabularies")
    folders = [os.path.dirname(p) or "." for p in paths]
    last = settings.value("last_dir", "")
    if isinstance(last, str) and last:
        folders.insert(0, last)
    return list(dict.fromkeys(f for f in folders if os.path.isdir(f)))


def clean_stale_temps(settings: QSettings) -> List[str]:
    """Clean up, at start-up, what saves killed halfway left in the folders the app uses: a multi-file save
    that was interrupted is finished from its journal, and the temporary files of writers that are gone are
    removed. Returns the names of the files cleaned. The data folder, where autosaves live, is cleaned by
    :class:`~bpe_lens_app.features.workspace.autosave.Autosaver` itself."""
    from bpe_core.formats import remove_stale_temps_in

    return [name for folder in folders_in_use(settings) for name in remove_stale_temps_in(folder)]


def export_folder(settings: QSettings, corpus: Optional[str] = None) -> str:
    """The folder an export is proposed in: the last export's, else the last folder used, else the
    corpus's, else the home folder; each only when it is a writable folder outside the app's own files
    (the built-in corpora live in the installed package: site-packages in a wheel install)."""
    last = [settings.value(EXPORT_KEY, ""), settings.value("last_dir", "")]
    candidates = [c for c in last if isinstance(c, str) and c] + ([os.path.dirname(corpus)] if corpus else [])
    for folder in candidates:
        if _may_export_to(folder):
            return os.path.abspath(folder)
    return os.path.expanduser("~")


def remember_export(settings: QSettings, path: str) -> None:
    """The folder of a file just exported: the next export proposes it."""
    settings.setValue(EXPORT_KEY, os.path.dirname(os.path.abspath(path)))


def _may_export_to(folder: str) -> bool:
    from bpe_core import resources

    if not (os.path.isdir(folder) and os.access(folder, os.W_OK | os.X_OK)):
        return False
    real, own = os.path.realpath(folder), [os.path.realpath(os.path.dirname(__file__))]
    try:
        own.append(os.path.realpath(resources.root()))
    except BPELensError:
        pass
    return not any(real == o or real.startswith(o + os.sep) for o in own)

