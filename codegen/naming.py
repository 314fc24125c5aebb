"""Every name the generator derives, in one place.

`tanh_grad` -> `TanhGradNode`; `x` -> `x_grad`; the generated modules and the runtime
names they import. Validation uses the reserved sets here so that a spec name can never
shadow something the generated code relies on.
"""

from __future__ import annotations

# Generated modules (in `generated/`), in the order they are written.
OPS_MODULE = "ops"
GRAD_OPS_MODULE = "grad_ops"
NODES_MODULE = "nodes"
TENSOR_METHODS_MODULE = "tensor_methods"
JVP_MODULE = "jvp"  # forward-mode rules, one function per op and grad op (plan_jvp.py)
PACKAGE_INIT = "__init__"

# How generated modules refer to each other and to builtins (`from opgrad.generated import
# nodes as _nodes`; `import builtins as _builtins`, so that a spec name never shadows one).
OPS_ALIAS = "_ops"
GRAD_OPS_ALIAS = "_grad_ops"
NODES_ALIAS = "_nodes"
GENERATED_ALIAS = "_generated"  # the generated package itself (tensor_methods.py)
JVP_ALIAS = "_jvp"
BUILTINS_ALIAS = "_builtins"
# Locals holding a kernel's raw result (one array, or the tuple of several before unpacking).
KERNEL_RESULT = "_result"
KERNEL_RESULTS = "_results"
# The local a jvp rule's kernel path reads its input's tangent array into (plain_tangent).
JVP_TANGENT_ARRAY = "_tangent"
# Prefix of the module-level kernel tables (`_k_tanh = kernel_table("tanh")`).
KERNEL_TABLE_PREFIX = "_k_"

SPEC_FILES = ("ops.yaml", "backward.yaml")
REGENERATE_COMMAND = "python -m opgrad.codegen"

# Runtime functions an op's `composite_call:` may name: composites call them instead of the op.
COMPOSITE_SHORTCUTS = frozenset({"conj_if_complex"})

# Names the generated code imports or uses unqualified; spec names may not take them.
RUNTIME_NAMES = frozenset(
    {
        "Tensor",
        "TensorMeta",
        "TensorWrapper",
        "Saved",
        "GradNode",
        "wrap",
        "as_tensor_arg",
        "tensors_of",
        "kernel_table",
        "kernel_error",
        "kernel_results_error",
        "float_arg",
        "scalar_arg",
        "int_arg",
        "bool_arg",
        "alias_arg",
        "promote_args",
        "FLOAT_DTYPES",
        "COMPLEX_DTYPES",
        "COMPLEX_OPS",
        "refuse_complex",
        "conj_if_complex",
        "promote_float",
        "promote_list",
        "str_arg",
        "int_list_arg",
        "dtype_arg",
        "grad_enabled",
        "set_history",
        "new_node",
        "new_node_of",
        "recorded",
        "unpack",
        "unpack_data",
        "dispatch",
        "check_inplace",
        "saved_before_write",
        "write_inplace",
        "write_into",
        "mark_view",
        "bump_versions",
        # forward mode (runtime/dual.py)
        "FORWARD",
        "KERNEL_TANGENT",
        "tangents",
        "tangent_of",
        "set_output_tangent",
        "plain_tangent",
        "set_tangent",
        "rule_scope",
        "pause_rules",
        "resume_rules",
        "derive",
        "no_tangent_rule",
        "write_tangent",
        "isinstance",
        # the classes attribute checks compare with (`if p.__class__ is not float:`)
        "float",
        "int",
        "bool",
        "str",
        "tuple",
        "annotations",
        "Any",
        "Sequence",
        "TYPE_CHECKING",
    }
)
# Locals and parameters of generated functions and methods.
GENERATED_LOCALS = frozenset({"self", "node", "grads", "create_graph", "other", "record"})
# Attributes every grad node has (a saved tensor or attribute slot may not take them).
NODE_ATTRIBUTES = frozenset(
    {
        "name",
        "apply",
        "release_saved",
        "next_edges",
        "next_nodes",
        "next_functions",
        "input_meta",
        "output_meta",
        "output_meta_at",
        "n_positions",
        "output_slots",
        "non_differentiable_outputs",
        "seq",
        "trace",
        "register_hook",
        "register_prehook",
    }
)
RESERVED_ARG_NAMES = RUNTIME_NAMES | GENERATED_LOCALS | NODE_ATTRIBUTES
RESERVED_OP_NAMES = RUNTIME_NAMES | frozenset({"ops", "grad_ops", "nodes", "tensor_methods", "jvp"})

