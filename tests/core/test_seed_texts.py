"""What the seeds' texts show, as tests (issue 10): their tie walkthroughs, seed 002's two stops
together, and seed 003's literal lowercasing order beside the corrected one.

Where no tie rule gives the printed order, the test picks the pair by hand (``Trainer.step(pair=...)``).
"""
from __future__ import annotations

from bpe_core.encoding.encoder import UNKNOWN, Encoder
from bpe_core.presets import make_config
from bpe_core.training.trainer import Trainer
from bpe_core.types import TrainerConfig
from tests.reference import seed003

#: seed 001's walkthrough sentence; its pictures split each word into characters (no spaces, no bytes)
SEED001_SENTENCE = "the lowest price is lower than the last one"
#: seed 002's example words
SEED002_WORDS = ["highest", "higher", "lower", "lowest", "cooler", "coolest"]


def pairs(t: Trainer, steps) -> list:
    return [(t.display(s.left), t.display(s.right)) for s in steps]


def top(t: Trainer) -> tuple:
    """(count, the set of pairs tied at the top count)."""
    best = t.top_pairs(50)
    n = best[0].count
    return n, {(t.display(p.left), t.display(p.right)) for p in best if p.count == n}


def walkthrough(tie_break: str) -> Trainer:
    return Trainer.from_texts([SEED001_SENTENCE], TrainerConfig(pretokenizer="whitespace", tie_break=tie_break))


# -- seed 001: th -> lo -> the ---------------------------------------------------------------------

def test_seed001_walkthrough_ties_are_the_ones_the_text_names():
    t = walkthrough("first-seen")
    assert top(t) == (3, {("t", "h")})  # "(t, h) 是目前出現次數最高的 pair"
    t.step()
    n, tied = top(t)  # "(th, e)、(l, o)、(o, w)、和 (w, e) 等 pair 具有相同且最高的出現次數"
    assert n == 2 and {("th", "e"), ("l", "o"), ("o", "w"), ("w", "e")} <= tied


def test_seed001_walkthrough_second_merge_by_the_hf_rule():
    """Hugging Face's rule (smallest ids) picks the text's (l, o) second, then not its (th, e)."""
    t = walkthrough("hf")
    steps = [t.step(), t.step()]
    assert pairs(t, steps) == [("t", "h"), ("l", "o")]
    n, tied = top(t)  # "(th, e)、(lo, w)、和 (w, e)" among the pairs tied at the top
    assert n == 2 and {("th", "e"), ("lo", "w"), ("w", "e")} <= tied
    assert pairs(t, [t.step()]) != [("th", "e")]  # no rule gives th -> lo -> the


def test_seed001_walkthrough_by_hand():
    t = walkthrough("first-seen")
    steps = [t.step()]
    for left, right in [("l", "o"), ("th", "e")]:
        steps.append(t.step(pair=(t.id_of(left), t.id_of(right))))
    assert pairs(t, steps) == [("t", "h"), ("l", "o"), ("th", "e")]
    assert t.stats.total_tokens == len("the lo w e s t p r i c e i s lo w e r th a n the l a s t o n e".split())


# -- seed 002: (e, s) first, "(e, r) would do as well" -----------------------------------------------

def seed002(tie_break: str = "first-seen", **kw) -> Trainer:
    return Trainer.from_texts([" ".join(SEED002_WORDS)], make_config("char-whitespace", tie_break=tie_break,
                                                                     vocab_size=17, **kw))


def test_seed002_printed_order_is_first_seen():
    t = seed002()
    assert pairs(t, t.run()) == [("e", "s"), ("es", "t"), ("est", "</w>"), ("e", "r"), ("er", "</w>")]


def test_seed002_first_merge_ties_with_e_r():
    """"注意这里 (e, r) 其实也有一样的出现频率，所以选 (e, r) 合并也是可以的": both count 3; the
    alphabetical and the Hugging Face rules pick (e, r)."""
    n, tied = top(seed002())
    assert n == 3 and {("e", "s"), ("e", "r")} <= tied
    for rule in ("lexicographic", "hf"):
        t = seed002(rule)
        assert pairs(t, [t.step()]) == [("e", "r")], rule


def test_seed002_e_r_first_by_hand_under_the_seed_rule():
    t = seed002()
    first = t.step(pair=(t.id_of("e"), t.id_of("r")))
    assert pairs(t, [first]) == [("e", "r")]


# -- stops combine (seed 002: vocab_size and max_iter) --------------------------------------------------

def test_vocab_size_and_merges_together_stop_at_whichever_comes_first():
    t = seed002(num_merges=3)  # vocab_size 17 would allow 5 merges
    assert len(t.run()) == 3 and t.stop_reason == "merges"
    t = seed002(num_merges=9)
    assert len(t.run()) == 5 and t.stop_reason == "vocab_size"


# -- seed 003: the course's literal order beside the corrected one ---------------------------------------

def course(preset: str) -> Trainer:
    t = Trainer.from_texts(list(seed003.CORPUS), make_config(preset, vocab_size=50))
    t.run()
    return t


def test_course_literal_order_shows_the_lowercased_space():
    literal, fixed = course("hf-course-literal"), course("hf-course")
    assert pairs(literal, literal.history[:2]) == [("ġ", "t"), ("ġt", "o")]
    assert pairs(fixed, fixed.history[:2]) == [("Ġ", "t"), ("Ġt", "o")]
    enc = Encoder(literal.model()).encode("This is a token.")
    assert [x.raw for x in enc.tokens][:4] == ["T", "h", "is", "Ġ"] and enc.tokens[3].id == UNKNOWN
    assert (enc.tokens[3].start, enc.tokens[3].end) == (4, 5)  # the glyph's span is the space it stands for


def test_course_literal_order_matches_the_seed_on_accents():
    """str.lower on glyph strings changes bytes too: 'Ã' (0xC3) becomes 'ã', 'Ń' (0xAD) becomes 'ń'."""
    texts = ["Ísland í Árósum, İstanbul naïve", "ÉTÉ été Ísland"]
    ref = seed003.train(texts, vocab_size=60, literal=True)
    t = Trainer.from_texts(texts, make_config("hf-course-literal", vocab_size=60))
    steps = t.run()
    assert [(t.display(s.left), t.display(s.right), s.count) for s in steps] == ref["merges"]
    assert [t.display(i) for i in range(t.initial_vocab_size)] + [t.display(s.new_id) for s in steps] == ref["vocab"]


def test_lowercase_words_wraps_any_pretokenizer():
    """``lowercase_words`` lowercases each word after splitting; encoding follows unless told otherwise."""
    from bpe_core.pretokenize.pretokenizers import get_pretokenizer

    pre = get_pretokenizer(TrainerConfig(pretokenizer="gpt2-glyphs", lowercase_words=True))
    assert pre.words("The End") == ["the", "ġend"]
    assert [(p.text, p.start, p.end) for p in pre.pieces("The End")] == [("the", 0, 3), ("ġend", 3, 7)]
    # 'Ď' is C4 8E: glyphs 'Ä' 'İ', and 'İ'.lower() is two characters: the glyph alignment is dropped
    (piece,) = pre.pieces("Ď")
    assert piece.text == "äi̇" and "align" not in piece.meta
    assert get_pretokenizer(TrainerConfig(pretokenizer="gpt2-glyphs", lowercase_words=True,
                                          lowercase_encode=False)).pieces("The")[0].text == "The"
    t = Trainer.from_texts(["Low LOW low"], TrainerConfig(pretokenizer="whitespace", lowercase_words=True))
    assert t.words == ["low"] and t.freqs == [3]
