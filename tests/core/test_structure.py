"""bpe_core's shape: small modules, no import cycle, no private name imported from another module."""
from __future__ import annotations

import ast
from pathlib import Path
from typing import Dict, List, Set, Tuple

import bpe_core

ROOT = Path(bpe_core.__file__).parent
MAX_LINES = 400


def _modules() -> Dict[str, Path]:
    out = {}
    for path in ROOT.rglob("*.py"):
        parts = path.relative_to(ROOT.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = path
    return out


def _imports(tree: ast.Module, *, everywhere: bool) -> List[ast.ImportFrom | ast.Import]:
    """Import statements at module level (``if TYPE_CHECKING:`` blocks included), or anywhere."""
    nodes = ast.walk(tree) if everywhere else [
        n for top in tree.body for n in ([top] if not isinstance(top, ast.If) else ast.walk(top))]
    return [n for n in nodes if isinstance(n, (ast.Import, ast.ImportFrom))]


def _graph(mods: Dict[str, Path]) -> Dict[str, Set[str]]:
    graph: Dict[str, Set[str]] = {m: set() for m in mods}
    for name, path in mods.items():
        for node in _imports(ast.parse(path.read_text(encoding="utf-8")), everywhere=False):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("bpe_core"):
                targets = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                continue
            graph[name].update(t for t in targets if t in mods and t != name)
    return graph


def _cycles(graph: Dict[str, Set[str]]) -> List[List[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: Dict[str, int] = {}
    low: Dict[str, int] = {}
    stack: List[str] = []
    on: Set[str] = set()
    found: List[List[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_module_is_over_400_lines():
    long = {name: n for name, path in _modules().items()
            if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert long == {}


def test_no_import_cycle_at_module_level():
    assert _cycles(_graph(_modules())) == []


def test_the_cycle_finder_finds_one():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_private_name_is_imported_from_another_module():
    private: List[Tuple[str, str, str]] = []
    for name, path in _modules().items():
        for node in _imports(ast.parse(path.read_text(encoding="utf-8")), everywhere=True):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("bpe_core"):
                private += [(name, node.module, a.name) for a in node.names
                            if a.name.startswith("_") and not a.name.startswith("__")]
    assert private == []


def test_the_facade_exports_its_names():
    for name in bpe_core.__all__:
        assert getattr(bpe_core, name) is not None
        assert name == "__version__" or getattr(bpe_core, name).__doc__ or name == "PRESETS"
