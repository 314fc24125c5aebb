"""Mutation testing for opgrad: change one operator or statement, run the tests that should notice.

    python tools/mutate.py                              # the default modules, every mutant
    python tools/mutate.py --module runtime/engine.py --sample 40 --seed 1 --jobs 2
    python tools/mutate.py --rerun mutate-report.json   # the same mutants; those killed stay killed
    python tools/mutate.py --rev HEAD~3 --sample 25     # score the tests of an older commit
    python tools/mutate.py --list --module runtime/function.py
    python tools/mutate.py --module runtime/kernels/generic/nn.py --sample 25 --by-coverage \
        --impact-cache /tmp/impact.json                 # each mutant runs only the tests that reach it

Mutants are made from the module's AST, one change each: comparison swaps (`<` to `<=` and
`>=`, `==` to `!=`, `is` to `is not`, `in` to `not in`), `and`/`or` swaps, arithmetic swaps
(`+`/`-`, `*`/`/`, `|`/`&`, augmented assignments too), dropping a `not` or a unary minus,
constant changes (0/1, n to n+1, True/False), negated `if`/`while`/ternary tests, a statement
replaced by `pass`, and a returned value replaced by None. Strings, f-strings, docstrings,
annotations, imports and `__slots__` are left alone; a line ending in `# pragma: no mutate`
too. Each mutant is spliced into the source text (only the changed expression or statement
is rewritten, so its diff is one line or a few) and must compile.

Nothing in the checkout is modified: each worker copies the source tree to a scratch folder,
lays out the `opgrad` package there from pyproject's `[tool.setuptools.package-dir]` (the
editable install maps `opgrad.runtime` to `runtime/`, which mutmut 3 does not follow), and
puts it first on PYTHONPATH. Per mutant the worker writes the mutated module into its copy,
removes its cached bytecode, runs the module's mapped tests with `-x` and a timeout, and puts
the original back (also on Ctrl-C; the scratch folders are removed on exit).

With `--by-coverage` the mapped tests first run once under coverage with one context per
test (this run is also the baseline); a mutant then runs only the tests that ran a line of
its function's body (a test that never runs the changed code cannot notice it), or all of
them for a mutant outside any function or in code that also ran outside a test (at import).
A mutant whose function no test runs is reported as survived without a run. The kernel
suite takes ~25 s per mutant without it and a few seconds with it. `--impact-cache` keeps
the coverage map in a JSON file for later runs while the modules and tests are unchanged.

A mutant is killed when the tests fail, timed out when they exceed the timeout (counted as
detected), survived when they pass. Mutants judged equivalent (no behaviour can tell them
apart) are listed with a reason in `tools/mutate_equivalent.txt` and excluded from the score.
The report (text on stdout, JSON with `--report`) gives killed/survived/timeout per module and
the diff of every survivor.
"""

from __future__ import annotations

import argparse
import ast
import concurrent.futures
import hashlib
import json
import os
import queue
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import tomllib
from dataclasses import asdict, dataclass, field
from pathlib import Path

import coverage
from mutants import Mutant, diff_of, make_mutants, mutated_source  # tools/ is on sys.path

ROOT = Path(__file__).resolve().parents[1]
EQUIVALENT_FILE = ROOT / "tools" / "mutate_equivalent.txt"
NOT_COPIED = (
    ".git",
    ".venv*",
    ".nox",
    "build",
    "dist",
    "*.egg-info",
    "__pycache__",
    ".*_cache",
    ".coverage*",
)

