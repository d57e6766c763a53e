"""``explain`` (why this split) against an independent textbook BPE, tokenizers and tiktoken.

The steps must be the merges the encoder really applies: checked against
``tests/reference/textbook_bpe.py`` (all pairs recomputed every step; not our merge routine) on
GPT-2's tokenizer.json with real text (WikiText, CRLF from War and Peace, Chinese, emoji), and on
models trained here with every preset; the final tokens equal tokenizers' and tiktoken's encodings.
"""
from __future__ import annotations

import functools
import json

import pytest

from bpe_core.analysis.explain import explain, explain_at, explain_text
from bpe_core.cli.commands import main
from bpe_core.encoding.encoder import Encoder
from bpe_core.formats.detect import open_vocabulary
from bpe_core.presets import PRESETS, make_config
from bpe_core.training.trainer import Trainer

from ..reference.textbook_bpe import byte_rank_steps, bytes_to_unicode, ranked_steps
from .paths import EXAMPLES, find, need

EMOJI = "Fine 👍🏽 and 😀!! Ünïcödé café\tnaïve  spaces\n\n"


def _lines(rel: str, start: int, count: int) -> str:
    data = need(rel).read_bytes().decode("utf-8")
    return "".join(data.splitlines(keepends=True)[start:start + count])


@functools.lru_cache(maxsize=None)
def real_text() -> str:
    """A few hundred real words: WikiText, CRLF lines as they are, Chinese, emoji."""
    crlf = _lines("bench/gutenberg/war_and_peace.txt", 400, 6) if find("bench/gutenberg/war_and_peace.txt").exists() \
        else "He said:\r\n\"No.\"\r\n"
    assert "\r\n" in crlf
    return (_lines("wikitext-2-raw/wiki.valid.raw", 1, 12)[:3000] + crlf
            + _lines("chinese/sanguo_yanyi.txt", 10, 3)[:300] + EMOJI)


@functools.lru_cache(maxsize=None)
def gpt2():
    return open_vocabulary(str(need("gpt2/tokenizer.json")))


@functools.lru_cache(maxsize=None)
def gpt2_ranks():
    """{(left, right): rank} read from the JSON file itself (both merge spellings)."""
    merges = json.loads(need("gpt2/tokenizer.json").read_text(encoding="utf-8"))["model"]["merges"]
    pairs = [tuple(m.split(" ", 1)) if isinstance(m, str) else tuple(m) for m in merges]
    return {p: r for r, p in enumerate(pairs)}


def test_gpt2_steps_equal_the_textbook_bpe_and_tokens_equal_tokenizers():
    from tokenizers import Tokenizer
    hf = Tokenizer.from_file(str(need("gpt2/tokenizer.json")))
    hf.no_truncation()
    text = real_text()
    ex = explain(gpt2(), text)
    ref_words = hf.pre_tokenizer.pre_tokenize_str(text)
    words = [w for w in ex.words if not w.special]
    assert len(words) == len(ref_words) > 300
    ranks = gpt2_ranks()
    merged_any = 0
    for w, (glyphs, (start, end)) in zip(words, ref_words):
        assert (w.start, w.end) == (start, end)
        assert "".join(w.units) == glyphs
        steps, final = ranked_steps(list(glyphs), ranks)
        assert [(s.rank, s.left, s.right, list(s.tokens)) for s in w.steps] == steps, glyphs
        assert list(w.tokens) == final
        merged_any += bool(steps)
    assert merged_any > 250
    assert [t for w in ex.words for t in w.tokens] == hf.encode(text).tokens
    assert ex.ids == hf.encode(text).ids == Encoder(gpt2()).encode(text).ids


