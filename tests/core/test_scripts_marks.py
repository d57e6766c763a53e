"""A combining mark of a script votes for that script (Tamil's and Devanagari's vowel signs and viramas are
marks, not letters). GPT-2's pre-tokenizer cuts Indic words at their marks (``\\p{L}+`` stops there), so a
mark-only piece ("ி") was ``Common`` and its tokens counted in no script's row: the Measures chart's tokens
per word for Tamil left out about half of each word's tokens."""
from __future__ import annotations

from pathlib import Path

from bpe_core.analysis.curves import model_curves, read_eval_files
from bpe_core.analysis.scripts import char_script, word_script
from bpe_core.presets import make_config
from bpe_core.training.trainer import Trainer

ROOT = Path(__file__).resolve().parents[2]
TAMIL = ROOT / "resources" / "examples" / "parallel" / "tam.txt"


def test_marks_of_a_script_vote_for_it_and_inherited_marks_do_not():
    assert word_script("ி") == "Tamil" and word_script("्") == "Devanagari"
    assert char_script("\u0301") is None and char_script("\u0650") is None  # Inherited: no one script's
    assert word_script("é") == "Latin" and word_script("42") == "Common"


def test_tamil_tokens_per_word_count_every_byte_of_its_words_at_merge_0():
    text = TAMIL.read_text(encoding="utf-8")
    words = [w for w in text.split() if word_script(w) == "Tamil"]
    mean_bytes = sum(len(w.encode()) for w in words) / len(words)
    trainer = Trainer.from_corpus(str(TAMIL), make_config("gpt2", vocab_size=300))
    model = trainer.model()
    curves = model_curves(model, read_eval_files([TAMIL]), 1, upto=0)
    per_word = curves.value_at("tokens_per_word", 0, "script:Tamil")
    # byte-level at merge 0: one token per byte; each word's bytes are tokens of its pieces (plus the space
    # a piece carries before it), so tokens per word is at least the mean byte length of a Tamil word
    assert per_word >= mean_bytes, (per_word, mean_bytes)
