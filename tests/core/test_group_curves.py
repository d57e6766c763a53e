"""Per-script curves kept incrementally (issue 11) equal a recount from the segmentations at every merge."""
from __future__ import annotations

from pathlib import Path

from bpe_core.analysis.group_curves import GroupCurves
from bpe_core.analysis.scripts import words_scripts
from bpe_core.presets import make_config
from bpe_core.training.timeline import Timeline

from .paths import need


def recount(tl: Timeline, wanted) -> tuple:
    """Tokens per word per script from scratch; scripts decided by code point ranges here."""
    def script(w: str):
        if any("\u4e00" <= c <= "\u9fff" for c in w):
            return "Han"
        if any("a" <= c.lower() <= "z" for c in w):
            return "Latin"
        return None
    words, tokens = {}, {}
    for i, (w, f) in enumerate(zip(tl.words, tl.freqs)):
        g = script(w)
        words[g] = words.get(g, 0) + f
        tokens[g] = tokens.get(g, 0) + f * len(tl.segmentation(i))
    return tuple(tokens[g] / words[g] for g in wanted)


def test_incremental_equals_recount_each_merge_and_after_undo(tmp_path: Path) -> None:
    zh = need("chinese/sanguo_yanyi.txt").read_text(encoding="utf-8").splitlines(keepends=True)[:30]
    en = need("tinyshakespeare.txt").read_text(encoding="utf-8").splitlines(keepends=True)[:300]
    corpus = tmp_path / "mixed.txt"
    corpus.write_text("".join(zh + en), encoding="utf-8")
    tl = Timeline.from_corpus(str(corpus), make_config("gpt2"))
    n = len(tl.words)
    curves = GroupCurves(words_scripts(tl.words), freqs=tl.freqs, lengths=[len(tl.segmentation(i)) for i in range(n)])
    assert set(curves.groups) == {"Latin", "Han"}
    assert curves.values() == recount(tl, curves.groups)
    for _ in range(150):
        (step,) = tl.step(1)
        curves.update({i: len(tl.segmentation(i)) for i in step.changed_words}, merge=tl.merge_count)
        assert curves.values() == recount(tl, curves.groups)
    steps = tl.undo(40)
    changed = {i for s in steps for i in s.changed_words}
    curves.update({i: len(tl.segmentation(i)) for i in changed}, merge=tl.merge_count)
    assert curves.values() == recount(tl, curves.groups)
    assert [m for m, _ in curves.points] == list(range(111))
