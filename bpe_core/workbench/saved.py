"""What a workspace file says about a workbench, as records: every training run (the file's own fields hold
the current one, its ``bench`` part the others), the vocabularies by id, the comparisons and analyses open,
and the selection.

A file written before workbenches (or by an app that saves one run) has no ``bench`` part: its run is
``r1`` and its inspector tabs are the vocabularies ``v1``, ``v2``... in order. Whatever the part holds that
is not shaped as written here is refused with one :class:`~bpe_core.types.BPELensError` line naming it.

>>> from bpe_core.types import TrainerConfig
>>> ws = Workspace(None, TrainerConfig(), tabs=("/srv/a.json",), view={"selected_word": "low"})
>>> bench = read_bench(ws)
>>> [r.id for r in bench.runs], bench.vocabularies[0], bench.selection.word
(['r1'], SavedVocabulary(id='v1', path='/srv/a.json', pattern=None, name=''), 'low')
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Dict, List, Optional, Tuple

from bpe_core.formats.workspace import (FORMAT, VERSION, CorpusRef, SavedMerge, Workspace, workspace_from_dict,
                                        workspace_to_dict)
from bpe_core.types import BPELensError, TrainerConfig
from bpe_core.workbench.records import DECODE_ERRORS, OpenAnalysis, OpenComparison, Selection


@dataclass(frozen=True)
class SavedRun:
    """One training run as saved: its corpus files (size and sha256 each), settings, position, the merges
    taken up to there (and past it, up to the furthest merge a continuation of it starts from, when it was
    undone below that: restoring trains there and back) and its branches (plain data, :meth:`Branches.to_data
    <bpe_core.training.branches.Branches.to_data>`)."""

    id: str
    corpus: Tuple[CorpusRef, ...]
    config: TrainerConfig
    position: int = 0
    merges: Tuple[SavedMerge, ...] = ()
    branches: Tuple[Any, ...] = ()
    decode_errors: str = "strict"
    #: the run it continues from that run's merge ``transition`` (workbench/continuations.py), else None
    parent: Optional[str] = None
    transition: Optional[int] = None


@dataclass(frozen=True)
class SavedVocabulary:
    id: str
    path: str
    pattern: Optional[str] = None
    name: str = ""


@dataclass(frozen=True)
class SavedBench:
    """Everything a workspace says about a workbench, the runs in the order they were opened."""

    runs: Tuple[SavedRun, ...]
    current_run: Optional[str]
    vocabularies: Tuple[SavedVocabulary, ...] = ()
    encode_text: str = ""
    comparisons: Tuple[OpenComparison, ...] = ()
    analyses: Tuple[OpenAnalysis, ...] = ()
    selection: Selection = field(default_factory=Selection)


# -- to the file ----------------------------------------------------------------------------------------
def _ref(ref: CorpusRef) -> Dict[str, Any]:
    return {"path": ref.path, "size": ref.size, "sha256": ref.sha256}


def to_workspace(bench: SavedBench) -> Workspace:
    """The file's form: the current run in the workspace's own fields (so an app reading one run reads it),
    the rest under ``bench``."""
    runs = list(bench.runs)
    current = next((r for r in runs if r.id == bench.current_run), runs[0] if runs else None)
    others = [r for r in runs if r is not current]
    sel = bench.selection
    view = {"selected_word": sel.word} if sel.word is not None else {}
    part: Dict[str, Any] = {
        "run_id": current.id if current else None,
        "run_index": runs.index(current) if current else 0,  # where the current run stands among the runs
        "decode_errors": current.decode_errors if current else "strict",
        "more_files": [_ref(r) for r in current.corpus[1:]] if current else [],
        **(_lineage(current) if current else {}),
        "runs": [_run_dict(r) for r in others],
        "vocabularies": [asdict(v) for v in bench.vocabularies],
        "comparisons": [[c.a_id, c.b_id] for c in bench.comparisons],
        "analyses": [analysis_dict(a) for a in bench.analyses],
        "selection": {**asdict(sel), "pair": list(sel.pair) if sel.pair else None}}
    if current is None:
        return Workspace(None, TrainerConfig(), encode_text=bench.encode_text, view=view, bench=part,
                         tabs=tuple(v.path for v in bench.vocabularies))
    return Workspace(corpus=current.corpus[0] if current.corpus else None, config=current.config,
                     position=current.position, merges=current.merges, branches=current.branches,
                     encode_text=bench.encode_text, tabs=tuple(v.path for v in bench.vocabularies), view=view,
                     bench=part)


def analysis_dict(a: OpenAnalysis) -> Dict[str, Any]:
    """An analysis as the file holds it (``at`` and ``view`` only when set: a file without them reads as before)."""
    d: Dict[str, Any] = {"kind": a.kind, "subject_id": a.subject_id, "corpus": [{"path": p} for p in a.corpus]}
    if a.at is not None:
        d["at"] = a.at
    if a.view:
        d["view"] = dict(a.view)
    return d


def _run_dict(run: SavedRun) -> Dict[str, Any]:
    ws = Workspace(run.corpus[0] if run.corpus else None, run.config, run.position, run.merges, run.branches)
    d = workspace_to_dict(ws)
    for key in ("format", "version", "encode_text", "tabs", "view"):
        del d[key]
    return {"id": run.id, "decode_errors": run.decode_errors, "more_files": [_ref(r) for r in run.corpus[1:]],
            **_lineage(run), **d}


def _lineage(run: SavedRun) -> Dict[str, Any]:
    """A continuing run's parent and transition (nothing for a run of its own)."""
    return {} if run.parent is None else {"parent": run.parent, "transition": run.transition}


