#!/usr/bin/env bash
# Proposal (not wired into .ci/run): CI's second pass, with the optional C primitives.
#
#     bash tools/ci_compiled.sh [PYTHON]      # PYTHON: the CI venv's python (default: python)
#
# opgrad's default install is pure Python; `python tools/build_speedups.py` builds
# runtime/_speedups.c in place (under a second, with the compiler and flags Python was built
# with) and runtime/_accel.py then binds its functions in place of the Python ones
# (OPGRAD_PURE=1 turns them off again; a build older than the .c is ignored with a warning).
# The issue's rule is that both builds run the whole test suite in CI; .ci/run's `tests`
# step is the pure pass, and this script is the compiled one:
#   1. build the extension into the checkout (needs gcc and Python's headers: the CI image's
#      python3.11 has them; python3.11-dev on Debian);
#   2. check that it is the one in use, so a build that is silently ignored fails CI;
#   3. run the whole suite again (~3.5 min on 2 cores when the machine is quiet);
#   4. remove the built file (trap), so the checkout is pure again for whatever runs next.
# The wheel never contains the extension (setuptools packages the .py files and the
# package-data globs only: checked by building one with the .so present), so
# tests/test_packaging.py checks the pure install in both passes.
#
# Wiring, sequential (CI grows by one suite, ~3.5 min; today's CI is ~5 min with setup):
#   step tests-compiled bash tools/ci_compiled.sh "$bin/python"      # after `step tests tests`
# Wiring, concurrent (the suite is one process, and the runner has 2 cores): start this
# script in the background before the pure `tests` step, give that step OPGRAD_PURE=1 (the
# built file is in the same checkout while it runs), and `wait` for this one's status after.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
python=${1:-python}
trap '"$python" tools/build_speedups.py --clean' EXIT
"$python" tools/build_speedups.py
OPGRAD_PURE= "$python" -W error::RuntimeWarning -c \
    'from opgrad.runtime import _accel; assert _accel.ACTIVE, "the C primitives are not in use"'
OPGRAD_PURE= "$python" -m pytest -q -p no:cacheprovider tests/
