"""PickyBPE's model file, as pchizhov/picky_bpe writes it (``BPE._dump``) and reads it (``picky_tokenize.py``).

One JSON file, indented by 4: ``tokens`` (every token ever made, removed ones included: id, str, final
freq, special, present, left and right ids, split = the ids it walks to now), ``id2int`` and ``int2id``
(consecutive ints for the present tokens, by id), ``merges`` and ``splits`` (their event ids and the
tokens involved, each with its final state). ``model_text`` gives the reference's bytes exactly.

>>> from bpe_core.variants.picky import PickyTrainer
>>> trainer = PickyTrainer("aaab aaab aab", vocab_size=10, threshold=0.5)
>>> steps = trainer.train()
>>> model = json.loads(model_text(trainer))
>>> [t["str"] for t in model["tokens"] if not t["present"]]
['aa', '▁aa', 'ab']
>>> encoder_of_model(model).encode_line("aaab ab")
['▁aaab', '▁', 'a', 'b']
"""
from __future__ import annotations

import json
from typing import TYPE_CHECKING, Dict, List

from bpe_core.variants.picky_encode import PickyEncoder

if TYPE_CHECKING:
    from bpe_core.variants.picky import PickyTrainer


def _token_dict(trainer: "PickyTrainer", t: int) -> dict:
    left, right = trainer.left[t], trainer.right[t]
    return {"id": t, "str": trainer.strs[t], "freq": trainer.freq[t], "special": trainer.special[t],
            "present": trainer.present[t], "left": left, "right": right, "split": trainer.walk(t)}


def model_dict(trainer: "PickyTrainer") -> dict:
    """The model as ``BPE._dump`` builds it (integer keys; JSON makes them strings)."""
    ids = {i: n for n, i in enumerate(i for i in sorted(trainer.order) if trainer.present[i])}
    merges, splits = [], []
    for i, event in enumerate(trainer.events):
        if event[0] == "merge":
            merges.append({"id": i, "pair": [_token_dict(trainer, t) for t in event[1]],
                           "new_token": _token_dict(trainer, event[2])})
        else:
            splits.append({"id": i, "token": _token_dict(trainer, event[1]),
                           "split": [_token_dict(trainer, t) for t in event[2]]})
    return {"tokens": [_token_dict(trainer, t) for t in trainer.order], "id2int": ids,
            "int2id": {v: k for k, v in ids.items()}, "merges": merges, "splits": splits}


def model_text(trainer: "PickyTrainer") -> str:
    """The model file's text, byte for byte what the reference writes (``json.dump(..., indent=4)``)."""
    return json.dumps(model_dict(trainer), indent=4)


def encoder_of_model(model: dict) -> PickyEncoder:
    """An encoder for a model file's content (written by the reference or by ``model_text``)."""
    n = len(model["merges"]) + len(model["splits"])
    merges: List = [None] * n
    splits: List = [None] * n
    for m in model["merges"]:
        merges[m["id"]] = (m["pair"][0]["str"], m["pair"][1]["str"])
    for s in model["splits"]:
        splits[s["id"]] = (s["token"]["str"], tuple(t["str"] for t in s["split"]))
    tokens: Dict[str, dict] = {t["str"]: t for t in model["tokens"]}
    return PickyEncoder(merges, splits, {s for s, t in tokens.items() if t["present"]}, tokens)
