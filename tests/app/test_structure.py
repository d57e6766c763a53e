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


# -- a feature is reached through its face --------------------------------------------------------------------------

def _feature_of(module: str) -> str:
    """``features.compare.pane`` -> ``compare``; '' for a module outside a feature."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[0] == "features" else ""


def test_a_feature_is_imported_only_through_its_init():
    """Rule (a): code outside feature ``b`` - another feature, the window, the session, the root modules - imports
    ``features.b`` (its ``__init__``, the face that re-exports what others use), never ``features.b.<module>``.

    The face is what a feature promises; its modules can then be split, merged or renamed without touching anyone
    else (the ties feature once touched 13 files in 3 folders).
    """
    graph = _graph()
    reaching = sorted((a, b) for a, targets in graph.items() for b in targets
                      if _feature_of(b) and _feature_of(b) != _feature_of(a) and b.count(".") > 1)
    assert reaching == []


# -- nothing but the window scans its tabs -------------------------------------------------------------------------

#: tab-widget methods that look through the tabs (``tabs.addTab``, ``tabs.setCurrentIndex`` only put one in front)
TAB_SCANS = {"widget", "count", "indexOf", "currentWidget"}
#: the one module allowed to look through its tabs
TAB_OWNER = "main_window"


def _tab_scans(tree: ast.AST) -> List[str]:
    """The places in ``tree`` that find context by looking at tabs (see the test below for the patterns)."""
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr in TAB_SCANS and (
                (isinstance(func.value, ast.Attribute) and func.value.attr == "tabs")
                or (isinstance(func.value, ast.Name) and func.value.id == "tabs")):
            found.append(ast.unparse(node))
        elif isinstance(func, ast.Name) and func.id == "isinstance" and len(node.args) == 2:
            classes = node.args[1].elts if isinstance(node.args[1], ast.Tuple) else [node.args[1]]
            names = [c.attr if isinstance(c, ast.Attribute) else getattr(c, "id", "") for c in classes]
            if any(n.endswith("Tab") for n in names):
                found.append(ast.unparse(node))
        elif (isinstance(func, ast.Attribute) and func.attr in ("property", "setProperty") and node.args
              and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            found.append(ast.unparse(node))
    return found


def test_nothing_outside_the_main_window_scans_tabs():
    """Rule (b): features find what they need through the session's signals, which carry their subject
    (``vocabulary_opened(OpenVocabulary)``), not by looking through the window. Outside app/main_window.py none of:

    - ``<x>.tabs.widget(i)``, ``.tabs.count()``, ``.tabs.indexOf(w)``, ``.tabs.currentWidget()`` (also on a local
      named ``tabs``): walking the tab widget to find a vocabulary, an inspector or a health pane;
    - ``isinstance(w, InspectorTab)`` or any class named ``...Tab``: telling tabs apart by their class;
    - ``w.property("name")`` / ``w.setProperty("name", v)``: a Qt dynamic property used to carry context on a
      widget (``"explain_wired"``, ``"source_path"``) - context belongs in the model, where a test can read it.

    Read with ``ast``, so comments and docstrings that mention the patterns do not count.
    """
    scans = {name: hits for name, path in _modules().items() if name != TAB_OWNER
             if (hits := _tab_scans(ast.parse(path.read_text(encoding="utf-8"))))}
    assert scans == {}


# -- the core is reached through its faces -------------------------------------------------------------------------

#: the faces of bpe_core the app may import from, and why each is one. A face is the facade or a folder's
#: ``__init__`` (or a one-module face), with an ``__all__``; the core may then split, merge or rename the modules
#: behind a face without touching the app. One face per core folder the app uses, and no more: the facade for
#: the everyday names, ``types`` for the frozen records, ``resources`` for the data files' paths.
CORE_FACES = {
    "bpe_core": "the facade: Trainer, Timeline, Encoder, BPEModel, Workbench, make_config, open/write_vocabulary",
    "bpe_core.types": "the frozen records every layer passes around (MergeStep, Encoding, Progress...)",
    "bpe_core.resources": "where the data files are (default corpus, examples, Punkt tables, icon)",
    "bpe_core.base": "units and how they are shown (glyphs, hex, visible whitespace), the config's checks",
    "bpe_core.pretokenize": "the pre-tokenizers the settings dialog offers and checks",
    "bpe_core.pipelines": "the text chain (normalizer, pre-tokenizer, units): the settings dialog's split preview",
    "bpe_core.corpus": "corpus files counted into words",
    "bpe_core.training": "the trainer's helpers: timeline moves, branches, ties, continued training",
    "bpe_core.encoding": "the encoder's spans and the encoding advanced a merge",
    "bpe_core.formats": "vocabulary and workspace files, atomic writes, output checks",
    "bpe_core.analysis": "questions asked of a vocabulary or a run: diff, health, explain, lineage, scripts",
    "bpe_core.render": "pictures without Qt: frames, SVG, chip labels and the palette",
    "bpe_core.workbench": "the Workbench's records and the steps that restore a workspace",
}


def _core_imports() -> List[Tuple[str, str, str]]:
    """(app module, bpe_core module, name) for every import of bpe_core in app/, functions' imports included.
    ``import bpe_core.x`` gives the name ''."""
    found = []
    for name, path in _modules().items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "bpe_core":
                found += [(name, node.module, a.name) for a in node.names]
            elif isinstance(node, ast.Import):
                found += [(name, a.name, "") for a in node.names if a.name.split(".")[0] == "bpe_core"]
    return found


def _face_names(face: str) -> Set[str]:
    import importlib

    return set(getattr(importlib.import_module(face), "__all__", ()))


def test_every_core_face_has_an_all_whose_names_resolve():
    import importlib

    missing = {}
    for face in CORE_FACES:
        module = importlib.import_module(face)
        names = getattr(module, "__all__", None)
        if names is None:
            missing[face] = "no __all__"
            continue
        unresolved = [n for n in names if not hasattr(module, n)]
        if unresolved:
            missing[face] = unresolved
    assert missing == {}


def test_no_face_exports_a_name_its_submodules_shadow():
    """Importing ``bpe_core.training.word_changes`` sets the attribute ``word_changes`` of the package
    ``bpe_core.training`` to that module, so a function the face exported under the same name would turn into
    the module as soon as anything imported it. A face's name that is also one of its folder's modules must be
    that module (``bpe_core.pretokenize.punkt``)."""
    import importlib
    import pkgutil

    clashes = []
    for face in CORE_FACES:
        module = importlib.import_module(face)
        if not hasattr(module, "__path__"):
            continue
        submodules = {info.name for info in pkgutil.iter_modules(module.__path__)}
        for name in set(module.__all__) & submodules:
            if getattr(module, name) is not importlib.import_module(f"{face}.{name}"):
                clashes.append(f"{face}.{name}")
    assert clashes == []


def test_the_app_imports_bpe_core_only_through_its_faces():
    """Rule (c): app code imports ``bpe_core`` or one of ``CORE_FACES``, and only names in that face's ``__all__``
    (``from bpe_core import resources`` names the face ``bpe_core.resources``). A name the facade exports is taken
    from the facade, so each name has one spelling across the app."""
    facade = _face_names("bpe_core")
    wrong = []
    for app_module, core_module, name in _core_imports():
        if core_module not in CORE_FACES:
            wrong.append(f"{app_module}: {core_module} is not a face")
        elif not name:
            continue
        elif core_module == "bpe_core" and f"bpe_core.{name}" in CORE_FACES:
            continue
        elif name not in _face_names(core_module):
            wrong.append(f"{app_module}: {name} is not in {core_module}.__all__")
        elif core_module != "bpe_core" and name in facade:
            wrong.append(f"{app_module}: {name} from {core_module}, but the facade bpe_core exports it")
    assert sorted(set(wrong)) == []