def test_tiktoken_file_steps_equal_the_textbook_byte_rank_loop_and_tiktoken():
    from .test_exact_encoding import tiktoken_reference
    model = open_vocabulary(str(need("tiktoken_ranks/r50k_base.tiktoken")))
    ref = tiktoken_reference("r50k_base")
    ranks = ref._mergeable_ranks
    glyph = bytes_to_unicode()

    def shown(b: bytes) -> str:
        return "".join(glyph[x] for x in b)

    text = real_text()
    ex = explain(model, text)
    assert ex.ids == ref.encode_ordinary(text) == Encoder(model).encode(text).ids
    by_word = {w.word: w for w in explain(gpt2(), text).words}
    for w in ex.words:
        steps, parts = byte_rank_steps(w.word.encode(), ranks)
        if w.note:  # the whole piece is a token tiktoken takes whole
            assert "whole" in w.note and len(w.ids) == 1
            continue
        assert [(s.score, s.left, s.right, list(s.tokens)) for s in w.steps] == [
            (r, shown(a), shown(b), [shown(p) for p in ps]) for r, a, b, ps in steps]
        # r50k is GPT-2: the recovered merge list gives every step GPT-2's merge rank
        assert [s.rank for s in w.steps] == [s.rank for s in by_word[w.word].steps]


def _trained(preset: str):
    corpus = EXAMPLES / "seed004_mixed.txt" if preset == "cjk-mixed" else find("wikitext-2-raw/wiki.valid.raw")
    t = Trainer.from_corpus(str(corpus), make_config(preset, num_merges=150))
    t.run()
    return t


# plain BPE's presets (PickyBPE's removals are not textbook BPE: its event replay has tests of its own)
MERGE_PRESETS = [p for p in PRESETS if PRESETS[p].config.encode_mode == "merges" and p != "hf-course-literal"
                 and PRESETS[p].config.variant == "bpe"]


@pytest.mark.parametrize("preset", MERGE_PRESETS)
def test_presets_steps_equal_the_textbook_bpe(preset):
    t = _trained(preset)
    model = t.model()
    table = {}
    for r, ((a, b), new) in enumerate(zip(model.merges, model.merge_result)):
        table.setdefault((a, b), (r, new))
    ranks = {p: r for p, (r, _) in table.items()}
    text = (EXAMPLES / "seed004_mixed.txt").read_text(encoding="utf-8")[:800] if preset == "cjk-mixed" \
        else _lines("wikitext-2-raw/wiki.valid.raw", 1, 8)[:1500] + EMOJI
    ex = explain(model, text)
    assert ex.ids == Encoder(model).encode(text).ids
    merged_any = 0
    for w in ex.words:
        if w.special:
            continue
        steps, final = ranked_steps(list(w.unit_ids), ranks, join=lambda a, b: table[(a, b)][1])
        assert [(s.rank, list(s.ids)) for s in w.steps] == [(r, after) for r, _, _, after in steps], w.word
        assert list(w.ids) == final
        merged_any += bool(steps)
    assert merged_any > 20


def test_suffix_preset_shows_the_end_of_word_symbol():
    t = _trained("char-whitespace")
    w = explain(t.model(), "the").words[0]
    assert w.units[-1] == "</w>" and w.tokens[-1].endswith("</w>")


def test_seed000_greedy_says_it_is_not_ranked_merging():
    t = _trained("nltk-wordpunct")
    model = t.model()
    assert model.algorithm == "seed000-greedy"
    text = "The tower is tall. It was built in 1887 by the city."
    ex = explain(model, text)
    assert ex.ids == Encoder(model).encode(text).ids
    words = [w for w in ex.words if not w.special]
    assert words and all("seed 000" in w.note for w in words)
    assert any(w.steps for w in words)
    assert ex.words[0].special and ex.words[0].word == "<line/>"


def test_merges_limit_names_the_pair_ranked_after_it():
    text = " unbelievable strength"
    ex = explain(gpt2(), text, merges_limit=1000)
    assert ex.ids == Encoder(gpt2(), merges_limit=1000).encode(text).ids
    w = ex.words[0]
    assert all(s.rank < 1000 for s in w.steps) and len(w.tokens) > 1
    assert "after the limit" in w.why_stop and "merge 6411" in w.why_stop  # b + el, GPT-2's merge 6411


def test_why_stop_names_pairs_that_are_no_merge():
    w = explain(gpt2(), " 三").words[0]
    assert w.tokens == ("Ġ", "ä¸ī")
    assert w.pairs[0].rank is None and "not a merge" in w.pairs[0].reason
    assert w.why_stop.startswith("no adjacent pair is a merge")
    one = explain(gpt2(), " unbelievable").words[0]
    assert one.tokens == ("Ġunbelievable",) and one.why_stop == "one token: nothing left to merge"
    assert [s.rank for s in one.steps][-1] == 24223


