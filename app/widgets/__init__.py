"""Reusable widgets and painting helpers: no session, no panes.

* :mod:`.chip_colors`, :mod:`.chip_text`, :mod:`.chips` — token chips: colors, texts, painting;
* :mod:`.token_view` — a wrapping row of chips (the encode pane's view);
* :mod:`.chips_table`, :mod:`.roles` — tables whose cells are rows of chips;
* :mod:`.merge_tree` — a token's merge tree;
* :mod:`.quiet` — labels, sliders, scroll bars and tables that repaint only what changed;
* :mod:`.axes` — chart axis helpers.
"""
