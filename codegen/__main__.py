"""`python -m opgrad.codegen [--spec-dir DIR] [--out DIR] [--docs FILE] [--check]`
(also `opgrad-codegen`).

Reads ops.yaml and backward.yaml from the spec directory (default: the project root,
the folder that holds the `codegen/` package being run) and writes `generated/` there
(or `--out`), and the operator reference `docs/ops.md` there (or `--docs`). `--out DIR`
redirects the generated package only and writes nothing outside DIR: with `--out` the
page is written (or checked) only where `--docs` says.

`--check` writes nothing: it exits 1 and prints a unified diff when the generated files
(or the page) are stale or the folder holds `.py` files the spec does not produce, 0 when
they are current. Spec errors are printed one per line as `file:line: op 'name': what is
wrong`, and the exit status is 1; nothing is written then.

The output folder may hold only files the generator wrote (they start with its
`@generated` header): a folder with any other `.py` file is refused (exit 1, nothing
written or removed), so a user's own code is never overwritten or deleted; likewise the
page replaces only a file whose first line is its `@generated` HTML comment.

Exit status: 0 done (or current), 1 spec errors, stale output or an unusable folder,
2 usage errors, 3 an internal error of the generator (a bug: please report it).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from opgrad.codegen import OPS_FILE, SpecError, generate, naming, reference_page, writer


def default_spec_dir() -> Path:
    """The project root: the parent of the folder this package was loaded from."""
    return Path(__file__).resolve().parent.parent


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m opgrad.codegen",
        description="Generate opgrad's ops, grad ops, grad nodes and Tensor methods from the YAML spec.",
    )
    parser.add_argument(
        "--spec-dir",
        type=Path,
        default=None,
        help="folder holding ops.yaml and backward.yaml (default: the project root)",
    )
    parser.add_argument(
        "--out", type=Path, default=None, help="output folder (default: <spec-dir>/generated)"
    )
    parser.add_argument(
        "--docs",
        type=Path,
        default=None,
        help=f"where to write the operator reference (default: <spec-dir>/{naming.PAGE} "
        "without --out; not written with --out unless given)",
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="write nothing; exit 1 and print a diff if the generated files are stale",
    )
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        return _run(args)
    except Exception as exc:  # a bug in the generator: say so in one line, not a traceback
        print(
            f"internal error in opgrad.codegen: {type(exc).__name__}: {str(exc)[:500]}\n"
            "This is a bug in the generator, not in your spec; please report it with the spec.",
            file=sys.stderr,
        )
        return 3


def _run(args: argparse.Namespace) -> int:
    spec_dir: Path = args.spec_dir if args.spec_dir is not None else default_spec_dir()
    if args.spec_dir is None and not (spec_dir / OPS_FILE).is_file():
        print(
            f"error: no {OPS_FILE} in {spec_dir} (the folder holding this codegen package); "
            "this looks like an installed copy, not a source checkout. "
            "Pass --spec-dir pointing at the folder that holds ops.yaml and backward.yaml.",
            file=sys.stderr,
        )
        return 2
    out_dir: Path = args.out if args.out is not None else spec_dir / "generated"
    page_path: Path | None = args.docs
    if page_path is None and args.out is None:
        page_path = spec_dir / naming.PAGE
    try:
        files = generate(spec_dir)
        page = reference_page(spec_dir) if page_path is not None else ""
    except SpecError as exc:
        for message in exc.errors:
            print(message, file=sys.stderr)
        print(f"{len(exc.errors)} error(s); nothing was written.", file=sys.stderr)
        return 1
    if args.check:
        diff = writer.check(files, out_dir)
        if page_path is not None:
            diff += writer.check_page(page, page_path, naming.PAGE if args.docs is None else page_path.name)
        if diff:
            sys.stdout.write(diff)
            strays = writer.strays(files, out_dir)
            if strays:
                print(
                    f"{out_dir} holds files the spec does not produce: {', '.join(strays)}",
                    file=sys.stderr,
                )
            stale = f"{out_dir}" + (f" or {page_path}" if page_path is not None else "")
            print(
                f"{stale} is stale: run `python -m opgrad.codegen` and commit the result.",
                file=sys.stderr,
            )
            return 1
        print(f"{out_dir}" + (f" and {page_path}" if page_path is not None else "") + " are up to date.")
        return 0
    try:
        if page_path is not None:
            writer.check_page_path(page_path)  # before anything is written
        changed = writer.write(files, out_dir)
        if page_path is not None and writer.write_page(page, page_path):
            changed.append(str(page_path))
    except writer.OutputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        print("nothing was written.", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"error: writing {out_dir} failed: {exc}", file=sys.stderr)
        return 1
    print(f"wrote {len(changed)} file(s) in {out_dir}" + (f": {', '.join(changed)}" if changed else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
