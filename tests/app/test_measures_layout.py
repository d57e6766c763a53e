"""Issue 27 user test: the Measures chart's layout. The Group combo shows its whole text, the legend hides no
curve, no empty box is drawn, the hover box goes when the mouse leaves, and an empty chart says what to do."""
from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent, QPointF
from PySide6.QtWidgets import QApplication

from bpe_core.analysis.curves import CurveRow, Curves

from bpe_lens_app.features.measures.pane import MeasuresPane, group_label


def _curves(name: str, slope: float, n: int = 2000) -> Curves:
    rows = tuple(CurveRow(m, 256 + m, g, "bytes_per_token", 1.0 + slope * m / n)
                 for m in range(0, n + 1, 50) for g in ("all", "script:Han"))
    return Curves(name, 50, ("eng",), rows)


@pytest.fixture
def pane(qtbot):
    p = MeasuresPane()
    qtbot.addWidget(p)
    p.resize(1000, 560)
    p.show()
    qtbot.waitExposed(p)
    return p


def test_the_group_combo_shows_its_whole_text(pane, qtbot):
    pane.show_curves([_curves("r1: plain BPE", 1.0)])
    pane.select(group="script:Han")
    qtbot.wait(50)
    box = pane.group_box
    text = box.fontMetrics().horizontalAdvance(group_label("script:Han"))
    assert box.width() >= text + 30, (box.width(), text)


@pytest.mark.parametrize("slope", [1.0, -1.0])
def test_the_legend_covers_no_point_of_a_curve(pane, qtbot, slope):
    pane.show_curves([_curves(f"r{i}: a run with a long name", slope * (1 + i / 4)) for i in range(1, 5)])
    qtbot.wait(100)
    legend = pane.legend.mapRectToScene(pane.legend.boundingRect())
    assert pane.legend.isVisible()
    for i in range(len(pane.lines)):
        for j in range(len(pane.lines[i].merges)):
            assert not legend.contains(pane.point_scene_pos(i, j)), (i, j)


def test_no_empty_box_and_the_hover_goes_when_the_mouse_leaves(pane, qtbot):
    pane.show_curves([_curves("r1", 1.0)])
    qtbot.wait(50)
    assert not pane.tip.isVisible()  # no hover yet: no empty box on the chart
    assert pane.hover_at(pane.point_scene_pos(0, 10))
    assert pane.tip.isVisible() and pane.hover.text()
    QApplication.sendEvent(pane.chart, QEvent(QEvent.Leave))
    assert not pane.tip.isVisible() and pane.hover.text() == ""


def test_the_empty_chart_says_compute_and_shows_no_legend(pane, qtbot):
    qtbot.wait(50)
    assert not pane.legend.isVisible()
    assert pane.hint.isVisible() and pane.hint.toPlainText() == "Compute to draw the curves"
    pane.show_curves([_curves("r1", 1.0)])
    assert pane.legend.isVisible() and not pane.hint.isVisible()


def _pens(pane):
    return {item.name(): item.opts["pen"].color().name() for item in pane.plot.listDataItems() if item.name()}


def test_a_run_keeps_its_colour_when_a_run_or_branch_is_added(pane, qtbot):
    r1, r2 = _curves("r1: plain BPE (gpt2)", 1.0), _curves("r2: parity-aware BPE (gpt2)", 0.5)
    pane.show_curves([r1, r2])
    before = _pens(pane)
    branch = _curves("r1: plain BPE (gpt2) · tie 3", 0.8)
    r3 = _curves("r3: SuperBPE from merge 297", 0.7)
    pane.show_curves([r1, branch, r3, r2])
    after = _pens(pane)
    for name, color in before.items():
        assert after[name] == color, name
    # one colour per run (brief L2): the tie branch has its run's colour, told apart by its dash
    looks = {item.name(): (item.opts["pen"].color().name(), item.opts["pen"].style())
             for item in pane.plot.listDataItems() if item.name()}
    assert len(set(looks.values())) == 4
    assert after["r1: plain BPE (gpt2) · tie 3"] == after["r1: plain BPE (gpt2)"]


def test_the_png_export_scales_the_legend_with_the_picture(pane, qtbot, tmp_path):
    import numpy as np
    from PySide6.QtGui import QImage

    from bpe_lens_app.features.exports import export_chart

    pane.show_curves([_curves("r1: plain BPE (gpt2)", 1.0)])
    qtbot.wait(50)
    width = round(2 * pane.plot.sceneBoundingRect().width())

    def picture(name):
        export_chart(pane.plot, str(tmp_path / name), width=width)
        img = QImage(str(tmp_path / name)).convertToFormat(QImage.Format_RGB32)
        return np.frombuffer(img.constBits(), np.uint32).reshape(img.height(), -1)[:, :img.width()].copy()

    with_legend = picture("a.png")
    pane.legend.setVisible(False)
    without = picture("b.png")
    cols = np.nonzero((with_legend != without).any(axis=0))[0]
    drawn = cols.max() - cols.min() + 1  # the legend's width in the picture
    assert drawn >= 1.8 * pane.legend.boundingRect().width(), (drawn, pane.legend.boundingRect().width())
