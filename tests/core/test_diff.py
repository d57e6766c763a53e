"""The vocabulary diff (bpe_core/analysis/diff.py) and ``python -m bpe_core diff``.

Expected numbers come from an independent computation: ``tokenizers``' own vocabularies
(``get_vocab`` and its added tokens), ``tiktoken``'s byte tokens, the files' merge lists read as JSON,
and token boundaries from ``tokenizers``/``tiktoken`` encodings — never from the diff itself.
"""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from bpe_core.analysis.diff import diff_models, differing_spans, first_divergent_merge, raw_bytes
from bpe_core.cli.commands import main
from bpe_core.model import BPEModel
from tests.core.paths import need
from tests.reference import from_glyphs

GPT2 = "gpt2/tokenizer.json"
NEOX = "gpt-neox-20b/20B_tokenizer.json"
R50K = "tiktoken_ranks/r50k_base.tiktoken"
TEXT = "Hello world,    indented code\n\tdef foo():  return 1"


# -- independent references -------------------------------------------------------------------
def hf_byte_tokens(path) -> set:
    """The non-special tokens of a byte-level tokenizer.json as bytes, from ``tokenizers`` itself."""
    from tokenizers import Tokenizer
    tok = Tokenizer.from_file(str(path))
    added = tok.get_added_tokens_decoder()
    out = set()
    for text, tid in tok.get_vocab(with_added_tokens=True).items():
        if tid in added:
            if not added[tid].special:
                out.add(added[tid].content.encode("utf-8"))  # added tokens are plain text
        else:
            out.add(from_glyphs(text))
    return out


def tiktoken_byte_tokens(path) -> set:
    from tiktoken.load import load_tiktoken_bpe
    return set(load_tiktoken_bpe(str(path)))


def json_merges(path) -> list:
    merges = json.loads(path.read_text("utf-8"))["model"]["merges"]
    return [tuple(m.split(" ")) if isinstance(m, str) else tuple(m) for m in merges]


def hf_cuts(path, text: str) -> set:
    """Token boundaries (character offsets; ASCII text) from tokenizers' own tokens."""
    from tokenizers import Tokenizer
    tok = Tokenizer.from_file(str(path))
    cuts, pos = {0}, 0
    for t, tid in zip(tok.encode(text).tokens, tok.encode(text).ids):
        content = tok.id_to_token(tid)
        added = tok.get_added_tokens_decoder().get(tid)
        pos += len(added.content) if added is not None else len(from_glyphs(content))
        cuts.add(pos)
    return cuts


def naive_differing(cuts_a: set, cuts_b: set, length: int) -> list:
    """Reference: walk every position; a run between two common cuts differs when either side cuts inside."""
    common = sorted((cuts_a & cuts_b) | {0, length})
    return [(s, e) for s, e in zip(common, common[1:])
            if any(p in cuts_a or p in cuts_b for p in range(s + 1, e))]


# -- real vocabularies ------------------------------------------------------------------------
def test_gpt2_and_r50k_are_identical():
    from bpe_core.formats.detect import open_vocabulary
    g, r = need(GPT2), need(R50K)
    d = diff_models(open_vocabulary(g), open_vocabulary(r))
    expected = hf_byte_tokens(g)
    assert expected == tiktoken_byte_tokens(r)  # the premise, checked by the libraries themselves
    assert d.first_divergent_merge is None
    assert (d.shared_tokens, d.only_a, d.only_b) == (len(expected), 0, 0)


def test_gpt2_and_neox_counts_and_first_divergent_merge():
    from bpe_core.formats.detect import open_vocabulary
    g, n = need(GPT2), need(NEOX)
    d = diff_models(open_vocabulary(g), open_vocabulary(n))
    tg, tn = hf_byte_tokens(g), hf_byte_tokens(n)
    assert (d.shared_tokens, d.only_a, d.only_b) == (len(tg & tn), len(tg - tn), len(tn - tg))
    mg, mn = json_merges(g), json_merges(n)
    expected = next(k for k, (x, y) in enumerate(zip(mg, mn)) if x != y)
    assert d.first_divergent_merge == expected
    assert set(d.only_a_tokens()) == tg - tn and set(d.only_b_tokens()) == tn - tg
    assert d.a.specials == ("<|endoftext|>",) and d.b.specials == ("<|endoftext|>", "<|padding|>")
    # ranks side by side: a shared token's 0-based rank is where its merge stands in each file
    row = d.shared_rank(b" Lincoln")
    assert mg[row.rank_a] == ("ĠL", "incoln") and mn[row.rank_b] == ("ĠL", "incoln")
    ta, tb = d.trees(b" Lincoln")
    assert ta.rank == row.rank_a + 1 and tb.rank == row.rank_b + 1  # lineage counts merges from 1


