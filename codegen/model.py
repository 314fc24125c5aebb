"""The spec as frozen dataclasses: one `OpSpec` per ops.yaml entry, one `BackwardSpec`
per backward.yaml entry.

Each is built by `from_yaml`, which pops the keys it knows, checks their types and the
entry's own rules, and reports every problem (with `file:line` and the op's name) to a
`Problems` collector instead of stopping at the first; the reading (`Reader`, `Problems`,
`SpecError`) is in `reader.py`. Rules that involve several entries (dangling `backward:`
references, `forward:` signatures, names in backward `args`, composite expressions) live
in `validate.py`; what the templates need is derived in `plan.py`.

ops.yaml keys (docs/contracts.md §2):

- `op` (required): the op's name, a Python identifier; becomes `ops.<op>`.
- `args` (required): `(Tensor x, Tensor y, int[] axis = [], bool keepdim = false)`; the
  grammar is in `signature.py`.
- `output` (required): `Tensor(out)`, `(Tensor(out), Tensor(indices))` or
  `Tensor[](out){num}` (a Tensor[] output comes last).
- `backward`: the name of the backward.yaml entry; required unless every output is
  `non_differentiable`, forbidden if they all are.
- `kernel`: the kernel's registry name (default: the op's name).
- `intermediate`: outputs (a comma list or YAML list) the kernel returns and backward
  may save, but the caller does not see.
- `non_differentiable`: outputs that never carry gradient (indices, masks, bools).
- `method`: `true` binds `Tensor.<op>`, a string binds `Tensor.<string>`.
- `operator`: a list of Python dunder names (`[__add__, __radd__]`); a reflected name
  (`__radd__`) swaps the first two tensor arguments.
- `inplace`: `(x -> out)`: also generate `<op>_` (`ops.add_`, and `Tensor.add_` when the
  op has `method:` or `operator:`; `__iadd__` & co. for the operators that have an augmented
  form) that writes `out` into `x`'s memory and returns `x`. `x` must be the op's first
  tensor argument (a plain `Tensor`), `out` its only output; the op needs a backward.
- `inplace_into`: `true` on an op with `inplace:` (its tensor arguments plain `Tensor`s) whose
  kernel has an into variant (kernels/registry.py `register_into`): `<op>_` then first
  offers the write to it, so that, when no node is recorded and forward mode is off, the
  result is computed straight into x's memory (runtime/inplace.py `write_into`);
  otherwise, or when the variant declines, it computes a new array and copies it in.
- `view`: `x`: the outputs may share memory with the `Tensor` argument `x` (reshape,
  transpose, split: every element of a Tensor[] output); the generated forward marks them
  as views of `x` (`mark_view`), so they share its version counter.
- `alias`: a mapping `{axis: dim, keepdim: keepdims}` from an argument to another name the
  caller may use for it (PyTorch's or NumPy's spelling). The generated function and method
  take each alias as an extra trailing parameter (default None); giving both names is a
  TypeError naming the op and both names (`_alias_checks` in plan_forward.py).
- `promote`: `common(x, y)` or `float(x, y)`: the tensor arguments (plain `Tensor`s, or one
  `Tensor[]`) that the type-promotion table (runtime/promotion.py, docs/dtypes.md) brings to
  one dtype before the kernel runs; `float(...)` also turns integer and bool inputs into the
  default float dtype (exp, tanh, divide). The in-place variant does not promote.
- `complex`: `true` when the op computes on complex tensors too (docs/dtypes.md), with
  gradients in the conjugate convention (the backward kernels and composites conjugate
  where a holomorphic derivative appears). Every other op refuses a complex tensor with a
  TypeError naming the op and the argument, before its kernel runs.
- `composite_call`: the runtime function that backward.yaml composites and `jvp:` rules
  call in place of the op, one of `naming.COMPOSITE_SHORTCUTS`: `conj_if_complex` for
  `conj` (a real tensor is its own conjugate, so a composite conjugating a real tensor makes
  no call and records no node). It takes the op's tensor argument and returns what the op
  returns for it.
- `doc`: a one-line docstring, the summary line of the generated docstrings.
- `arg_docs`: `<argument or output name>: <one sentence>` (Args and Returns of the
  docstrings, docs/ops.md); `grad_doc`: a note on the gradient (a subgradient, an input
  without one). validate.py checks them (`_check_docs`).
- The family in docs/ops.md is not a key: it is the `# --- Title: remark` section comment
  above the entry (loader.py); "Other operators" above the first one.

backward.yaml keys:

- `backward_op` (required): the backward op's name; its node class is derived from it.
- `forward` (optional, derived): the op this entry differentiates is the one whose
  `backward:` names it (an ops.yaml op, or for a higher-order entry a backward op, whose
  signature is its `args`, then its forward's attributes, `->` its `output`). Written out,
  `tanh` or `tanh (Tensor x) -> Tensor(out)`, it is an assertion checked against that op.
- `args` (required): tensors only: forward inputs (`x`), forward outputs (`out`) and
  gradients of forward outputs (`out_grad`; `Tensor?` when it may be None, as the gradient
  of a grad op's output for an absent optional input). The forward op's attributes are always
  passed to the grad kernel after them and need not be listed.
- `output` (required): gradients of forward tensor inputs, `Tensor(x_grad)` or
  `(Tensor(x_grad), Tensor(y_grad))` (`Tensor[](x_grad)` for a `Tensor[]` input); of a grad
  op's inputs, `(Tensor(grad_wrt_out), Tensor(grad_wrt_out_grad))` (`naming.input_grad`).
- `no_gradient`: forward tensor inputs that get no gradient (a condition, a mask, indices):
  every forward tensor input needs `<input>_grad` in `output` or a place in this list (an
  input that is no_need_buffer in the grad op being differentiated gets none anyway).
- `no_need_buffer`: forward inputs of which backward needs only shape and dtype. Such an
  input of a grad op gets no gradient at higher order; for a `Tensor[]` one the node
  returns one None per position (`*[None] * self._x_count`, counted at node creation).
- `kernel`: the grad kernel's name (default: the backward op's name, unless the entry
  has a `composite:`).
- `backward`: this grad op's own backward entry (for higher-order gradients); not with
  `composite:` (a composite is differentiated through its ops).
- `composite`: the gradient as expressions over ops: a string for one output, or a
  mapping `x_grad: <expr>` (one per output). Instead of a string, an output may take a
  list of steps, `name = <expr>` each, ending with the gradient's expression:

      composite:
        x_grad:
          - p = softmax(x, axis)
          - p * (out_grad - sum(out_grad * p, axis, true))

  A step may use the arguments, the forward's attributes, numbers, operators, calls to
  ops (and to backward ops that have a kernel and no composite; a call to one with several
  outputs is indexed, `f(...)[0]`) and earlier steps (of this output or an earlier one).
  Each step becomes one statement, as written (no length limit, no line breaking).
  Without `kernel:` the composite is the only gradient: it runs on Tensors, recorded when
  `create_graph` is set. With an explicit `kernel:` as well, the first-order path calls
  the kernel on raw arrays (fast) and only the `create_graph` path evaluates the composite.
- `doc`: a one-line docstring; default `Gradient of tanh.` (at higher order `Gradient of
  tanh_grad (second-order gradient of tanh).`), filled in by validate.py.
- `needs_input_grad: true`: the kernel computes only the gradients the graph uses. The
  first-order path passes it one more argument after the attributes, `needs`, a tuple of
  bools in output order (True where the forward input has an edge, PyTorch's
  `needs_input_grad`), and accepts None for an output whose flag is False; the kernel must
  default `needs=None` (compute everything), which the grad op's own call (the create_graph
  path) relies on. Needs `kernel:`, and a forward without `Tensor[]` inputs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from opgrad.codegen import naming
from opgrad.codegen.loader import Entry
from opgrad.codegen.reader import KeyLines, Problems, Reader
from opgrad.codegen.signature import Arg, GrammarError, Output, parse_forward

OP_KEYS = (
    "op",
    "args",
    "output",
    "backward",
    "kernel",
    "intermediate",
    "non_differentiable",
    "method",
    "operator",
    "inplace",
    "inplace_into",
    "view",
    "mutates",
    "mutates_if",
    "alias",
    "promote",
    "complex",
    "composite_call",
    "jvp",
    "doc",
    "arg_docs",
    "grad_doc",
)
BACKWARD_KEYS = (
    "backward_op",
    "forward",
    "args",
    "output",
    "no_need_buffer",
    "no_gradient",
    "kernel",
    "backward",
    "composite",
    "needs_input_grad",
    "jvp",
    "doc",
)


@dataclass(frozen=True)
class OpSpec:
    """One ops.yaml entry, checked on its own."""

    name: str
    args: tuple[Arg, ...]
    outputs: tuple[Output, ...]
    backward: str | None
    kernel: str
    intermediate: tuple[str, ...]
    non_differentiable: tuple[str, ...]
    method: str | None
    operators: tuple[str, ...]
    inplace: tuple[str, str] | None  # (x, out): `op_` writes out into x
    view: str | None  # the Tensor argument the outputs may be views of
    mutates: tuple[str, ...]  # Tensor arguments the kernel writes into (their versions bump)
    mutates_if: str | None  # the bool argument that says whether it writes them
    doc: str
    lines: KeyLines
    aliases: tuple[tuple[str, str], ...] = ()  # (argument, alias): `alias:` in the spec, in args order
    promote: tuple[str, tuple[str, ...]] | None = None  # ("common" | "float", tensor arguments)
    # (name, text, line) of each `arg_docs:` item, as written (validate.py checks them)
    arg_docs: tuple[tuple[str, str, int], ...] = ()
    grad_doc: str | None = None
    section: str = ""  # the `# --- Title: remark` comment the entry sits under ("" before any)
    jvp: tuple[CompositeSource, ...] = ()  # one per differentiable output: its tangent (jvp_check.py)
    complex: bool = False  # `complex: true`: accepts complex tensors
    composite_call: str | None = None  # what composites call instead (naming.COMPOSITE_SHORTCUTS)
    inplace_into: bool = False  # `inplace_into: true`: `op_` tries the kernel's into variant first

    def __post_init__(self) -> None:
        names = [a.name for a in self.args] + [o.name for o in self.outputs]
        assert len(names) == len(set(names)), names
        outs = {o.name for o in self.outputs}
        assert set(self.intermediate) <= outs and set(self.non_differentiable) <= outs
        assert (self.backward is None) == (not self.differentiable_outputs)
        if self.inplace is not None:
            target = self.arg(self.inplace[0])
            assert target is not None and target.type == "Tensor" and target is self.tensor_args[0]
            assert [o.name for o in self.outputs] == [self.inplace[1]] and self.backward is not None
        assert not self.inplace_into or (
            self.inplace is not None and all(a.type == "Tensor" for a in self.tensor_args)
        )
        if self.view is not None:
            arg = self.arg(self.view)
            assert arg is not None and arg.type == "Tensor"
        assert all(getattr(self.arg(m), "type", None) in ("Tensor", "Tensor?") for m in self.mutates)
        if self.mutates_if is not None:
            assert self.mutates and getattr(self.arg(self.mutates_if), "type", None) == "bool"
        taken = set(names)
        for aliased, alias in self.aliases:
            assert self.arg(aliased) is not None and alias not in taken, (aliased, alias)
            taken.add(alias)

    @property
    def family(self) -> str:
        """The section's title: its text before the first `:` or `;` ("Reductions")."""
        return re.split(r"[:;]", self.section, maxsplit=1)[0].strip() or "Other operators"

    @property
    def inplace_name(self) -> str | None:
        """`add_` for an op with `inplace:`."""
        return None if self.inplace is None else naming.inplace_name(self.name)

    @property
    def inplace_bindings(self) -> tuple[str, ...]:
        """Tensor attributes bound to the in-place variant: `add_`, `__iadd__`."""
        if self.inplace is None or not (self.method or self.operators):
            return ()
        augmented = [naming.INPLACE_OPERATORS[o] for o in self.operators if o in naming.INPLACE_OPERATORS]
        return (naming.inplace_name(self.name), *augmented)

    @property
    def tensor_args(self) -> tuple[Arg, ...]:
        return tuple(a for a in self.args if a.is_tensor)

    @property
    def attrs(self) -> tuple[Arg, ...]:
        return tuple(a for a in self.args if not a.is_tensor)

    @property
    def visible_outputs(self) -> tuple[Output, ...]:
        return tuple(o for o in self.outputs if o.name not in self.intermediate)

    @property
    def differentiable_outputs(self) -> tuple[Output, ...]:
        return tuple(o for o in self.visible_outputs if o.name not in self.non_differentiable)

    def arg(self, name: str) -> Arg | None:
        return next((a for a in self.args if a.name == name), None)

    def output(self, name: str) -> Output | None:
        return next((o for o in self.outputs if o.name == name), None)

    @staticmethod
    def from_yaml(entry: Entry, file: str, problems: Problems) -> OpSpec | None:
        r = Reader(entry, file, problems, "op")
        name = r.pop_name("op", "op name", required=True, reserved=naming.RESERVED_OP_NAMES)
        r.name = name or r.name
        args = r.pop_args("args")
        outputs = r.pop_outputs("output")
        backward = r.pop_name("backward", "backward name")
        kernel = r.pop_name("kernel", "kernel name")
        intermediate = r.pop_names("intermediate", "intermediate output")
        non_diff = r.pop_names("non_differentiable", "non_differentiable output")
        method = r.pop("method", lambda v: isinstance(v, bool | str), "true, false or a method name")
        operators = r.pop(
            "operator",
            lambda v: isinstance(v, list) and all(isinstance(i, str) for i in v),
            "a list of dunder names like [__add__, __radd__]",
        )
        inplace_text = r.pop_str("inplace")
        into = r.pop("inplace_into", lambda v: isinstance(v, bool), "true or false")
        view = r.pop_name("view", "view argument")
        mutates = r.pop_names("mutates", "mutated argument")
        mutates_if = r.pop_name("mutates_if", "mutates_if argument")
        alias_map = r.pop(
            "alias",
            _is_name_mapping,
            "a mapping `{argument: alias}` like {axis: dim, keepdim: keepdims}",
        )
        promote_text = r.pop_str("promote")
        accepts_complex = r.pop("complex", lambda v: isinstance(v, bool), "true or false")
        composite_call = r.pop(
            "composite_call",
            lambda v: v in naming.COMPOSITE_SHORTCUTS,
            f"one of the runtime's shortcuts: {', '.join(sorted(naming.COMPOSITE_SHORTCUTS))}",
        )
        jvp_raw = r.pop(
            "jvp",
            lambda v: (
                isinstance(v, dict) and all(isinstance(k, str) and _is_expression(e) for k, e in v.items())
            ),
            "a mapping from each differentiable output to its tangent's expression (`out: x_t * y`)",
        )
        doc = r.pop_doc()
        arg_docs, grad_doc = r.pop_arg_docs(), r.pop_doc("grad_doc")
        r.finish(OP_KEYS)
        if name is None or args is None or outputs is None:
            return None

        if not any(a.type in ("Tensor", "Tensor[]") for a in args):
            r.error(
                "args", "an op needs at least one (non-optional) Tensor or Tensor[] argument to pick a kernel"
            )
        out_names = [o.name for o in outputs]
        for out in outputs:
            if any(a.name == out.name for a in args):
                r.error("output", f"output {out.name!r} has the same name as an argument")
            if out.count is not None:
                counted = next((a for a in args if a.name == out.count), None)
                if counted is None or counted.is_tensor:
                    r.error(
                        "output",
                        f"count {{{out.count}}} of output {out.name!r} must name a non-tensor argument",
                    )
        for key, listed in (("intermediate", intermediate), ("non_differentiable", non_diff)):
            for item in listed:
                if item not in out_names:
                    r.error(key, f"{key} {item!r} is not an output (outputs: {', '.join(out_names)})")
        visible = [o for o in out_names if o not in intermediate]
        if not visible:
            r.error("intermediate", "every output is intermediate; the caller must see at least one")
        differentiable = [o for o in visible if o not in non_diff]
        if backward is None and differentiable and "backward" not in entry:
            r.error(
                None,
                f"no `backward:` but outputs {', '.join(differentiable)} are differentiable; "
                "add a backward entry or list them under non_differentiable",
            )
        if backward is not None and not differentiable:
            r.error(
                "backward",
                "every output is non_differentiable (or intermediate), so `backward:` makes no sense",
            )
        for out in outputs:
            if out.is_list and backward is not None and (out.name in non_diff or out.name in intermediate):
                r.error(
                    "output", f"Tensor[] output {out.name!r} of a differentiable op must be differentiable"
                )
        if intermediate and backward is None:
            r.error("intermediate", "intermediate outputs only make sense for an op with a backward")

        method_name: str | None = None
        if method is True:
            method_name = name
        elif isinstance(method, str):
            if r.check_name("method", method, "method name"):
                method_name = method
        if method_name is not None and args[0].type != "Tensor":
            r.error(
                "method", f"a method binds the first argument to self, so it must be a Tensor, not {args[0]}"
            )
        for op_name in operators or []:
            _check_operator(r, op_name, args)
        if operators is not None and len(set(operators)) != len(operators):
            r.error("operator", "an operator is listed twice")
        inplace = None if inplace_text is None else _check_inplace(r, inplace_text, args, outputs, backward)
        if into and inplace is None:
            r.error("inplace_into", "inplace_into needs `inplace: (x -> out)` (the variant it speeds up)")
            into = False
        elif into and any(a.is_tensor and a.type != "Tensor" for a in args):
            r.error("inplace_into", "an op with a Tensor[] or Tensor? argument cannot write into x directly")
            into = False
        if view is not None:
            arg = next((a for a in args if a.name == view), None)
            if arg is None or arg.type != "Tensor":
                tensors = ", ".join(a.name for a in args if a.type == "Tensor") or "none"
                r.error("view", f"view {view!r} must name a Tensor argument (Tensor arguments: {tensors})")
                view = None
            elif inplace is not None:
                r.error("view", "an op whose output is a view of its input cannot also be in place")
        mutated: list[str] = []
        for m in mutates:
            arg = next((a for a in args if a.name == m), None)
            if arg is None or arg.type not in ("Tensor", "Tensor?"):
                tensors = ", ".join(a.name for a in args if a.type in ("Tensor", "Tensor?")) or "none"
                r.error("mutates", f"mutates {m!r} must name a Tensor argument (Tensor arguments: {tensors})")
            else:
                mutated.append(m)
        if mutates_if is not None:
            flag = next((a for a in args if a.name == mutates_if), None)
            if not mutates:
                r.error("mutates_if", "mutates_if needs a `mutates:` list of the arguments it guards")
                mutates_if = None
            elif flag is None or flag.type != "bool":
                bools = ", ".join(a.name for a in args if a.type == "bool") or "none"
                r.error(
                    "mutates_if",
                    f"mutates_if {mutates_if!r} must name a bool argument (bool arguments: {bools})",
                )
                mutates_if = None

        aliases = _check_aliases(r, alias_map or {}, args, outputs)
        promote = None if promote_text is None else _check_promote(r, promote_text, args)
        return _build(
            OpSpec,
            name=name,
            args=tuple(args),
            outputs=tuple(outputs),
            backward=backward,
            kernel=kernel or name,
            intermediate=tuple(i for i in intermediate if i in out_names),
            non_differentiable=tuple(i for i in non_diff if i in out_names),
            method=method_name,
            operators=tuple(o for o in operators or () if o in naming.KNOWN_OPERATORS),
            inplace=inplace,
            view=view,
            mutates=tuple(mutated),
            mutates_if=mutates_if if mutated else None,
            doc=doc or f"The `{name}` operator.",
            lines=r.lines,
            aliases=aliases,
            promote=promote,
            arg_docs=arg_docs,
            grad_doc=grad_doc,
            section=getattr(entry, "section", ""),
            jvp=_jvp_sources(r, jvp_raw, [o.name for o in outputs if o.name in differentiable]),
            complex=bool(accepts_complex),
            composite_call=composite_call,
            inplace_into=bool(into),
        )


