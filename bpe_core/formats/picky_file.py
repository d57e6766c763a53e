"""PickyBPE's model file, as pchizhov/picky_bpe writes it (``BPE._dump``) and reads it (``picky_tokenize.py``).

One JSON file, indented by 4: ``tokens`` (every token ever made, removed ones included: id, str, final
freq, special, present, left and right ids, split = the ids it walks to now), ``id2int`` and ``int2id``
(consecutive ints for the present tokens, by id), ``merges`` and ``splits`` (their event ids and the
tokens involved, each with its final state). :func:`picky_text` writes a PickyBPE
:class:`~bpe_core.model.BPEModel` (algorithm ``"picky"``: merges, ``removals``, ``extras["token_freqs"]``)
as the reference's bytes; :func:`model_of_picky` reads such a file back into one, whose pipeline cuts text
as ``picky_tokenize.py`` does (:class:`PickyWords`) and whose encoder replays the events
(:mod:`bpe_core.encoding.picky`).

>>> from bpe_core.encoding.encoder import Encoder
>>> tokens = ["<PAD>", "<UNK>", "<BOS>", "<EOS>", "▁", "a", "b", "▁a", "▁ab"]   # ▁a is merged away, removed
>>> made = BPEModel(unit="chars", tokens=tokens, merges=[(4, 5), (7, 6)], removals=[(2, 7, (4, 5))],
...                 specials={s: i for i, s in enumerate(tokens[:4])}, algorithm="picky")
>>> m = model_of_picky(json.loads(picky_text(made)))
>>> [t for t, present in zip(m.tokens, picky_present(m)) if not present], m.removals
(['▁a'], [(2, 7, (4, 5))])
>>> [t.raw for t in Encoder(m).encode("ab a").tokens]
['▁ab', '▁', 'a']
"""
from __future__ import annotations

import json
from typing import Any, Dict, List, Optional, Tuple, Union

from bpe_core.model import BPEModel
from bpe_core.pipelines.base import ImportedSymbols
from bpe_core.pretokenize.metaspace import METASPACE
from bpe_core.pretokenize.pretokenizers import PRETOKENIZERS
from bpe_core.types import BPELensError, Piece

WHITESPACE = METASPACE
SPECIALS = ("<PAD>", "<UNK>", "<BOS>", "<EOS>")
#: the characters Python's ``str.split()`` splits on (``str.isspace``), as one regex class
SPACE_CLASS = "\\t-\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000"
#: the same words in ``tokenizers``' terms (a word that already starts with ▁ gets no second one there)
HF_LAYOUT = {"normalizer": None,
             "pre_tokenizer": {"type": "Sequence", "pretokenizers": [
                 {"type": "Split", "pattern": {"Regex": f"[^{SPACE_CLASS}]+"}, "behavior": "Removed", "invert": True},
                 {"type": "Metaspace", "replacement": WHITESPACE, "prepend_scheme": "always", "split": False}]},
             "post_processor": None,
             "decoder": {"type": "Metaspace", "replacement": WHITESPACE, "prepend_scheme": "always", "split": False}}


class PickyWords(ImportedSymbols):
    """``picky_tokenize.py``'s words: ``str.split()`` of the text, each ``▁`` + word (the ``▁`` spans the
    word's first character, as Metaspace's does); no special is cut out of text. The cut has one home, the
    "picky" pre-tokenizer (:mod:`bpe_core.pretokenize.metaspace`).

    >>> [(p.text, p.start, p.end) for p in PickyWords().split(" ab\\u3000c ")]
    [('▁ab', 1, 3), ('▁c', 4, 5)]
    """

    _cut = PRETOKENIZERS["picky"]  # the pre-tokenizer that cuts the words

    def split(self, text: str) -> List[Piece]:
        out = []
        for p in self._cut.pieces(text):
            align = [(p.start, p.start + 1)] + p.meta["align"][1:]
            out.append(Piece(p.text, p.start, p.end, meta={"align": align}))
        return out

    def split_words(self, text: str) -> List[Union[str, int]]:
        return list(self._cut.words(text))

    def matched_specials(self) -> Optional[Dict[str, int]]:
        return {}


