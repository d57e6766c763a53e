"""``python -m bpe_core animate`` and ``svg``: pictures for slides, headless (no Qt, no display).

``animate`` trains on CORPUS to merge N, then steps to M drawing one frame per merge (banner, next
pairs, the chosen words' chips, the encoded text) and writes an animated GIF, an APNG (``.png``) or,
when imageio-ffmpeg is installed, an MP4. ``svg`` draws a word's segmentation strip (one row per
merge that changed it) or a token's merge tree, from a corpus trained to M merges or from a
vocabulary file.
"""
from __future__ import annotations

import argparse
import sys
from typing import Callable, Dict

from bpe_core.cli.progress import ProgressBar
from bpe_core.cli.streams import STDIO, mark_input, mark_output, output_name
from bpe_core.types import BPELensError, Progress

ANIMATE_EXAMPLES = """examples:
  python -m bpe_core animate novel.txt --preset gpt2 --merges 0..30 --words the,Elizabeth -o talk.gif
  python -m bpe_core animate novel.txt --preset char-whitespace --merges 100..160 --words lower,newest \\
      --text 'The lowest tower' --fps 4 -o talk.png          # .png: an animated PNG (APNG)
  python -m bpe_core animate sanguo.txt --preset cjk-mixed --merges 0..40 --words 曹操,孔明 -o sanguo.gif
"""
SVG_EXAMPLES = """examples:
  python -m bpe_core svg novel.txt --preset gpt2 --merges 300 --word Elizabeth -o strip.svg
  python -m bpe_core svg novel.txt --preset gpt2 --merges 300 --tree ' the' -o tree.svg
  python -m bpe_core svg gpt2/tokenizer.json --tree ' Lincoln' -o lincoln.svg   # a vocabulary file
  python -m bpe_core svg gpt2/tokenizer.json --word Lincoln -o lincoln-chips.svg
"""


def register(sub: argparse._SubParsersAction) -> None:
    from bpe_core.presets import PRESETS
    raw = argparse.RawDescriptionHelpFormatter
    p = sub.add_parser("animate", help="an animated GIF/APNG of merges N..M for slides", formatter_class=raw,
                       epilog=ANIMATE_EXAMPLES, description=(
                           "Train on CORPUS to merge N, then step to merge M, one frame per merge: the merge's "
                           "banner, the next pairs as bars (the next merge highlighted), the chosen words as "
                           "chips and --text encoded. The file type follows -o: .gif, .png (APNG), .mp4 (needs "
                           "imageio-ffmpeg). Needs Pillow: pip install bpe-lens[export]."))
    mark_input(p.add_argument("corpus", metavar="CORPUS", help="text file (UTF-8; .gz/.bz2/.xz read "
                                                               "transparently; - reads standard input)"))
    p.add_argument("--preset", required=True, choices=list(PRESETS), metavar="NAME",
                   help="training preset: " + ", ".join(PRESETS))
    p.add_argument("--merges", required=True, metavar="N..M", help="first and last merge shown, e.g. 0..30")
    p.add_argument("--words", default="", metavar="W1,W2", help="comma-separated words to show as chips")
    p.add_argument("--text", default="", help="text encoded at every frame (the encode pane)")
    p.add_argument("--fps", type=float, default=2.0, help="frames per second (default 2; the last frame stays 2 s)")
    p.add_argument("--top", type=int, default=10, help="pairs in the chart (default 10)")
    p.add_argument("--scale", type=int, default=1, choices=(1, 2), help="2 for high-DPI slides (2560x1440)")
    mark_output(p.add_argument("-o", "--output", required=True,
                               help="talk.gif, talk.png (APNG) or talk.mp4; - writes a GIF to standard output "
                                    "(not to a terminal)"))
    p.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")
    p.set_defaults(func=run_animate)

    p = sub.add_parser("svg", help="SVG of a word's segmentation strip or a token's merge tree", formatter_class=raw,
                       epilog=SVG_EXAMPLES, description=(
                           "SOURCE is a corpus (with --preset and --merges: trained that far) or a vocabulary "
                           "file (any format BPE Lens reads). --word draws the word's segmentation: from a corpus, "
                           "one row per merge that changed it; from a vocabulary, its final tokens. --tree draws "
                           "a token's merge tree (its text, GPT-2 glyphs, or #id)."))
    mark_input(p.add_argument("source", metavar="SOURCE", help="corpus text file (with --preset) or vocabulary "
                                                               "file; - reads standard input"))
    what = p.add_mutually_exclusive_group(required=True)
    what.add_argument("--word", help="draw this word's segmentation strip")
    what.add_argument("--tree", metavar="TOKEN", help="draw this token's merge tree")
    p.add_argument("--preset", choices=list(PRESETS), metavar="NAME", help="train SOURCE with this preset")
    p.add_argument("--merges", type=int, metavar="M", help="merges to train (with --preset)")
    p.add_argument("--pattern", help="split regex for a .tiktoken file with an unknown name")
    mark_output(p.add_argument("-o", "--output", required=True, help="the .svg file to write (- for standard "
                                                                     "output)"))
    p.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")
    p.set_defaults(func=run_svg)