def _build(cls: type, **fields: Any) -> Any:
    """The dataclass, or None if the entry's errors (already reported) broke an invariant.

    An entry with errors that leave it consistent still takes part in the cross-entry
    checks, so that their errors are reported in the same run.
    """
    try:
        return cls(**fields)
    except AssertionError:
        return None


_INPLACE = re.compile(r"\(\s*(?P<x>[^\s()]+)\s*->\s*(?P<out>[^\s()]+)\s*\)\Z")


def _check_inplace(
    r: Reader, text: str, args: list[Arg], outputs: list[Output], backward: str | None
) -> tuple[str, str] | None:
    """`(x -> out)`: x is the op's first tensor argument, out its only output."""
    m = _INPLACE.fullmatch(text.strip())
    if m is None:
        r.error("inplace", f"inplace {text!r} is not `(x -> out)`: the input written to and the output")
        return None
    x, out = m["x"], m["out"]
    ok = True
    first = next((a for a in args if a.is_tensor), None)
    if first is None or first.name != x:
        expected = "the op has none" if first is None else f"expected {first.name!r}"
        r.error(
            "inplace", f"inplace writes into {x!r}, which must be the op's first tensor argument ({expected})"
        )
        ok = False
    elif first.type != "Tensor":
        r.error("inplace", f"inplace target {x!r} must be a plain Tensor, not `{first}`")
        ok = False
    if len(outputs) != 1:
        names = ", ".join(o.name for o in outputs)
        r.error("inplace", f"only a single-output op can be in place; this one has outputs {names}")
        ok = False
    elif outputs[0].name != out:
        r.error("inplace", f"inplace output {out!r} is not the op's output {outputs[0].name!r}")
        ok = False
    elif outputs[0].is_list:
        r.error("inplace", f"a Tensor[] output ({out!r}) cannot be written in place")
        ok = False
    if backward is None:
        r.error(
            "inplace",
            "an in-place op needs a `backward:` (its target's history is replaced by the op's node)",
        )
        ok = False
    return (x, out) if ok else None


