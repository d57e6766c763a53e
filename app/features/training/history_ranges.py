"""The training history's y ranges (a part of :class:`~.history_chart.HistoryChart`): ranges that follow from
the corpus, so no ordinary merge redraws an axis.

Merge counts never rise (the first merge's count is the largest) nor fall below the minimum frequency; tokens per
word fall from their start towards 1 and characters per token rise from theirs: both get room in a few steps.
"""
from __future__ import annotations

import math

import numpy as np

from ...widgets.axes import nice_ceiling, show_empty

SUPERSCRIPTS = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


class HistoryRanges:
    """The y ranges of the history chart's plots (a mixin: it reads the chart's arrays and plots)."""

    def _set_fixed_y(self) -> None:
        """y ranges that follow from the corpus, so no ordinary merge redraws an axis: merge counts
        never rise (the first merge's count is the largest) nor fall below the minimum frequency;
        tokens per word fall from their start towards 1 and characters per token rise from theirs:
        both get room in a few steps (:meth:`_fit_tpw`, :meth:`_fit_upt`)."""
        s = self.session
        if s.stats is None:
            for plot in self.plots:  # before a corpus: a clean empty chart
                show_empty(plot, self._xmax or 100)
            self.plots[0].getAxis("left").setTicks([[(0, "10⁰"), (1, "10¹")], []])
            return
        top = s.history[0].count if s.history else (s.top_pairs[0].count if s.top_pairs else 2)
        lo = math.floor(math.log10(max(1, s.config.min_frequency or 1)))
        hi = max(lo + 1, math.ceil(math.log10(max(2, top)) - 1e-9))
        self._yrange = (lo, hi)
        self.plots[0].setYRange(lo, hi, padding=0.08)
        # whole decades, labelled 10^k only: pyqtgraph's log axis labels every minor tick when it
        # spans few decades, which overlap in a small chart
        self.plots[0].getAxis("left").setTicks(
            [[(k, f"10{str(k).translate(SUPERSCRIPTS)}") for k in range(lo, hi + 1)], []])
        self._tpw_range = self._upt_range = (0.0, 0.0)
        self._fit_tpw()
        self._fit_upt()

    def _fit_tpw(self) -> None:
        """Tokens per word: from their start down to room for twice the fall so far (at least 5 %
        of the start), never below 1: a few changes in a training, and a line that uses the chart
        also where words are long (whitespace-split Chinese: hundreds of tokens per word)."""
        if self.session.stats is None:
            return
        start = float(self._tpw[0])
        low = float(np.nanmin(self._tpw[: self._n + 1]))
        if self._tpw_range[1] and low >= self._tpw_range[0]:
            return
        top = max(1.0, start)
        bottom = max(1.0, top - nice_ceiling(2 * max(top - low, 0.05 * top)))
        self._tpw_range = (min(bottom, low), top)
        self.plots[2].setYRange(*self._tpw_range, padding=0.05)

    def _fit_upt(self) -> None:
        """Characters (bytes) per token: from a round number at or below the start, up to room
        for twice the rise so far (at least 0.1 unit): each change at least doubles the range, so
        it changes a few times in a training, never past every word being one token."""
        st = self.session.stats
        if st is None:
            return
        hi = float(np.nanmax(self._upt[: self._n + 1]))
        if self._upt_range[1] and hi <= self._upt_range[1]:
            return
        lo = math.floor(min(1.0, float(self._upt[0])) * 10) / 10
        ceiling = max(lo + 0.5, st.total_units / max(st.total_words, 1))  # every word one token
        top = min(ceiling, lo + nice_ceiling(2 * max(hi - lo, 0.05)))
        self._upt_range = (lo, max(top, hi))
        self.plots[3].setYRange(*self._upt_range, padding=0.05)
