"""An example's settings belong to the example, not to the user.

File → Examples opens an example with its own preset and settings (those of its seed's document). They
replace the user's while the example is open, and no longer: the next corpus the user opens (File → Open,
Recent corpora, a drop) is trained with the settings the user had before the example (or the defaults), and
those are the settings remembered for the next launch. Settings the user picks while an example is open (the
preset box, Training settings…) are the user's own from then on.
"""
from __future__ import annotations

from typing import Callable

from bpe_core import TrainerConfig

__all__ = ["lend", "own_config"]

#: the window's attribute holding (the example's settings, the user's own settings before it)
LENT = "lent_settings"


def own_config(window) -> TrainerConfig:
    """The user's own training settings: the session's, unless they are an example's; then the settings the user
    had before the example opened."""
    config, lent = window.session.config, getattr(window, LENT, None)
    return lent[1] if lent is not None and config == lent[0] else config


def lend(window, config: TrainerConfig, load: Callable[[], None]) -> None:
    """Call ``load()``, which opens an example with its settings ``config`` (asking first when trained merges
    would be lost), and when it opens, remember the user's own settings from before."""
    s = window.session
    own = own_config(window)  # from before the first example, when one example follows another
    load()
    if not (s.is_loading and s.last_load and s.last_load[1] == config):
        return  # the user kept the trained merges: nothing was opened
    if not hasattr(window, LENT):
        s.config_changed.connect(lambda changed: _forget(window, changed))
    setattr(window, LENT, (config, own))


def _forget(window, config: TrainerConfig) -> None:
    """Settings other than the example's are in use (the user's pick, another text's): nothing is lent now."""
    lent = getattr(window, LENT, None)
    if lent is not None and config != lent[0]:
        setattr(window, LENT, None)
