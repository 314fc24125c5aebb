#!/usr/bin/env bash
# CI's second pass of the test suite, with the optional C primitives (.ci/run runs it beside
# the pure pass).
#
#     bash tools/ci_compiled.sh [PYTHON]      # PYTHON: the CI venv's python (default: python)
#
# opgrad's default install is pure Python; `python tools/build_speedups.py` builds
# runtime/_speedups.c in place (under a second, with the compiler and flags Python was built
# with) and runtime/_accel.py then binds its functions in place of the Python ones
# (OPGRAD_PURE=1 turns them off again; a build older than the .c is ignored with a warning).
# Issue 11's rule is that both builds run the whole test suite in CI. This script:
#   1. builds the extension into the checkout (needs gcc and Python's headers);
#   2. checks that it is the one in use, so a build that is silently ignored fails CI;
#   3. runs the whole suite again;
#   4. removes the built file (trap), so the checkout is pure again for whatever runs next.
# The wheel never contains the extension (setuptools packages the .py files and the
# package-data globs only), so tests/test_packaging.py checks the pure install in both passes.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
python=${1:-python}
trap '"$python" tools/build_speedups.py --clean' EXIT
"$python" tools/build_speedups.py
OPGRAD_PURE= "$python" -W error::RuntimeWarning -c \
    'from opgrad.runtime import _accel; assert _accel.ACTIVE, "the C primitives are not in use"'
OPGRAD_PURE= "$python" -m pytest -q -p no:cacheprovider tests/
