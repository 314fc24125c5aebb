"""opgrad: eager automatic differentiation with operators generated from a YAML spec.

This module only re-exports; the code lives in `opgrad.runtime` (hand-written) and
`opgrad.generated` (from ops.yaml/backward.yaml by `python -m opgrad.codegen`).
"""

import sys as _sys

# First: in the source tree, finds runtime/, generated/ and codegen/ beside this folder.
from opgrad import _source_tree  # noqa: F401

# The generated ops import first: the runtime's Tensor inherits the generated method mixin,
# which refers to the ops module, so this order lets both finish initialising.
from opgrad.generated import ops
from opgrad.generated.ops import *  # noqa: F403  (every op as og.<name>)
from opgrad.runtime import autograd, distributed, fft, func, linalg, nn, optim, testing, utils, viz
from opgrad.runtime.anomaly import detect_anomaly
from opgrad.runtime.counting import unique, unique_consecutive
from opgrad.runtime.creation import (
    arange,
    empty,
    eye,
    from_numpy,
    full,
    full_like,
    linspace,
    ones,
    ones_like,
    rand,
    randn,
    tensor,
    to_tensor,
    zeros,
    zeros_like,
)
from opgrad.runtime.device import cuda_available
from opgrad.runtime.dlpack import from_dlpack
from opgrad.runtime.dtypes import (
    bool_,
    complex64,
    complex128,
    float16,
    float32,
    float64,
    int8,
    int16,
    int32,
    int64,
    is_complex,
    uint8,
)
from opgrad.runtime.engine import backward, grad
from opgrad.runtime.grad_mode import enable_grad, is_grad_enabled, no_grad, set_grad_enabled
from opgrad.runtime.linalg_compose import tensordot
from opgrad.runtime.promotion import get_default_dtype, set_default_dtype
from opgrad.runtime.random import manual_seed
from opgrad.runtime.serialization import load, save
from opgrad.runtime.tensor import Tensor
from opgrad.runtime.tensor_wrapper import saved_tensors_hooks

# `import opgrad.nn`, `from opgrad.nn import init`, `import opgrad.optim.lr_scheduler` give the
# same module objects as `opgrad.runtime.nn` (one copy of each class).
for _name, _module in {
    "nn": nn,
    "distributed": distributed,
    "nn.functional": nn.functional,
    "nn.parallel": nn.parallel,
    "nn.init": nn.init,
    "nn.utils": nn.utils,
    "optim": optim,
    "optim.lr_scheduler": optim.lr_scheduler,
    "utils": utils,
    "utils.data": utils.data,
    "autograd": autograd,
    "autograd.functional": autograd.functional,
    "autograd.forward_ad": autograd.forward_ad,
    "func": func,
    "linalg": linalg,
    "fft": fft,
}.items():
    _sys.modules[f"opgrad.{_name}"] = _module
del _name, _module

bool = bool_  # noqa: A001  (og.bool, as in PyTorch/Paddle)
as_complex = view_as_complex  # noqa: F405  (Paddle's names for the views)
as_real = view_as_real  # noqa: F405
__version__ = "0.1.0"
