"""Settings for the whole test run.

Hypothesis draws new examples on every run on a developer's machine (that is how the corrupt-file
tests found a reader bug), but CI (``CI=true``, as .ci/run is started) draws the same examples every
time: a submission must not fail on a draw nobody can reproduce. A failure found locally is kept in
``.hypothesis/`` and should become an explicit test.
"""
import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True)
if os.environ.get("CI"):
    settings.load_profile("ci")