# The tests that pin the autograd core, fastest-to-fail first (files that do not exist are skipped).
AUTOGRAD_TESTS = (
    "tests/test_hooks.py",
    "tests/test_saved_versions.py",
    "tests/test_function_edge_cases.py",
    "tests/test_grad_ownership.py",
    "tests/test_ownership.py",
    "tests/test_hook_checks.py",
    "tests/test_conversion.py",
    "tests/test_copy_pickle.py",
    "tests/test_backward_arguments.py",
    "tests/test_grad_node.py",
    "tests/test_node_results.py",
    "tests/test_engine.py",
    "tests/test_fast_paths_bwd.py",
    "tests/test_function.py",
    "tests/test_tensor_wrapper.py",
    "tests/test_grad_mode.py",
    "tests/test_inplace.py",
    "tests/test_tensor.py",
    "tests/test_debugging.py",
)
# Left out of every mutant's run: 10 of the autograd subset's 13 seconds, and what it pins (no
# recursion, freeing a deep chain) the other engine tests also reach on short chains.
DESELECTED = ("tests/test_engine.py::test_million_node_chain_backward_and_delete",)
# Module -> the tests run against its mutants. A module not listed runs the whole fast suite.
TESTS = {
    "runtime/engine.py": AUTOGRAD_TESTS,
    "runtime/engine_loop.py": AUTOGRAD_TESTS,
    "runtime/tensor_wrapper.py": AUTOGRAD_TESTS,
    "runtime/grad_node.py": AUTOGRAD_TESTS,
    "runtime/grad_holder.py": AUTOGRAD_TESTS,
    "runtime/function.py": AUTOGRAD_TESTS,
    "codegen/validate.py": (
        "tests/test_codegen_rules.py",
        "tests/test_codegen_validation.py",
        "tests/test_codegen_cli.py",
        "tests/test_codegen_output.py",
    ),
}
# Every kernel module: the kernel-level tests first, then the op table's.
KERNEL_TESTS = (
    "tests/test_kernel_edges.py",
    "tests/test_op_edge_cases.py",
    "tests/test_kernels.py",
    "tests/test_indexing.py",
    "tests/test_ops_special_values.py",
    "tests/test_ops_float16.py",
    "tests/test_op_corner_cases.py",
    "tests/test_cnn_ops.py",
    "tests/test_ops.py",
    "tests/test_nn.py",
)
DEFAULT_MODULES = tuple(m for m in TESTS if m.startswith("runtime/"))


def mapped_tests(module: str) -> tuple[str, ...]:
    """The tests run against a module's mutants: its entry in TESTS, the kernel tests for a
    kernel module, else the whole fast suite."""
    if module in TESTS:
        return TESTS[module]
    if module.startswith("runtime/kernels/"):
        return KERNEL_TESTS
    return ("tests",)


@dataclass
class ModuleReport:
    module: str
    total: int = 0
    killed: int = 0
    timeout: int = 0
    survived: int = 0
    equivalent: int = 0
    mutants: list[Mutant] = field(default_factory=list)

    @property
    def score(self) -> float:
        counted = self.total - self.equivalent
        return 100.0 * (self.killed + self.timeout) / counted if counted else 100.0


def load_equivalents() -> dict[str, str]:
    """`key  # reason` lines of tools/mutate_equivalent.txt (blank lines and # comments skipped)."""
    if not EQUIVALENT_FILE.exists():
        return {}
    found = {}
    for raw in EQUIVALENT_FILE.read_text().splitlines():
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        key, _, reason = raw.partition("  # ")
        found[key.strip()] = reason.strip()
    return found


# --- running them -----------------------------------------------------------------------------


def _layout(scratch: Path, rev: str | None) -> Path:
    """Copy the tree to `scratch/src` and link each mapped subpackage into the top-level
    package folder there (`opgrad/runtime -> runtime`, from pyproject's package-dir), so
    `import opgrad.runtime` finds the copy, whether through the working directory or
    PYTHONPATH, before the editable install's finder is asked. Returns `scratch/src`."""
    src = scratch / "src"
    if rev is None:
        shutil.copytree(ROOT, src, ignore=shutil.ignore_patterns(*NOT_COPIED), symlinks=True)
    else:  # a commit's tree, e.g. to score the tests as they were before a change
        src.mkdir()
        archive = subprocess.run(["git", "archive", rev], cwd=ROOT, capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(src)], input=archive, check=True)
    mapping = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-dir"]
    for package in sorted(mapping, key=lambda p: p.count(".")):
        top, *rest = package.split(".")
        if rest:
            link = src.joinpath(mapping[top], *rest)
            if not link.exists():
                link.symlink_to(src / mapping[package], target_is_directory=True)
    return src