def test_specials_are_their_own_word_without_steps():
    ex = explain(gpt2(), "Hi<|endoftext|>there")
    assert [w.word for w in ex.words] == ["Hi", "<|endoftext|>", "there"]
    sp = ex.words[1]
    assert sp.special and sp.steps == () and sp.ids == (50256,)
    assert ex.ids == Encoder(gpt2()).encode("Hi<|endoftext|>there").ids


def test_cli_json_shape(capsys):
    assert main(["explain", "--vocab", str(need("gpt2/tokenizer.json")), "--text", " unbelievable!", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert list(out) == ["words"]
    first = out["words"][0]
    assert first["word"] == " unbelievable" and first["tokens"] == ["Ġunbelievable"]
    assert first["steps"][0] == {"rank": 37, "left": "l", "right": "e",
                                 "tokens": ["Ġ", "u", "n", "b", "e", "l", "i", "e", "v", "a", "b", "le"]}
    assert first["steps"][-1] == {"rank": 24223, "left": "Ġunbeliev", "right": "able", "tokens": ["Ġunbelievable"]}
    assert all(list(s) == ["rank", "left", "right", "tokens"] for w in out["words"] for s in w["steps"])
    assert out["words"][1]["tokens"] == ["!"]


def test_cli_text_reads_stdin_and_errors_are_one_line(capsys, monkeypatch, tmp_path):
    import io
    import sys
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(" Hello".encode())))
    assert main(["explain", "--vocab", str(need("gpt2/tokenizer.json"))]) == 0
    out = capsys.readouterr().out
    assert "word 1 ' Hello'" in out and "merge 18179: ĠHell + o -> ĠHello" in out
    assert main(["explain", "--vocab", str(tmp_path / "none.json"), "--text", "x"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("bpe-lens-cli explain: error:") and "Traceback" not in err
    assert explain_text(explain(gpt2(), "a")).startswith("word 1 'a' [0:1]")


def test_explain_at_is_the_word_explain_gives_for_that_position():
    text = real_text()[:600]
    whole = explain(gpt2(), text)
    for w in whole.words[::7]:
        for pos in (w.start, w.end - 1):
            assert explain_at(gpt2(), text, pos) == w
    assert explain_at(gpt2(), text, len(text) + 5) is None


def _hf_config_names():
    from .test_encoder import CONFIGS
    return sorted(CONFIGS)


@pytest.mark.parametrize("name", _hf_config_names())
def test_tokenizer_json_families_agree_with_tokenizers(tmp_path, name):
    """Suffix ``</w>``, ``##`` prefix with fused unk, Metaspace, digits, dropped characters,
    ignore_merges: explain's tokens are tokenizers' own."""
    tokenizers = pytest.importorskip("tokenizers")
    from .test_encoder import ADDED, CONFIGS, CORPUS, ODD
    model_kw, trainer_kw, norm, pre = CONFIGS[name]
    tok = tokenizers.Tokenizer(tokenizers.models.BPE(**model_kw))
    tok.normalizer, tok.pre_tokenizer = norm, pre
    tok.train_from_iterator(CORPUS, tokenizers.trainers.BpeTrainer(vocab_size=180, show_progress=False, **trainer_kw))
    tok.add_tokens(list(ADDED))
    path = tmp_path / "tokenizer.json"
    tok.save(str(path))
    model = open_vocabulary(str(path))
    for text in CORPUS[:5] + ODD:
        ex = explain(model, text)
        assert ex.ids == tok.encode(text, add_special_tokens=False).ids, text


def test_ignore_merges_takes_a_word_that_is_a_token_whole():
    from bpe_core.model import BPEModel
    m = BPEModel(unit="chars", tokens=["a", "b", "c", "ab", "abc"], merges=[(0, 1)], ignore_merges=True)
    w = explain(m, "abc").words[0]
    assert w.ids == (4,) == tuple(Encoder(m).encode_ids("abc")) and w.steps == ()
    assert "ignore_merges" in w.note
    m.ignore_merges = False
    assert explain(m, "abc").words[0].tokens == ("ab", "c")