class _Phases:
    """One progress bar per phase (counting, frames, drawing): a Progress callback over several units."""

    def __init__(self, quiet: bool) -> None:
        self.quiet = quiet
        self.bars: Dict[str, ProgressBar] = {}
        self.labels = {"frames": "capturing frames", "drawn": "drawing"}

    def __call__(self, progress: Progress) -> None:
        if self.quiet:
            return
        bar = self.bars.get(progress.unit)
        if bar is None:
            for old in self.bars.values():
                old.close()
            bar = self.bars[progress.unit] = ProgressBar(self.labels.get(progress.unit, "counting words"))
        bar(progress)

    def close(self) -> None:
        for bar in self.bars.values():
            bar.close()


def run_animate(args: argparse.Namespace) -> int:
    from bpe_core.presets import make_config
    from bpe_core.render.animation import animate_corpus
    from bpe_core.render.draw import Style
    from bpe_core.render.frames import parse_range

    first, last = parse_range(args.merges)
    if args.top < 1:
        raise BPELensError("--top must be at least 1")
    words = [w.strip() for w in args.words.split(",") if w.strip()]
    from bpe_core.formats.outputs import check_output
    # the corpus, also through a link, is never replaced; a GIF is no text for a terminal
    check_output(args.output, inputs=[args.corpus], binary="a GIF" if args.output == STDIO else None)
    phases = _Phases(args.quiet)
    try:
        frames = animate_corpus(args.corpus, make_config(args.preset), first, last, args.output, words=words,
                                text=args.text, fps=args.fps, top=args.top, style=Style(scale=args.scale),
                                progress=phases)
    finally:
        phases.close()
    missing = [r.word for r in frames[0].words if r.freq == 0] if frames else []
    if missing:
        print(f"note: not in the corpus, segmented by the model: {', '.join(missing)}", file=sys.stderr)
    if frames and frames[-1].merge < last:
        print(f"note: training stopped at merge {frames[-1].merge}", file=sys.stderr)
    print(f"wrote {output_name(args.output)}: {len(frames)} frames (merges {frames[0].merge}..{frames[-1].merge})",
          file=sys.stderr)
    return 0


def run_svg(args: argparse.Namespace) -> int:
    from bpe_core.formats.atomic import atomic_write_text
    from bpe_core.formats.outputs import check_output, vocabulary_inputs

    if args.output != STDIO and not args.output.lower().endswith(".svg"):
        raise BPELensError(f"{args.output}: the output must be a .svg file")
    check_output(args.output, inputs=vocabulary_inputs(args.source))
    if args.preset:
        svg = _svg_from_corpus(args)
    else:
        if args.merges is not None:
            raise BPELensError("--merges needs --preset (SOURCE is then a corpus to train)")
        svg = _svg_from_vocabulary(args)
    atomic_write_text(args.output, svg)
    print(f"wrote {output_name(args.output)}", file=sys.stderr)
    return 0


def _svg_from_corpus(args: argparse.Namespace) -> str:
    from bpe_core.presets import make_config
    from bpe_core.render import svg
    from bpe_core.render.frames import find_word
    from bpe_core.training.timeline import Timeline
    from bpe_core.training.trainer import Trainer

    if args.merges is None or args.merges < 0:
        raise BPELensError("with --preset, give --merges M (how far to train, 0 or more)")
    phases = _Phases(args.quiet)
    try:
        timeline = Timeline(Trainer.from_corpus(args.source, make_config(args.preset), progress=phases))
    finally:
        phases.close()
    timeline.seek(args.merges)
    text = _chip_text(timeline.token)
    if args.tree is not None:
        from bpe_core.analysis.lineage import merge_tree, token_id_of
        model = timeline.model()
        return svg.merge_tree_svg(merge_tree(model, token_id_of(model, args.tree)), text)
    i = find_word({w: k for k, w in enumerate(timeline.words)}, timeline.trainer.freqs, args.word)
    if i is None:
        raise BPELensError(f"{args.word!r} is not a word of this corpus (as the preset splits it)")
    unit = "bytes" if timeline.config.unit == "bytes" else "characters"
    return svg.word_strip_svg(args.word, svg.strip_rows(timeline.word_history(i), text, unit=unit))


def _svg_from_vocabulary(args: argparse.Namespace) -> str:
    from bpe_core.formats.detect import open_vocabulary
    from bpe_core.render import svg
    from bpe_core.render.frames import Chip

    model = open_vocabulary(args.source, pattern=args.pattern)
    text = _chip_text(lambda tid: model.tokens[tid])
    if args.tree is not None:
        from bpe_core.analysis.lineage import merge_tree, token_id_of
        return svg.merge_tree_svg(merge_tree(model, token_id_of(model, args.tree)), text)
    from bpe_core.encoding.encoder import Encoder
    tokens = Encoder(model).encode(args.word).tokens
    row = svg.StripRow(f"encoded ({len(tokens)} tokens)", tuple(Chip(text(t.id) if t.id >= 0 else t.display, t.id)
                                                                 for t in tokens))
    return svg.word_strip_svg(args.word, [row])


def _chip_text(token: Callable[[int], object]) -> Callable[[int], str]:
    """Token id -> what its chip reads (decoded text, whitespace visible), as in the frames."""
    from bpe_core.render.labels import chip_text
    return lambda tid: chip_text(token(tid), mode="text")[0]
