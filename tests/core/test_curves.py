"""Curves over vocabulary size (issue 27): the contract's functions model_curves and run_curves."""
from pathlib import Path

import pytest

from bpe_core.analysis.curves import ALL, model_curves, read_eval_files, run_curves
from bpe_core.analysis.measures import renyi_efficiency, text_size
from bpe_core.encoding.encoder import Encoder
from bpe_core.presets import make_config
from bpe_core.types import BPELensError, Cancelled
from bpe_core.workbench.records import RunCorpus
from bpe_core.workbench.runs import TrainingRun

PARALLEL = Path(__file__).resolve().parents[1] / "data" / "parallel"


@pytest.fixture(scope="module")
def texts():
    return read_eval_files([PARALLEL / f"{n}.txt" for n in ("eng", "deu", "rus", "zho")])


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    path = tmp_path_factory.mktemp("c") / "corpus.txt"
    path.write_text((PARALLEL / "eng.txt").read_text(encoding="utf-8") * 2, encoding="utf-8")
    r = TrainingRun.open("r1", RunCorpus((str(path),)), make_config("gpt2"))
    r.timeline.step(120)
    return r


def test_run_curves_samples_and_values_equal_encoding_from_scratch(run, texts):
    c = run_curves(run.timeline, texts, 50, name="gpt2")
    assert c.run == "gpt2" and c.every == 50 and c.texts == ("eng", "deu", "rus", "zho") and c.reference == "eng"
    assert [m for m, _ in c.series("bytes_per_token")] == [0, 50, 100, 120]
    model = run.timeline.model()
    for m in (0, 50, 120):
        ids = Encoder(model, merges_limit=m).encode_ids(texts[1].text)
        size = text_size(texts[1].text)
        assert c.value_at("bytes_per_token", m, "file:deu") == pytest.approx(size.bytes / len(ids), abs=1e-12)
        assert c.value_at("tokens_per_word", m, "file:deu") == pytest.approx(len(ids) / size.words, abs=1e-12)
        counts = {}
        for i in ids:
            counts[i] = counts.get(i, 0) + 1
        assert c.value_at("renyi_efficiency", m, "file:deu") == pytest.approx(renyi_efficiency(counts), abs=1e-9)
    assert c.value_at("parity", 0, "file:eng") == 1.0
    assert {"script:Latin", "script:Cyrillic", "script:Han"} <= set(c.groups("bytes_per_token"))
    assert c.groups("used") == (ALL,)


def test_model_curves_last_merge_and_upto(run, texts):
    model = run.timeline.model()
    c = model_curves(model, texts[:1], 40, upto=100)
    assert [m for m, _ in c.series("bytes_per_token")] == [0, 40, 80, 100]
    assert c.reference is None and not c.series("parity", "file:eng")


def test_bad_arguments_are_one_line_errors(run, texts):
    for every in (0, -3, 1.5):
        with pytest.raises(BPELensError, match="every"):
            run_curves(run.timeline, texts, every)
    with pytest.raises(BPELensError, match="reference"):
        run_curves(run.timeline, texts, 10, reference="fra")
    with pytest.raises(BPELensError):
        model_curves(run.timeline.model(), [], 10)


def test_progress_and_cancel(run, texts):
    seen = []
    run_curves(run.timeline, texts[:1], 60, progress=seen.append)
    assert seen[-1].done == seen[-1].total and seen[-1].unit == "merges"
    with pytest.raises(Cancelled):
        run_curves(run.timeline, texts[:1], 60, cancel=lambda: True)


def test_setup_reports_progress_and_cancel_acts_before_the_merges(run, texts, monkeypatch):
    """A big evaluation text spends its first seconds cutting and indexing pieces: the setup reports its
    progress ("reading", "pieces") and asks Cancel every CHECK_EVERY pieces (made small here), so a Cancel
    pressed during the setup acts there, before any merge is replayed (issue 27: Cancel took 27-47 s)."""
    from bpe_core.analysis import curve_pieces
    monkeypatch.setattr(curve_pieces, "CHECK_EVERY", 20)
    seen, calls = [], []

    def cancel():
        calls.append(1)
        return len(calls) >= 4

    with pytest.raises(Cancelled):
        run_curves(run.timeline, texts, 60, progress=seen.append, cancel=cancel)
    assert len(calls) == 4
    assert seen and {p.unit for p in seen} <= {"reading", "pieces"}  # no merge was reached
    seen.clear()
    calls.clear()
    run_curves(run.timeline, texts, 60, progress=seen.append, cancel=lambda: calls.append(1) and False)
    units = [p.unit for p in seen]
    first = units.index("merges")
    assert "reading" in units[:first] and "pieces" in units[:first]
    assert all(p.done <= p.total for p in seen)
    assert len(calls) > 10  # the setup asked Cancel many times (every 20 pieces), not once at the end


def test_every_script_with_one_percent_of_the_characters_is_a_group(run):
    """Script groups weigh the text's characters, not its pieces: on the 15-language parallel text a Chinese
    or Japanese sentence is a few pieces, so Han, Hiragana and Katakana had no group (issue 27)."""
    from bpe_core.analysis.scripts import word_script
    all15 = read_eval_files([PARALLEL])
    c = model_curves(run.timeline.model(), all15, 60)
    groups = set(c.groups("bytes_per_token"))
    assert "script:Han" in groups
    chars = {}
    for t in all15:
        for ch in t.text:
            s = word_script(ch)
            chars[s] = chars.get(s, 0) + 1
    whole = sum(chars.values())
    assert {"script:" + s for s, n in chars.items() if s != "Common" and n / whole >= 0.02} <= groups


def test_the_default_reference_is_english_when_a_text_is_english(run):
    """Parity's default reference is English ("eng", else a name starting with "en") when one of the texts is,
    else the first text: the first file alphabetically (amh) made English 0.815 in the README's example."""
    from bpe_core.analysis.curves import check_texts, EvalText
    all15 = read_eval_files([PARALLEL])
    assert all15[0].name == "amh"
    c = model_curves(run.timeline.model(), all15, 60)
    assert c.reference == "eng" and c.value_at("parity", 0, "file:eng") == 1.0
    assert check_texts([EvalText("de", "x"), EvalText("en_US", "y")], None) == "en_US"
    assert check_texts([EvalText("deu", "x"), EvalText("fra", "y")], None) == "deu"
    assert check_texts([EvalText("deu", "x"), EvalText("eng", "y")], "deu") == "deu"
