"""A workspace file (``.bpelens``): enough to bring a training session back after a restart or a crash.

It holds *what to redo*, not the trainer's state: the corpus (path, size and a streamed sha256, so a
changed corpus is noticed), the training settings, the position (the merge count), the merges taken
up to there (token texts and counts: enough to check that re-training gives the same merges), the
training branches (plain data another feature gives), the encode text, the vocabularies open in
inspector tabs and a little view state. Re-counting the corpus and seeking to the position rebuilds
the rest, so the file stays small (a merge is ~20 bytes). Saves are atomic; a file that is not a
workspace, truncated, corrupt or of another version is refused with one clear :class:`BPELensError`.

::

    {"format": "bpe-lens-workspace", "version": 1,
     "corpus": {"path": "/data/novel.txt", "size": 1048576, "sha256": "9f86d0…"},
     "config": {...TrainerConfig fields...}, "position": 30,
     "merges": [["Ġ", "t", 2431], ["h", "e", 1877], ...],
     "branches": [], "encode_text": "Hello world", "tabs": ["/data/gpt2/tokenizer.json"],
     "view": {"selected_word": "Ġthe"}}

>>> import tempfile, os
>>> p = os.path.join(tempfile.mkdtemp(), "w.bpelens")
>>> ws = Workspace(corpus=None, config=TrainerConfig(), position=1, merges=(("a", "b", 3),), encode_text="ab")
>>> write_workspace(ws, p)
>>> read_workspace(p) == ws
True
"""
from __future__ import annotations

import functools
import hashlib
import json
import os
import stat
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple

from bpe_core.base.symbols import to_glyphs
from bpe_core.base.file_errors import read_error, wide_text_message
from bpe_core.formats.json_text import parse_json
from bpe_core.base.config import check_config, config_from_dict, config_to_dict
from bpe_core.types import BPELensError, Cancelled, Raw, TrainerConfig

FORMAT = "bpe-lens-workspace"
VERSION = 1
SUFFIX = ".bpelens"
#: the corpus is hashed in blocks of this size (a corpus of gigabytes never sits in memory)
HASH_BLOCK = 1 << 20

SavedMerge = Tuple[str, str, int]  # left token text, right token text, count when merged


@dataclass(frozen=True)
class CorpusRef:
    """A corpus file as it was: ``sha256`` is None while it is still being hashed."""

    path: str
    size: int
    sha256: Optional[str] = None


@dataclass(frozen=True)
class Workspace:
    corpus: Optional[CorpusRef]
    config: TrainerConfig
    position: int = 0
    merges: Tuple[SavedMerge, ...] = ()
    #: training branches as plain JSON data (the branches feature owns their meaning)
    branches: Tuple[Any, ...] = ()
    encode_text: str = ""
    #: vocabularies open in inspector tabs, by path
    tabs: Tuple[str, ...] = ()
    #: window-level view state (selected word, current tab, ...), plain JSON values
    view: Dict[str, Any] = field(default_factory=dict)
    #: the rest of an open workbench as plain JSON (:mod:`bpe_core.workbench.saved` owns its meaning): the
    #: other training runs, the vocabularies by id, the comparisons and analyses open, the selection
    bench: Dict[str, Any] = field(default_factory=dict)


def token_text(raw: Raw) -> str:
    """How a merge's token is stored: bytes as GPT-2 glyphs (like tokenizer.json), text as it is.

    >>> token_text(b" t"), token_text("lo")
    ('Ġt', 'lo')
    """
    return to_glyphs(raw) if isinstance(raw, bytes) else raw


def saved_merges(steps: Iterable[Any]) -> Tuple[SavedMerge, ...]:
    """Merge steps (anything with ``left_token``, ``right_token``, ``count``) as stored."""
    return tuple(map(saved_merge, steps))


def saved_merge(step: Any) -> SavedMerge:
    return (_stored_text(step.left_token), _stored_text(step.right_token), int(step.count))


@functools.lru_cache(maxsize=1 << 16)
def _stored_text(raw: Raw) -> str:  # a token recurs in many merges: convert each once
    return token_text(raw)