# Python operators an op may be bound to, with the number of tensor operands they take.
UNARY_OPERATORS = frozenset({"__neg__", "__pos__", "__abs__", "__invert__"})
BINARY_OPERATORS = frozenset(
    {
        "__add__",
        "__sub__",
        "__mul__",
        "__truediv__",
        "__floordiv__",
        "__mod__",
        "__pow__",
        "__matmul__",
        "__and__",
        "__or__",
        "__xor__",
        "__lt__",
        "__le__",
        "__gt__",
        "__ge__",
        "__eq__",
        "__ne__",
    }
)
REFLECTED_OPERATORS = frozenset(
    {
        "__radd__",
        "__rsub__",
        "__rmul__",
        "__rtruediv__",
        "__rfloordiv__",
        "__rmod__",
        "__rpow__",
        "__rmatmul__",
        "__rand__",
        "__ror__",
        "__rxor__",
    }
)
KNOWN_OPERATORS = UNARY_OPERATORS | BINARY_OPERATORS | REFLECTED_OPERATORS
# The augmented assignment bound to an op's in-place variant when the op has the operator
# (`x += y` calls `add_(x, y)`); comparisons have none.
INPLACE_OPERATORS = {
    "__add__": "__iadd__",
    "__sub__": "__isub__",
    "__mul__": "__imul__",
    "__truediv__": "__itruediv__",
    "__floordiv__": "__ifloordiv__",
    "__mod__": "__imod__",
    "__pow__": "__ipow__",
    "__matmul__": "__imatmul__",
    "__and__": "__iand__",
    "__or__": "__ior__",
    "__xor__": "__ixor__",
}


def grad_name(name: str) -> str:
    """The gradient that flows into output `name` (`out` -> `out_grad`), and the one a
    backward entry returns for input `name` of an ops.yaml op (`x` -> `x_grad`)."""
    return f"{name}_grad"


GRAD_WRT_PREFIX = "grad_wrt_"


def input_grad(name: str, of_grad_op: bool) -> str:
    """The gradient a backward entry returns for input `name` of what it differentiates:
    `x_grad` for an op's input, `grad_wrt_out` for a grad op's. A grad op's inputs already
    include gradients (`tanh_grad (out, out_grad)`), so `out_grad` cannot also name the
    gradient with respect to `out`: `tanh_double_grad` returns `grad_wrt_out` and
    `grad_wrt_out_grad`."""
    return f"{GRAD_WRT_PREFIX}{name}" if of_grad_op else grad_name(name)


def inplace_name(op: str) -> str:
    """The in-place variant of an op (function and Tensor method): `add` -> `add_`."""
    return f"{op}_"


def camel(name: str) -> str:
    """`tanh_double_grad` -> `TanhDoubleGrad`."""
    return "".join(part[:1].upper() + part[1:] for part in name.split("_") if part)


def kernel_table(kernel: str) -> str:
    """The module-level `kernel_table(kernel)` a kernel is looked up in: `_k_tanh`."""
    return f"{KERNEL_TABLE_PREFIX}{kernel}"


def array_local(name: str) -> str:
    """The local holding the arrays of a Tensor[] (or an optional tensor's array): `_xs_data`."""
    return f"_{name}_data"


def result_local(position: int) -> str:
    """The array a kernel returned at `position`, when it returns several: `_r0`, `_r1`."""
    return f"_r{position}"


def count_slot(name: str) -> str:
    """The node slot holding how many tensors a Tensor[] input without gradient had."""
    return f"_{name}_count"


def node_class(backward_op: str) -> str:
    """The GradNode subclass for a backward op: `tanh_grad` -> `TanhGradNode`."""
    return f"{camel(backward_op)}Node"


# Every generated file starts with `header(kind)`; the writer owns only files that do.
HEADER_PREFIX = "# @generated "
HEADER_SUFFIX = f"by `{REGENERATE_COMMAND}`. Do not edit."


# The operator reference page (docs_page.py), relative to the spec folder, and its first
# line: an HTML comment, invisible when rendered, that marks the file as the generator's.
PAGE = "docs/ops.md"
PAGE_HEADER = f"<!-- @generated docs from {' and '.join(SPEC_FILES)} {HEADER_SUFFIX} -->"


def header(kind: str) -> str:
    """First line of every generated file (no timestamps, versions or paths)."""
    return f"{HEADER_PREFIX}{kind} from {' and '.join(SPEC_FILES)} {HEADER_SUFFIX}"
