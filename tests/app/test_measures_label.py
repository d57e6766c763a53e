"""The Measures chart's current-merge line keeps its label inside the chart: near the right edge it is drawn to
the line's left (the user test found it cut to "merg" at the right edge at 1280x800)."""
from __future__ import annotations

import pytest

from bpe_core.analysis.curves import CurveRow, Curves

from bpe_lens_app.features.measures.pane import MeasuresPane


def _curves(n: int = 200) -> Curves:
    rows = tuple(CurveRow(m, 256 + m, "all", "bytes_per_token", 1.0 + m / n) for m in range(0, n + 1, 10))
    return Curves("r1", 10, ("eng",), rows)


@pytest.mark.parametrize("merge", [0, 100, 200])
def test_the_line_label_stays_inside_the_chart(qtbot, merge):
    pane = MeasuresPane()
    qtbot.addWidget(pane)
    pane.resize(900, 500)
    pane.show()
    qtbot.waitExposed(pane)
    pane.show_curves([_curves()])
    pane.plot.getViewBox().setXRange(0, 200, padding=0)
    pane.set_merge(merge)
    qtbot.wait(50)
    label = pane.here.label
    assert label.isVisible() and label.toPlainText() == f"merge {merge}"
    shown = label.mapRectToScene(label.boundingRect())
    view = pane.plot.getViewBox().sceneBoundingRect()
    assert view.left() - 1 <= shown.left() and shown.right() <= view.right() + 1, (shown, view)
