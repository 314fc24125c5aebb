"""The loss-curve PNG the demos write with `--plot PATH` (matplotlib is optional)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def epoch_means(losses: Sequence[float], steps_per_epoch: int) -> list[tuple[int, float]]:
    """(last step of the epoch, mean loss over the epoch) for every complete epoch."""
    n = len(losses) // steps_per_epoch
    if not n:
        return []
    means = np.asarray(losses[: n * steps_per_epoch]).reshape(n, -1).mean(axis=1)
    return [((i + 1) * steps_per_epoch, float(m)) for i, m in enumerate(means)]


def write_loss_plot(
    path: str,
    losses: Sequence[float],
    title: str,
    ylabel: str,
    points: Sequence[tuple[int, float]] = (),
    points_label: str = "epoch mean",
    hline: float | None = None,
    log_scale: bool = False,
) -> None:
    """Write the per-step loss (and `points`, e.g. epoch means) to `path` as a PNG; without
    matplotlib, say so and carry on (a demo never fails for want of a plot)."""
    try:
        import matplotlib
    except ImportError:
        print("--plot: matplotlib is not installed (pip install matplotlib); no plot written")
        return
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot(np.arange(1, len(losses) + 1), losses, lw=0.6, alpha=0.5, label="per step")
    if points:
        steps, values = zip(*points, strict=True)
        ax.plot(steps, values, marker="o", label=points_label)
    if hline is not None:
        ax.axhline(hline, color="grey", ls=":", lw=0.8)
    ax.set(xlabel="step", ylabel=ylabel, title=title)
    if log_scale:
        ax.set_yscale("log")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    print(f"loss curve written to {path}")