_PROMOTE = re.compile(r"(?P<mode>common|float)\(\s*(?P<names>[^()]*?)\s*\)\Z")


def _check_promote(r: Reader, text: str, args: list[Arg]) -> tuple[str, tuple[str, ...]] | None:
    """`common(x, y)` / `float(x)`: Tensor arguments (the first a plain one; optional ones are
    skipped when None), or one Tensor[] alone; `common`
    may also name `Scalar` attributes (a float there makes an integer tensor floating)."""
    m = _PROMOTE.fullmatch(text.strip())
    if m is None or not m["names"]:
        r.error("promote", f"promote {text!r} is not `common(x, y)` or `float(x, ...)` (tensor arguments)")
        return None
    names = tuple(n.strip() for n in m["names"].split(","))
    by_name = {a.name: a for a in args}
    ok = len(set(names)) == len(names)
    if not ok:
        r.error("promote", f"promote {text!r} names an argument twice")
    for n in names:
        arg = by_name.get(n)
        scalar = arg is not None and arg.base_type == "Scalar" and m["mode"] == "common"
        if arg is None or (arg.type not in ("Tensor", "Tensor[]", "Tensor?") and not scalar):
            tensors = ", ".join(a.name for a in args if a.type in ("Tensor", "Tensor[]"))
            r.error(
                "promote",
                f"promote {n!r} must name a Tensor or Tensor[] argument (those: {tensors}), "
                "or in common(...) a Scalar",
            )
            ok = False
        elif arg.is_tensor_list and len(names) > 1:
            r.error("promote", f"a Tensor[] argument ({n!r}) is promoted alone")
            ok = False
    if ok and by_name[names[0]].type not in ("Tensor", "Tensor[]"):
        r.error("promote", f"promote lists a plain Tensor first, not {by_name[names[0]]}")
        ok = False
    return (m["mode"], names) if ok else None


