"""Peak resident memory of one step, each measured in a fresh process (Linux only).

tracemalloc sees NumPy's allocations but not PyTorch's, so a memory comparison with torch uses
the kernel's own numbers instead: the resident-set high-water mark (VmHWM), reset just before
the step through /proc/self/clear_refs, minus the resident set at that moment. glibc's mmap
threshold is fixed at 64 KiB in the child, so every array of 64 KiB or more is a mapping of
its own and leaves the resident set when freed, for every library alike.
"""

from __future__ import annotations

import gc
import json
import os
import statistics
import subprocess
import sys
from collections.abc import Callable

AVAILABLE = sys.platform == "linux"


def _vm_mib(field: str) -> float:
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    raise RuntimeError(f"no {field} in /proc/self/status")


def report_step_peak(step: Callable[[], object]) -> None:
    """In the child: run `step` once and print its peak MiB above the start as a JSON line."""
    gc.collect()
    with open("/proc/self/clear_refs", "w") as fh:
        fh.write("5")  # resets VmHWM to the current VmRSS
    before = _vm_mib("VmRSS")
    step()
    print(json.dumps({"peak_mib": _vm_mib("VmHWM") - before}))


def child_peak_mib(args: list[str], repeat: int = 3) -> float:
    """The median over `repeat` fresh processes of `python <args>`, which must end by calling
    report_step_peak."""
    env = dict(os.environ, MALLOC_MMAP_THRESHOLD_="65536")
    peaks = []
    for _ in range(repeat):
        out = subprocess.run([sys.executable, *args], env=env, capture_output=True, text=True, check=True)
        peaks.append(json.loads(out.stdout.strip().splitlines()[-1])["peak_mib"])
    return statistics.median(peaks)
