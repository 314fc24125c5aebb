"""Hypothesis profiles for the property-based tests (those marked `fuzz`).

`HYPOTHESIS_PROFILE` picks one:
- `ci` (the default): few examples per test, derandomized so every run tries the same cases
  and a failure reproduces; the whole fuzz suite stays well inside the CI budget.
- `long`: many examples, random each run; `nox -s fuzz` uses it.
Neither has a deadline: a case's time depends on the machine's load, not on the code.
"""

from __future__ import annotations

import os
import sys

from hypothesis import HealthCheck, settings

_SLOW_OK = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]

settings.register_profile(
    "ci", max_examples=8, deadline=None, derandomize=True, suppress_health_check=_SLOW_OK
)
settings.register_profile(
    "long", max_examples=400, deadline=None, suppress_health_check=_SLOW_OK, print_blob=True
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    """The op fuzzer's counts (cases tried, clean errors, matches, known failures), when it ran."""
    module = sys.modules.get("test_op_properties")
    if module is None or not module.COUNTS:
        return
    counts = module.COUNTS
    terminalreporter.section("op property fuzzing")
    for key in ("cases", "clean-error", "match", "accepted", "known-failure", "unexpected"):
        terminalreporter.write_line(f"{key:>14}: {counts.get(key, 0)}")
    for line, n in sorted(module.KNOWN_SEEN.items()):
        terminalreporter.write_line(f"  known {n:5d}  {line}")
