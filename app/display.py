"""Whether the GUI can reach a display, said in one line before Qt would abort.

Without a display Qt aborts the process (exit 134) with a message about a missing ``xcb-cursor0``
library that sends users looking in the wrong place (../shared/FACTS.md). ``bpe-lens`` asks
:func:`missing_display` first and prints its one line instead; ``bpe-lens --info`` also starts Qt in a
child process to be sure.
"""
from __future__ import annotations

import os
import re
from typing import Mapping, Optional

NO_DISPLAY = "run it under 'xvfb-run -a bpe-lens', or set QT_QPA_PLATFORM=offscreen to run without a window"


def missing_display(env: Optional[Mapping[str, str]] = None, x11_sockets: str = "/tmp/.X11-unix") -> str:
    """'' when a display looks reachable, else why not (one line, with what to do).

    >>> missing_display({"QT_QPA_PLATFORM": "offscreen"})
    ''
    >>> missing_display({}).startswith("no display")
    True
    """
    env = os.environ if env is None else env
    if env.get("QT_QPA_PLATFORM") or env.get("WAYLAND_DISPLAY"):
        return ""
    display = env.get("DISPLAY", "")
    if not display:
        return f"no display (DISPLAY and WAYLAND_DISPLAY are not set): {NO_DISPLAY}"
    local = re.fullmatch(r"(?:unix)?:(\d+)(?:\.\d+)?", display)
    if local and not os.path.exists(os.path.join(x11_sockets, f"X{local.group(1)}")):
        return f"no X server answers on DISPLAY={display}: {NO_DISPLAY}"
    return ""
