"""View → Theme: System / Light / Dark, applied at once (no restart), remembered between runs.

Under every theme the charts take the theme's colors (the presenter keeps its own black), and a
checked toggle (the encode pane's ``ids``, ``whitespace``, ``glyphs``, ``hex``) looks clearly unlike
an unchecked one: checked on screen (the widget's own pixels, ``QWidget.grab``), not only in
``isChecked()``.
"""
from __future__ import annotations

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication, QDockWidget

from bpe_lens_app.widgets.theme import contrast_ratio, dark_palette, is_dark, luminance

THEMES = ("System", "Light", "Dark")


pytestmark = pytest.mark.usefixtures("system_palette_back")  # (tests/app/conftest.py)


def theme_actions(window) -> dict:
    menu = window.menus["view"].findChild(type(window.menus["view"]), "menu_theme")
    assert menu is not None, "View → Theme"
    return {a.text().replace("&", ""): a for a in menu.actions()}


def choose(qtbot, window, name: str) -> None:
    theme_actions(window)[name].trigger()
    qtbot.wait(10)


def mean_color(widget) -> QColor:
    """The average color of what ``widget`` shows (its border left out)."""
    image = widget.grab().toImage()
    w, h = image.width(), image.height()
    pixels = [image.pixelColor(x, y) for x in range(3, w - 3) for y in range(3, h - 3)]
    return QColor(*(round(sum(getattr(c, f)() for c in pixels) / len(pixels)) for f in ("red", "green", "blue")))


#: how far apart (RGB distance, 0..441) a checked and an unchecked toggle's average colors are at least:
#: before the fix Fusion's checked #353535 was 16 from the unchecked (dark palette), 38 on the light one
APART = 90


def distance(a: QColor, b: QColor) -> float:
    return sum((x - y) ** 2 for x, y in zip(a.getRgb()[:3], b.getRgb()[:3])) ** 0.5


def chart_background(window) -> QColor:
    return window.pair_chart.plot_widget.grab().toImage().pixelColor(2, 2)


def test_view_menu_offers_three_themes_system_first_for_a_new_user(qtbot, window):
    actions = theme_actions(window)
    assert list(actions) == list(THEMES)
    assert [a.isChecked() for a in actions.values()] == [True, False, False]
    assert all(a.isCheckable() for a in actions.values())


