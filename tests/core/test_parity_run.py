"""Parity-aware BPE as a run (ParityTrainer): the five reference goldens through it, exact undo and seek, a
Timeline over it, the reference's merges file and tokenizer.json, and per-language corpora (folder, table)."""
import hashlib
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from bpe_core.base.symbols import to_glyphs
from bpe_core.encoding.encoder import Encoder
from bpe_core.formats.parity_files import reference_merges_text, reference_tokenizer_json
from bpe_core.training.timeline import Timeline
from bpe_core.types import BPELensError, TrainerConfig
from bpe_core.variants.parity_run import ParityTrainer, open_parity_timeline, reference_words

DATA = Path(__file__).resolve().parents[1] / "data"
SETTINGS = {
    "base": dict(),
    "window": dict(parity_mode="window", parity_window=100, parity_alpha=2),
    "hybrid": dict(parity_mode="hybrid", parity_global_merges=200),
    "plain": dict(parity_global_merges=1000),
    "ratio": dict(parity_mode="ratio"),
}


def _golden(name):
    return json.loads((DATA / "variants" / "parity" / f"{name}.json").read_text(encoding="utf-8"))


def _slice(lang, lines):
    a, b = lines
    return b"".join((DATA / "parallel" / f"{lang}.txt").read_bytes().splitlines(keepends=True)[a - 1:b])


def _counts(golden, part):
    return {lang: reference_words(_slice(lang, golden["files"][f"{part}.{lang}"]["lines"]).decode("utf-8"))
            for lang in golden["languages"]}


def _config(name, **kw):
    return TrainerConfig(variant="parity", num_merges=1000, **SETTINGS[name], **kw)


def _glyph_pair(step):
    return [to_glyphs(step.left_token), to_glyphs(step.right_token)]


@pytest.fixture(scope="module")
def runs():
    out = {}
    for name in SETTINGS:
        g = _golden(name)
        t = ParityTrainer(_counts(g, "train"), _config(name), dev=_counts(g, "dev"))
        out[name] = (g, t, t.run())
    return out


@pytest.mark.parametrize("name", list(SETTINGS))
def test_goldens_through_the_trainer(runs, name):
    g, t, steps = runs[name]
    assert t.stop_reason == "merges" and len(steps) == len(g["merges"]) == 1000
    assert [_glyph_pair(s) for s in steps] == g["merges"]
    assert [s.language for s in steps] == g["steps"]["lang"]
    assert [list(s.compared) for s in steps] == g["steps"]["lengths"]
    assert [list(s.freq) for s in steps] == g["steps"]["freq"]
    assert t.bpe.dev_lengths == g["recount"]["final_dev_lengths"]
    measured = "final_train_lengths" if name == "ratio" else "final_dev_lengths"
    assert list(t.language_costs()) == g["recount"][measured]
    assert list(t.language_costs(1)) == list(steps[0].costs)
    assert t.language_costs(0) == tuple(g["steps"]["lengths"][0])


@pytest.mark.parametrize("name", list(SETTINGS))
def test_merges_file_byte_identical(runs, name):
    g, t, _ = runs[name]
    assert hashlib.sha256(reference_merges_text(t.model()).encode("utf-8")).hexdigest() == g["merges_file_sha256"]


@pytest.mark.parametrize("name", ["base", "window"])
def test_tokenizer_json_encodes_as_reference_and_as_our_encoder(runs, name, tmp_path):
    tokenizers = pytest.importorskip("tokenizers")
    g, t, _ = runs[name]
    model = t.model()
    path = tmp_path / "tokenizer.json"
    path.write_text(json.dumps(reference_tokenizer_json(model), ensure_ascii=False), encoding="utf-8")
    tok = tokenizers.Tokenizer.from_file(str(path))
    assert tok.get_vocab_size() == g["encode_dev"]["vocab_size"]
    ours = Encoder(model)
    for lang in g["languages"]:
        lines = _slice(lang, g["files"][f"dev.{lang}"]["lines"]).decode("utf-8").splitlines(keepends=True)
        encs = [tok.encode(line, add_special_tokens=False) for line in lines]
        assert sum(len(e.ids) for e in encs) == g["encode_dev"]["per_language"][lang]["tokens"]
        assert encs[0].tokens == g["encode_dev"]["per_language"][lang]["first_line"]
        assert [ours.encode_ids(line) for line in lines] == [e.ids for e in encs]


def _small(n_lines=12, langs=("eng", "rus", "hin")):
    train = {x: reference_words(_slice(x, (1, n_lines)).decode("utf-8")) for x in langs}
    dev = {x: reference_words(_slice(x, (76, 80)).decode("utf-8")) for x in langs}
    return train, dev