class Worker:
    """One scratch copy of the tree, able to run one mutant at a time."""

    def __init__(self, number: int, rev: str | None) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix=f"opgrad-mutate-{number}-"))
        self.src = self.pythonpath = _layout(self.dir, rev)

    def check_imports(self, modules: list[str]) -> None:
        """Fail unless each module imports from this copy (else no mutant would be seen)."""
        mapping = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-dir"]
        by_dir = {folder: package for package, folder in mapping.items()}
        names = []
        for module in modules:
            folder, _, rest = module.partition("/")
            names.append(".".join([by_dir[folder], *Path(rest).with_suffix("").parts]))
        code = (
            "import importlib.util as u, sys; print('\\n'.join(u.find_spec(n).origin for n in sys.argv[1:]))"
        )
        env = dict(os.environ, PYTHONPATH=str(self.pythonpath))
        out = subprocess.run(
            [sys.executable, "-c", code, *names],
            cwd=self.src,
            env=env,
            text=True,
            capture_output=True,
            check=True,
        ).stdout.split()
        outside = [o for o in out if not o.startswith(str(self.dir))]
        if outside:
            sys.exit(f"mutate: these would import from outside the scratch copy: {outside}")

    def run_tests(
        self, tests: list[str], timeout: float, extra: tuple[str, ...] = (), env_extra: dict | None = None
    ) -> tuple[str, float]:
        env = dict(os.environ, **(env_extra or {}))
        env["PYTHONPATH"] = os.pathsep.join([str(self.pythonpath), env.get("PYTHONPATH", "")]).rstrip(
            os.pathsep
        )
        env["PYTHONHASHSEED"] = "0"
        cmd = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", "-m", "not slow"]
        cmd += ["--no-header", "-o", "addopts=", *extra, *tests]
        cmd += [f"--deselect={t}" for t in DESELECTED if t.split("::")[0] in tests]
        started = time.monotonic()
        try:
            done = subprocess.run(cmd, cwd=self.src, env=env, capture_output=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return "timeout", time.monotonic() - started
        seconds = time.monotonic() - started
        if done.returncode == 0:
            return "survived", seconds
        if done.returncode in (1,):
            return "killed", seconds
        return f"error (pytest exit {done.returncode})", seconds

    def apply(self, module: str, text: str) -> None:
        path = self.src / module
        path.write_text(text)
        for cached in (path.parent / "__pycache__").glob(f"{path.stem}.*.pyc"):
            cached.unlink()

    def close(self) -> None:
        shutil.rmtree(self.dir, ignore_errors=True)


def _function_lines(source: str) -> dict[str, range]:
    """Dotted function name (as a mutant's `where`) -> the lines of its body."""
    found: dict[str, range] = {}

    def visit(node: ast.AST, scope: list[str]) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                inner = [*scope, child.name]
                if not isinstance(child, ast.ClassDef):
                    found[".".join(inner)] = range(child.body[0].lineno, child.end_lineno + 1)
                visit(child, inner)
            else:
                visit(child, scope)

    visit(ast.parse(source), [])
    return found


def impact(
    worker: Worker, modules: list[str], tests: list[str]
) -> tuple[dict[str, dict[int, set[str]]], float]:
    """Run `tests` once under coverage with one context per test: module -> line -> the ids
    of the tests that ran it ("" for a line run outside any test, such as at import); and
    the run's seconds (it is also the baseline: the tests must pass)."""
    data_file = worker.dir / ".coverage-impact"
    folders = sorted({os.path.realpath(worker.src / Path(m).parent) for m in modules})
    extra = (*(f"--cov={f}" for f in folders), "--cov-context=test", "--cov-report=")
    env = {"COVERAGE_FILE": str(data_file)}
    status, seconds = worker.run_tests(tests, timeout=3600, extra=extra, env_extra=env)
    if status != "survived":
        sys.exit(f"mutate: the tests of {modules} fail under coverage ({status})")
    data = coverage.CoverageData(basename=str(data_file))
    data.read()
    by_path = {os.path.realpath(worker.src / m): m for m in modules}
    found: dict[str, dict[int, set[str]]] = {m: {} for m in modules}
    for measured in data.measured_files():
        module = by_path.get(os.path.realpath(measured))
        if module is not None:
            found[module] = {
                line: {c.rpartition("|")[0] for c in contexts}
                for line, contexts in data.contexts_by_lineno(measured).items()
            }
    data_file.unlink(missing_ok=True)
    return found, seconds


def _cached_impact(
    worker: Worker, modules: list[str], tests: list[str], sources: dict[str, str], cache: Path | None
) -> tuple[dict[str, dict[int, set[str]]], float]:
    """impact(), kept in `cache` (JSON) for later runs: an entry is used only while its
    module's source and the test files are byte for byte the same."""
    # Every module in the same folders with the same mapped tests is measured by the same run.
    modules = sorted(
        {
            str(path.relative_to(worker.src))
            for m in modules
            for path in (worker.src / m).parent.glob("*.py")
            if tests_for(str(path.relative_to(worker.src)), worker.src) == tests
        }
        | set(modules)
    )
    sources = {m: sources.get(m) or (worker.src / m).read_text() for m in modules}
    stamp = hashlib.sha256()
    for test in sorted(tests):
        stamp.update((worker.src / test).read_bytes())
    for helper in sorted((worker.src / "tests").glob("*.py")):  # op tables, conftest
        stamp.update(helper.read_bytes())
    saved = json.loads(cache.read_text()) if cache is not None and cache.exists() else {}
    keys = {m: hashlib.sha256(sources[m].encode()).hexdigest() + stamp.hexdigest() for m in modules}
    if all(saved.get(m, {}).get("key") == keys[m] for m in modules):
        print(f"# per-test coverage of {len(modules)} module(s) read from {cache}", flush=True)
        found = {m: {int(n): set(ids) for n, ids in saved[m]["lines"].items()} for m in modules}
        return found, max(saved[m]["seconds"] for m in modules)
    found, seconds = impact(worker, modules, tests)
    print(f"# per-test coverage of {len(modules)} module(s) recorded in {seconds:.0f}s", flush=True)
    if cache is not None:
        for m in modules:
            lines = {n: sorted(ids) for n, ids in found[m].items()}
            saved[m] = {"key": keys[m], "seconds": seconds, "lines": lines}
        cache.write_text(json.dumps(saved))
    return found, seconds


def selected_tests(m: Mutant, tests: list[str], lines: dict[int, set[str]], body: range | None) -> list[str]:
    """The tests that can see mutant `m`: those that ran a line of its function's body (a test
    that never runs the mutated code cannot tell it apart), or all of `tests` for a mutant
    outside any function or in a body also run outside a test. Empty: no test runs it."""
    if body is None:
        return tests
    ids: set[str] = set()
    for line in body:
        ids |= lines.get(line, set())
    return tests if "" in ids else sorted(ids)


def tests_for(module: str, tree: Path) -> list[str]:
    """The mapped tests of `module` that exist in `tree` (a worker's copy)."""
    wanted = mapped_tests(module)
    return [t for t in wanted if (tree / t).exists()]


def run(
    mutants: list[Mutant],
    sources: dict[str, str],
    jobs: int,
    timeout_factor: float,
    rev: str | None,
    by_coverage: bool = False,
    impact_cache: Path | None = None,
) -> None:
    workers: queue.Queue[Worker] = queue.Queue()
    made = [Worker(i, rev) for i in range(jobs)]
    for w in made:
        workers.put(w)
    try:
        for w in made:
            w.check_imports(sorted({m.module for m in mutants}))
        # Baseline: the mapped tests must pass on the unmutated code, and give the time limit.
        # Modules mapped to the same tests (every kernel module) share one baseline run; with
        # --by-coverage the coverage run (or its cached result) is the baseline.
        limits: dict[str, float] = {}
        by_tests: dict[tuple[str, ...], float] = {}
        lines: dict[str, dict[int, set[str]]] = {}
        bodies = {module: _function_lines(sources[module]) for module in sources}
        if by_coverage:  # one coverage run per set of mapped tests
            groups: dict[tuple[str, ...], list[str]] = {}
            for module in sorted({m.module for m in mutants}):
                groups.setdefault(tuple(tests_for(module, made[0].src)), []).append(module)
            for tests, modules in groups.items():
                found, by_tests[tests] = _cached_impact(made[0], modules, list(tests), sources, impact_cache)
                lines.update(found)
        for module in sorted({m.module for m in mutants}):
            tests = tuple(tests_for(module, made[0].src))
            if tests not in by_tests:
                status, seconds = made[0].run_tests(list(tests), timeout=600)
                if status != "survived":
                    sys.exit(f"mutate: the tests for {module} fail without any mutant ({status}); fix them")
                by_tests[tests] = seconds
            seconds = by_tests[tests]
            limits[module] = max(60.0, seconds * timeout_factor)  # shared machines vary a lot
            print(f"# {module}: baseline {seconds:.1f}s, timeout {limits[module]:.0f}s", flush=True)

        def one(m: Mutant) -> Mutant:
            w = workers.get()
            try:
                tests = tests_for(m.module, w.src)
                if by_coverage:
                    tests = selected_tests(m, tests, lines[m.module], bodies[m.module].get(m.where))
                    if not tests:  # its code never runs under the tests: nothing can notice it
                        m.status = "survived"
                        return m
                w.apply(m.module, mutated_source(sources[m.module], m))
                m.status, m.seconds = w.run_tests(tests, limits[m.module])
            finally:
                w.apply(m.module, sources[m.module])
                workers.put(w)
            return m

        with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
            for n, m in enumerate(pool.map(one, mutants), 1):
                print(
                    f"[{n}/{len(mutants)}] {m.status:9} {m.module}:{m.line} {m.kind}: "
                    f"{m.before!r} -> {m.after!r}"
                )
    finally:
        for w in made:
            w.close()


def summarise(mutants: list[Mutant], sources: dict[str, str]) -> list[ModuleReport]:
    reports: dict[str, ModuleReport] = {}
    for m in mutants:
        r = reports.setdefault(m.module, ModuleReport(m.module))
        r.total += 1
        r.mutants.append(m)
        if m.status == "equivalent":
            r.equivalent += 1
        elif m.status == "killed":
            r.killed += 1
        elif m.status == "timeout":
            r.timeout += 1
        else:
            r.survived += 1
            m.diff = diff_of(sources[m.module], m)
    return [reports[k] for k in sorted(reports)]


def print_report(reports: list[ModuleReport]) -> None:
    print("\n## Survivors")
    for r in reports:
        for m in r.mutants:
            if m.status not in ("killed", "timeout", "equivalent"):
                print(f"\n{m.status}: {m.key}\n{m.diff}", end="")
    print("\n## Mutation score (killed + timeout) / (total - equivalent)")
    print(f"{'module':40} {'total':>6} {'killed':>6} {'t/o':>4} {'surv':>5} {'equiv':>5} {'score':>7}")
    for r in reports:
        print(
            f"{r.module:40} {r.total:6} {r.killed:6} {r.timeout:4} {r.survived:5} {r.equivalent:5} "
            f"{r.score:6.1f}%"
        )


def _key_of(saved: dict) -> str:
    """A mutant's key from its JSON form; a report without keys is matched by position,
    which holds while the module's source is the same."""
    return saved.get("key") or f"{saved['module']}#{saved['index']}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--module", action="append", help="a module path such as runtime/engine.py (repeatable)"
    )
    parser.add_argument("--sample", type=int, help="run only N mutants per module, drawn with --seed")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1, help="parallel workers, each with its own copy")
    parser.add_argument("--timeout-factor", type=float, default=10.0, help="limit = factor x baseline")
    parser.add_argument(
        "--rerun",
        type=Path,
        help="a JSON report: run again only its mutants not killed (survived, timed out)",
    )
    parser.add_argument("--report", type=Path, help="write the JSON report here")
    parser.add_argument(
        "--by-coverage",
        action="store_true",
        help="record which tests run each line once, then give each mutant only the tests that "
        "run its function (much faster; a mutant no test runs survives without a run)",
    )
    parser.add_argument(
        "--impact-cache", type=Path, help="with --by-coverage: keep the per-test coverage in this JSON file"
    )
    parser.add_argument("--list", action="store_true", help="list the mutants, run nothing")
    parser.add_argument("--rev", help="test a commit's tree (git archive) instead of the working tree")
    args = parser.parse_args(argv)

    modules = args.module or list(DEFAULT_MODULES)
    if args.rev is None:
        sources = {m: (ROOT / m).read_text() for m in modules}
    else:
        show = ["git", "show"]
        sources = {
            m: subprocess.run(
                [*show, f"{args.rev}:{m}"], cwd=ROOT, capture_output=True, text=True, check=True
            ).stdout
            for m in modules
        }
    equivalents = load_equivalents()
    chosen: list[Mutant] = []
    for module in modules:
        found = make_mutants(module, sources[module])
        if args.sample is not None and args.sample < len(found):
            found = sorted(
                random.Random(f"{args.seed}:{module}").sample(found, args.sample), key=lambda m: m.index
            )
        chosen += found
    if args.rerun is not None:  # the same mutants again; those killed before stay killed
        old = json.loads(args.rerun.read_text())
        keyed = all("key" in m for r in old["modules"] for m in r["mutants"])

        def _key(m: Mutant) -> str:
            return m.key if keyed else f"{m.module}#{m.index}"

        before = {_key_of(m): m["status"] for r in old["modules"] for m in r["mutants"]}
        chosen = [m for module in modules for m in make_mutants(module, sources[module]) if _key(m) in before]
        for m in chosen:
            if before[_key(m)] == "killed":
                m.status = "killed"
    for m in chosen:
        if m.key in equivalents:
            m.status, m.reason = "equivalent", equivalents[m.key]
    if args.list:
        for m in chosen:
            print(f"{m.module}:{m.line} [{m.status}] {m.key}")
        print(f"{len(chosen)} mutants")
        return 0
    to_run = [m for m in chosen if m.status == "pending"]
    equivalent = sum(m.status == "equivalent" for m in chosen)
    print(
        f"# {len(chosen)} mutants, {equivalent} listed as equivalent, {len(to_run)} to run, "
        f"{args.jobs} job(s)"
    )
    run(to_run, sources, args.jobs, args.timeout_factor, args.rev, args.by_coverage, args.impact_cache)
    reports = summarise(chosen, sources)
    print_report(reports)
    if args.report is not None:
        args.report.write_text(
            json.dumps(
                {
                    "argv": sys.argv[1:],
                    "modules": [
                        {
                            **{k: v for k, v in asdict(r).items() if k != "mutants"},
                            "score": r.score,
                            "mutants": [{**asdict(m), "key": m.key} for m in r.mutants],
                        }
                        for r in reports
                    ],
                },
                indent=1,
            )
        )
    return 0 if all(r.survived == 0 for r in reports) else 1


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt  # SIGTERM too unwinds through the finally blocks that clean up


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, _interrupt)
    try:
        sys.exit(main())
    except KeyboardInterrupt:  # workers' finally blocks have restored and removed their copies
        sys.exit(130)
