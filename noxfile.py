"""Developer sessions for opgrad: ``nox -s <name>``, ``nox -l`` to list them.

``nox`` alone runs tests, lint and codegen-check, the checks every change must pass.
``bench``, ``fuzz``, ``gpu``, ``wheel``, ``coverage`` and ``mutate`` run only when named. CI
(``bash .ci/run``) runs the same commands as tests, lint and codegen-check in a single
virtualenv, plus the wheel check through ``tests/test_packaging.py``.
"""

from __future__ import annotations

import re
import shutil
import tempfile
import tomllib
from pathlib import Path

import nox

nox.options.default_venv_backend = "venv"  # uv is not on CI
nox.options.sessions = ["tests", "lint", "codegen-check"]

ROOT = Path(__file__).resolve().parent
TORCH = "torch==2.13.0"  # the CPU wheel the machines carry; a looser pin pulls a CUDA build
# Imports the four packages and fails unless each comes from the running environment.
IMPORT_CHECK = """
import sys, opgrad, opgrad.runtime, opgrad.generated, opgrad.codegen
mods = (opgrad, opgrad.runtime, opgrad.generated, opgrad.codegen)
outside = [f"{m.__name__} from {m.__file__}" for m in mods if not m.__file__.startswith(sys.prefix)]
assert not outside, f"imported from outside {sys.prefix}: {outside}"
for m in mods:
    print(m.__name__, "from", m.__file__)
"""
# What a clean copy of the source tree leaves out before a wheel is built from it.
NOT_SOURCE = (".git", ".venv*", ".nox", "build", "dist", "*.egg-info", "__pycache__", ".*_cache")


def dev_requirement(name: str) -> str:
    """The requirement for `name` in pyproject's dev extra, so a pin there applies here too."""
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    for requirement in extras["dev"]:
        if re.match(rf"{re.escape(name)}\b", requirement):
            return requirement
    raise LookupError(f"{name} is not in the dev extra of pyproject.toml")


@nox.session
def tests(session: nox.Session) -> None:
    """Run the pytest suite; arguments after ``--`` go to pytest."""
    session.install("-e", ".[test,examples,distributed]")
    session.run("pytest", *session.posargs)


@nox.session(name="tests-compiled")
def tests_compiled(session: nox.Session) -> None:
    """The whole suite with the optional C primitives built in place (tools/ci_compiled.sh:
    build, check that they are in use, run pytest, remove the build)."""
    session.install("-e", ".[test,examples,distributed]")
    session.run("bash", "tools/ci_compiled.sh", "python", external=True)


@nox.session
def lint(session: nox.Session) -> None:
    """ruff check and ruff format --check over the whole tree, then mypy (tools/typecheck.py:
    opgrad as installed, and the user code of tests/typing/)."""
    # mypy reads the types of opgrad's dependencies (NumPy's, PyYAML's stubs): install them.
    session.install("-e", ".[dev]")
    session.run("ruff", "check", ".")
    session.run("ruff", "format", "--check", ".")
    session.run("python", "tools/typecheck.py")


@nox.session(name="codegen-check")
def codegen_check(session: nox.Session) -> None:
    """Fail, with a diff, when generated/ is stale with respect to ops.yaml/backward.yaml."""
    # Editable, so the generator finds ops.yaml, backward.yaml and generated/ in this checkout.
    session.install("-e", ".")
    session.run("python", "-m", "opgrad.codegen", "--check")


@nox.session
def fuzz(session: nox.Session) -> None:
    """The property-based tests (marked ``fuzz``) under hypothesis' long profile (minutes);
    ``-- ARGS`` go to pytest. CI runs the same tests with the short, derandomized profile."""
    session.install("-e", ".[test]")
    session.run(
        "pytest", "-m", "fuzz", "-p", "no:cacheprovider", *session.posargs, env={"HYPOTHESIS_PROFILE": "long"}
    )


@nox.session
def bench(session: nox.Session) -> None:
    """Run every benchmarks/*.py script (not _helpers); ``-- NAME ...`` runs only those."""
    scripts = sorted(p for p in (ROOT / "benchmarks").glob("*.py") if not p.name.startswith("_"))
    if session.posargs:
        wanted = {Path(arg).stem for arg in session.posargs}
        unknown = wanted - {p.stem for p in scripts}
        if unknown:
            session.error(f"no such benchmark: {', '.join(sorted(unknown))}")
        scripts = [p for p in scripts if p.stem in wanted]
    if not scripts:
        session.error("no benchmarks/*.py scripts found")
    session.install("-e", ".[examples]", TORCH)
    for script in scripts:
        session.run("python", str(script.relative_to(ROOT)))


@nox.session
def coverage(session: nox.Session) -> None:
    """Line and branch coverage of runtime/ and codegen/ per module (the fast suite), worst first.

    ``-- --fail-under 90`` fails when some module's branch coverage is below 90%.
    """
    session.install("-e", ".[test,examples]")
    tmp = Path(session.create_tmp())
    report = tmp / "coverage.json"
    # Paths, not package names: the editable install maps opgrad.runtime to runtime/, and
    # naming the package would make coverage import it before pytest does.
    session.run(
        "pytest",
        "-q",
        "-m",
        "not slow",
        "--cov=runtime",
        "--cov=codegen",
        "--cov-branch",
        "--cov-report=",
        f"--cov-report=json:{report}",
        env={"COVERAGE_FILE": str(tmp / ".coverage")},
    )
    session.run("python", "tools/coverage_table.py", str(report), *session.posargs)


@nox.session
def mutate(session: nox.Session) -> None:
    """Mutation testing of the autograd core (tools/mutate.py); ``-- --help`` for its options.

    Without arguments: 40 sampled mutants per module, seed 0, and a JSON report in the
    session's tmp folder; ``-- --module runtime/engine.py`` etc. chooses, ``--sample`` resizes.
    """
    session.install("-e", ".[test]")
    args = session.posargs or ["--sample", "40", "--report", str(Path(session.create_tmp()) / "mutate.json")]
    session.run("nice", "python", "tools/mutate.py", *args, external=True)


@nox.session
def gpu(session: nox.Session) -> None:
    """Run the tests marked ``gpu`` (they skip without CuPy and a CUDA device)."""
    session.install("-e", ".[test,cuda]")
    session.run("pytest", "-m", "gpu", *session.posargs)


@nox.session
def wheel(session: nox.Session) -> None:
    """Build the wheel, install it here, import it with the source tree out of reach, then
    run tests from the root with it installed (the tree then imports as it stands)."""
    work = Path(tempfile.mkdtemp(prefix="opgrad-wheel-"))
    try:
        # Build from a clean copy: setuptools never prunes build/lib, so a stale build/
        # in the checkout could ship modules that no longer exist.
        src = work / "src"
        shutil.copytree(ROOT, src, ignore=shutil.ignore_patterns(*NOT_SOURCE))
        dist = work / "dist"
        session.run("python", "-m", "pip", "wheel", str(src), "--no-deps", "-w", str(dist))
        (built,) = dist.glob("opgrad-*.whl")
        session.install(f"{built}[test]")  # pytest, and hypothesis for tests/conftest.py
        with session.chdir(work):  # outside the repo: only the installed copy is importable
            session.run("python", "-c", IMPORT_CHECK)
        # From the root, the tree shadows the installed copy and must import as it stands.
        session.run("python", "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test_tensor.py")
    finally:
        shutil.rmtree(work, ignore_errors=True)