def _read_lineage(d: Dict[str, Any], where: str) -> Tuple[Optional[str], Optional[int]]:
    parent, transition = _text(d.get("parent"), where, "parent", none=True), d.get("transition")
    if parent is not None and not (isinstance(transition, int) and not isinstance(transition, bool)
                                   and transition >= 0):
        raise BPELensError(f'{where}: "transition" must be the parent run\'s merge (0 or more), not {transition!r}')
    return parent, transition if parent is not None else None


# -- from the file --------------------------------------------------------------------------------------
def read_bench(ws: Workspace, path: str = "<workspace>") -> SavedBench:
    """The workbench ``ws`` describes (:class:`BPELensError` naming what is wrong with its ``bench`` part)."""
    part = ws.bench
    where = f"{path}: the workbench part"
    if not part:  # a file of one run: r1, its tabs v1, v2, ...
        runs = (SavedRun("r1", (ws.corpus,) if ws.corpus else (), ws.config, ws.position, ws.merges, ws.branches),)
        vocabularies = tuple(SavedVocabulary(f"v{i}", p) for i, p in enumerate(ws.tabs, 1))
        return SavedBench(runs, "r1", vocabularies, ws.encode_text,
                          selection=Selection(run_id="r1", word=_word(ws.view)))
    current_id = _text(part.get("run_id", "r1"), where, "run_id", none=True)  # None: no run open
    has_run = current_id is not None
    runs = [_run(d, f"{path}: saved run {n}") for n, d in enumerate(_list(part, "runs", where), 1)]
    if has_run:
        index = part.get("run_index", 0)
        if not (isinstance(index, int) and not isinstance(index, bool) and 0 <= index <= len(runs)):
            raise BPELensError(f'{where}: "run_index" must be a place among the {len(runs) + 1} runs, not {index!r}')
        runs.insert(index, SavedRun(current_id, ((ws.corpus,) if ws.corpus else ()) + _refs(part, where), ws.config,
                                    ws.position, ws.merges, ws.branches, _decode(part, where),
                                    *_read_lineage(part, where)))
    ids = [r.id for r in runs]
    if len(set(ids)) != len(ids):
        raise BPELensError(f"{where} names a run twice ({', '.join(ids)})")
    vocabularies = tuple(_vocabulary(d, f"{where}, vocabulary {n}") for n, d in enumerate(_list(part, "vocabularies",
                                                                                             where), 1))
    comparisons = tuple(_comparison(c, f"{where}, comparison {n}") for n, c in enumerate(_list(part, "comparisons",
                                                                                           where), 1))
    analyses = tuple(_analysis(d, f"{where}, analysis {n}") for n, d in enumerate(_list(part, "analyses", where), 1))
    return SavedBench(tuple(runs), current_id if has_run else None, vocabularies, ws.encode_text, comparisons,
                      analyses, _selection(part.get("selection") or {}, f"{where}, selection"))


def _word(view: Dict[str, Any]) -> Optional[str]:
    word = view.get("selected_word")
    return word if isinstance(word, str) else None


