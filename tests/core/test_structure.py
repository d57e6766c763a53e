"""bpe_core's shape: small modules, no import cycle, no private name imported from another module.

Import cycles are looked for at three grains: between modules counting only module-level imports, between
modules counting the imports inside functions too (a function-level import still runs, only later), and
between folders. A folder is a subpackage (``bpe_core.training``); a top-level module (``bpe_core.model``,
``bpe_core.types``, ``bpe_core.presets``) is a folder of its own, and so is the facade (``bpe_core``).

Imports under ``if TYPE_CHECKING:`` do not count as edges of the function-level and folder-level graphs:
they never run, and they let an annotation name a type of a layer above without a runtime dependency
(the facade names its exports that way). The module-level test keeps counting them, as it always has.
Names loaded with ``importlib`` (the faces' lazy ``__getattr__``) are not seen: a folder's face loads only
modules of its own folder, and the facade stands above every folder it loads from.

The folders stand in layers, bottom to top; each imports only folders of layers below it (``LAYERS``):

1. ``types`` - the frozen records and BPELensError
2. ``resources``, ``presets`` - data files; the named presets (records only)
3. ``base`` - units and how they are shown, the merge routine, the config's checks and dict form
4. ``pretokenize`` - text to words
5. ``pipelines`` - a vocabulary's text to pieces
6. ``model`` - BPEModel
7. ``encoding`` - text to tokens
8. ``formats`` - vocabulary files read and written, atomic writes, JSON reading
9. ``corpus`` - corpus files read and counted, word-count tables
10. ``training`` - trainer, timeline, branches, and the training rules' steps inside the trainer
11. ``variants`` - BPE variants of current research that train outside the trainer (parity-aware BPE), their
    references' own file formats and encoders
12. ``analysis`` - questions asked of a vocabulary or a run
13. ``render``, ``workbench`` - pictures; the model of everything open
14. ``bpe_core`` - the facade (it imports its names by their homes' names, on first use)
15. ``cli`` - the command line
16. ``__main__``
"""
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


def _imports(tree: ast.Module, *, everywhere: bool, runtime: bool = False) -> List[ast.ImportFrom | ast.Import]:
    """Import statements at module level (``if TYPE_CHECKING:`` blocks included), or anywhere.

    ``runtime`` leaves out the imports under ``if TYPE_CHECKING:`` (they never run).
    """
    nodes = ast.walk(tree) if everywhere else [
        n for top in tree.body for n in ([top] if not isinstance(top, ast.If) else ast.walk(top))]
    skipped: Set[int] = set()
    if runtime:
        for n in ast.walk(tree):
            if isinstance(n, ast.If) and "TYPE_CHECKING" in ast.unparse(n.test):
                skipped.update(id(m) for m in ast.walk(n))
    return [n for n in nodes if isinstance(n, (ast.Import, ast.ImportFrom)) and id(n) not in skipped]


def _graph(mods: Dict[str, Path], *, everywhere: bool = False) -> Dict[str, Set[str]]:
    """Module -> the bpe_core modules it imports: at module level, or ``everywhere`` (run-time imports only)."""
    graph: Dict[str, Set[str]] = {m: set() for m in mods}
    for name, path in mods.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in _imports(tree, everywhere=everywhere, runtime=everywhere):
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


def _folder(module: str) -> str:
    """The folder a module stands in: its subpackage, or the top-level module itself.

    >>> _folder("bpe_core.training.trainer"), _folder("bpe_core.model"), _folder("bpe_core")
    ('training', 'model', 'bpe_core')
    """
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def _folder_graph(graph: Dict[str, Set[str]]) -> Dict[str, Dict[str, List[str]]]:
    """Folder -> folder it imports -> the module imports that make the edge ("a -> b")."""
    folders: Dict[str, Dict[str, List[str]]] = {_folder(m): {} for m in graph}
    for module, targets in graph.items():
        for target in sorted(targets):
            if _folder(target) != _folder(module):
                folders[_folder(module)].setdefault(_folder(target), []).append(f"{module} -> {target}")
    return folders


#: the folders of bpe_core from the bottom layer to the top; a folder imports only layers below its own
LAYERS: List[Tuple[str, ...]] = [
    ("types",), ("resources", "presets"), ("base",), ("pretokenize",), ("pipelines",), ("model",), ("encoding",),
    ("formats",), ("corpus",), ("training",), ("variants",), ("analysis",), ("render", "workbench"), ("bpe_core",), ("cli",),
    ("__main__",),
]


def test_no_module_is_over_400_lines():
    long = {name: n for name, path in _modules().items()
            if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert long == {}


def test_no_import_cycle_at_module_level():
    assert _cycles(_graph(_modules())) == []


def test_no_import_cycle_between_modules_counting_imports_inside_functions():
    cycles = _cycles(_graph(_modules(), everywhere=True))
    assert cycles == [], "modules importing each other (in functions too): " + "; ".join(" <-> ".join(c) for c in cycles)


def test_no_import_cycle_between_folders():
    folders = _folder_graph(_graph(_modules(), everywhere=True))
    cycles = _cycles({f: set(targets) for f, targets in folders.items()})
    edges = [f"  {a} -> {b}: {', '.join(folders[a][b])}" for cycle in cycles for a in cycle for b in cycle
             if b in folders[a]]
    assert cycles == [], "folders importing each other:\n" + "\n".join(edges)


def test_each_folder_imports_only_the_layers_below_it():
    layer = {folder: i for i, names in enumerate(LAYERS) for folder in names}
    folders = _folder_graph(_graph(_modules(), everywhere=True))
    assert sorted(set(folders) - set(layer)) == []  # a new folder gets its place in LAYERS
    upward = [f"  {a} -> {b}: {', '.join(imports)}" for a, targets in sorted(folders.items())
              for b, imports in sorted(targets.items()) if layer[b] >= layer[a]]
    assert upward == [], "imports of a layer not below:\n" + "\n".join(upward)


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
