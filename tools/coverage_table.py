"""Per-module line and branch coverage from a coverage.py JSON report, worst branches first.

    python tools/coverage_table.py coverage.json [--under runtime/ --under codegen/] [--fail-under 90]

`coverage report` prints one combined percentage per file; the issue's goals are per module
and for branches alone, so this prints lines covered, branches covered and both
percentages, and with `--fail-under` exits 1 when some module's branch coverage is below it.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def rows(report: dict, under: list[str]) -> list[tuple[str, int, int, int, int]]:
    found = []
    for name, entry in report["files"].items():
        if under and not any(name.startswith(prefix) for prefix in under):
            continue
        s = entry["summary"]
        found.append(
            (name, s["covered_lines"], s["num_statements"], s["covered_branches"], s["num_branches"])
        )
    return found


def pct(part: int, whole: int) -> float:
    return 100.0 * part / whole if whole else 100.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("report", type=Path)
    parser.add_argument("--under", action="append", default=[], help="only files under this prefix")
    parser.add_argument("--fail-under", type=float, help="minimum branch coverage per module")
    args = parser.parse_args(argv)
    table = rows(json.loads(args.report.read_text()), args.under)
    table.sort(key=lambda r: pct(r[3], r[4]))
    print(f"{'module':48} {'lines':>11} {'line%':>6} {'branches':>9} {'branch%':>7}")
    for name, cl, nl, cb, nb in table:
        print(f"{name:48} {cl:5}/{nl:<5} {pct(cl, nl):6.1f} {cb:4}/{nb:<4} {pct(cb, nb):7.1f}")
    cl, nl, cb, nb = (sum(r[i] for r in table) for i in range(1, 5))
    print(f"{'TOTAL':48} {cl:5}/{nl:<5} {pct(cl, nl):6.1f} {cb:4}/{nb:<4} {pct(cb, nb):7.1f}")
    if args.fail_under is not None:
        low = [r[0] for r in table if pct(r[3], r[4]) < args.fail_under]
        if low:
            print(f"branch coverage below {args.fail_under}% in: {', '.join(low)}")
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
