"""`og.autograd`: the engine entry points and graph utilities under one name, as users of
PyTorch (`torch.autograd`) and Paddle (`paddle.autograd`) expect to find them."""

from opgrad.runtime import forward_ad, functional
from opgrad.runtime.anomaly import detect_anomaly
from opgrad.runtime.engine import backward, grad, queue_callback
from opgrad.runtime.function import Function, FunctionCtx
from opgrad.runtime.grad_holder import AccumulateGrad
from opgrad.runtime.grad_node import Edge, GradNode, TensorMeta
from opgrad.runtime.tensor_wrapper import saved_tensors_hooks

__all__ = [
    "AccumulateGrad",
    "Edge",
    "Function",
    "FunctionCtx",
    "GradNode",
    "TensorMeta",
    "backward",
    "detect_anomaly",
    "forward_ad",
    "functional",
    "grad",
    "queue_callback",
    "saved_tensors_hooks",
]