def _state(t):
    return ([t.segmentation(i) for i in range(len(t.words))], [t.token(i) for i in range(t.vocab_size)],
            t.top_pairs(10), t.stats, t.language_costs(), t.bpe.train.lengths, t.bpe.dev.lengths,
            {p: c for p, c in t.bpe.train.pairs.items() if any(c)}, [s.new_id for s in t.history])


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["base", "window", "hybrid", "ratio"]),
       st.lists(st.tuples(st.sampled_from(["step", "undo", "seek"]), st.integers(0, 40)), max_size=12))
def test_undo_and_seek_are_exact(mode, moves):
    train, dev = _small()
    cfg = TrainerConfig(variant="parity", parity_mode=mode, parity_window=8, parity_global_merges=
                        5 if mode == "hybrid" else 0)
    t = ParityTrainer(train, cfg, dev=dev)
    for op, n in moves:
        if op == "step":
            t.run(merges=t.merge_count + n % 7)
        elif op == "undo":
            for _ in range(n % 7):
                t.undo()
        else:
            t.seek(n)
        fresh = ParityTrainer(train, cfg, dev=dev)
        fresh.run(merges=t.merge_count)
        assert _state(t) == _state(fresh)
        assert [(s.left, s.right, s.count, s.changed_words, s.costs) for s in t.history] == \
            [(s.left, s.right, s.count, s.changed_words, s.costs) for s in fresh.history]


def test_records_say_what_changed():
    train, dev = _small()
    t = ParityTrainer(train, TrainerConfig(variant="parity"), dev=dev)
    before = [t.segmentation(i) for i in range(len(t.words))]
    s = t.step()
    changed = {i for i in range(len(t.words)) if t.segmentation(i) != before[i]}
    assert set(s.changed_words) == changed and changed
    assert all(t.word_language[i] in range(3) for i in changed)
    assert s.examples and all(e.after == t.segmentation(e.word_index) for e in s.examples)
    assert all(e.before == before[e.word_index] for e in s.examples)
    assert (s.left, s.right, 0) in s.changed_pairs
    assert s.stats.total_tokens == sum(t.freqs[i] * len(t.segmentation(i)) for i in range(len(t.words)))
    assert s.count == s.freq[s.language]


def test_picked_pair_and_picks():
    train, dev = _small()
    t = ParityTrainer(train, TrainerConfig(variant="parity"), dev=dev)
    second = t.top_pairs(2)[1]
    s = t.step(pair=(second.left, second.right))
    assert (s.left, s.right) == (second.left, second.right)
    with pytest.raises(BPELensError, match="does not occur"):
        t.step(pair=(0, 1))


def test_timeline_over_a_parity_trainer(tmp_path):
    for lang in ("eng", "rus", "hin"):
        (tmp_path / "dev").mkdir(exist_ok=True)
        (tmp_path / f"{lang}.txt").write_bytes(_slice(lang, (1, 12)))
        (tmp_path / "dev" / f"{lang}.txt").write_bytes(_slice(lang, (76, 80)))
    cfg = TrainerConfig(variant="parity", num_merges=30)
    tl = open_parity_timeline(tmp_path, cfg)
    train, dev = _small(langs=("eng", "hin", "rus"))  # a folder's languages come in the order of their names
    ref = ParityTrainer(train, cfg, dev=dev)
    ref_steps = ref.run()
    assert [(s.left, s.right) for s in tl.step(5)] == [(s.left, s.right) for s in ref_steps[:5]]
    tl.undo(2)
    assert tl.merge_count == 3 and len(tl.steps) == 5
    tl.seek(20)
    assert [(s.left, s.right) for s in tl.history] == [(s.left, s.right) for s in ref_steps[:20]]
    tl.jump(4)
    ref.seek(4)
    assert [tl.segmentation(i) for i in range(len(tl.words))] == [ref.segmentation(i) for i in range(len(ref.words))]
    tl.seek(30)
    assert tl.step() == [] and tl.stop_reason == "merges" and tl.model().merges == [(s.left, s.right) for s in ref_steps]
    assert isinstance(tl.trainer, ParityTrainer)


