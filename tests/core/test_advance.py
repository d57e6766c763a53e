"""An encoding advanced merge by merge (bpe_core.encoding.advance) equals the encoder's full encoding at every
merge, for every preset, on real text (CRLF, Chinese, emoji); a Trail goes anywhere nearby and back exactly."""
from __future__ import annotations

import functools
from typing import List

import pytest
from hypothesis import given, settings, strategies as st

from bpe_core.corpus.counting import count_words_in_texts
from bpe_core.encoding.advance import MAX_STEPS, Trail, advance, can_advance
from bpe_core.encoding.encoder import Encoder, LensEncoding
from bpe_core.presets import PRESETS, make_config
from bpe_core.training.timeline import Timeline
from bpe_core.training.trainer import Trainer

from .paths import EXAMPLES, need

MERGES = 150


@functools.lru_cache(maxsize=None)
def _corpus() -> str:
    wiki = need("wikitext-2-raw/wiki.valid.raw").read_text(encoding="utf-8")[:30_000]
    zh = need("chinese/sanguo_yanyi.txt").read_text(encoding="utf-8")[:4_000]
    return wiki + zh + (EXAMPLES / "seed004_zh_en_de.txt").read_text(encoding="utf-8")


@functools.lru_cache(maxsize=None)
def _probe() -> str:
    """Text to encode: words the corpus has and has not, CRLF line ends, Chinese, an emoji, tabs."""
    wiki = need("wikitext-2-raw/wiki.valid.raw").read_text(encoding="utf-8")[2_000:2_700]
    zh = need("chinese/sanguo_yanyi.txt").read_text(encoding="utf-8")[500:620]
    return (wiki.replace("\n", "\r\n") + zh + " naïve café 🤖\tthe the  there\r\n"
            + (EXAMPLES / "seed004_zh_en_de.txt").read_text(encoding="utf-8")[:200])


@functools.lru_cache(maxsize=None)
def _timeline(preset: str) -> Timeline:
    config = make_config(preset, num_merges=MERGES, vocab_size=10**6)
    tl = Timeline(Trainer(count_words_in_texts((_corpus(),), config), config))
    tl.step(MERGES)
    tl.jump(0)
    return tl


def _full(tl: Timeline, k: int) -> LensEncoding:
    tl.jump(k)
    return Encoder(tl.model()).encode(_probe())


@functools.lru_cache(maxsize=None)
def _fulls(preset: str) -> List[LensEncoding]:
    tl = _timeline(preset)
    return [_full(tl, k) for k in range(MERGES + 1)]


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_each_merge_advances_the_encoding_to_the_encoders_own(preset):
    tl, fulls = _timeline(preset), _fulls(preset)
    usable = can_advance(tl.model())  # seed 000's greedy encoder: not a merges model
    if tl.config.variant == "picky":  # encodes by events (a word that is a present token is that token): a
        # picky run's encodings are never advanced, from its first model on; a removal's step always declines
        assert not can_advance(tl.trainer.model()) and all(
            advance(fulls[k - 1], s) is None for k, s in enumerate(tl.steps[:MERGES], 1) if s.removals)
        return
    advanced = declined = 0
    for k, step in enumerate(tl.steps[:MERGES], start=1):
        got = advance(fulls[k - 1], step)
        if got is None:
            declined += 1
            assert not (usable and step.created), f"merge {k} declined for no reason"
            continue
        advanced += 1
        assert got == fulls[k], f"merge {k} ({step.left_token!r} + {step.right_token!r})"
        assert got.starts == fulls[k].starts
    if usable:  # it declines exactly the merges that spelled an existing token
        assert declined == sum(not s.created for s in tl.steps[:MERGES]) and advanced > MERGES * 0.9
    else:
        assert advanced == 0


def test_a_merge_that_spells_an_existing_token_is_declined():
    tl = _timeline("gpt2")
    step = next(s for s in tl.steps if s.created)
    again = step.__class__(**{**step.__dict__, "created": False})
    assert advance(_fulls("gpt2")[step.rank - 1], again) is None


@settings(max_examples=40, deadline=None)
@given(moves=st.lists(st.integers(-6, 6).filter(bool), min_size=1, max_size=25), start=st.integers(0, 40))
def test_a_trail_follows_steps_and_undos_exactly(moves, start):
    tl, fulls = _timeline("gpt2"), _fulls("gpt2")
    tl.jump(start)
    trail = Trail(fulls[start], start)
    shown = list(fulls[start].tokens)  # what a view shows, one item per token, spliced along (Trail.moves)
    for move in moves:
        k = max(0, min(MERGES, tl.merge_count + move))
        steps, undone = tl.jump(k)
        got = trail.follow(steps, undone)
        if got is None:  # only going back past where the trail began, or too far at once
            assert undone and k < start or len(steps) > MAX_STEPS or not steps
            trail, start = Trail(fulls[k], k), k
            shown = list(fulls[k].tokens)
            continue
        assert got == fulls[k] and trail.at == k
        assert _spliced(shown, trail.moves) == list(got.tokens)
        shown = list(got.tokens)


