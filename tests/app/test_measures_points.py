"""The Measures chart's points: a line per run for a measure and a group, the nearest point in pixels, the
hover text, and the default every k."""
from __future__ import annotations

import doctest

from bpe_core.analysis.curves import CurveRow, Curves

from bpe_lens_app.features.measures import points, subjects
from bpe_lens_app.features.measures.points import hover_text, lines_of, nearest
from bpe_lens_app.features.measures.subjects import default_every


def _curves(name, values, group="all", measure="bytes_per_token", every=10):
    rows = tuple(CurveRow(i * every, 256 + i * every, group, measure, v) for i, v in enumerate(values))
    return Curves(name, every, ("eng",), rows)


def test_lines_keep_the_curves_order_and_skip_runs_without_the_measure():
    a, b = _curves("r1", [1.0, 1.5, 2.0]), _curves("r2", [0.5], measure="parity")
    lines = lines_of([a, b], "bytes_per_token", "all")
    assert [line.name for line in lines] == ["r1"]
    assert list(lines[0].merges) == [0, 10, 20] and list(lines[0].vocab_sizes) == [256, 266, 276]
    assert lines_of([a, b], "bytes_per_token", "file:eng") == []


def test_the_nearest_point_is_counted_in_pixels():
    a, b = _curves("r1", [1.0, 1.5, 2.0]), _curves("r2", [1.1, 1.2, 1.3])
    lines = lines_of([a, b], "bytes_per_token", "all")
    # one pixel is 1 merge across and 0.01 up: (9, 1.48) is 1 px from r1's merge 10, 28 px from r2's
    line, i = nearest(lines, 9, 1.48, 1.0, 0.01)
    assert (line.name, i) == ("r1", 1)
    # one pixel is 0.001 merges across: the x distance weighs most, r2's merge 20 is nearest to x = 20
    line, i = nearest(lines, 20, 1.4, 0.001, 1.0)
    assert (line.name, i) == ("r2", 2)
    assert nearest([], 0, 0, 1, 1) is None


def test_hover_text_says_merge_vocab_and_value():
    line = lines_of([_curves("r1: plain BPE (gpt2)", [1.0, 3.14159265, 1200.0])], "bytes_per_token", "all")[0]
    assert hover_text(line, 1) == "r1: plain BPE (gpt2): merge 10 (vocab 266): 3.142"
    assert hover_text(line, 2) == "r1: plain BPE (gpt2): merge 20 (vocab 276): 1,200"


def test_default_every_gives_at_most_200_points_in_round_steps():
    for reach in (0, 1, 50, 199, 200, 201, 999, 1000, 30_000, 123_456):
        k = default_every(reach)
        assert reach // k <= 200 and str(k).strip("0") in ("1", "2", "5")
        assert reach <= 200 or reach // k >= 80  # not far fewer than asked for
    assert doctest.testmod(subjects).failed == 0 and doctest.testmod(points).failed == 0


def test_a_continuation_splits_at_its_offset():
    from dataclasses import replace

    c = replace(_curves("r2: SuperBPE from merge 20", [1.0, 1.5, 2.0, 2.5]), offset=20)
    line = lines_of([c], "bytes_per_token", "all")[0]
    assert line.offset == 20 and line.split() == 3  # merges 0, 10, 20 are the parent's stretch (20 in both)
    assert lines_of([_curves("r1", [1.0, 2.0])], "bytes_per_token", "all")[0].split() == 0