def _is_name_mapping(value: Any) -> bool:
    return isinstance(value, dict) and all(
        isinstance(k, str) and isinstance(a, str) for k, a in value.items()
    )


def _check_aliases(
    r: Reader, alias_map: dict[str, str], args: list[Arg], outputs: list[Output]
) -> tuple[tuple[str, str], ...]:
    """`alias: {axis: dim}`: each key an argument, each alias a new identifier (not an
    argument, an output, another alias or a name the generated code uses); in args order."""
    names = {a.name for a in args} | {o.name for o in outputs}
    seen: set[str] = set()
    good: dict[str, str] = {}
    attrs = [a.name for a in args if not a.is_tensor]
    for arg, alias in alias_map.items():
        if arg not in attrs:
            listed = ", ".join(attrs) or "none"
            r.error("alias", f"alias key {arg!r} is not an attribute argument (attributes: {listed})")
            continue
        at = next(i for i, a in enumerate(args) if a.name == arg)
        later = [a.name for a in args[at + 1 :] if a.default is None]
        if args[at].default is None and later:
            r.error(
                "alias",
                f"{arg!r} is required, so its alias makes it optional; the arguments after it "
                f"({', '.join(later)}) need defaults too",
            )
            continue
        if not r.check_name("alias", alias, f"alias of {arg!r}", naming.RESERVED_ARG_NAMES):
            continue
        if alias in names:
            r.error("alias", f"alias {alias!r} of {arg!r} is already an argument or output of the op")
        elif alias in seen:
            r.error("alias", f"alias {alias!r} is given to two arguments")
        else:
            seen.add(alias)
            good[arg] = alias
    return tuple((a.name, good[a.name]) for a in args if a.name in good)