def test_text_spans_where_gpt2_and_neox_cut_differently():
    from bpe_core.analysis.diff import compare_text
    from bpe_core.formats.detect import open_vocabulary
    g, n = need(GPT2), need(NEOX)
    td, ea, eb = compare_text(open_vocabulary(g), open_vocabulary(n), TEXT)
    expected = naive_differing(hf_cuts(g, TEXT), hf_cuts(n, TEXT), len(TEXT))
    assert expected and list(td.differing) == expected
    assert TEXT[expected[0][0]:expected[0][1]] == "    ind"  # both cut "ind|ented"; only the spaces differ


# -- small cases ------------------------------------------------------------------------------
def test_glyph_char_and_byte_tokens_compare_by_bytes():
    a = BPEModel(unit="chars", tokens=["<s>", "é", "a", "éa"], merges=[(1, 2)], specials={"<s>": 0})
    b = BPEModel(unit="bytes", tokens=[b"\xc3", b"\xa9", b"a", b"\xc3\xa9", b"\xc3\xa9a"],
                 merges=[(0, 1), (3, 2)])
    d = diff_models(a, b)
    assert d.shared == {b"\xc3\xa9", b"a", b"\xc3\xa9a"}
    assert (d.only_a, d.only_b) == (0, 2) and d.a.specials == ("<s>",)
    # merges compare as byte pairs: A's (é, a) is B's second merge, so they part at rank 0
    assert d.first_divergent_merge == 0
    assert raw_bytes("é") == b"\xc3\xa9"


def test_first_divergent_merge_prefix_and_equal():
    ab, abc = (b"a", b"b"), (b"ab", b"c")
    assert first_divergent_merge([ab, abc], [ab, abc]) is None
    assert first_divergent_merge([ab], [ab, abc]) == 1
    assert first_divergent_merge([], [ab]) == 0
    assert first_divergent_merge([ab, abc], [ab, (b"c", b"d")]) == 1


def test_differing_spans_match_naive_reference():
    import random
    rng = random.Random(5)
    for _ in range(300):
        n = rng.randint(1, 30)
        cuts = [{0, n} | {p for p in range(1, n) if rng.random() < 0.4} for _ in range(2)]
        spans = [[(s, e) for s, e in zip(sorted(c), sorted(c)[1:])] for c in cuts]
        assert differing_spans(spans[0], spans[1], n) == naive_differing(cuts[0], cuts[1], n)


# -- the command ----------------------------------------------------------------------------------
def test_cli_json_gpt2_vs_neox(capsys):
    g, n = need(GPT2), need(NEOX)
    assert main(["diff", str(g), str(n), "--json", "--text", TEXT, "--token", "ĠLincoln", "--examples", "3"]) == 0
    rep = json.loads(capsys.readouterr().out)
    tg, tn = hf_byte_tokens(g), hf_byte_tokens(n)
    assert rep["first_divergent_merge"] == 0
    assert (rep["shared_tokens"], rep["only_a"], rep["only_b"]) == (len(tg & tn), len(tg - tn), len(tn - tg))
    assert len(rep["examples"]["only_a"]) == 3 and rep["examples"]["merges_from_divergence"][0]["rank"] == 0
    assert [s["text"] for s in rep["text"]["differing_spans"]][0] == "    ind"  # both cut "ind|ented"; only the spaces differ
    assert rep["tree"]["a"].startswith("ĠLincoln") and rep["tree"]["b"].startswith("ĠLincoln")


def test_cli_gpt2_vs_r50k_as_a_process():
    g, r = need(GPT2), need(R50K)
    out = subprocess.run([sys.executable, "-m", "bpe_core", "diff", str(g), str(r), "--json"],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    rep = json.loads(out.stdout)
    assert rep["first_divergent_merge"] is None and rep["only_a"] == 0 and rep["only_b"] == 0
    assert rep["shared_tokens"] == len(tiktoken_byte_tokens(r))


def test_cli_errors_are_one_line(tmp_path, capsys):
    assert main(["diff", str(tmp_path / "missing.json"), str(tmp_path / "x.json")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("bpe-lens-cli diff: error:") and err.count("\n") == 1


@pytest.mark.parametrize("token", ["nope-not-a-token-xyz"])
def test_cli_unknown_token(token, capsys):
    g = need(GPT2)
    assert main(["diff", str(g), str(g), "--token", token]) == 2
    assert "neither vocabulary" in capsys.readouterr().err


def test_byte_tokens_inside_one_character_differ():
    """'é' is two bytes: one token on one side, two on the other; both span the same character."""
    from bpe_core import Trainer, make_config
    from bpe_core.analysis.diff import compare_text
    one = Trainer.from_texts(["é " * 50], make_config("hf-course", num_merges=1))
    one.run()
    none = Trainer.from_texts(["é " * 50], make_config("hf-course", num_merges=0))
    td, ea, eb = compare_text(one.model(), none.model(), "aé")
    assert (len(ea), len(eb)) == (2, 3)
    assert list(td.differing) == [(1, 2)]