def test_from_languages_folder_table_and_dev_argument(tmp_path):
    from bpe_core.corpus.languages import write_language_parquet, write_language_tsv
    train, dev = _small()
    cfg = TrainerConfig(variant="parity", num_merges=40)
    expected = [(s.left, s.right, s.language) for s in ParityTrainer(train, cfg, dev=dev).run()]
    write_language_tsv(tmp_path / "train.tsv", train)
    write_language_parquet(tmp_path / "dev.parquet", dev)
    t = ParityTrainer.from_languages(tmp_path / "train.tsv", cfg, dev=tmp_path / "dev.parquet")
    assert t.languages == ["eng", "rus", "hin"]
    assert [(s.left, s.right, s.language) for s in t.run()] == expected
    t2 = ParityTrainer.from_languages(tmp_path / "train.tsv", cfg, dev=dev)
    assert [(s.left, s.right, s.language) for s in t2.run()] == expected


def test_bad_inputs_are_one_line_errors(tmp_path):
    train, dev = _small()
    with pytest.raises(BPELensError, match="dev text"):
        ParityTrainer(train, TrainerConfig(variant="parity"))
    with pytest.raises(BPELensError, match="same languages"):
        ParityTrainer(train, TrainerConfig(variant="parity"), dev={"eng": dev["eng"]})
    with pytest.raises(BPELensError, match="one positive number per language"):
        ParityTrainer(train, TrainerConfig(variant="parity", parity_mode="ratio"), ratio=[1, 2])
    (tmp_path / "plain.tsv").write_text("word\tcount\nthe\t3\n", encoding="utf-8")
    with pytest.raises(BPELensError, match="header language<TAB>word<TAB>count"):
        ParityTrainer.from_languages(tmp_path / "plain.tsv", TrainerConfig(variant="parity"))
    with pytest.raises(BPELensError, match="no such folder"):
        ParityTrainer.from_languages(tmp_path / "nothing", TrainerConfig(variant="parity"))
    (tmp_path / "langs").mkdir()
    (tmp_path / "langs" / "eng.txt").write_bytes(b"a b\n")
    (tmp_path / "langs" / "dev").mkdir()
    (tmp_path / "langs" / "dev" / "deu.txt").write_bytes(b"a b\n")
    with pytest.raises(BPELensError, match="same languages"):
        ParityTrainer.from_languages(tmp_path / "langs", TrainerConfig(variant="parity"))
    (tmp_path / "t.tsv").write_text("language\tword\tcount\nen\tthe\t3\nen\tthe\t1\n", encoding="utf-8")
    with pytest.raises(BPELensError, match="appears twice in language 'en'"):
        ParityTrainer.from_languages(tmp_path / "t.tsv", TrainerConfig(variant="parity"))


def test_preset_reading_uses_the_presets_units():
    from bpe_core.presets import make_config
    cfg = make_config("char-whitespace", variant="parity", vocab_size=None, num_merges=10)
    t = ParityTrainer({"a": {"low": 3, "lower": 2}, "b": {"newest": 2}}, cfg,
                      dev={"a": {"low": 1}, "b": {"new": 1}}, reading="preset")
    assert t.display(t.segmentation(0)[-1]) == "</w>"
    assert t.run() and t.model().unit == "chars"
    with pytest.raises(BPELensError, match="byte-level tokens only"):
        reference_merges_text(t.model())


def test_native_file_and_generic_tokenizer_json_keep_the_reference_pipeline(runs, tmp_path):
    tokenizers = pytest.importorskip("tokenizers")
    from bpe_core.formats.native import read_native, write_native
    from bpe_core.formats.writers import write_tokenizer_json
    g, t, _ = runs["base"]
    model = t.model()
    write_native(model, str(tmp_path / "m.json"))
    write_tokenizer_json(model, tmp_path / "tokenizer.json")
    back = read_native(str(tmp_path / "m.json"))
    tok = tokenizers.Tokenizer.from_file(str(tmp_path / "tokenizer.json"))
    line = _slice("kor", g["files"]["dev.kor"]["lines"]).decode("utf-8").splitlines(keepends=True)[0]
    ids = Encoder(model).encode_ids(line)
    assert Encoder(back).encode_ids(line) == ids == tok.encode(line, add_special_tokens=False).ids
    assert [to_glyphs(model.tokens[i]) for i in ids] == g["encode_dev"]["per_language"]["kor"]["first_line"]


def test_language_costs_of_undone_merges_stay_known():
    train, dev = _small()
    t = ParityTrainer(train, TrainerConfig(variant="parity"), dev=dev)
    steps = t.run(merges=6)
    t.seek(2)
    assert t.language_costs(6) == steps[5].costs and t.language_costs() == steps[1].costs
    with pytest.raises(IndexError):
        t.language_costs(7)


