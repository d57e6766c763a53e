"""File → Examples: what choosing an example does.

A seed's example opens its corpus with its own settings. A guided example (one with a ``measure``) goes on
by itself: once its corpus is counted it trains to its merges, then opens the Measures chart on its files
with its measure and group picked. It follows the window's own commands, so the user sees every stage
(counting, the run's progress, the curves computing) and can stop any of them; opening another corpus
meanwhile ends the guide without acting.
"""
from __future__ import annotations

from typing import Optional, Tuple

from .catalog import Example

__all__ = ["open_example"]


def open_example(window, example: Example) -> None:
    """Open ``example`` in ``window`` (asking first when trained merges would be discarded)."""
    if example.measure is None:
        window.load_corpus(str(example.path), example.config())
        return
    guide = Guide(window, example)
    window.example_guide = guide  # kept alive while it waits; a newer guide replaces it
    guide.start()


class Guide:
    """One guided example on its way: counting, then training, then the Measures chart."""

    def __init__(self, window, example: Example) -> None:
        self.window = window
        self.session = window.session
        self.example = example
        self.paths: Tuple[str, ...] = tuple(str(p) for p in example.files())
        self.stage: Optional[str] = None  # "counting", "training", then None (done or given up)

    def start(self) -> None:
        s = self.session
        s.corpus_loaded.connect(self._on_loaded)
        s.load_cancelled.connect(self._end)
        s.run_finished.connect(self._on_run_finished)
        self.stage = "counting"
        self.window.load_corpus(self.paths, self.example.config())
        if not s.is_loading or s.last_load is None or tuple(s.last_load[0]) != self.paths:
            self._end()  # the user kept the trained merges: nothing was opened

    def _ours(self) -> bool:
        info = self.session.corpus
        return info is not None and tuple(info.paths or (info.path,)) == self.paths \
            and getattr(self.window, "example_guide", None) is self

    def _on_loaded(self, *_) -> None:
        if self.stage != "counting":
            return
        if not self._ours():
            self._end()
            return
        self.stage = "training"
        self.session.run_to_target()

    def _on_run_finished(self, end) -> None:
        if self.stage != "training":
            return
        if not self._ours() or end.reason in ("cancelled", "paused") or self.session.merge_count == 0:
            self._end()  # stopped by the user, or another text: the chart waits for View → Measures…
            return
        self._end()
        from ..measures import show_measures  # through the feature's face, when it is used

        e = self.example
        show_measures(self.window, [str(p) for p in e.eval_files()], measure=e.measure, group=e.group,
                      every=e.every)

    def _end(self, *_) -> None:
        if self.stage is None:
            return
        self.stage = None
        s = self.session
        for signal, slot in ((s.corpus_loaded, self._on_loaded), (s.load_cancelled, self._end),
                             (s.run_finished, self._on_run_finished)):
            signal.disconnect(slot)
        if getattr(self.window, "example_guide", None) is self:
            self.window.example_guide = None
