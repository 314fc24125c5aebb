#!/usr/bin/env bash
# Proposal (not wired into .ci/run): CI's second pass, with the optional C primitives.
#
# opgrad's default install is pure Python; `python tools/build_speedups.py` builds
# runtime/_speedups.c in place (about a second with the compiler Python was built with),
# and runtime/_accel.py then binds its functions in place of the Python ones
# (OPGRAD_PURE=1 turns them off again). The issue's rule is that both builds run the whole
# test suite in CI; the first pass (.ci/run's `tests` step) is the pure one, so this adds:
#   1. build the extension into the same checkout and venv;
#   2. check that it is the one in use (not silently left out);
#   3. run the whole suite again (pytest-xdist is not a dependency; the suite takes ~3 min
#      on 2 cores, so CI stays under ~7 min with both passes);
#   4. remove the built file, so the checkout is pure again for whatever runs next
#      (tests/test_packaging.py builds the wheel from the checkout: the .so would not go in
#      it in any case, setuptools packages only the .py files and package-data globs).
# To wire it, .ci/run would call, after `step tests tests`:
#   step tests-compiled bash tools/ci_compiled.sh "$bin/python"
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
python=${1:-python}
trap '"$python" tools/build_speedups.py --clean' EXIT
"$python" tools/build_speedups.py
OPGRAD_PURE= "$python" -c 'from opgrad.runtime import _accel; assert _accel.ACTIVE, "the C primitives are not in use"'
OPGRAD_PURE= "$python" -m pytest -q -p no:cacheprovider tests/