def _check_operator(r: Reader, op_name: str, args: list[Arg]) -> None:
    if op_name not in naming.KNOWN_OPERATORS:
        r.error(
            "operator", f"unknown operator {op_name!r}; known: {', '.join(sorted(naming.KNOWN_OPERATORS))}"
        )
        return
    operands = 1 if op_name in naming.UNARY_OPERATORS else 2
    if len(args) < operands:
        r.error("operator", f"{op_name} takes {operands} operand(s) but the op has {len(args)} argument(s)")
        return
    if args[0].type != "Tensor":
        r.error(
            "operator", f"{op_name} binds the first argument to self, so it must be a Tensor, not `{args[0]}`"
        )
    if op_name in naming.REFLECTED_OPERATORS and args[1].type != "Tensor":
        r.error("operator", f"reflected {op_name} passes self as the second argument, so it must be a Tensor")
    rest = [a.name for a in args[operands:] if a.default is None]
    if rest:
        r.error(
            "operator", f"{op_name} passes {operands} operand(s); arguments {', '.join(rest)} need defaults"
        )


@dataclass(frozen=True)
class ForwardSig:
    """What a backward entry differentiates: derived from the entry whose `backward:` names
    it, or a `forward:` written in backward.yaml, which is then checked against that entry
    (`tanh`, or the whole signature `tanh (Tensor x) -> Tensor(out)`). `args` and
    `outputs` are None when nothing but the name was given or derived."""

    name: str
    args: tuple[Arg, ...] | None = None
    outputs: tuple[Output, ...] | None = None


