"""The slide renderer (bpe_core/render) and ``python -m bpe_core animate | svg``, headless.

What a frame says is checked on the texts the renderer drew (Canvas.texts), against merges taken by a
separate Trainer in the test; CJK glyphs are checked against the font's missing-glyph box.
"""
from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from bpe_core.presets import make_config
from bpe_core.render import fonts
from bpe_core.render.animation import animate_corpus, animation_format, have_mp4
from bpe_core.render.draw import BAR_HEX, NEXT_HEX, Style, draw_frame
from bpe_core.render.frames import capture_frames
from bpe_core.render.palette import TEXT_HEX
from bpe_core.resources import default_corpus
from bpe_core.training.trainer import Trainer
from bpe_core.types import BPELensError

from .paths import need

Image = pytest.importorskip("PIL.Image")
ImageSequence = pytest.importorskip("PIL.ImageSequence")
REPO = Path(__file__).resolve().parents[2]
SVG = "{http://www.w3.org/2000/svg}"


def cli(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bpe_core", *map(str, args)], cwd=REPO,
                          capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    """The first 60 kB of the default corpus (Pride and Prejudice): real text, quick to count."""
    path = tmp_path_factory.mktemp("render") / "austen.txt"
    path.write_text(default_corpus().read_text(encoding="utf-8")[:60_000], encoding="utf-8")
    return path


def _said(raw) -> str:
    """How the test expects a token quoted in the banner: its decoded text, whitespace as is."""
    return raw.decode("utf-8") if isinstance(raw, bytes) else raw


def test_gif_has_one_frame_per_merge_with_its_size_and_durations(corpus, tmp_path):
    out = tmp_path / "talk.gif"
    frames = animate_corpus(str(corpus), make_config("gpt2"), 3, 9, str(out), words=["the", "Elizabeth"],
                            text="It is a truth universally acknowledged.", fps=4)
    assert [f.merge for f in frames] == list(range(3, 10))
    with Image.open(out) as im:
        assert im.format == "GIF" and im.n_frames == 7 and im.size == (1280, 720)
        assert im.info.get("loop") == 0
        durations = [f.info["duration"] for f in ImageSequence.Iterator(im)]
        im.seek(3)
        colors = {rgb for _, rgb in im.convert("RGB").getcolors(1 << 16)}
    assert durations == [250] * 6 + [2000]  # 1/fps each, the last one held
    # one palette keeps the drawing's own colors exact (no off-white background, no shifting chips)
    assert {_rgb(c) for c in ("#ffffff", NEXT_HEX, BAR_HEX, TEXT_HEX)} <= colors


def test_apng_and_scale_2(corpus, tmp_path):
    out = tmp_path / "talk.png"
    animate_corpus(str(corpus), make_config("char-whitespace"), 0, 4, str(out), words=["the"],
                   style=Style(scale=2), fps=2)
    with Image.open(out) as im:
        assert im.format == "PNG" and getattr(im, "is_animated", False)
        assert im.n_frames == 5 and im.size == (2560, 1440)


def test_each_frame_draws_its_merge_banner_and_the_next_pairs(corpus):
    """Frame k's banner is merge k's (taken by a separate trainer here); the first bar is merge k+1."""
    cfg = make_config("gpt2")
    reference = Trainer.from_corpus(str(corpus), cfg)
    steps = [reference.step() for _ in range(12)]
    frames = capture_frames(Trainer.from_corpus(str(corpus), cfg), 2, 11, words=["the"])
    assert len(frames) == 10
    for frame in frames:
        canvas = draw_frame(frame)
        st = steps[frame.merge - 1]
        expected = (f"merge {st.rank}: '{_said(st.left_token)}' + '{_said(st.right_token)}' → "
                    f"'{_said(st.new_token)}' (count {st.count:,})")
        assert canvas.texts_of("banner") == [expected]
        nxt = steps[frame.merge]
        first = canvas.texts_of("pair")[0]
        left, right = (_said(t).replace(" ", "·") for t in (nxt.left_token, nxt.right_token))
        assert first == f"{left} + {right}"
        assert canvas.texts_of("count")[0] == f"{nxt.count:,}"
        # the next merge's bar is drawn in the accent, the others are not; and they are painted
        assert [fill for _, fill in canvas.bars] == [NEXT_HEX] + [BAR_HEX] * (len(frame.pairs) - 1)
        for (x0, y0, x1, y1), fill in canvas.bars:
            assert canvas.image.getpixel((int(x0) + 1, int((y0 + y1) / 2))) == _rgb(fill)
        assert [b[0][2] - b[0][0] for b in canvas.bars] == sorted((b[0][2] - b[0][0] for b in canvas.bars),
                                                                  reverse=True)


def _rgb(hex_color: str):
    return tuple(int(hex_color[i:i + 2], 16) for i in (1, 3, 5))


def test_words_show_their_segmentation_and_the_new_token(corpus):
    t = Trainer.from_corpus(str(corpus), make_config("char-whitespace"))
    frames = capture_frames(t, 0, 40, words=["the", "zzzz-not-a-word"], text="the end")
    last = frames[-1]
    the, missing = last.words
    assert the.freq > 0 and missing.freq == 0
    word_index = t.words.index("the")
    assert tuple(c.id for c in the.chips) == t.segmentation(word_index)
    assert "".join(c.text for c in the.chips).startswith("the")
    drawn = draw_frame(last)
    assert drawn.texts_of("word")[0].startswith("the (") and drawn.texts_of("word")[1] == "zzzz-not-a-word"
    assert [c.text for c in last.encoded] == drawn.texts_of("encoded")[: len(last.encoded)]


def _mask(font, ch: str) -> bytes:
    im = Image.new("L", (80, 80), 0)
    from PIL import ImageDraw
    ImageDraw.Draw(im).text((8, 8), ch, font=font, fill=255)
    return im.tobytes()


def test_chinese_renders_with_a_cjk_font_not_tofu():
    if fonts.font_file("cjk") is None:
        pytest.skip("no CJK font installed (fonts-wqy-microhei)")
    cjk = fonts.font_for("孔明", 48)
    assert cjk.path == fonts.font_file("cjk")
    box = _mask(cjk, "\uffff")  # a code point no font has: the font's missing-glyph box
    for ch in "孔明曹操":
        assert _mask(cjk, ch) != box and any(_mask(cjk, ch))
    latin = fonts.font_for("Elizabeth", 48)
    assert _mask(latin, "孔") == _mask(latin, "\uffff")  # the check does see tofu in a Latin-only font
    assert _mask(latin, "E") != _mask(latin, "\uffff")


def test_chinese_frame_draws_with_the_cjk_font(tmp_path):
    path = need("chinese/sanguo_yanyi.txt")
    small = tmp_path / "sanguo.txt"
    small.write_text(path.read_text(encoding="utf-8")[:40_000], encoding="utf-8")
    t = Trainer.from_corpus(str(small), make_config("cjk-mixed"))
    frame = capture_frames(t, 3, 3, words=["孔明"], text="孔明曰")[0]
    canvas = draw_frame(frame)
    assert any("孔" in s for s in canvas.texts_of("chip") + canvas.texts_of("encoded"))
    if fonts.font_file("cjk"):
        assert canvas.font(canvas.texts_of("banner")[0], 32).path == fonts.font_file("cjk")


def test_cli_animate_headless(corpus, tmp_path):
    out = tmp_path / "talk.gif"
    p = cli("animate", corpus, "--preset", "gpt2", "--merges", "0..5", "--words", "the,Darcy", "-o", out, "-q")
    assert p.returncode == 0, p.stderr
    assert "6 frames" in p.stderr and p.stdout == ""  # issue 25: "wrote X" is status: stderr, stdout holds data
    with Image.open(out) as im:
        assert im.n_frames == 6


@pytest.mark.parametrize("args, message", [
    (("--merges", "5..2"), "N <= M"),
    (("--merges", "a..b"), "two whole numbers"),
    (("--merges", "0..2", "-o", "talk.jpg"), ".gif, .png"),
])
def test_cli_animate_errors_are_one_line(corpus, tmp_path, args, message):
    if "-o" not in args:
        args = args + ("-o", str(tmp_path / "x.gif"))
    p = cli("animate", corpus, "--preset", "gpt2", *args)
    assert p.returncode == 2 and message in p.stderr and "Traceback" not in p.stderr
    assert len(p.stderr.strip().splitlines()) == 1


def test_mp4_only_with_imageio_ffmpeg():
    if have_mp4():
        assert animation_format("talk.mp4") == "mp4"
    else:
        with pytest.raises(BPELensError, match="imageio-ffmpeg"):
            animation_format("talk.mp4")


def test_missing_pillow_names_the_extra():
    code = ("import sys; sys.modules['PIL'] = None\n"
            "from bpe_core.render import require_pillow\n"
            "from bpe_core.types import BPELensError\n"
            "try:\n    require_pillow()\nexcept BPELensError as e:\n    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "pip install bpe-lens[export]" in out


def _svg_texts(path: Path):
    root = ET.parse(path).getroot()
    assert root.tag == SVG + "svg"
    return [t.text for t in root.iter(SVG + "text")]


def test_svg_word_strip_from_a_corpus(corpus, tmp_path):
    out = tmp_path / "strip.svg"
    p = cli("svg", corpus, "--preset", "char-whitespace", "--merges", "60", "--word", "the", "-o", out, "-q")
    assert p.returncode == 0, p.stderr
    texts = _svg_texts(out)
    t = Trainer.from_corpus(str(corpus), make_config("char-whitespace"))
    t.run(merges=60)
    i = t.words.index("the")
    final = [t.token(x) for x in t.segmentation(i)]
    assert texts[-len(final):] == final  # the last row is the word now
    assert texts[0].startswith("start") and all(s.startswith("merge ") for s in texts if s and s[0] == "m")
    labels = [s for s in texts if s.startswith("merge ")]
    assert len(labels) >= 1 and len(labels) == len(set(labels))


def test_svg_merge_tree_of_a_gpt2_token(tmp_path):
    out = tmp_path / "tree.svg"
    p = cli("svg", need("gpt2/tokenizer.json"), "--tree", " Lincoln", "-o", out)
    assert p.returncode == 0, p.stderr
    texts = _svg_texts(out)
    assert "·Lincoln" in texts and {"·", "L", "i", "n", "c", "o", "l"} <= set(texts)
    assert any(s.startswith("merge ") for s in texts)