def test_dark_applies_at_once_to_the_window_and_the_charts(qtbot, loaded_window):
    w = loaded_window
    assert luminance(chart_background(w)) > 0.9  # the light default
    choose(qtbot, w, "Dark")
    assert theme_actions(w)["Dark"].isChecked() and not theme_actions(w)["System"].isChecked()
    assert is_dark(QApplication.palette())
    assert luminance(w.grab().toImage().pixelColor(w.width() // 2, w.height() - 5)) < 0.05  # the status bar
    qtbot.waitUntil(lambda: luminance(chart_background(w)) < 0.05, timeout=2000)
    hist = w.history_chart.layout_widget.grab().toImage().pixelColor(2, 2)
    assert luminance(hist) < 0.05
    axis = w.pair_chart.plot_item.getAxis("bottom").textPen().color()
    assert contrast_ratio(axis, chart_background(w)) >= 4.5
    choose(qtbot, w, "Light")
    assert not is_dark(QApplication.palette())
    qtbot.waitUntil(lambda: luminance(chart_background(w)) > 0.9, timeout=2000)


def test_light_overrides_a_dark_desktop_and_system_gives_it_back(qtbot, loaded_window):
    QApplication.setPalette(dark_palette())  # the desktop's own dark theme
    w = loaded_window
    qtbot.waitUntil(lambda: luminance(chart_background(w)) < 0.05, timeout=2000)
    choose(qtbot, w, "Light")
    assert not is_dark(QApplication.palette())
    qtbot.waitUntil(lambda: luminance(chart_background(w)) > 0.9, timeout=2000)
    choose(qtbot, w, "System")
    assert is_dark(QApplication.palette())  # the desktop's palette again
    qtbot.waitUntil(lambda: luminance(chart_background(w)) < 0.05, timeout=2000)


def test_system_after_dark_gives_back_the_palette_the_app_started_with(qtbot, window):
    start = QApplication.palette().color(QPalette.Window).name()
    choose(qtbot, window, "Dark")
    choose(qtbot, window, "System")
    assert QApplication.palette().color(QPalette.Window).name() == start


def test_the_choice_is_remembered_for_the_next_start(qtbot, window, session, tmp_path):
    from bpe_lens_app.main_window import MainWindow

    choose(qtbot, window, "Dark")
    settings_path = window.settings.fileName()
    window.settings.sync()
    QApplication.setPalette(QPalette())  # as a new process starts: the desktop's palette
    from bpe_lens_app.widgets import theme_choice

    theme_choice.forget_choice()
    assert not is_dark(QApplication.palette())
    again = MainWindow(session, QSettings(settings_path, QSettings.Format.IniFormat))
    qtbot.addWidget(again)
    assert is_dark(QApplication.palette())
    assert theme_actions(again)["Dark"].isChecked()


def test_a_stale_stored_theme_is_ignored(qtbot, session, tmp_path):
    from bpe_lens_app.main_window import MainWindow

    settings = QSettings(str(tmp_path / "stale.ini"), QSettings.Format.IniFormat)
    settings.setValue("view/theme", "solarized")
    w = MainWindow(session, settings)
    qtbot.addWidget(w)
    assert theme_actions(w)["System"].isChecked()


@pytest.mark.parametrize("theme", THEMES)
def test_a_checked_toggle_looks_unlike_an_unchecked_one_in_every_theme(qtbot, loaded_window, theme):
    w = loaded_window
    choose(qtbot, w, theme)
    toggle = w.encode.ids_toggle
    assert w.encode.whitespace_toggle.isChecked() and not toggle.isChecked()  # the defaults
    assert distance(mean_color(w.encode.whitespace_toggle), mean_color(toggle)) >= APART
    off = mean_color(toggle)
    qtbot.mouseClick(toggle, Qt.LeftButton)
    assert toggle.isChecked()
    on = mean_color(toggle)
    assert distance(on, off) >= APART, (theme, on.name(), off.name())


@pytest.mark.parametrize("theme", THEMES)
def test_the_presenter_stays_black_with_its_toggles_marked_in_every_theme(qtbot, loaded_window, theme):
    w = loaded_window
    choose(qtbot, w, theme)
    w.enter_presenter()
    p = w.presenter
    p.showNormal()
    p.resize(1280, 720)
    qtbot.wait(20)
    image = p.grab().toImage()
    assert image.pixelColor(2, image.height() // 2).name() == "#000000"
    chart = p.chart.plot_widget.grab().toImage()
    assert chart.pixelColor(2, 2).name() == "#000000"
    enc = p.encode
    assert enc.whitespace_toggle.isChecked() and not enc.ids_toggle.isChecked()
    assert distance(mean_color(enc.whitespace_toggle), mean_color(enc.ids_toggle)) >= APART
    if theme != "Dark":
        choose(qtbot, w, "Dark")  # a switch while presenting changes nothing there
        qtbot.wait(20)
        assert p.chart.plot_widget.grab().toImage().pixelColor(2, 2).name() == "#000000"
    p.leave()


def test_a_chart_made_before_the_switch_follows_it(qtbot, loaded_window):
    """The per-script curves' dock (made when first shown) restyles on a theme switch too."""
    w = loaded_window
    w.findChild(type(w.open_action), "action_script_curves").trigger()
    dock = w.findChild(QDockWidget, "dock_script_curves")
    qtbot.waitUntil(lambda: dock.widget() is not None, timeout=2000)
    plot = dock.widget().plot_widget
    assert luminance(plot.backgroundBrush().color()) > 0.9
    choose(qtbot, w, "Dark")
    qtbot.waitUntil(lambda: luminance(plot.backgroundBrush().color()) < 0.05, timeout=2000)
    axis = plot.getPlotItem().getAxis("bottom").textPen().color()
    assert contrast_ratio(axis, plot.backgroundBrush().color()) >= 4.5


def play_button(window):
    from PySide6.QtWidgets import QToolButton

    (button,) = [b for b in window.controls.findChildren(QToolButton) if b.defaultAction() is
                 window.train_actions["play"]]
    return button


@pytest.mark.parametrize("theme", THEMES)
def test_play_looks_pressed_while_it_plays_in_every_theme(qtbot, loaded_window, theme):
    w = loaded_window
    choose(qtbot, w, theme)
    button = play_button(w)
    w.session.set_speed(0.5)  # slow: the run is still playing when the button is grabbed
    off = mean_color(button)
    qtbot.mouseClick(button, Qt.LeftButton)
    assert button.isChecked()
    on = mean_color(button)
    qtbot.mouseClick(button, Qt.LeftButton)  # pause
    assert distance(on, off) >= APART, (theme, on.name(), off.name())


@pytest.mark.parametrize("theme", THEMES)
def test_the_explain_docks_play_looks_pressed_in_every_theme(qtbot, window, theme):
    choose(qtbot, window, theme)
    button = window.explain.pane.play_button
    button.setEnabled(True)
    off = mean_color(button)
    button.setChecked(True)
    on = mean_color(button)
    button.setChecked(False)
    assert distance(on, off) >= APART, (theme, on.name(), off.name())


@pytest.mark.parametrize("theme", ("Light", "Dark"))
def test_the_training_buttons_icons_stand_out_on_the_buttons(qtbot, loaded_window, theme):
    """Qt's built-in media icons are black: on a dark button (#353535) they nearly vanished. Play's
    icon changes with the run (Pause while playing): it keeps the theme's color through a play."""
    window = loaded_window
    choose(qtbot, window, theme)
    window.session.set_speed(0.5)
    for _ in range(2):  # play, pause
        qtbot.mouseClick(play_button(window), Qt.LeftButton)
    qtbot.waitUntil(lambda: not window.session.is_running, timeout=3000)
    button = QApplication.palette().color(QPalette.Button)
    for name in ("reset", "undo", "step", "play", "run"):
        image = window.train_actions[name].icon().pixmap(16, 16).toImage()
        ink = [image.pixelColor(x, y) for x in range(image.width()) for y in range(image.height())
               if image.pixelColor(x, y).alpha() > 200]
        assert ink, name
        darkest_gap = min(contrast_ratio(QColor(c.red(), c.green(), c.blue()), button) for c in ink)
        assert darkest_gap >= 3.0, (theme, name)


def test_a_user_who_chose_dark_starts_dark_next_time(qtbot, user_window):
    """As ``bpe-lens`` opens for a new user: View → Theme → Dark, quit, start again: dark at once."""
    from bpe_lens_app.widgets import theme_choice

    first = user_window()
    choose(qtbot, first, "Dark")
    first.close()
    QApplication.setPalette(QPalette())  # a new process: the desktop's palette
    theme_choice.forget_choice()
    assert not is_dark(QApplication.palette())
    again = user_window()
    assert theme_actions(again)["Dark"].isChecked()
    assert is_dark(QApplication.palette())
    qtbot.waitUntil(lambda: luminance(chart_background(again)) < 0.05, timeout=2000)


def test_the_health_tabs_charts_follow_a_switch(qtbot, window, tmp_path, monkeypatch):
    """View → Vocabulary health's two charts, made under the light theme, turn dark with it."""
    from PySide6.QtWidgets import QFileDialog

    from bpe_lens_app.demo import demo_byte_model
    from bpe_lens_app.features.health.pane import HealthPane

    corpus = tmp_path / "small.txt"
    corpus.write_text("the cat sat on the mat\n", encoding="utf-8")
    model = demo_byte_model("the cat sat on the mat. the cat ate the rat.\n" * 3, merges=20)
    window.session.workbench.add_vocabulary(model, name="demo")  # its inspector tab opens in front
    monkeypatch.setattr(QFileDialog, "getOpenFileNames", lambda *a, **k: ([str(corpus)], ""))
    window.findChild(type(window.open_action), "action_vocabulary_health").trigger()
    pane = window.tabs.currentWidget()
    assert isinstance(pane, HealthPane)
    qtbot.waitUntil(lambda: pane.report is not None, timeout=20000)
    charts = (pane.usage_plot, pane.fertility_plot)
    assert all(luminance(c.backgroundBrush().color()) > 0.9 for c in charts)
    choose(qtbot, window, "Dark")
    qtbot.waitUntil(lambda: all(luminance(c.backgroundBrush().color()) < 0.05 for c in charts), timeout=2000)
    for chart in charts:
        axis = chart.getPlotItem().getAxis("bottom").textPen().color()
        assert contrast_ratio(axis, chart.backgroundBrush().color()) >= 4.5