@dataclass(frozen=True)
class CompositeSource:
    """The composite of one gradient output, as written: steps (`name = expr`), then the
    gradient's expression; `lines` holds the line of each (for errors)."""

    output: str
    steps: tuple[str, ...]
    lines: tuple[int, ...]


@dataclass(frozen=True)
class BackwardSpec:
    """One backward.yaml entry, checked on its own."""

    name: str
    forward: ForwardSig | None  # None until validate.py derives it (see ForwardSig)
    args: tuple[Arg, ...]
    outputs: tuple[Output, ...]
    no_need_buffer: tuple[str, ...]
    no_gradient: tuple[str, ...]  # forward tensor inputs that get no gradient (None)
    kernel: str | None  # None for a composite without an explicit `kernel:`
    backward: str | None
    composite: tuple[CompositeSource, ...] | None  # one per output, in output order
    doc: str
    lines: KeyLines
    needs_input_grad: bool = False  # the kernel takes `needs` and may skip unused gradients
    # forward mode for a kernel entry's grad op (forward-over-reverse): one tangent per output
    jvp: tuple[CompositeSource, ...] = ()

    @property
    def forward_sig(self) -> ForwardSig:
        """`forward`, which validate.py has derived (or checked) by the time anything reads it."""
        assert self.forward is not None, f"{self.name}: forward not derived yet"
        return self.forward

    def __post_init__(self) -> None:
        assert self.kernel is not None or self.composite is not None
        assert set(self.no_need_buffer) <= {a.name for a in self.args}
        assert not {g for n in self.no_gradient for g in _grads_of(n)} & {o.name for o in self.outputs}
        if self.composite is not None:
            assert [c.output for c in self.composite] == [o.name for o in self.outputs]
            assert self.backward is None

    @property
    def has_grad_op(self) -> bool:
        """A kernel-only entry: grad_ops.py has a differentiable function for it."""
        return self.composite is None

    def arg(self, name: str) -> Arg | None:
        return next((a for a in self.args if a.name == name), None)

    @staticmethod
    def from_yaml(entry: Entry, file: str, problems: Problems) -> BackwardSpec | None:
        r = Reader(entry, file, problems, "backward_op")
        name = r.pop_name("backward_op", "backward_op name", required=True, reserved=naming.RESERVED_OP_NAMES)
        r.name = name or r.name
        forward_text = r.pop_str("forward")
        forward: ForwardSig | None = None
        if forward_text is not None and forward_text.strip().isidentifier():
            if r.check_name("forward", forward_text.strip(), "forward op name"):
                forward = ForwardSig(forward_text.strip())
        elif forward_text is not None:
            try:
                fname, fargs, fouts = parse_forward(forward_text)
                forward = ForwardSig(fname, tuple(fargs), tuple(fouts))
            except GrammarError as exc:
                r.error("forward", str(exc))
                return None
        args = r.pop_args("args")
        outputs = r.pop_outputs("output")
        no_need_buffer = r.pop_names("no_need_buffer", "no_need_buffer argument")
        no_gradient = r.pop_names("no_gradient", "no_gradient input")
        kernel = r.pop_name("kernel", "kernel name")
        backward = r.pop_name("backward", "backward name")
        composite_raw = r.pop(
            "composite",
            lambda v: (
                _is_expression(v)
                or (
                    isinstance(v, dict)
                    and all(isinstance(k, str) and _is_expression(e) for k, e in v.items())
                )
            ),
            "an expression, a list of steps, or a mapping `<x_grad>: <expression or steps>`",
        )
        needs_input_grad = r.pop("needs_input_grad", lambda v: isinstance(v, bool), "true or false")
        jvp_raw = r.pop(
            "jvp",
            lambda v: (
                isinstance(v, dict) and all(isinstance(k, str) and _is_expression(e) for k, e in v.items())
            ),
            "a mapping from each output to its tangent's expression (`x_grad: out_grad_t * y`)",
        )
        doc = r.pop_doc()
        r.finish(BACKWARD_KEYS)
        if name is None or args is None or outputs is None:
            return None
        if needs_input_grad and composite_raw is not None and kernel is None:
            r.error("needs_input_grad", "needs_input_grad needs a kernel: add `kernel:` or remove it")
        if needs_input_grad and any(o.is_list for o in outputs):
            r.error("needs_input_grad", "needs_input_grad is not supported with a Tensor[] gradient output")

        for arg in args:
            if not arg.is_tensor:
                r.error(
                    "args",
                    f"argument `{arg}` is not a tensor; list only tensors here "
                    "(the forward op's attributes are passed to the grad kernel automatically)",
                )
            elif arg.default is not None:
                r.error("args", f"argument `{arg}` of a backward op cannot have a default")
        arg_names = [a.name for a in args]
        for item in no_need_buffer:
            if item not in arg_names:
                r.error(
                    "no_need_buffer",
                    f"no_need_buffer {item!r} is not an argument (args: {', '.join(arg_names)})",
                )
        for out in outputs:
            if out.count is not None:
                r.error("output", f"gradient output {out.name!r} cannot take a {{count}}")
        out_names = [o.name for o in outputs]
        for item in no_gradient:
            for grad in _grads_of(item):
                if grad in out_names:
                    r.error("no_gradient", f"no_gradient {item!r}: {grad!r} is an output")

        composite: tuple[CompositeSource, ...] | None = None
        if composite_raw is not None:
            if backward is not None:
                r.error(
                    "backward", "a composite backward is differentiated through its ops; remove `backward:`"
                )
            out_names = [o.name for o in outputs]
            line = r.lines("composite").line
            if not isinstance(composite_raw, dict):
                if len(outputs) != 1:
                    r.error(
                        "composite",
                        f"several outputs ({', '.join(out_names)}): write `composite:` as a mapping",
                    )
                else:
                    composite = (_composite_source(outputs[0].name, composite_raw, line),)
            else:
                if sorted(composite_raw) != sorted(out_names):
                    r.error(
                        "composite",
                        f"composite keys ({', '.join(composite_raw)}) must be the outputs "
                        f"({', '.join(out_names)})",
                    )
                else:
                    key_lines = getattr(composite_raw, "key_lines", {})
                    composite = tuple(
                        _composite_source(o, composite_raw[o], key_lines.get(o, line)) for o in out_names
                    )

        if composite_raw is not None and composite is None:
            return None
        if jvp_raw is not None and composite is not None:
            r.error(
                "jvp",
                "a composite backward's tangents come from its ops; only a kernel entry (one with a grad "
                "op function) takes `jvp:`",
            )
        jvp = _jvp_sources(r, jvp_raw, out_names) if composite is None else ()
        return _build(
            BackwardSpec,
            name=name,
            forward=forward,
            args=tuple(args),
            outputs=tuple(outputs),
            no_need_buffer=tuple(n for n in no_need_buffer if n in arg_names),
            no_gradient=tuple(n for n in no_gradient if not set(_grads_of(n)) & set(out_names)),
            kernel=kernel if composite is not None else (kernel or name),
            backward=None if composite is not None else backward,
            composite=composite,
            doc=doc or "",  # validate.py fills in the default (see `doc` above)
            lines=r.lines,
            needs_input_grad=bool(needs_input_grad),
            jvp=jvp,
        )


