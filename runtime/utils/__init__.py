"""opgrad.utils: helpers around training (data: datasets and samplers)."""

from opgrad.runtime.utils import data

__all__ = ["data"]
