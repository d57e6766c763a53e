"""The session: the one object through which the app's panes drive training and learn what happened.

Panes call the session's commands and redraw when it emits a signal that says what happened; they never
touch the trainer. The class is in session.py; the other modules here are its helpers (the runs on
workers, the replay of known merges, what follows a silent run, the records its signals carry), and the
commands for ties and branches (branches.py) and the open vocabularies (workbench_adapter.py).
"""
