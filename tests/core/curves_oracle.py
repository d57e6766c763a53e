"""The curves' test oracle: every sample by encoding every text from scratch (``Encoder(model, merges_limit=m)``),
and a comparison of two Curves row by row."""
import math

from bpe_core.analysis.curves_encoded import curves_by_encoding  # noqa: F401 (the oracle)


def assert_same_curves(got, want, tol=1e-9):
    """Same samples, groups, measures and vocabulary sizes; values equal (Rényi to ``tol``)."""
    key = lambda r: (r.merge, r.group, r.measure)  # noqa: E731
    g = {key(r): r for r in got.rows}
    w = {key(r): r for r in want.rows}
    assert sorted(g) == sorted(w), (sorted(set(g) ^ set(w)))[:10]
    for k, r in w.items():
        q = g[k]
        assert q.vocab_size == r.vocab_size, (k, q.vocab_size, r.vocab_size)
        if math.isnan(r.value):
            assert math.isnan(q.value), k
        else:
            assert abs(q.value - r.value) <= tol * max(1.0, abs(r.value)), (k, q.value, r.value)
    assert [key(r) for r in got.rows] == [key(r) for r in want.rows]
