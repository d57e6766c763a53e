"""The trainer's model encodes exactly like the trainer segments; at step k only k merges apply."""
from __future__ import annotations

import pytest

from bpe_core.encoding.encoder import Encoder
from bpe_core.presets import PRESETS, make_config
from bpe_core.training.continuing import continue_training
from bpe_core.training.trainer import Trainer

from .paths import EXAMPLES, find, need

SAMPLE = find("wikitext-2-raw/wiki.valid.raw")  # shipped in tests/data/real


def _corpus(preset: str):
    return EXAMPLES / "seed004_mixed.txt" if preset == "cjk-mixed" else SAMPLE


def _without_suffix(raws, suffix):
    return "".join(r.decode("utf-8", "replace") if isinstance(r, bytes) else r for r in raws).replace(suffix or "\0", "")


# hf-course-literal trains on lowercased glyph strings ("ġthe") that no input text pre-tokenizes into,
# and its encoder does not lowercase (the course's tokenize): tests/core/test_seed_texts.py covers it.
@pytest.mark.parametrize("preset", [p for p in PRESETS if PRESETS[p].config.encode_mode == "merges"
                                    and p != "hf-course-literal"])
def test_encoding_a_training_word_gives_its_final_segmentation(preset):
    t = Trainer.from_corpus(str(_corpus(preset)), make_config(preset, num_merges=300))
    t.run()
    enc = Encoder(t.model())
    checked = 0
    for i in range(0, len(t.words), max(1, len(t.words) // 400)):
        word = t.words[i]
        text = word[1:] if preset == "picky" else word  # picky's words are \u2581 + the text's word
        pieces = t.model().pipeline.split(text)
        if len(pieces) != 1 or pieces[0].text != word:  # a word is one piece of its own text
            continue
        assert enc.encode_ids(text) == list(t.segmentation(i)), word
        checked += 1
    assert checked > 50 or (preset == "cjk-mixed" and checked > 20)


@pytest.mark.parametrize("preset", ["gpt2", "char-whitespace", "byte-ascii"])
def test_step_k_uses_only_the_first_k_merges(preset):
    t = Trainer.from_corpus(str(SAMPLE), make_config(preset, num_merges=120))
    t.run()
    final = t.model()
    text = "The quick brown fox jumps over the lazy dog; Valkyria Chronicles III.\n"
    for k in (0, 1, 7, 60, 120):
        t.seek(k)
        at_k = Encoder(t.model()).encode_ids(text)
        assert Encoder(final, merges_limit=k).encode_ids(text) == at_k
        created = {s.new_id for s in t.history}
        base = set(range(t.initial_vocab_size))
        assert set(at_k) <= created | base


def test_spans_cover_the_text_for_byte_level():
    t = Trainer.from_corpus(str(SAMPLE), make_config("gpt2", num_merges=200))
    t.run()
    text = "Héllo wörld — 自然 🙂\r\n\ttabs  and  spaces"
    enc = Encoder(t.model()).encode(text)
    assert Encoder(t.model()).decode(enc.ids) == text
    assert all(0 <= tok.start <= tok.end <= len(text) for tok in enc.tokens)
    assert enc.tokens[0].start == 0 and enc.tokens[-1].end == len(text)


def test_seed000_greedy_wraps_sentences():
    t = Trainer.from_corpus(str(SAMPLE), make_config("nltk-wordpunct", num_merges=100))
    t.run()
    enc = Encoder(t.model()).encode("It was late. The night was dark.")
    shown = [tok.display for tok in enc.tokens]
    assert shown.count("<line/>") == 2 and shown.count("</line>") == 2
    assert shown[0] == "<line/>" and shown[-1] == "</line>"


def test_continue_training_equals_one_long_run():
    """Training 60 merges, saving, and continuing 40 more == training 100 merges (same corpus)."""
    cfg = make_config("gpt2", num_merges=100)
    whole = Trainer.from_corpus(str(SAMPLE), cfg)
    whole.run()
    part = Trainer.from_corpus(str(SAMPLE), make_config("gpt2", num_merges=60))
    part.run()
    more = continue_training(part.model(), str(SAMPLE), config=make_config("gpt2", num_merges=40))
    assert more.undo() is None and more.merge_count == 0  # the loaded merges are the floor
    more.run()
    combined = more.model()
    assert combined.merges == whole.model().merges
    assert combined.merge_counts == whole.model().merge_counts
    assert Encoder(combined).encode_ids("Valkyria Chronicles") == Encoder(whole.model()).encode_ids("Valkyria Chronicles")


def test_continue_training_from_gpt2_files_on_new_text():
    from bpe_core.formats import read_vocab_merges
    gpt2 = read_vocab_merges(str(need("gpt2/vocab.json")))
    t = continue_training(gpt2, str(EXAMPLES / "seed004_mixed.txt"), config=make_config("gpt2", num_merges=5))
    steps = t.run()
    assert len(steps) == 5 and all(s.new_id >= 50257 for s in steps if s.created)
    assert t.model().merges[:50000] == gpt2.merges
