"""The app's shape, checked from its source (no Qt): small modules, no import cycles, no private
names borrowed across modules, panes that do not import each other, widgets that know no session.

Read from the files (``ast``), so a rule broken in a module no test imports is still caught.
"""
from __future__ import annotations

import ast
from pathlib import Path
from typing import Dict, List, Set, Tuple


APP = Path(__file__).resolve().parents[2] / "app"
PACKAGE = "bpe_lens_app"
MAX_LINES = 400
#: a pane module may import another pane only here (the inspector tab lays out an encode pane over its
#: vocabulary; it sets the pane's model once and never talks to it afterwards)
PANE_COMPOSITION = {("features.inspector.pane", "panes.encode_pane")}
#: a pane may import the table model that feeds it
PANE_MODELS = {"features.training.words_model", "features.inspector.token_model", "features.health.model",
               "features.compare.models"}
#: the panes, by name: the shared ones in panes/ and each feature's own (panes/encode_follow.py, the encode
#: pane's policy, is not one)
PANE_SUFFIXES = ("pane", "_chart", "merges_table", "controls")


def _is_pane(module: str) -> bool:
    return (module.startswith(("panes.", "features.")) and module not in PANE_MODELS
            and module.rsplit(".", 1)[-1].endswith(PANE_SUFFIXES))
#: app/session/session.py is being rewritten over the core Timeline on another branch; checked on its own below


def _modules() -> Dict[str, Path]:
    out = {}
    for path in sorted(APP.rglob("*.py")):
        parts = list(path.relative_to(APP).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def _imports(name: str, path: Path) -> List[Tuple[str, List[str]]]:
    """(imported app module, names taken from it) for each import of our own modules in ``path``."""
    package = name.split(".")[:-1] if path.name != "__init__.py" else name.split(".")
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            elif node.module and (node.module == PACKAGE or node.module.startswith(PACKAGE + ".")):
                target = node.module[len(PACKAGE) + 1:]
            else:
                continue
            found.append((target, [a.name for a in node.names]))
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name.startswith(PACKAGE + "."):
                    found.append((a.name[len(PACKAGE) + 1:], []))
    return found


def _graph() -> Dict[str, Set[str]]:
    modules = _modules()
    graph: Dict[str, Set[str]] = {m: set() for m in modules}
    for name, path in modules.items():
        for target, names in _imports(name, path):
            # "from . import export" names a module; "from .x import y" names y in x
            subs = {f"{target}.{n}" if target else n for n in names}
            hits = {s for s in subs if s in modules} or ({target} if target in modules else set())
            graph[name] |= hits - {name}
    return graph


def _long_modules() -> Dict[str, int]:
    return {name: n for name, path in _modules().items()
            if (n := len(path.read_text(encoding="utf-8").splitlines())) >= MAX_LINES}


def test_every_module_is_under_400_lines():
    assert _long_modules() == {}


def test_no_import_cycles():
    graph = _graph()
    cycles = []
    state: Dict[str, int] = {}  # 1 visiting, 2 done

    def visit(node: str, trail: List[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycles.append(trail[trail.index(nxt):] + [nxt])
            elif nxt not in state:
                visit(nxt, trail + [nxt])
        state[node] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])
    assert cycles == []


def test_no_private_name_is_imported_across_modules():
    private = [(name, target, n) for name, path in _modules().items() for target, names in _imports(name, path)
               for n in names if n.startswith("_")]
    assert private == []


def test_panes_do_not_import_each_other():
    graph = _graph()
    crossing = sorted((a, b) for a, targets in graph.items() if _is_pane(a) for b in targets
                      if _is_pane(b) and (a, b) not in PANE_COMPOSITION)
    assert crossing == []


def test_widgets_know_no_session_pane_or_window():
    graph = _graph()
    leaks = sorted((a, b) for a, targets in graph.items() if a.startswith("widgets") for b in targets
                   if not b.startswith("widgets"))
    assert leaks == []
