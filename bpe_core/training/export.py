"""A trainer's vocabulary as a :class:`~bpe_core.model.BPEModel` (what ``Trainer.model()`` returns).

A run with removals (PickyBPE) keeps every token it ever made in ``tokens`` (a removed one keeps its id),
lists the removals as ``(merge rank after which, token id, split ids)`` in ``removals``, encodes by events
(``algorithm == "picky"``) and puts each token's weighted frequency, by id, in ``extras["token_freqs"]``.

>>> from bpe_core.training.trainer import Trainer
>>> from bpe_core.types import TrainerConfig
>>> t = Trainer({"aab": 3}, TrainerConfig(variant="picky", ios_threshold=0.5))
>>> _ = t.run(merges=2); m = t.model()
>>> m.algorithm, m.removals, m.extras["token_freqs"]
('picky', [(2, 2, (0, 0))], [0, 0, 0, 3])
"""
from __future__ import annotations

from dataclasses import replace

from bpe_core.model import BPEModel

__all__ = ["trainer_model", "trainer_pipeline", "records_model"]


def trainer_model(trainer) -> BPEModel:
    """The vocabulary of ``trainer`` as it stands now (ids as the trainer assigned them)."""
    cfg = trainer.config
    merges = trainer.base_merges + [(s.left, s.right) for s in trainer.history]
    removals = [(s.rank, r.token_id, r.split) for s in trainer.history for r in s.removals]
    model = BPEModel(
        unit=cfg.unit, tokens=list(trainer._tokens), merges=merges,
        merge_counts=trainer.base_counts + [s.count for s in trainer.history], specials=dict(trainer.specials),
        pipeline=trainer.pipeline, algorithm="picky" if removals else "merges", removals=removals,
        end_of_word_suffix=cfg.end_of_word_suffix, keep_unknown=cfg.keep_unknown, name=cfg.preset,
        source_format="native",
        config=dict(trainer._config_dict))  # a copy: a model's config may be edited
    rules = trainer._rules
    if rules is not None and rules.picky:
        model.extras["token_freqs"] = list(rules.freq)
        if "<UNK>" in trainer.specials:  # the reference's encoder: a character without a token is <UNK>
            model.unk_id = trainer.specials["<UNK>"]
    if cfg.encode_mode == "seed000-greedy":
        from bpe_core.encoding.seed000_greedy import seed000_model
        tokens = trainer._tokens
        subwords = ([tokens[t] for t in seg] for seg in trainer._segs)
        return seed000_model(subwords, trainer.history, model)
    return model


def records_model(base: BPEModel, history, start_tokens: int) -> BPEModel:
    """``base`` (a run's model at merge 0, its corpus ``start_tokens`` tokens long) at the merge the records
    ``history`` (from rank 1) reach, without the trainer: the merges' tokens appended, the records' removals,
    and for a PickyBPE run each token's frequency replayed as the rule changes it (a merge of m moves m from
    its parts to the new token; a removal moves what is left of the token to each of its split's parts), so
    ``extras["token_freqs"]`` has one count per token id. A merge's m is not its pair count when the parts
    are equal ("---" counts '-' '-' twice, merges it once): it is the drop in the corpus's token count (the
    removals' ``merged`` when the step removed tokens)."""
    model = base.extended(history)
    removals = [(s.rank, r.token_id, r.split) for s in history for r in s.removals]
    if removals:
        model = replace(model, removals=removals, algorithm="picky")
    freqs = base.extras.get("token_freqs")
    if freqs is not None:
        freq = list(freqs)
        total = start_tokens
        for s in history:
            if s.created:
                freq.append(0)
            m = s.removals[0].merged if s.removals else total - s.stats.total_tokens
            total = s.stats.total_tokens
            freq[s.new_id] += m
            freq[s.left] -= m
            freq[s.right] -= m
            for r in s.removals:
                for part in r.split:
                    freq[part] += r.freq - r.merged
                freq[r.token_id] = 0
        model.extras = dict(model.extras, token_freqs=freq)
    return model


def trainer_pipeline(trainer):
    """The text pipeline of ``trainer``'s models (built once: it compiles patterns)."""
    pipe = trainer.__dict__.get("_pipeline")
    if pipe is None:
        from bpe_core.pipelines.chain import Pipeline
        chain = trainer.__dict__.get("_chain") or Pipeline(trainer.config)
        pipe = trainer._pipeline = chain.with_specials(trainer.specials)
    return pipe