class SavedMerges:
    """:func:`saved_merges` of a growing history, converting only the steps not seen last time.

    Merge records are immutable, so the leading steps that are the same objects as last time keep
    their stored form: an autosave of 30,000 merges on the GUI thread costs a pass of ``is`` checks.

    >>> from types import SimpleNamespace as S
    >>> steps = [S(left_token=b"a", right_token=b"b", count=3)]
    >>> keep = SavedMerges(); keep(steps)
    (('a', 'b', 3),)
    >>> keep(steps + [S(left_token="c", right_token="d", count=2)])[1]
    ('c', 'd', 2)
    """

    def __init__(self) -> None:
        self._steps: List[Any] = []
        self._saved: List[SavedMerge] = []

    def __call__(self, steps: Sequence[Any]) -> Tuple[SavedMerge, ...]:
        old, n = self._steps, min(len(self._steps), len(steps))
        same = 0
        while same < n and old[same] is steps[same]:
            same += 1
        self._saved[same:] = map(saved_merge, steps[same:])
        self._steps = list(steps)
        return tuple(self._saved)


def first_difference(saved: Sequence[SavedMerge], now: Sequence[SavedMerge]) -> Optional[int]:
    """The 0-based rank where two merge lists first differ (a missing merge counts); None if equal.

    >>> first_difference([("a", "b", 3), ("c", "d", 2)], [("a", "b", 3), ("c", "e", 2)])
    1
    >>> first_difference([("a", "b", 3)], [("a", "b", 3)]) is None
    True
    """
    for i, (a, b) in enumerate(zip(saved, now)):
        if tuple(a) != tuple(b):
            return i
    return None if len(saved) == len(now) else min(len(saved), len(now))


# -- the corpus: size and hash ------------------------------------------------------------------------
def corpus_ref(path: str, *, cancel: Optional[Callable[[], bool]] = None,
               progress: Optional[Callable[[Any], None]] = None) -> CorpusRef:
    """``path``'s size and sha256, read in blocks (``cancel`` is asked between blocks)."""
    from bpe_core.types import Progress

    path = os.fspath(path)
    digest = hashlib.sha256()
    try:
        size = os.path.getsize(path)
        done = 0
        with open(path, "rb") as f:
            while block := f.read(HASH_BLOCK):
                if cancel is not None and cancel():
                    raise Cancelled()
                digest.update(block)
                done += len(block)
                if progress is not None:
                    progress(Progress(done, size, "bytes", "hashing"))
    except OSError as exc:
        raise BPELensError(f"{path}: cannot read the corpus ({exc.strerror or exc})") from None
    return CorpusRef(path, size, digest.hexdigest())


def corpus_change(ref: CorpusRef, now: Optional[CorpusRef]) -> Optional[str]:
    """Why the corpus is not the saved one, in words (None: it is the same file content).

    ``now`` is None for a corpus that is gone.

    >>> corpus_change(CorpusRef("a.txt", 10, "x"), CorpusRef("a.txt", 12, "y"))
    'a.txt has changed since the workspace was saved (10 bytes then, 12 now)'
    """
    if now is None:
        return f"{ref.path} is missing"
    if now.size != ref.size:
        return f"{ref.path} has changed since the workspace was saved ({ref.size:,} bytes then, {now.size:,} now)"
    if ref.sha256 and now.sha256 and ref.sha256 != now.sha256:
        return f"{ref.path} has changed since the workspace was saved (same size, different content)"
    return None


def corpus_problem(path: str) -> Optional[str]:
    """Why ``path`` cannot be a workspace's corpus, in words (None: a regular file, it can).

    A folder, a pipe or a device is refused before anything opens it (hashing ``/dev/zero`` would
    never end, a pipe would block).

    >>> corpus_problem("/")
    '/ is a folder, not a corpus file'
    """
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return f"{path} is missing"
    except OSError as exc:
        return f"{path} cannot be read ({exc.strerror or exc})"
    except ValueError:  # a NUL in the name (a damaged workspace): no file can be called that
        return f"{path!r} cannot be a file name (it holds a NUL character)"
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return f"{path} is a folder, not a corpus file"
    return (f"{path} is not a regular file (a pipe, a device or a socket); "
            "BPE Lens reads a corpus from a regular file only")


# -- to and from the file -----------------------------------------------------------------------------
def workspace_to_dict(ws: Workspace) -> Dict[str, Any]:
    corpus = None if ws.corpus is None else {"path": ws.corpus.path, "size": ws.corpus.size,
                                             "sha256": ws.corpus.sha256}
    return {"format": FORMAT, "version": VERSION, "corpus": corpus, "config": config_to_dict(ws.config),
            "position": ws.position, "merges": [list(m) for m in ws.merges], "branches": list(ws.branches),
            "encode_text": ws.encode_text, "tabs": list(ws.tabs), "view": dict(ws.view),
            **({"bench": dict(ws.bench)} if ws.bench else {})}


