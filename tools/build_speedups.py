"""Build runtime/_speedups.c, the optional C versions of the hottest runtime primitives,
in place beside the .py files (runtime/_speedups<EXT_SUFFIX>), with the C compiler and flags
this Python was built with. Nothing else needs it: without the built file, or with
OPGRAD_PURE=1 in the environment, opgrad runs its pure-Python definitions
(runtime/_accel.py chooses at import).

    python tools/build_speedups.py          # build (a few seconds)
    python tools/build_speedups.py --clean  # remove the built file
"""

from __future__ import annotations

import argparse
import hashlib
import shlex
import subprocess
import sys
import sysconfig
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "runtime" / "_speedups.c"
SUPPORTED = (3, 11)  # the CPython the C file is written and tested against (runtime/_accel.py checks it too)


def source_sha() -> str:
    """What the built module reports as SOURCE_SHA (runtime/_accel.py compares it)."""
    return hashlib.sha256(SOURCE.read_bytes()).hexdigest()[:16]


def target() -> Path:
    return ROOT / "runtime" / f"_speedups{sysconfig.get_config_var('EXT_SUFFIX')}"


def build() -> Path:
    out = target()
    cc = shlex.split(sysconfig.get_config_var("CC") or "cc")
    ldshared = shlex.split(sysconfig.get_config_var("LDSHARED") or "cc -shared")
    include = sysconfig.get_paths()["include"]
    obj = out.with_suffix(".o")
    flags = ["-O2", "-g0", "-fwrapv", "-DNDEBUG", "-Wall", "-Wextra", "-Wno-unused-parameter"]
    flags += ["-Wno-missing-field-initializers", "-Werror", f'-DSPEEDUPS_SOURCE_SHA="{source_sha()}"']
    pic = shlex.split(sysconfig.get_config_var("CCSHARED") or "-fPIC")
    subprocess.run([*cc, *flags, *pic, f"-I{include}", "-c", str(SOURCE), "-o", str(obj)], check=True)
    try:
        subprocess.run([*ldshared, str(obj), "-o", str(out)], check=True)
    finally:
        obj.unlink(missing_ok=True)
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--clean", action="store_true", help="remove the built extension")
    args = p.parse_args(argv)
    if args.clean:
        target().unlink(missing_ok=True)
        return 0
    if sys.implementation.name != "cpython" or sys.version_info[:2] != SUPPORTED:
        print(
            f"build_speedups: runtime/_speedups.c reads CPython {SUPPORTED[0]}.{SUPPORTED[1]}'s object "
            f"layouts and is tested only there; this is {sys.implementation.name} "
            f"{sys.version.split()[0]}. opgrad runs as pure Python here (nothing to build).",
            file=sys.stderr,
        )
        return 2
    print(build().relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
