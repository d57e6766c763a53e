"""The variants comparison's figures (bpe_core/analysis/variant_compare.py) against an independent recount:
the run's vocabulary written as tokenizer.json and the parallel corpus encoded by `tokenizers` itself, the
words cut by the GPT-2 regex directly."""
from __future__ import annotations

import os
from collections import Counter, defaultdict
from pathlib import Path

import pytest
import regex

from bpe_core import Encoder, make_config, write_vocabulary
from bpe_core.analysis.scripts import main_scripts, word_script
from bpe_core.analysis.variant_compare import (file_costs, language_files, run_word_groups, variant_figures,
                                              word_groups)
from bpe_core.training.timeline import Timeline
from bpe_core.training.trainer import Trainer
from bpe_core.corpus.files import count_words_in_files
from bpe_core.types import MergeStep, Removal, TrainingStats

tokenizers = pytest.importorskip("tokenizers")
PARALLEL = Path(__file__).resolve().parents[1] / "data" / "parallel"
LANGS = ("eng", "rus", "ell", "hin", "kor")
GPT2 = regex.compile(r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+""")


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    files = [str(PARALLEL / f"{lang}.txt") for lang in LANGS]
    config = make_config("gpt2", vocab_size=600)
    tl = Timeline(Trainer(count_words_in_files([Path(p) for p in files], config), config))
    tl.step(300)
    path = str(tmp_path_factory.mktemp("v") / "tokenizer.json")
    write_vocabulary(tl.model(), path, "tokenizer.json")
    return files, tl, tokenizers.Tokenizer.from_file(path)


def test_figures_equal_a_recount_by_tokenizers(trained):
    files, tl, tok = trained
    costs = file_costs(Encoder(tl.model()).encode_ids, language_files(files))
    f = variant_figures("plain", tl, language_costs=costs, groups=run_word_groups(tl, files))
    texts = {Path(p).stem: Path(p).read_bytes().decode("utf-8") for p in files}  # CRLF kept
    # the corpus as the run counted it (and tokenizers' trainer reads it): line by line, each keeping its \n
    lines = {lang: [ln + "\n" for ln in t.split("\n")[:-1]] + [t.split("\n")[-1]] * bool(t.split("\n")[-1])
             for lang, t in texts.items()}
    ids = {lang: [i for e in tok.encode_batch(v) for i in e.ids] for lang, v in lines.items()}
    n_bytes = sum(len(t.encode("utf-8")) for t in texts.values())
    assert f.bytes_per_token == pytest.approx(n_bytes / sum(map(len, ids.values())), rel=1e-12)
    # the cost per language: each file encoded whole, by tokenizers
    assert f.language_costs == {lang: len(tok.encode(t).ids) for lang, t in texts.items()}
    assert f.merge == 300 and f.vocab_size == tok.get_vocab_size()
    used = set().union(*map(set, ids.values()))
    assert (f.used, f.dead) == (len(used), tok.get_vocab_size() - len(used))
    # tokens per word by script (the Measures chart's definition, issue 26): the tokens of each script's pieces
    # (cut by the regex, each encoded alone by tokenizers) over the text's whitespace-separated words in that
    # script, the scripts weighed by characters
    pieces = Counter()
    for text in texts.values():
        for line in text.split("\n"):
            for w in GPT2.findall(line):
                pieces[w] += 1
    cache = {w: len(tok.encode(w).ids) for w in pieces}
    per_script, chars = defaultdict(int), Counter()
    for w, n in pieces.items():
        per_script[word_script(w)] += n * cache[w]
        chars[word_script(w)] += n * len(w)
    words = Counter(word_script(w) for text in texts.values() for w in text.split())
    main = main_scripts(list(chars), list(chars.values()))
    assert list(f.tokens_per_word) == main
    assert f.tokens_per_word == pytest.approx({s: per_script[s] / words[s] for s in main}, rel=1e-12)
    assert f.words == {s: words[s] for s in main}
    assert len(main) == 5  # Latin, Cyrillic, Greek, Devanagari, Hangul


def test_the_curve_is_bytes_per_token_after_each_merge(trained):
    files, tl, tok = trained
    f = variant_figures("plain", tl)
    assert [k for k, _ in f.curve] == list(range(301))
    assert f.curve[-1][1] == pytest.approx(f.bytes_per_token)
    # at merge 0 a token is a byte
    assert f.curve[0][1] == 1.0
    # merge 150 recounted: the vocabulary truncated there, encoded by our encoder
    enc = Encoder(tl.model().truncated(150))
    n_tokens = sum(len(enc.encode_ids(line)) for p in files
                   for line in Path(p).read_bytes().decode().splitlines(keepends=True))  # ends with \n
    n_bytes = sum(os.path.getsize(p) for p in files)
    assert f.curve[150][1] == pytest.approx(n_bytes / n_tokens, rel=1e-12)


def test_a_continuation_counts_from_its_parents_merge_and_keeps_its_curve(trained):
    files, tl, _ = trained
    parent = variant_figures("plain", tl)
    from bpe_core.workbench import continuation_timeline, RunCorpus

    child = continuation_timeline(RunCorpus(tuple(files)), tl.config, tl.model().truncated(100))
    child.step(20)
    f = variant_figures("from 100", child, offset=100, base_curve=parent.curve)
    assert f.merge == 120 and [k for k, _ in f.curve] == list(range(121))
    assert f.curve[:101] == parent.curve[:101]  # stage 1 shared, its point at 100 the same
    assert f.curve[120][1] == pytest.approx(parent.curve[120][1])  # plain continues as the parent did


def test_removals_are_counted():
    st = TrainingStats(1, 3, 4, 2, 4)
    steps = [MergeStep(1, 0, 1, 2, "a", "b", "ab", 2, True, (0,), (), (), st, (Removal(2, "ab", (0, 1), 3, 2),)),
             MergeStep(2, 0, 1, 2, "a", "b", "ab", 2, False, (0,), (), (), st)]

    class Fake:
        words, freqs, merge_count, vocab_size, initial_stats = ["ab"], [2], 2, 3, None
        history = steps

        def segmentation(self, i):
            return (2,)

    f = variant_figures("picky", Fake())
    assert f.removed == 1 and (f.used, f.dead) == (1, 2)


def test_a_superword_unit_divides_by_the_texts_words_and_the_gini_of_costs():
    st = TrainingStats(0, 3, 3, 3, 10)

    class Fake:
        words, freqs, merge_count, vocab_size, initial_stats, history = [" of the", " town", "\n"], [2, 1, 1], 0, 9, st, []

        def segmentation(self, i):
            return ((1,), (2, 3), (4,))[i]

    text = {"Latin": 5, "Common": 0}  # " of the of the town\n": five whitespace-separated words
    f = variant_figures("superbpe", Fake(), language_costs={"eng": 10, "deu": 30}, groups=word_groups(Fake(), text))
    assert f.tokens_per_word == {"Latin": 4 / 5}  # (2×1 + 2) tokens over the text's 5 words
    assert f.cost_gini == 0.25 and variant_figures("x", Fake()).cost_gini is None


def test_without_its_text_a_run_gives_no_tokens_per_word_and_the_note_says_why(tmp_path):
    from bpe_core.analysis.variant_compare import corpus_words, tokens_per_word_note

    table = tmp_path / "counts.tsv"
    table.write_text("low\t5\nlower\t2\n", encoding="utf-8")
    assert corpus_words([str(table)]) is None
    st = TrainingStats(0, 3, 3, 3, 10)

    class Fake:
        words, freqs, merge_count, vocab_size, initial_stats, history = ["low"], [5], 0, 9, st, []

        def segmentation(self, i):
            return (1, 2)

    bare = variant_figures("r1: plain BPE (gpt2)", Fake(), groups=word_groups(Fake(), None))
    texted = variant_figures("r2", Fake(), groups=word_groups(Fake(), {"Latin": 5}))
    assert (bare.tokens_per_word, bare.words) == ({}, None) and texted.tokens_per_word == {"Latin": 2.0}
    assert tokens_per_word_note([texted]) == ""
    assert tokens_per_word_note([bare, texted]) == ("Tokens / word is not given for r1: plain BPE (gpt2): no text "
                                                   "to count whitespace-separated words in (a word-count table, "
                                                   "or files that can no longer be read).")
