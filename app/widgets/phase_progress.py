"""A progress bar for a vocabulary run over a corpus (health, token biography): progress in bytes is the
reading phase, anything else the replay; the bar names the phase and its share in tenths of a percent."""
from __future__ import annotations

from PySide6.QtWidgets import QProgressBar

__all__ = ["show_phase"]


def show_phase(bar: QProgressBar, p, *, reading: str, replaying: str) -> None:
    """Show ``p`` (a :class:`~bpe_core.types.Progress`) on ``bar`` as "PHASE NN%"."""
    bar.setRange(0, 1000)
    bar.setValue(int(1000 * p.done / p.total) if p.total else 0)
    bar.setFormat(f"{reading if p.unit == 'bytes' else replaying} %p%")