def _grads_of(name: str) -> tuple[str, str]:
    """The names the gradient for input `name` may have: of an op's input, of a grad op's."""
    return naming.input_grad(name, False), naming.input_grad(name, True)


def _jvp_sources(
    r: Reader, raw: dict[str, Any] | None, differentiable: list[str]
) -> tuple[CompositeSource, ...]:
    """`jvp:` as written: exactly the differentiable outputs (a backward entry's: all its
    outputs), each an expression or steps."""
    if raw is None:
        return ()
    if sorted(raw) != sorted(differentiable):
        r.error(
            "jvp",
            f"jvp keys ({', '.join(raw)}) must be the differentiable outputs "
            f"({', '.join(differentiable) or 'none'})",
        )
        return ()
    line = r.lines("jvp").line
    key_lines = getattr(raw, "key_lines", {})
    return tuple(_composite_source(o, raw[o], key_lines.get(o, line)) for o in differentiable)


def _is_expression(value: Any) -> bool:
    """A non-empty string, or a non-empty list of them (steps)."""
    if isinstance(value, str):
        return value.strip() != ""
    return isinstance(value, list) and bool(value) and all(isinstance(v, str) and v.strip() for v in value)


def _composite_source(output: str, value: str | list[str], line: int) -> CompositeSource:
    if isinstance(value, str):
        return CompositeSource(output, (value.strip(),), (line,))
    lines = getattr(value, "lines", None) or [line] * len(value)
    return CompositeSource(output, tuple(v.strip() for v in value), tuple(lines))