def workspace_bytes(ws: Workspace) -> bytes:
    """The file's content: one merge per line, so a diff of two workspaces reads well."""
    d = workspace_to_dict(ws)
    merges = d.pop("merges")
    d["merges"] = None  # last key: its place in the text is the last "merges": null
    head, _, tail = json.dumps(d, ensure_ascii=False, indent=1).rpartition('"merges": null')
    rows = ",\n".join("  " + json.dumps(m, ensure_ascii=False) for m in merges)
    return (head + ('"merges": [\n' + rows + "\n ]" if rows else '"merges": []') + tail + "\n").encode("utf-8")


def write_workspace(ws: Workspace, path: str) -> None:
    """Save ``ws`` atomically: the old file stays whole if anything fails (a full disk, a kill)."""
    from bpe_core.formats.atomic import atomic_write_bytes

    atomic_write_bytes(path, workspace_bytes(ws))


def read_workspace(path: str) -> Workspace:
    """The workspace saved in ``path``; :class:`BPELensError` saying what is wrong with it otherwise."""
    path = os.fspath(path)
    if os.path.exists(path) and not os.path.isfile(path):  # a pipe would wait for a writer forever
        raise BPELensError(f"{path}: not a BPE Lens workspace (not a regular file)")
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as exc:
        raise read_error(path, exc) from None
    wide = wide_text_message(path, raw[:8192])
    if wide is not None:  # edited and saved by a Windows tool
        raise BPELensError(wide)
    try:
        data = parse_json(raw.decode("utf-8"), path)
    except UnicodeDecodeError:
        raise BPELensError(f"{path}: not a BPE Lens workspace (not UTF-8 text)") from None
    except json.JSONDecodeError as exc:
        raise BPELensError(f"{path}: the workspace file is damaged or cut short "
                           f"(bad JSON at line {exc.lineno}, column {exc.colno})") from None
    return resolved(workspace_from_dict(data, path), os.path.dirname(os.path.abspath(path)))


def resolved(ws: Workspace, folder: str) -> Workspace:
    """``ws`` with its corpus and tab paths absolute: a relative one is read against ``folder`` (the
    workspace file's own), never against the working directory, and ``..`` steps are resolved, so what
    the app shows is the file it would read.

    >>> ws = Workspace(CorpusRef("../../../../etc/passwd", 1), TrainerConfig(), tabs=("v.json",))
    >>> r = resolved(ws, "/srv/me/proj")
    >>> r.corpus.path, r.tabs
    ('/etc/passwd', ('/srv/me/proj/v.json',))
    """
    def absolute(p: str) -> str:
        return os.path.normpath(os.path.join(folder, p))

    corpus = None if ws.corpus is None else replace(ws.corpus, path=absolute(ws.corpus.path))
    return replace(ws, corpus=corpus, tabs=tuple(map(absolute, ws.tabs)), bench=_resolved_bench(ws.bench, absolute))


def _resolved_bench(value: Any, absolute: Callable[[str], str]) -> Any:
    """The workbench part with every ``"path"`` absolute (a run's corpus files, a vocabulary, an analysis's
    corpus); merges, settings and branches are data, not walked."""
    if isinstance(value, dict):
        return {k: absolute(v) if k == "path" and isinstance(v, str) else
                v if k in ("merges", "config", "branches") else _resolved_bench(v, absolute) for k, v in value.items()}
    return [_resolved_bench(v, absolute) for v in value] if isinstance(value, list) else value


def is_workspace(path: str) -> bool:
    """Whether ``path`` looks like a workspace: its name, or the start of its content."""
    if os.fspath(path).endswith(SUFFIX):
        return True
    if not os.path.isfile(path):  # never open a pipe or a device to look
        return False
    try:
        with open(path, "rb") as f:
            head = f.read(200)
    except OSError:
        return False
    return f'"format": "{FORMAT}"'.encode() in head


