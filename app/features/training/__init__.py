"""Training: the step controls, the pair chart, the history charts, the merges and words panes, the training
settings and the per-script curves dock. The main window lays these panes out; presenter mode reuses the
controls and the pair chart."""
from __future__ import annotations

from .controls import ControlsPane, RunStatus, TrainActions, bind, tool_button
from .history_chart import HistoryChart
from .merges_table import MergesTable
from .pair_chart import PairChart
from .preset_box import PresetBox
from .rule_fields import RuleFields
from .rule_runs import rule_config, run_languages, start_rule_run
from .script_curves_dock import install
from .settings_dialog import SettingsDialog
from .words_model import WORD_INDEX_ROLE
from .words_pane import WordsPane

__all__ = ["ControlsPane", "RunStatus", "TrainActions", "bind", "tool_button", "HistoryChart", "MergesTable",
           "PairChart", "PresetBox", "RuleFields", "install", "SettingsDialog", "WORD_INDEX_ROLE", "WordsPane", "rule_config",
           "run_languages",
           "start_rule_run"]