def test_ratio_with_global_merges_is_refused_as_the_reference_cannot_run_it():
    train, dev = _small()
    with pytest.raises(BPELensError, match="does not combine with global merges"):
        ParityTrainer(train, TrainerConfig(variant="parity", parity_mode="ratio", parity_global_merges=5), dev=dev)


def test_branches_over_a_parity_timeline():
    from bpe_core.training.branches import Branches
    train, dev = _small()
    tl = Timeline(ParityTrainer(train, TrainerConfig(variant="parity", num_merges=20), dev=dev))
    br = Branches(tl)
    main = [(s.left, s.right) for s in tl.step(6)]
    tl.seek(2)
    second = tl.trainer.top_pairs(2)[1]
    new, _ = br.pick(second.left, second.right)
    tl.step(4)
    assert (tl.history[2].left, tl.history[2].right) == (second.left, second.right)
    fresh = ParityTrainer(train, TrainerConfig(variant="parity"), dev=dev)
    fresh.picks = {2: (second.left, second.right)}
    fresh.run(merges=tl.merge_count)
    assert [(s.left, s.right) for s in tl.history] == [(s.left, s.right) for s in fresh.history]
    br.switch(0)
    assert [(s.left, s.right) for s in tl.steps][:6] == main


def test_a_merge_recounts_only_the_pairs_at_its_places():
    """Work counted, not timed: the pair-count change of a merged word names only the pairs next to the merge,
    however long the word (long words are common: a Chinese sentence is one piece)."""
    from collections import Counter

    from bpe_core.variants.parity import _merge_word
    sizes = []
    for n in (10, 1000):
        w = tuple("cd" * n) + ("a", "b") + tuple("ef" * n)
        new, delta = _merge_word(w, "a", "b")
        exact = Counter(zip(new, new[1:]))
        exact.subtract(Counter(zip(w, w[1:])))
        assert {p: d for p, d in delta.items() if d} == {p: d for p, d in exact.items() if d}
        sizes.append(len(delta))
    assert sizes == [5, 5]  # (d, a) (a, b) (b, e) go, (d, ab) (ab, e) come
    w = ("a", "b", "a", "b", "b", "a", "b")
    new, delta = _merge_word(w, "a", "b")
    exact = Counter(zip(new, new[1:]))
    exact.subtract(Counter(zip(w, w[1:])))
    assert new == ("ab", "ab", "b", "ab") and {p: d for p, d in delta.items() if d} == \
        {p: d for p, d in exact.items() if d}


def test_preset_reading_on_gpt2_encodes_its_words_and_writes_a_tokenizer_json():
    tokenizers = pytest.importorskip("tokenizers")
    from bpe_core.formats.writers import tokenizer_json_dict
    from bpe_core.presets import make_config
    from bpe_core.corpus.counting import count_words_in_texts
    cfg = make_config("gpt2", variant="parity", vocab_size=None, num_merges=80)
    texts = {x: _slice(x, (1, 12)).decode("utf-8") for x in ("eng", "rus", "hin")}
    dev = {x: _slice(x, (76, 80)).decode("utf-8") for x in texts}
    t = ParityTrainer({x: count_words_in_texts([v], cfg) for x, v in texts.items()}, cfg,
                      dev={x: count_words_in_texts([v], cfg) for x, v in dev.items()}, reading="preset")
    t.run()
    model = t.model()
    assert t.initial_vocab_size == 257 and model.specials == {"<|endoftext|>": 0}
    enc = Encoder(model)
    assert all(enc.encode_ids(w) == list(t.segmentation(i)) for i, w in enumerate(t.words))
    tok = tokenizers.Tokenizer.from_str(json.dumps(tokenizer_json_dict(model)))
    for line in dev["hin"].splitlines()[:5]:
        assert tok.encode(line, add_special_tokens=False).ids == enc.encode_ids(line)


def test_the_tie_inspector_shows_the_references_rule():
    g = _golden("base")
    tied_steps = {step for step, _ in g["recount"]["ties"]}
    tl = Timeline(ParityTrainer(_counts(g, "train"), _config("base"), dev=_counts(g, "dev")))
    tl.watch_ties = True
    for k in range(90):
        ties = tl.ties_here()
        assert ties.rule == "parity" and ties.is_tie == (k in tied_steps), k
        if k in tied_steps:
            assert len(ties.candidates) == dict(g["recount"]["ties"])[k]
        assert [to_glyphs(ties.candidates[0].left_token), to_glyphs(ties.candidates[0].right_token)] == g["merges"][k]
        assert set(ties.why) >= {"parity", "first-seen", "hf", "lexicographic"}
        tl.step()