def workspace_from_dict(data: Any, path: str = "<workspace>") -> Workspace:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BPELensError(f'{path}: not a BPE Lens workspace (no "format": "{FORMAT}")')
    if data.get("version") != VERSION:
        raise BPELensError(f"{path}: workspace version {data.get('version')!r} is not supported "
                           f"(this BPE Lens reads version {VERSION}; a newer BPE Lens wrote it?)")
    config = _config(data.get("config"), path)
    position = _get(data, "position", int, path)
    if isinstance(position, bool) or position < 0:
        raise BPELensError(f'{path}: "position" must be a merge count (0 or more), not {position!r}')
    merges = tuple(_merge(m, n, path) for n, m in enumerate(_get(data, "merges", list, path), 1))
    if position > len(merges):
        raise BPELensError(f"{path}: position {position} is past the {len(merges)} merges saved")
    tabs = _get(data, "tabs", list, path, [])
    if not all(isinstance(t, str) for t in tabs):
        raise BPELensError(f'{path}: "tabs" must list vocabulary paths')
    return Workspace(corpus=_corpus(data.get("corpus"), path), config=config, position=position, merges=merges,
                     branches=tuple(_get(data, "branches", list, path, [])),
                     encode_text=_get(data, "encode_text", str, path, ""), tabs=tuple(tabs),
                     view=_get(data, "view", dict, path, {}), bench=_get(data, "bench", dict, path, {}))


def _get(data: Dict[str, Any], key: str, kind: type, path: str, default: Any = None) -> Any:
    value = data.get(key, default)
    if value is None or not isinstance(value, kind):
        what = {int: "a number", list: "a list", str: "text", dict: "an object"}[kind]
        raise BPELensError(f'{path}: "{key}" must be {what}' + ("" if key in data else " (missing)"))
    return value


def _config(d: Any, path: str) -> TrainerConfig:
    if not isinstance(d, dict) or not d:
        raise BPELensError(f'{path}: "config" (the training settings) is missing')
    try:
        config = config_from_dict(d, path)
        check_config(config)
        hash(config)  # a list where a setting should be a value
    except (TypeError, ValueError) as exc:
        raise BPELensError(f"{path}: bad training settings ({exc})") from None
    return config


def _merge(m: Any, n: int, path: str) -> SavedMerge:
    if not (isinstance(m, list) and len(m) == 3 and isinstance(m[0], str) and isinstance(m[1], str)
            and isinstance(m[2], int) and not isinstance(m[2], bool)):
        raise BPELensError(f"{path}: merge {n} is not [left, right, count]")
    return (m[0], m[1], m[2])


def _corpus(d: Any, path: str) -> Optional[CorpusRef]:
    if d is None:
        return None
    if not (isinstance(d, dict) and isinstance(d.get("path"), str) and isinstance(d.get("size"), int)
            and not isinstance(d.get("size"), bool) and isinstance(d.get("sha256"), (str, type(None)))):
        raise BPELensError(f'{path}: "corpus" must give the corpus path, size and sha256')
    return CorpusRef(d["path"], d["size"], d.get("sha256"))


# -- what is possible without the corpus --------------------------------------------------------------
def merges_vocabulary(ws: Workspace, name: str = "workspace"):
    """The saved merges as a vocabulary (when the corpus is gone): specials, the base symbols the
    merges start from (every byte for byte-level settings, so any text encodes; with character units
    only the characters the merges use: the corpus's alphabet is not saved), then each merge's token.

    >>> m = merges_vocabulary(Workspace(None, TrainerConfig(), 2, (("l", "o", 4), ("lo", "w", 3))))
    >>> [m.tokens[i] for i in range(m.vocab_size)], m.merge_counts
    (['l', 'o', 'w', 'lo', 'low'], [4, 3])
    """
    from bpe_core.base.symbols import BYTE_GLYPHS
    from bpe_core.formats.native import FORMAT as NATIVE, VERSION as NATIVE_VERSION, native_to_model

    cfg = ws.config
    merges = ws.merges[: ws.position]
    vocab: Dict[str, int] = {}
    specials = {s: vocab.setdefault(s, len(vocab)) for s in cfg.special_tokens}
    made = {a + b for a, b, _ in merges}
    base: List[str] = list(BYTE_GLYPHS) if cfg.unit == "bytes" else []
    base += [t for a, b, _ in merges for t in (a, b) if t not in made]
    for t in base + [a + b for a, b, _ in merges]:
        vocab.setdefault(t, len(vocab))
    data = {"format": NATIVE, "version": NATIVE_VERSION, "preset": name, "unit": cfg.unit,
            "config": config_to_dict(cfg), "merges": [list(m) for m in merges], "vocab": vocab,
            "specials": specials}
    return native_to_model(data, name)
