"""Toggles that look checked under every theme.

Fusion draws a checked button only 10 % darker than an unchecked one: on a dark palette (#353535) the
two look alike. A button given :func:`show_checked` is filled with the palette's highlight while it is
checked (light, dark or the desktop's palette: the colors are read when it is painted, so a theme
switch needs nothing more).
"""
from __future__ import annotations

from typing import Tuple

from PySide6.QtCore import QRectF
from PySide6.QtGui import QColor, QPainter, QPalette
from PySide6.QtWidgets import (QAbstractButton, QApplication, QProxyStyle, QStyle, QStyleFactory, QStyleOptionButton,
                               QStyleOptionToolButton)

from .theme import contrast_ratio, mix, readable_on


def checked_colors(palette: QPalette) -> Tuple[QColor, QColor]:
    """(fill, text) of a checked toggle: the palette's highlight behind its highlighted text, the fill
    darkened or lightened until the text reads on it (4.5:1). A disabled toggle gets a faint fill."""
    if palette.currentColorGroup() == QPalette.Disabled:
        button = palette.color(QPalette.Button)
        return mix(button, palette.color(QPalette.Active, QPalette.Highlight), 0.35), palette.color(QPalette.ButtonText)
    text = palette.color(QPalette.HighlightedText)
    fill = palette.color(QPalette.Highlight)
    if contrast_ratio(fill, text) < 4.5:
        fill = readable_on(fill, text, 4.5)
    return fill, text


class CheckedToggleStyle(QProxyStyle):
    """The base style, except that a checked tool button or push button is filled with :func:`checked_colors`."""

    def drawComplexControl(self, control, option, painter: QPainter, widget=None) -> None:
        if (control != QStyle.CC_ToolButton or not isinstance(option, QStyleOptionToolButton)
                or not option.state & QStyle.State_On):
            super().drawComplexControl(control, option, painter, widget)
            return
        text = self._fill(option, painter)
        label = QStyleOptionToolButton(option)
        label.palette = _with_button_text(option.palette, text)
        frame = self.pixelMetric(QStyle.PM_DefaultFrameWidth, option, widget)
        label.rect = option.rect.adjusted(frame, frame, -frame, -frame)
        self.drawControl(QStyle.CE_ToolButtonLabel, label, painter, widget)

    def drawControl(self, element, option, painter: QPainter, widget=None) -> None:
        checked = isinstance(option, QStyleOptionButton) and bool(option.state & QStyle.State_On)
        if checked and element == QStyle.CE_PushButtonBevel:
            self._fill(option, painter)
        elif checked and element == QStyle.CE_PushButtonLabel:
            label = QStyleOptionButton(option)
            label.palette = _with_button_text(option.palette, checked_colors(option.palette)[1])
            super().drawControl(element, label, painter, widget)
        else:
            super().drawControl(element, option, painter, widget)

    @staticmethod
    def _fill(option, painter: QPainter) -> QColor:
        """The checked button's rounded fill and its outline; returns the color its text takes."""
        fill, text = checked_colors(option.palette)
        painter.save()
        painter.setRenderHint(QPainter.Antialiasing)
        painter.setPen(fill.darker(140) if fill.lightness() > 60 else fill.lighter(160))
        painter.setBrush(fill)
        painter.drawRoundedRect(QRectF(option.rect).adjusted(0.5, 0.5, -0.5, -0.5), 2.5, 2.5)
        painter.restore()
        return text


def _with_button_text(palette: QPalette, color: QColor) -> QPalette:
    out = QPalette(palette)
    out.setColor(QPalette.ButtonText, color)
    return out


_TOGGLE_STYLES: dict = {}


def show_checked(button: QAbstractButton) -> QAbstractButton:
    """Give a checkable button :class:`CheckedToggleStyle` (only the button: a Python style hook on
    every widget would be called for everything painted). Returns the button."""
    base = QApplication.style().name() or "Fusion"
    style = _TOGGLE_STYLES.get(base)
    if style is None:  # kept alive here: a widget does not own the style it is given
        style = _TOGGLE_STYLES[base] = CheckedToggleStyle(QStyleFactory.create(base))
    button.setStyle(style)
    return button
