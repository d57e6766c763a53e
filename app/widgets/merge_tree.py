"""A token's merge tree: the token at the top, the merges that built it below, its bytes (or
characters) as the leaves along the bottom row, so the bottom row spells the token.

Each node is a chip (:mod:`.chips`) with the merge rank under it (``#rank``); byte leaves carry
their hex value. Clicking a node emits ``token_clicked(id)`` so an inspector can jump to it.

The tree comes from ``bpe_core.analysis.lineage.merge_tree(model, token_id)`` (``Node(id, display, rank,
children)``); :func:`build_tree` is the same walk over ``model.created_by``/``model.merges``, used
until lineage.py lands.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import List, Optional

from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QFont, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsItem, QGraphicsPathItem, QGraphicsScene, QGraphicsView, QLabel, QWidget

from bpe_core import BPEModel
from bpe_core.base import decoded_text, to_hex

from .theme import edge_color
from .chip_colors import token_color
from .chip_text import chip_text, token_tooltip
from .chips import Chip, ChipMetrics, paint_chip

__all__ = ["TreeNode", "build_tree", "MergeTreeView", "ChipItem"]


@dataclass
class TreeNode:
    id: int
    display: str
    rank: Optional[int]
    children: List["TreeNode"] = field(default_factory=list)


def build_tree(model: BPEModel, token_id: int) -> TreeNode:
    """The merge tree of ``token_id``: a node per token, children = the merged pair.

    Uses ``bpe_core.analysis.lineage.merge_tree`` when available.
    """
    try:
        from bpe_core.analysis import merge_tree
    except ImportError:  # TEMPORARY: lineage.py is being written in parallel
        merge_tree = None
    if merge_tree is not None:
        return _adopt(merge_tree(model, token_id))
    rank = model.created_by.get(token_id)
    node = TreeNode(token_id, model.display(token_id), rank)
    if rank:
        left, right = model.merges[rank - 1]
        node.children = [build_tree(model, left), build_tree(model, right)]
    return node


def _adopt(node) -> TreeNode:
    return TreeNode(node.id, node.display, node.rank, [_adopt(c) for c in (node.children or ())])


def _leaves(node: TreeNode) -> List[TreeNode]:
    if not node.children:
        return [node]
    return [leaf for c in node.children for leaf in _leaves(c)]


def _depth(node: TreeNode) -> int:
    return 1 + max((_depth(c) for c in node.children), default=0)


class ChipItem(QGraphicsItem):
    """One tree node drawn as a chip."""

    def __init__(self, node: TreeNode, chip: Chip, color: QColor, metrics: ChipMetrics, size: QRectF) -> None:
        super().__init__()
        self.node = node
        self.chip = chip
        self.color = color
        self._m = metrics
        self._rect = size
        self.setAcceptHoverEvents(True)
        self.setCursor(Qt.PointingHandCursor)
        self._hover = False

    def boundingRect(self) -> QRectF:
        return self._rect.adjusted(-2, -2, 2, 2)

    def paint(self, painter: QPainter, option, widget=None) -> None:
        painter.setRenderHint(QPainter.Antialiasing, True)
        paint_chip(painter, self._rect, self.chip, self.color, self._m, highlight=self._hover)

    def hoverEnterEvent(self, e) -> None:
        self._hover = True
        self.update()

    def hoverLeaveEvent(self, e) -> None:
        self._hover = False
        self.update()


class MergeTreeView(QGraphicsView):
    """Draws the merge tree of one token. ``show_token(id)`` after ``set_model(model)``."""

    token_clicked = Signal(int)

    H_GAP = 8
    LEVEL_GAP = 26
    MAX_SCALE = 1.6
    #: below this the chips are unreadable: the tree scrolls instead (Ctrl+wheel zooms)
    MIN_SCALE = 0.55

    def __init__(self, parent: Optional[QWidget] = None) -> None:
        super().__init__(parent)
        self.setScene(QGraphicsScene(self))
        self.setRenderHints(QPainter.Antialiasing | QPainter.TextAntialiasing)
        self.setAlignment(Qt.AlignHCenter | Qt.AlignTop)
        self.setTransformationAnchor(QGraphicsView.AnchorUnderMouse)
        self._caption_label = QLabel(self)
        self._caption_label.setTextFormat(Qt.PlainText)
        self._caption_label.setContentsMargins(8, 4, 8, 4)
        f = QFont(self.font())
        f.setBold(True)
        self._caption_label.setFont(f)
        self._model: Optional[BPEModel] = None
        self._root: Optional[TreeNode] = None
        self._items: List[ChipItem] = []
        self._caption = ""
        self._metrics = ChipMetrics(self._tree_font())

    def _tree_font(self) -> QFont:
        f = QFont(self.font())
        f.setPointSizeF(max(10.0, f.pointSizeF() * 1.15) if f.pointSizeF() > 0 else 11.0)
        return f

    # -- public
    def set_model(self, model: Optional[BPEModel]) -> None:
        self._model = model
        self.clear()

    def clear(self) -> None:
        self.scene().clear()
        self._items = []
        self._root = None
        self._set_caption("Select a token to see how it was merged." if self._model is not None else "")

    def show_token(self, token_id: int) -> None:
        m = self._model
        if m is None or not 0 <= token_id < len(m.tokens) or m.tokens[token_id] is None:
            self.clear()
            return
        self._root = build_tree(m, token_id)
        self._set_caption(self._caption_for(token_id))
        self._rebuild()

    def root(self) -> Optional[TreeNode]:
        return self._root

    def node_items(self) -> List[ChipItem]:
        return list(self._items)

    def leaf_items(self) -> List[ChipItem]:
        """Leaf chips left to right."""
        return sorted((i for i in self._items if not i.node.children), key=lambda i: i.pos().x() + i._rect.x())

    def leaf_count(self) -> int:
        return len(self.leaf_items())

    def caption(self) -> str:
        return self._caption

    def _set_caption(self, text: str) -> None:
        self._caption = text
        self._caption_label.setText(text)
        self._caption_label.setToolTip(text)
        self._place_caption()

    def _place_caption(self) -> None:
        h = self._caption_label.sizeHint().height() if self._caption else 0
        self.setViewportMargins(0, h, 0, 0)
        fw = self.frameWidth()
        self._caption_label.setGeometry(fw, fw, self.width() - 2 * fw, h)
        self._caption_label.setVisible(bool(self._caption))

    # -- building
    def _caption_for(self, token_id: int) -> str:
        m = self._model
        raw = m.tokens[token_id]
        rank = m.created_by.get(token_id)
        n = len(raw)
        unit = "bytes" if isinstance(raw, bytes) else "chars"
        text = decoded_text(raw)
        shown = repr(text) if text is not None else "partial UTF-8 character"
        how = f"merge rank {rank:,}" if rank else ("special token" if token_id in m.special_ids else "base symbol")
        return f"id {token_id:,} · {how} · {n} {unit} · {shown}"

    def _chip_for(self, node: TreeNode) -> Chip:
        m = self._model
        raw = m.tokens[node.id]
        text, partial = chip_text(raw, mode="glyphs") if raw is not None else (node.display, False)
        if node.children:
            sub = f"#{node.rank:,}" if node.rank else ""
        elif isinstance(raw, bytes):
            sub = to_hex(raw)
        else:
            sub = "base"
        if isinstance(raw, bytes) and not raw.isascii() and not partial and node.children:
            sub += f"  {decoded_text(raw)}"  # glyphs like ä¸Ń say little: show the text too
        tip = token_tooltip(m, node.id)
        return Chip(text, node.id, tip, False, partial, node.id in m.special_ids, sub or " ")

    def _rebuild(self) -> None:
        scene = self.scene()
        scene.clear()
        self._items = []
        root = self._root
        if root is None:
            return
        self._metrics = ChipMetrics(self._tree_font())
        m = self._metrics
        h = m.height(True)
        level_h = h + self.LEVEL_GAP
        depth = _depth(root)
        chips = {}
        spans = {}

        def measure(node: TreeNode) -> float:
            chip = chips[id(node)] = self._chip_for(node)
            w = m.width(chip)
            if node.children:
                kids = sum(measure(c) for c in node.children) + self.H_GAP * (len(node.children) - 1)
                span = max(w, kids)
            else:
                span = w
            spans[id(node)] = span
            return span

        measure(root)
        edges = QPainterPath()
        color_of = {}

        def place(node: TreeNode, left: float, level: int) -> QRectF:
            span = spans[id(node)]
            chip = chips[id(node)]
            w = m.width(chip)
            lvl = level if node.children else depth - 1  # leaves line up along the bottom
            if node.children:
                kids_w = sum(spans[id(c)] for c in node.children) + self.H_GAP * (len(node.children) - 1)
                x = left + (span - kids_w) / 2
                child_rects = []
                for c in node.children:
                    child_rects.append(place(c, x, level + 1))
                    x += spans[id(c)] + self.H_GAP
                cx = (child_rects[0].center().x() + child_rects[-1].center().x()) / 2
            else:
                child_rects = []
                cx = left + span / 2
            rect = QRectF(cx - w / 2, lvl * level_h, w, h)
            for cr in child_rects:
                start = QPointF(rect.center().x(), rect.bottom())
                end = QPointF(cr.center().x(), cr.top())
                bend = min(self.LEVEL_GAP * 0.8, (end.y() - start.y()) / 2)
                edges.moveTo(start)
                edges.cubicTo(QPointF(start.x(), start.y() + bend), QPointF(end.x(), end.y() - bend), end)
            color = color_of.get(node.id)
            if color is None:
                color = color_of[node.id] = token_color(node.id)
            item = ChipItem(node, chip, color, m, rect)
            item.setToolTip(chip.tooltip or "")
            item.setZValue(1)
            scene.addItem(item)
            self._items.append(item)
            return rect

        place(root, 0.0, 0)
        path_item = QGraphicsPathItem(edges)
        path_item.setPen(QPen(edge_color(self.palette()), 1.3))
        path_item.setZValue(0)
        scene.addItem(path_item)
        bounds = scene.itemsBoundingRect().adjusted(-12, -12, 12, 12)
        scene.setSceneRect(bounds)
        self._fit()

    def _fit(self) -> None:
        rect = self.sceneRect()
        if rect.isEmpty():
            return
        self.resetTransform()
        vw, vh = self.viewport().width(), self.viewport().height()
        scale = max(min(vw / rect.width(), vh / rect.height(), self.MAX_SCALE), self.MIN_SCALE)
        self.scale(scale, scale)
        self.centerOn(QPointF(rect.center().x(), rect.top() + min(rect.height(), vh / scale) / 2))

    # -- events
    def resizeEvent(self, e) -> None:
        super().resizeEvent(e)
        self._place_caption()
        self._fit()

    def wheelEvent(self, e) -> None:
        if e.modifiers() & Qt.ControlModifier:
            factor = 1.15 if e.angleDelta().y() > 0 else 1 / 1.15
            self.scale(factor, factor)
            e.accept()
        else:
            super().wheelEvent(e)

    def mousePressEvent(self, e) -> None:
        item = self.itemAt(e.position().toPoint())
        while item is not None and not isinstance(item, ChipItem):
            item = item.parentItem()
        if isinstance(item, ChipItem):
            self.token_clicked.emit(item.node.id)
        super().mousePressEvent(e)
