"""Opens the real app on one emulated screen and prints, as JSON, what a user of that screen sees.

``python screen_driver.py [--shot PNG] [--restored W H X Y]`` — run by tests/app/test_journeys_screens.py in
a process of its own per screen (the platform and its screen are chosen when the QApplication starts):
``QT_QPA_PLATFORM=offscreen:configfile=screens.json`` gives the screen (its size; ``windowFrameMargins``
gives every window a frame), ``QT_SCALE_FACTOR=2`` a 2x screen. The settings and data folders are fresh
temporary ones (the test sets ``XDG_CONFIG_HOME``, ``HOME`` and ``BPE_LENS_APP_DATA``).

It opens the window as ``bpe-lens`` does for a new user (``open_window``), waits for the default corpus,
then reports the screen, the window's frame, the status bar, and every visible label or button whose
text does not fit its rectangle; then it steps three merges, presses F11 and reports the same for the
presenter, with the banner's pixel height, the rows of words and encode chips shown and the chart's
texts. ``--restored`` first leaves a remembered geometry of that size and place in the settings, as an
earlier run on a larger screen would. ``--shot`` saves the presenter as the user sees it.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time

os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")

from PySide6.QtCore import QPoint, QRect, QSettings, Qt  # noqa: E402
from PySide6.QtGui import QFontInfo, QFontMetrics, QTextDocument  # noqa: E402
from PySide6 import QtGui  # noqa: E402
from PySide6.QtTest import QTest  # noqa: E402
from PySide6.QtWidgets import (QAbstractButton, QApplication, QCheckBox, QLabel, QPushButton,  # noqa: E402
                               QRadioButton, QStyle, QToolButton, QWidget)

ENCODE_TEXT = ("The lowest tokens merge first: lower, lowest, newer, newest. Byte pair encoding merges "
               "the most frequent pair of adjacent symbols into a new symbol, again and again, until the "
               "vocabulary reaches the size asked for; then rare words split into pieces, common ones stay whole.")


def wait_until(predicate, timeout: float = 60.0) -> bool:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            return False
        QTest.qWait(20)
    return True


def rect(r: QRect) -> list:
    return [r.x(), r.y(), r.width(), r.height()]


def plain(text: str) -> str:
    """A button's text as shown: ``&&`` is an ampersand, a single ``&`` marks the mnemonic."""
    return text.replace("&&", "\0").replace("&", "").replace("\0", "&")


def label_needs(label: QLabel) -> tuple:
    """(width, height) the label's text needs in its contents rectangle."""
    text = label.text()
    rich = label.textFormat() == Qt.RichText or (label.textFormat() == Qt.AutoText and QtGui.Qt.mightBeRichText(text))
    width = label.contentsRect().width() - 2 * label.margin() - max(label.indent(), 0)
    if rich:
        doc = QTextDocument()
        doc.setDefaultFont(label.font())
        doc.setDocumentMargin(0)
        doc.setHtml(text)
        if label.wordWrap():
            doc.setTextWidth(max(width, 1))
            return 0, doc.size().height()
        return doc.idealWidth(), doc.size().height()
    fm = QFontMetrics(label.font())
    if label.wordWrap():
        return 0, fm.boundingRect(QRect(0, 0, max(width, 1), 100000), Qt.TextWordWrap, text).height()
    lines = text.split("\n")
    return max(fm.horizontalAdvance(line) for line in lines), fm.height() * len(lines)


def button_needs(button: QAbstractButton) -> int:
    """The width the button's text (and icon, when shown) needs, padding included."""
    fm = QFontMetrics(button.font())
    need = fm.horizontalAdvance(plain(button.text()))
    style = button.style()
    if isinstance(button, (QCheckBox, QRadioButton)):
        metric = QStyle.PM_IndicatorWidth if isinstance(button, QCheckBox) else QStyle.PM_ExclusiveIndicatorWidth
        return need + style.pixelMetric(metric, None, button) + style.pixelMetric(QStyle.PM_CheckBoxLabelSpacing,
                                                                                  None, button)
    icon_shown = not button.icon().isNull() and not (
        isinstance(button, QToolButton) and button.toolButtonStyle() == Qt.ToolButtonTextOnly)
    if icon_shown and not (isinstance(button, QToolButton) and button.toolButtonStyle() == Qt.ToolButtonTextUnderIcon):
        need += button.iconSize().width() + 4
    return need + (8 if isinstance(button, QPushButton) else 4)