# -- from a model -----------------------------------------------------------------------------
def picky_present(model: BPEModel) -> List[bool]:
    """Each id's presence after all events (removed tokens are kept in ``tokens``)."""
    from bpe_core.encoding.picky import model_events, present_after
    present = present_after(model, model_events(model))
    return [i in present for i in range(len(model.tokens))]


def _first_parents(model: BPEModel) -> Dict[int, Tuple[int, int]]:
    out: Dict[int, Tuple[int, int]] = {}
    for pair, new in zip(model.merges, model.merge_result):
        out.setdefault(new, pair)
    return out


def picky_dict(model: BPEModel) -> Dict[str, Any]:
    """The model file's content as ``BPE._dump`` builds it (integer keys; JSON makes them strings)."""
    from bpe_core.encoding.picky import model_events
    if model.unit != "chars" or any(t is not None and not isinstance(t, str) for t in model.tokens):
        raise BPELensError("PickyBPE's model file holds character tokens; this is a byte-level vocabulary "
                           "(save as native instead)")
    if model.algorithm not in ("picky", "merges"):
        raise BPELensError(f"PickyBPE's model file holds merges and removals; a {model.algorithm} model has "
                           "neither (save as native instead)")
    present, parents = picky_present(model), _first_parents(model)
    freqs = list(model.extras.get("token_freqs") or [])
    specials = model.special_ids

    def walk(t: int) -> List[int]:
        raw = model.tokens[t]
        if present[t] or t in specials or len(raw) == 1 or t not in parents:  # type: ignore[arg-type]
            return [t]
        return walk(parents[t][0]) + walk(parents[t][1])

    def token(t: int) -> Dict[str, Any]:
        left, right = parents.get(t, (None, None))
        return {"id": t, "str": model.tokens[t], "freq": freqs[t] if t < len(freqs) else 0,
                "special": t in specials, "present": present[t], "left": left, "right": right, "split": walk(t)}

    ids = {i: n for n, i in enumerate(i for i, t in enumerate(model.tokens) if t is not None and present[i])}
    merges, splits = [], []
    for e, (kind, what, new) in enumerate(model_events(model)):
        if kind == "m":
            merges.append({"id": e, "pair": [token(t) for t in what], "new_token": token(new)})  # type: ignore
        else:
            splits.append({"id": e, "token": token(what), "split": [token(t) for t in new]})  # type: ignore
    listed = [i for i, t in enumerate(model.tokens) if t is not None]  # the reference: specials first, then by id
    listed = [i for i in listed if i in specials] + [i for i in listed if i not in specials]
    return {"tokens": [token(i) for i in listed], "id2int": ids,
            "int2id": {v: k for k, v in ids.items()}, "merges": merges, "splits": splits}


def picky_text(model: BPEModel) -> str:
    """The model file's text, byte for byte what the reference writes (``json.dump(..., indent=4)``)."""
    return json.dumps(picky_dict(model), indent=4)


#: text whose words tell ``picky_tokenize.py``'s cut from others (every kind of space, a ▁, punctuation)
_PROBE = " To be,\tor\u3000not\x1cto-be:\u2028▁that's\n\u00a0the  question. 42 "


def cuts_as_reference(model: BPEModel) -> bool:
    """True when the model's pipeline cuts text into ``picky_tokenize.py``'s words (:class:`PickyWords`, or a
    pipeline that gives the same words, such as a run on a preset with the reference's words)."""
    pipe = model.pipeline
    return isinstance(pipe, PickyWords) or (
        pipe is not None and model.unit == "chars" and pipe.split_words(_PROBE) == PickyWords().split_words(_PROBE))


