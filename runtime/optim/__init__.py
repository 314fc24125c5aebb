"""opgrad.optim: optimizers that update parameters in place, and learning-rate schedules.

opt = optim.Adam(model.parameters(), lr=1e-3)
sched = optim.lr_scheduler.StepLR(opt, step_size=10, gamma=0.5)
for x, y in batches:
    opt.zero_grad()
    loss_fn(model(x), y).backward()
    optim.clip_grad_norm_(model.parameters(), 1.0)   # optional
    opt.step()
sched.step()
"""

from opgrad.runtime.nn.utils import clip_grad_norm_, clip_grad_value_
from opgrad.runtime.optim import lr_scheduler
from opgrad.runtime.optim.adam import Adam, AdamW
from opgrad.runtime.optim.adaptive import Adagrad, RMSprop
from opgrad.runtime.optim.optimizer import Optimizer
from opgrad.runtime.optim.sgd import SGD

__all__ = [
    "SGD",
    "Adagrad",
    "Adam",
    "AdamW",
    "Optimizer",
    "RMSprop",
    "clip_grad_norm_",
    "clip_grad_value_",
    "lr_scheduler",
]