def inside(outer: QRect, inner: QRect) -> bool:
    return outer.contains(inner)


def clipped(root: QWidget) -> list:
    """Every visible label or button of ``root`` whose text does not fit it, or that reaches past ``root``."""
    problems = []
    area = QRect(QPoint(0, 0), root.size())
    for w in root.findChildren(QWidget):
        if not w.isVisible() or w.width() <= 0 or w.visibleRegion().isEmpty():
            continue
        if isinstance(w, QLabel) and w.text() and w.pixmap().isNull():
            need_w, need_h = label_needs(w)
            have = w.contentsRect()
            name = w.objectName() or type(w.parent()).__name__
            if need_w > have.width() + 1 and "…" not in w.text():
                problems.append(f"label {name} {w.text()[:60]!r}: needs {need_w:.0f} px, has {have.width()}")
            if need_h > have.height() + 1:
                problems.append(f"label {name} {w.text()[:60]!r}: needs {need_h:.0f} px high, has {have.height()}")
        elif isinstance(w, QAbstractButton) and w.text():
            need = button_needs(w)
            if need > w.width() + 1:
                problems.append(f"button {w.text()!r}: needs {need} px, has {w.width()}")
        else:
            continue
        top_left = w.mapTo(root, QPoint(0, 0))
        if not inside(area, QRect(top_left, w.size())) and not _in_scroll_area(w):
            problems.append(f"{type(w).__name__} {plain(w.text())[:40]!r} reaches past the window: "
                            f"{rect(QRect(top_left, w.size()))} in {rect(area)}")
    return problems


def _in_scroll_area(w: QWidget) -> bool:
    from PySide6.QtWidgets import QAbstractScrollArea

    p = w.parentWidget()
    while p is not None:
        if isinstance(p, QAbstractScrollArea):
            return True
        p = p.parentWidget()
    return False


def presenter_report(window, screen_h: int) -> dict:
    p = window.presenter
    chart = p.chart
    view = chart.plot_widget
    plot = chart.plot_item
    texts_out = []
    for name in ("left", "right", "bottom"):
        axis = plot.getAxis(name)
        box = axis.mapRectToScene(axis.boundingRect())
        if box.left() < -1 or box.right() > view.width() + 1 or box.bottom() > view.height() + 1:
            texts_out.append(f"{name} axis reaches past the chart: {box.getRect()} in {view.width()}x{view.height()}")
    right = chart.right_axis
    fm = QFontMetrics(right.style["tickFont"])
    counts = [t for t in right.texts() if t]
    room = right.width() - right.style["tickTextOffset"][0]
    for t in counts:
        if fm.horizontalAdvance(t) > room + 1:
            texts_out.append(f"count {t!r}: needs {fm.horizontalAdvance(t)} px, has {room:.0f}")
    title = plot.titleLabel
    box = title.item.boundingRect()
    if box.width() > title.width() + 1 or box.height() > title.height() + 1:
        texts_out.append(f"chart title cut: {box.width():.0f}x{box.height():.0f} in {title.width():.0f}x{title.height():.0f}")
    encode = p.encode
    return {
        "geometry": rect(p.geometry()), "frame": rect(p.frameGeometry()),
        "full_screen": p.isFullScreen(),
        "clipped": clipped(p) + texts_out,
        "banner_px": QFontInfo(p.banner.label.font()).pixelSize(),
        "banner_height": p.banner.height(),
        "type_pt": p.point_size,
        "word_rows": p.showcase.shown_rows(), "words": len(p.showcase.word_indices),
        "chart_rows": chart.rows,
        "encode_view_height": encode.view.viewport().height(),
        "encode_rows": encode.view.viewport().height() // max(1, _chip_row_height(encode)),
        "scrollbars_dark": _scrollbars_dark(p),
        "empty_bottom_px": _empty_bottom(p),
    }


