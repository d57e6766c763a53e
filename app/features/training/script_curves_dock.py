"""View → "Tokens per word by script": a dock with one curve per script over the merge number.

When the corpus mixes scripts (English and Chinese, say), the curves show live whether the merges
serve one language and starve the other. Tracking starts when the dock is first shown (from the
merge the training is at), and goes on while it is hidden, so showing it again loses nothing.
"""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDockWidget

from .script_curves_pane import ScriptCurvesChart
from ...side_docks import add_side_dock

TITLE = "Tokens per word by script"
DOCK_WIDTH = 380


def install(window) -> None:
    dock = QDockWidget(TITLE, window, objectName="dock_script_curves")
    add_side_dock(window, dock)
    dock.hide()

    def on_visibility_changed(visible: bool) -> None:
        # the chart is made when first shown: a window that never shows it carries no plot (its
        # objects would lengthen every garbage collection, a pause in some step's frame)
        if visible and dock.widget() is None:
            chart = ScriptCurvesChart(window.session)
            dock.setWidget(chart)
            window.resizeDocks([dock], [DOCK_WIDTH], Qt.Horizontal)  # a small chart beside the panes
            chart.set_tracking(True)

    dock.visibilityChanged.connect(on_visibility_changed)
    action = dock.toggleViewAction()
    action.setText(TITLE)
    action.setObjectName("action_script_curves")
    action.setStatusTip("One curve of tokens per word per script (Latin, Han, Cyrillic, …) over the merges")
    window.menus["view"].addAction(action)