def _text(value: Any, where: str, key: str, *, none: bool = False) -> Any:
    if value is None and none or isinstance(value, str):
        return value
    raise BPELensError(f'{where}: "{key}" must be text, not {value!r}')


def _list(d: Dict[str, Any], key: str, where: str) -> List[Any]:
    value = d.get(key, [])
    if not isinstance(value, list):
        raise BPELensError(f'{where}: "{key}" must be a list')
    return value


def _decode(d: Dict[str, Any], where: str) -> str:
    value = d.get("decode_errors", "strict")
    if value not in DECODE_ERRORS:
        raise BPELensError(f'{where}: "decode_errors" must be one of {", ".join(DECODE_ERRORS)}, not {value!r}')
    return value


def _refs(d: Dict[str, Any], where: str) -> Tuple[CorpusRef, ...]:
    out = []
    for f in _list(d, "more_files", where):
        if not (isinstance(f, dict) and isinstance(f.get("path"), str) and isinstance(f.get("size"), int)
                and not isinstance(f.get("size"), bool) and isinstance(f.get("sha256"), (str, type(None)))):
            raise BPELensError(f'{where}: "more_files" must give each file\'s path, size and sha256')
        out.append(CorpusRef(f["path"], f["size"], f.get("sha256")))
    return tuple(out)


def _run(d: Any, where: str) -> SavedRun:
    if not isinstance(d, dict):
        raise BPELensError(f"{where} is not an object")
    ws = workspace_from_dict({**d, "format": FORMAT, "version": VERSION}, where)
    run_id = _text(d.get("id"), where, "id")
    return SavedRun(run_id, ((ws.corpus,) if ws.corpus else ()) + _refs(d, where), ws.config, ws.position,
                    ws.merges, ws.branches, _decode(d, where), *_read_lineage(d, where))


def _vocabulary(d: Any, where: str) -> SavedVocabulary:
    if not (isinstance(d, dict) and isinstance(d.get("id"), str) and isinstance(d.get("path"), str)
            and isinstance(d.get("pattern"), (str, type(None))) and isinstance(d.get("name", ""), str)):
        raise BPELensError(f"{where} must give its id, path, pattern and name")
    return SavedVocabulary(d["id"], d["path"], d.get("pattern"), d.get("name", ""))


def _comparison(c: Any, where: str) -> OpenComparison:
    if not (isinstance(c, list) and len(c) == 2 and all(isinstance(x, str) for x in c)):
        raise BPELensError(f"{where} must be two ids")
    return OpenComparison(c[0], c[1])


def _analysis(d: Any, where: str) -> OpenAnalysis:
    corpus = d.get("corpus", []) if isinstance(d, dict) else None
    if not (isinstance(d, dict) and isinstance(d.get("kind"), str) and isinstance(d.get("subject_id"), str)
            and isinstance(corpus, list) and all(isinstance(f, dict) and isinstance(f.get("path"), str)
                                                 for f in corpus)):
        raise BPELensError(f"{where} must give its kind, subject id and corpus files")
    at, view = d.get("at"), d.get("view", {})
    if at is not None and not (isinstance(at, int) and not isinstance(at, bool) and at >= 0):
        raise BPELensError(f'{where}: "at" must be a merge (0 or more), not {at!r}')
    if not (isinstance(view, dict) and all(isinstance(k, str) and isinstance(v, (str, int, float, bool, type(None)))
                                           for k, v in view.items())):
        raise BPELensError(f'{where}: "view" must name plain values (text, numbers), not {view!r}')
    return OpenAnalysis(d["kind"], d["subject_id"], tuple(f["path"] for f in corpus), at, tuple(view.items()))


def _selection(d: Any, where: str) -> Selection:
    if not isinstance(d, dict):
        raise BPELensError(f"{where} must be an object")
    texts = {k: _text(d.get(k), where, k, none=True) for k in ("run_id", "vocabulary_id", "word")}
    token, pair = d.get("token"), d.get("pair")
    if token is not None and (not isinstance(token, int) or isinstance(token, bool)):
        raise BPELensError(f'{where}: "token" must be a token id, not {token!r}')
    if pair is not None and not (isinstance(pair, list) and len(pair) == 2
                                 and all(isinstance(x, int) and not isinstance(x, bool) for x in pair)):
        raise BPELensError(f'{where}: "pair" must be two token ids, not {pair!r}')
    return Selection(token=token, pair=tuple(pair) if pair else None, **texts)