def _spliced(items: list, moves) -> list:
    """``items`` (one per token of the first move's encoding) along ``moves`` as their contract says: tokens
    ``hits[t]`` and ``hits[t] + 1`` of ``before`` are token ``hits[t] - t`` of ``after``."""
    for before, hits, after, undone in moves:
        out, prev = [], 0
        for t, i in enumerate(hits):
            if undone:  # one item (after's token i - t) becomes two (before's i and i + 1)
                out += items[prev:i - t] + [before.tokens[i], before.tokens[i + 1]]
                prev = i - t + 1
            else:
                out += items[prev:i] + [after.tokens[i - t]]
                prev = i + 2
        items = out + items[prev:]
    return items


def test_a_trail_refuses_steps_it_is_not_at():
    tl, fulls = _timeline("gpt2"), _fulls("gpt2")
    tl.jump(10)
    trail = Trail(fulls[10], 10)
    assert trail.follow(tl.steps[11:12], False) is None  # merge 12 from merge 10
    assert trail.follow(tl.steps[9:10], True) is None  # undoing merge 10: the trail never passed it
    assert trail.follow(tl.steps[:MAX_STEPS + 1], False) is None
    assert trail.follow(tl.steps[10:11], False) == fulls[11] and trail.at == 11


def test_advances_far_into_training_on_the_real_load():
    """gpt2 on all of wiki.valid.raw, merges 1,001-1,040, 3,000 characters (the encode pane's real load)."""
    path = need("wikitext-2-raw/wiki.valid.raw")
    config = make_config("gpt2", num_merges=1_040, vocab_size=None)
    tl = Timeline.from_corpus(str(path), config)
    tl.step(1_000)
    text = path.read_text(encoding="utf-8")[50_000:53_000]
    enc = Encoder(tl.model()).encode(text)
    for step in tl.step(40):
        enc = advance(enc, step)
        tl.jump(step.rank)
        assert enc is not None and enc == Encoder(tl.model()).encode(text), f"merge {step.rank}"


def test_a_merge_whose_pair_is_not_in_the_text_gives_the_same_encoding_back():
    tl, fulls = _timeline("gpt2"), _fulls("gpt2")
    absent = [s for s in tl.steps[:MERGES] if fulls[s.rank] == fulls[s.rank - 1]]
    assert absent, "every merge changed the probe: pick another"
    for step in absent:
        assert advance(fulls[step.rank - 1], step) is fulls[step.rank - 1]


def test_a_trail_keeps_at_most_its_budget_of_tokens(monkeypatch):
    import bpe_core.encoding.advance as advance_module

    tl, fulls = _timeline("gpt2"), _fulls("gpt2")
    monkeypatch.setattr(advance_module, "TRAIL_TOKENS", 3 * len(fulls[0].tokens))  # three encodings' worth
    tl.jump(0)
    trail = Trail(fulls[0], 0)
    for k in range(1, 11):
        assert trail.follow(tl.jump(k)[0], False) == fulls[k]
    for k in (9, 8, 7):
        assert trail.follow(tl.jump(k)[0], True) == fulls[k]
    assert trail.follow(tl.jump(6)[0], True) is None  # the older ones were let go


def test_a_trail_peeks_at_the_next_merge_without_moving():
    tl, fulls = _timeline("gpt2"), _fulls("gpt2")
    k = next(k for k in range(5, MERGES) if fulls[k + 1] != fulls[k])  # a merge the text has
    trail = Trail(fulls[k], k)
    assert trail.peek(tl.steps[k + 1]) is None  # merge k + 2 from merge k
    ahead, hits = trail.peek(tl.steps[k])
    assert trail.at == k and trail.encoding is fulls[k] and ahead == fulls[k + 1] and hits
    assert trail.follow(tl.steps[k:k + 1], False) is ahead and trail.moves == [(fulls[k], hits, ahead, False)]
    assert trail.follow(tl.steps[k:k + 1], True) is fulls[k]
    assert trail.follow(tl.steps[k:k + 2], False) == fulls[k + 2]  # back at the peeked encoding: the peek serves
