"""opgrad.utils: helpers around training (data: datasets and samplers; gradient
checkpointing)."""

from opgrad.runtime.utils import data
from opgrad.runtime.utils.checkpointing import checkpoint, checkpoint_sequential

__all__ = ["checkpoint", "checkpoint_sequential", "data"]