def _chip_row_height(encode) -> int:
    return encode.view._row_h()


def _scrollbars_dark(p) -> bool:
    """Whether a scroll bar inside the presenter (the encode box's, the chips') is drawn dark: a bar as
    the encode pane would show one, drawn 16x160 with the presenter's style, has no light part."""
    from PySide6.QtWidgets import QScrollBar

    bar = QScrollBar(Qt.Vertical, p.encode)
    bar.setRange(0, 100)
    bar.setPageStep(20)
    bar.resize(16, 160)
    bar.ensurePolished()
    image = bar.grab().toImage()
    bar.deleteLater()
    pixels = [image.pixelColor(x, y).lightness() for x in range(image.width()) for y in range(image.height())]
    return sum(1 for v in pixels if v > 150) <= 0.01 * len(pixels)  # no light groove, handle or arrows


def _empty_bottom(p) -> int:
    """Black rows at the bottom of the presenter (nothing drawn there)."""
    image = p.grab().toImage()
    h, w = image.height(), image.width()
    empty = 0
    for y in range(h - 1, -1, -1):
        if any(image.pixelColor(x, y).lightness() > 40 for x in range(0, w, 4)):
            break
        empty += 1
    return round(empty / max(image.devicePixelRatio(), 1))


def leave_geometry(size_pos) -> None:
    """Remember a window of this size at this place, as a run on a larger screen would have."""
    from PySide6.QtWidgets import QMainWindow

    w, h, x, y = size_pos
    probe = QMainWindow()
    probe.setGeometry(x, y, w, h)
    QSettings().setValue("window/geometry", probe.saveGeometry())
    QSettings().sync()
    probe.deleteLater()


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--shot")
    parser.add_argument("--window-shot")
    parser.add_argument("--restored", nargs=4, type=int, metavar=("W", "H", "X", "Y"))
    args = parser.parse_args()
    from bpe_lens_app.__main__ import make_app, open_window, parse_args
    from bpe_lens_app.runtime.coalesce import pass_queue
    from bpe_lens_app.main_window import MainWindow

    app = make_app()
    MainWindow.ask_to_discard = lambda self, action: True  # (quitting at the end asks nothing)
    if args.restored:
        leave_geometry(args.restored)
    window, session = open_window(parse_args(["--no-restore"]))
    out = {"errors": []}
    session.error_raised.connect(lambda message: out["errors"].append(str(message)))
    try:
        loaded = wait_until(lambda: session.corpus is not None and not session.is_loading, 120)
        wait_until(lambda: pass_queue().idle, 20)
        QTest.qWait(200)  # a frame's late geometry changes
        screen = window.screen()
        out["screen"] = rect(screen.geometry())
        out["available"] = rect(screen.availableGeometry())
        out["dpr"] = screen.devicePixelRatio()
        out["loaded"] = loaded and session.is_loaded
        out["window"] = {
            "geometry": rect(window.geometry()), "frame": rect(window.frameGeometry()),
            "minimum": [window.minimumSizeHint().width(), window.minimumSizeHint().height()],
            "status_bar": rect(QRect(window.statusBar().mapToGlobal(QPoint(0, 0)), window.statusBar().size())),
            "status_visible": window.statusBar().isVisible(),
            "clipped": clipped(window),
        }
        if args.window_shot:
            window.grab().save(args.window_shot)
        session.step(3)
        wait_until(lambda: session.merge_count == 3, 30)
        window.presenter_action.trigger()
        p = window.presenter
        wait_until(lambda: p is not None and p.isVisible(), 10)
        p.encode.set_text(ENCODE_TEXT)
        p.encode.encode_now()
        session.step()
        wait_until(lambda: session.merge_count == 4, 30)
        QTest.qWait(400)  # the flash ends
        p.encode.encode_now()
        QTest.qWait(100)
        out["presenter"] = presenter_report(window, screen.geometry().height())
        if args.shot:
            p.grab().save(args.shot)
        p.leave()
    finally:
        print("REPORT " + json.dumps(out), flush=True)
        session.shutdown()
        window.close()
    app.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