def write_picky(model: BPEModel, path) -> None:
    """Write the model file; refused for a model whose words are not ``picky_tokenize.py``'s (the file has no
    pipeline: read back, or by the reference, it would cut text otherwise and encode differently)."""
    from bpe_core.formats.atomic import atomic_write_text
    if not cuts_as_reference(model):
        raise BPELensError("PickyBPE's model file cuts text as picky_tokenize.py does (whitespace words, each "
                           f"'▁' + word); this vocabulary ({model.name or model.source_format}) cuts it with its "
                           "own pipeline, which the file cannot hold: save as native instead")
    atomic_write_text(path, picky_text(model))


# -- to a model -------------------------------------------------------------------------------
def looks_like_picky(data: Any) -> bool:
    """A JSON object with the model file's five keys."""
    return isinstance(data, dict) and all(k in data for k in ("tokens", "id2int", "merges", "splits"))


def _field(d: Any, key: str, kind: type, where: str) -> Any:
    value = d.get(key) if isinstance(d, dict) else None
    if not isinstance(value, kind) or isinstance(value, bool) and kind is int:
        raise BPELensError(f"{where} has no {key!r} of type {kind.__name__}: not a PickyBPE model file")
    return value


def model_of_picky(data: Any, name: str = "picky model") -> BPEModel:
    """A BPEModel of algorithm ``"picky"`` from the model file's content (written by the reference or here)."""
    tokens: List[Optional[str]] = []
    freqs: List[int] = []
    specials: Dict[str, int] = {}
    for k, t in enumerate(_field(data, "tokens", list, name)):
        where = f"{name}: token {k}"
        tid, s = _field(t, "id", int, where), _field(t, "str", str, where)
        if tid < 0 or tid > 10 * len(data["tokens"]) + 100:
            raise BPELensError(f"{where} has id {tid}, outside the file's token list")
        while len(tokens) <= tid:
            tokens.append(None)
            freqs.append(0)
        if tokens[tid] is not None:
            raise BPELensError(f"{name}: id {tid} is given to two tokens")
        tokens[tid], freqs[tid] = s, t.get("freq") if isinstance(t.get("freq"), int) else 0
        if t.get("special"):
            specials[s] = tid
    events: List[Tuple[int, str, Any]] = []
    for m in _field(data, "merges", list, name):
        pair = _field(m, "pair", list, f"{name}: a merge")
        events.append((_field(m, "id", int, f"{name}: a merge"), "m",
                       tuple(_field(p, "id", int, f"{name}: a merge") for p in pair)))
    for s in _field(data, "splits", list, name):
        token = _field(s, "token", dict, f"{name}: a split")
        events.append((_field(s, "id", int, f"{name}: a split"), "s",
                       (_field(token, "id", int, f"{name}: a split"),
                        tuple(_field(p, "id", int, f"{name}: a split") for p in _field(s, "split", list, name)))))
    events.sort(key=lambda e: e[0])
    merges: List[Tuple[int, int]] = []
    removals: List[Tuple[int, int, Tuple[int, ...]]] = []
    for eid, kind, what in events:
        ids = what if kind == "m" else (what[0], *what[1])
        if any(not 0 <= i < len(tokens) or tokens[i] is None for i in ids):
            raise BPELensError(f"{name}: event {eid} names a token id the file does not list")
        if kind == "m":
            if len(what) != 2:
                raise BPELensError(f"{name}: merge event {eid} does not name two tokens")
            if tokens[what[0]] + tokens[what[1]] not in tokens:  # type: ignore[operator]
                raise BPELensError(f"{name}: merge event {eid} makes a string the file lists no token for")
            merges.append(what)
        else:
            removals.append((len(merges), what[0], what[1]))
    model = BPEModel(unit="chars", tokens=tokens, merges=merges, specials=specials, pipeline=PickyWords(),
                     algorithm="picky", unk_id=specials.get(SPECIALS[1]), removals=removals,
                     name=name, source_format="picky", config=dict(HF_LAYOUT),
                     extras={"token_freqs": freqs})
    return model


def read_picky(path: str) -> BPEModel:
    """Read the reference's model file (``--bpe_model`` of ``picky_tokenize.py``)."""
    import os
    from bpe_core.formats.hf_json import load_json
    return model_of_picky(load_json(path), os.path.basename(path))

