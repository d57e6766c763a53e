"""``bpe-lens-cli encode --dropout P --seed S --samples N``: samples on stdout, one-line errors for bad settings."""
from __future__ import annotations

import json

import pytest

from bpe_core.cli.commands import main
from bpe_core.encoding.dropout import DropoutEncoder
from bpe_core.encoding.encoder import Encoder
from bpe_core.formats.detect import open_vocabulary
from tests.core.paths import need

TEXT = "The unrelated lobsters were caught in the Mediterranean."


def run(capsys, *argv):
    code = main(["encode", *argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def vocab() -> str:
    return str(need("gpt2/tokenizer.json"))


def test_json_gives_each_sample_as_the_library_draws_them(capsys, vocab):
    code, out, err = run(capsys, "--vocab", vocab, "--text", TEXT, "--dropout", "0.3", "--seed", "11",
                         "--samples", "4", "--json")
    assert code == 0 and err == ""
    doc = json.loads(out)
    assert doc["dropout"] == 0.3 and doc["seed"] == 11 and len(doc["samples"]) == 4
    enc = DropoutEncoder(open_vocabulary(vocab), 0.3, seed=11)
    expected = [enc.encode(TEXT) for _ in range(4)]
    assert [s["ids"] for s in doc["samples"]] == [e.ids for e in expected]
    assert [s["tokens"] for s in doc["samples"]] == [[t.display for t in e.tokens] for e in expected]
    assert len({tuple(s["ids"]) for s in doc["samples"]}) > 1


def test_plain_output_is_one_line_per_sample_and_ids_too(capsys, vocab):
    code, out, _ = run(capsys, "--vocab", vocab, "--text", TEXT, "--dropout", "0.2", "--seed", "5", "--samples", "3")
    assert code == 0 and len(out.splitlines()) == 3
    code, ids, _ = run(capsys, "--vocab", vocab, "--text", TEXT, "--dropout", "0.2", "--seed", "5", "--samples", "3",
                       "--ids")
    first = DropoutEncoder(open_vocabulary(vocab), 0.2, seed=5).encode(TEXT)
    assert ids.splitlines()[0] == " ".join(map(str, first.ids))
    assert out.splitlines()[0] == " ".join(f"{t.display}({t.id})" for t in first.tokens)


def test_one_sample_without_samples_and_p0_is_the_plain_encoding(capsys, vocab):
    code, out, _ = run(capsys, "--vocab", vocab, "--text", TEXT, "--dropout", "0", "--seed", "1", "--ids")
    assert code == 0 and out.splitlines() == [" ".join(map(str, Encoder(open_vocabulary(vocab)).encode_ids(TEXT)))]


def test_without_seed_the_seed_is_said_so_the_samples_can_be_drawn_again(capsys, vocab):
    code, out, err = run(capsys, "--vocab", vocab, "--text", TEXT, "--dropout", "0.5", "--json")
    seed = json.loads(out)["seed"]
    assert code == 0 and f"--seed {seed}" in err
    _, again, _ = run(capsys, "--vocab", vocab, "--text", TEXT, "--dropout", "0.5", "--seed", str(seed), "--json")
    assert json.loads(again) == json.loads(out)


@pytest.mark.parametrize("argv, message", [
    (["--dropout", "1.5"], "bpe-lens-cli encode: error: dropout must be between 0 and 1, not 1.5"),
    (["--dropout", "-0.1"], "bpe-lens-cli encode: error: dropout must be between 0 and 1, not -0.1"),
    (["--seed", "3"], "bpe-lens-cli encode: error: --seed needs --dropout"),
    (["--samples", "3"], "bpe-lens-cli encode: error: --samples needs --dropout"),
    (["--dropout", "0.1", "--samples", "0"], "bpe-lens-cli encode: error: the number of samples must be at least 1, not 0"),
])
def test_bad_settings_are_one_line_errors(capsys, vocab, argv, message):
    code, out, err = run(capsys, "--vocab", vocab, "--text", TEXT, *argv)
    assert code == 2 and out == "" and err.strip().splitlines() == [message]


def test_a_vocabulary_without_merges_is_refused_in_one_line(capsys, monkeypatch):
    from bpe_core.cli import commands
    from bpe_core.model import BPEModel
    greedy = BPEModel(unit="chars", tokens=["a", "b"], algorithm="seed000-greedy")
    monkeypatch.setattr(commands, "open_any", lambda path, pattern=None: greedy)
    code, out, err = run(capsys, "--vocab", "seed000", "--text", "ab", "--dropout", "0.1")
    assert code == 2 and out == ""
    assert err.startswith("bpe-lens-cli encode: error: BPE-dropout needs a vocabulary that encodes by ranked merges")
