/* Optional C versions of the hottest pure-Python primitives of a recorded op.
 *
 * Each function here is an exact equivalent of one Python function, which stays the
 * definition (and the default): `runtime/_accel.py` binds these in its place only when
 * this extension was built (`python tools/build_speedups.py`) and OPGRAD_PURE is unset.
 *   recorded(cls, data, a[, b])       grad_node.recorded (with accumulator_of's common case)
 *   of_output(t, node)                tensor_wrapper.TensorWrapper.of_output
 *   of_edge(t)                        tensor_wrapper.TensorWrapper.of_edge
 *   meta_of(t)                        tensor_wrapper.TensorWrapper.meta_of
 *   accumulator_of(t), edge_to(t)     grad_node's (a leaf's AccumulateGrad made here: acc_make)
 *   of_input(t)                       tensor_wrapper.TensorWrapper.of_input
 *   wrap(data)                        runtime.tensor.wrap
 *   run_backward, count_deps          engine_loop.run_backward (and run_grad), engine._count_deps
 *   backward, tensor_backward         engine.backward's lean one-loss path, Tensor.backward
 *   op(context, function, row)        a generated op of one plain body shape (codegen/plan_fast.py):
 *                                     the C driver, whose fallback is that function (see below);
 *                                     kernels marked same_as_ufunc run as their ufunc
 *   node_apply                        a generated node's first-order apply (codegen/plan_fast_nodes.py),
 *                                     with matmul_grad's, add_grad's and tanh_grad's common cases
 *   cross_entropy_plain, _grad_plain  cross_entropy's kernels' plain path (kernels/generic/nn.py)
 * Each takes only the common case and otherwise calls the Python function it replaces
 * (its "fallback") with the same arguments, before anything observable happened: a keyword
 * argument, a subclass of Tensor, a node class that changed how its slots are reached,
 * anomaly mode, saved-tensor hooks, a slot never set. The C path reads and writes the
 * objects' __slots__ at the offsets of their member descriptors, read at setup, and only
 * for types that still reach those same descriptors (checked once per type version: see
 * `layout_ok`), so it stores exactly what the Python statements store.
 *
 * The node's edge layout (`_next0`, `_next1`, `_nexts`, `_at`: see Edge in grad_node.py) is
 * written in one function, `set_edges`, and named in node_L: a layout change touches those
 * two places.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <float.h>
#include <math.h>
#include <fenv.h>
#include <stdint.h>

#define SLOT(obj, off) (*(PyObject **)((char *)(obj) + (off)))

/* -- layouts: a base type's slots, by name, and a cache of types checked to reach them -- */

#define MAX_SLOTS 16
#define CACHE_SIZE 64

typedef struct {
    PyTypeObject *type;
    unsigned int tag;
} CacheEntry;

typedef struct {
    const char *what;
    PyTypeObject *base;
    int n;
    const char *names[MAX_SLOTS];
    PyObject *name_objs[MAX_SLOTS];
    PyObject *descrs[MAX_SLOTS];
    Py_ssize_t offs[MAX_SLOTS];
    CacheEntry cache[CACHE_SIZE];
} Layout;

/* The node layout: index constants below follow this order. */
static Layout node_L = {"GradNode", NULL, 12,
                        {"_next0", "_next1", "_nexts", "_at", "_shape", "_dtype", "_atype", "_more", "seq",
                         "_released", "_hooks", "trace"}};
enum { N_NEXT0, N_NEXT1, N_NEXTS, N_AT, N_SHAPE, N_DTYPE, N_ATYPE, N_MORE, N_SEQ, N_RELEASED, N_HOOKS, N_TRACE };

static Layout tensor_L = {"Tensor", NULL, 9,
                          {"_data", "_requires_grad", "_node", "_pos", "_grad", "_vc", "_acc", "_extra",
                           "_dual"}};
enum { T_DATA, T_RG, T_NODE, T_POS, T_GRAD, T_VC, T_ACC, T_EXTRA, T_DUAL };

static Layout output_L = {"_Output", NULL, 5, {"value", "shared", "data", "pos", "seq"}};
enum { O_VALUE, O_SHARED, O_DATA, O_POS, O_SEQ };

static Layout meta_L = {"_Meta", NULL, 2, {"dtype", "_where"}};
enum { M_DTYPE, M_WHERE };

static int
layout_init(Layout *L, PyObject *type)
{
    if (!PyType_Check(type)) {
        PyErr_Format(PyExc_TypeError, "_speedups: %s is not a type", L->what);
        return -1;
    }
    Py_XDECREF(L->base);
    Py_INCREF(type);
    L->base = (PyTypeObject *)type;
    memset(L->cache, 0, sizeof(L->cache));
    for (int i = 0; i < L->n; i++) {
        PyObject *name = PyUnicode_InternFromString(L->names[i]);
        if (name == NULL)
            return -1;
        Py_XSETREF(L->name_objs[i], name);
        PyObject *d = _PyType_Lookup(L->base, name); /* borrowed */
        if (d == NULL || Py_TYPE(d) != &PyMemberDescr_Type) {
            PyErr_Format(PyExc_TypeError, "_speedups: %s.%s is not a slot", L->what, L->names[i]);
            return -1;
        }
        PyMemberDef *m = ((PyMemberDescrObject *)d)->d_member;
        if (m->type != T_OBJECT_EX || (m->flags & READONLY)) {
            PyErr_Format(PyExc_TypeError, "_speedups: %s.%s is not an object slot", L->what, L->names[i]);
            return -1;
        }
        Py_INCREF(d);
        Py_XSETREF(L->descrs[i], d);
        L->offs[i] = m->offset;
    }
    return 0;
}

/* True when instances of `t` keep L's slots where L's base does and Python code reading or
 * writing them (`obj.name`, `obj.name = v`) reaches exactly those member descriptors. */
static int
layout_ok(Layout *L, PyTypeObject *t)
{
    CacheEntry *e = &L->cache[((uintptr_t)t >> 4) & (CACHE_SIZE - 1)];
    if (e->type == t && e->tag == t->tp_version_tag && PyType_HasFeature(t, Py_TPFLAGS_VALID_VERSION_TAG))
        return 1;
    if (L->base == NULL || !PyType_IsSubtype(t, L->base))
        return 0;
    if (t->tp_setattro != PyObject_GenericSetAttr || t->tp_getattro != PyObject_GenericGetAttr)
        return 0;
    for (int i = 0; i < L->n; i++) {
        if (_PyType_Lookup(t, L->name_objs[i]) != L->descrs[i])
            return 0;
    }
    if (PyType_HasFeature(t, Py_TPFLAGS_VALID_VERSION_TAG)) {
        e->type = t;
        e->tag = t->tp_version_tag;
    }
    return 1;
}

/* obj.<slot i> as a new reference: the slot when set, else Python's getattr (its error). */
static inline PyObject *
get(Layout *L, PyObject *obj, int i)
{
    PyObject *v = SLOT(obj, L->offs[i]);
    if (v != NULL) {
        Py_INCREF(v);
        return v;
    }
    return PyObject_GetAttr(obj, L->name_objs[i]);
}

/* obj.<name> for an object of any type: the slot when its type has L's layout. */
static inline PyObject *
get_any(Layout *L, PyObject *obj, int i)
{
    if (layout_ok(L, Py_TYPE(obj)))
        return get(L, obj, i);
    return PyObject_GetAttr(obj, L->name_objs[i]);
}

/* obj.<slot i> = v (a new reference is taken). */
static inline void
put(Layout *L, PyObject *obj, int i, PyObject *v)
{
    PyObject **p = &SLOT(obj, L->offs[i]);
    PyObject *old = *p;
    Py_INCREF(v);
    *p = v;
    Py_XDECREF(old);
}

static inline void
put_none(Layout *L, PyObject *obj, const int *which, int n)
{
    for (int i = 0; i < n; i++)
        put(L, obj, which[i], Py_None);
}

/* -- shared state, set by the setup functions ------------------------------------------ */

static PyObject *empty_tuple, *zero, *str_shape, *str_dtype, *str_class, *str_active_hooks, *str_active;
static PyObject *np_asarray, *dtype_kwnames; /* numpy.asarray, ("dtype",) */
static PyTypeObject *ndarray_type; /* whose `__class__` is its type: read without a getattr */

static PyObject *rec_fallback;  /* grad_node.recorded */
static PyObject *rec_seq;       /* grad_node._SEQ, an itertools.count */
static PyObject *rec_anomaly;   /* grad_node._ANOMALY */
static Py_ssize_t anomaly_enabled_off = -1;
static PyObject *rec_zeros1, *rec_zeros2; /* grad_node._ZEROS[1], _ZEROS[2] */
static PyObject *rec_one;       /* grad_node._ONE */
static PyObject *rec_acc_of;    /* grad_node.accumulator_of */

static PyObject *tw_globals;    /* tensor_wrapper's module dict (for _ACTIVE_HOOKS) */
static PyObject *tw_of_output, *tw_of_edge, *tw_meta_of; /* the Python functions */
static PyObject *tw_last;       /* tensor_wrapper._LAST */

/* The Python function a C one stands in for (NULL until its setup ran: a RuntimeError, never a
 * call through NULL). */
static inline PyObject *
call_fallback(PyObject *fn, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    if (fn == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "_speedups: a function called before its setup (see _accel.py)");
        return NULL;
    }
    return PyObject_Vectorcall(fn, args, nargsf, kwnames);
}

/* Whether dict d maps name to v (borrowed read; an error reads as "not it"). */
static inline int
global_is(PyObject *g, const char *name, PyObject *v)
{
    PyObject *got = PyDict_GetItemString(g, name);
    return got != NULL && got == v;
}

/* A dict's version tag: any change of it changes the tag. */
static inline uint64_t
dict_version(PyObject *d)
{
    return ((PyDictObject *)d)->ma_version_tag;
}

/* f is a built-in function whose C code is c. */
static inline int
is_c_function(PyObject *f, PyCFunction c)
{
    return f != NULL && PyCFunction_Check(f) && PyCFunction_GET_FUNCTION(f) == c;
}

/* a.__class__ for an array: its type for an exact ndarray, else the attribute. */
static inline PyObject *
class_of(PyObject *data)
{
    if (Py_TYPE(data) == ndarray_type) {
        Py_INCREF(ndarray_type);
        return (PyObject *)ndarray_type;
    }
    return PyObject_GetAttr(data, str_class);
}

static inline int
is_tensor(PyObject *t)
{
    return Py_TYPE(t) == tensor_L.base && layout_ok(&tensor_L, tensor_L.base);
}

/* `table.get(ndarray)` when it is a kernel the generated body would call (`... and table.get(cls) or
 * dispatch(...)`: a true value), borrowed in *kernel: 1; 0 for none (dispatch would run);
 * -1 on an error. */
static int
ndarray_kernel(PyObject *table, PyObject **kernel)
{
    *kernel = PyDict_GetItemWithError(table, (PyObject *)ndarray_type);
    if (*kernel == NULL)
        return PyErr_Occurred() ? -1 : 0;
    return PyFunction_Check(*kernel) ? 1 : PyObject_IsTrue(*kernel);
}

/* -- recorded -------------------------------------------------------------------------- */

static PyObject *acc_make(PyObject *t); /* (the section after this one) */

static PyObject *acc_of_rebound(void); /* (the leaf edges' section) */

/* The edge to one input (None, or a Tensor of a type with tensor_L's layout), as `recorded`
 * spells it for a and b: *n the node (or None), *p its output position; for a, `*shape`
 * becomes the node's shape tuple when equal. */
static int
edge_of(PyObject *t, PyObject **n, PyObject **p, PyObject **shape)
{
    *p = zero;
    Py_INCREF(zero);
    if (t == Py_None) {
        *n = Py_None;
        Py_INCREF(Py_None);
        return 0;
    }
    PyObject *rg = get(&tensor_L, t, T_RG);
    if (rg == NULL)
        return -1;
    int truth = PyObject_IsTrue(rg);
    Py_DECREF(rg);
    if (truth < 0)
        return -1;
    if (!truth) {
        *n = Py_None;
        Py_INCREF(Py_None);
        return 0;
    }
    PyObject *node = get(&tensor_L, t, T_NODE);
    if (node == NULL)
        return -1;
    if (node != Py_None) {
        PyObject *pos = get(&tensor_L, t, T_POS);
        if (pos == NULL) {
            Py_DECREF(node);
            return -1;
        }
        Py_SETREF(*p, pos);
    }
    else { /* accumulator_of(t): its live accumulator, read here; else made here (`acc_make`) or by the call */
        Py_DECREF(node);
        PyObject *rebound = acc_of_rebound();
        if (rebound != NULL) { /* (grad_node's accumulator_of replaced: what the Python recorded calls) */
            if ((node = PyObject_CallOneArg(rebound, t)) == NULL)
                return -1;
            goto have_node;
        }
        PyObject *ref = SLOT(t, tensor_L.offs[T_ACC]);
        PyObject *acc = ref != NULL && PyWeakref_CheckRefExact(ref) ? PyWeakref_GET_OBJECT(ref) : NULL;
        if (acc != NULL && acc != Py_None) {
            Py_INCREF(acc);
            node = acc;
        }
        else {
            node = ref == Py_None || acc == Py_None ? acc_make(t) : NULL;
            if (node == NULL && (PyErr_Occurred() || (node = PyObject_CallOneArg(rec_acc_of, t)) == NULL))
                return -1;
        }
    }
have_node:
    *n = node;
    if (shape != NULL) { /* if na._shape == shape: shape = na._shape */
        PyObject *s = get_any(&node_L, node, N_SHAPE);
        if (s == NULL)
            return -1;
        PyObject *eq = PyObject_RichCompare(s, *shape, Py_EQ);
        int same = eq == NULL ? -1 : PyObject_IsTrue(eq);
        Py_XDECREF(eq);
        if (same < 0) {
            Py_DECREF(s);
            return -1;
        }
        if (same)
            Py_SETREF(*shape, s);
        else
            Py_DECREF(s);
    }
    return 0;
}

/* The layout-dependent part: the node's edges to its inputs (nb NULL: one input), as
 * grad_node.recorded stores them: the nodes in `_next0`/`_next1` (None for a missing
 * second), `_nexts` the empty tuple, `_at` a shared all-zero tuple unless a position is
 * not 0. */
static int
set_edges(PyObject *node, PyObject *na, PyObject *pa, PyObject *nb, PyObject *pb)
{
    PyObject *at;
    int ta = PyObject_IsTrue(pa);
    if (ta < 0)
        return -1;
    if (nb == NULL) {
        at = ta ? PyTuple_Pack(1, pa) : (Py_INCREF(rec_zeros1), rec_zeros1);
    }
    else {
        int tb = ta ? 1 : PyObject_IsTrue(pb);
        if (tb < 0)
            return -1;
        at = ta || tb ? PyTuple_Pack(2, pa, pb) : (Py_INCREF(rec_zeros2), rec_zeros2);
    }
    if (at == NULL)
        return -1;
    put(&node_L, node, N_NEXT0, na);
    put(&node_L, node, N_NEXT1, nb == NULL ? Py_None : nb);
    put(&node_L, node, N_NEXTS, empty_tuple);
    put(&node_L, node, N_AT, at);
    Py_DECREF(at);
    return 0;
}

/* A fresh Tensor around `data`: an output of `node` at position 0 (`recorded`), or without
 * history for node None (runtime.tensor.wrap); the stores of Tensor._init_fields. */
static PyObject *
new_tensor(PyObject *data, PyObject *node)
{
    PyObject *t = PyBaseObject_Type.tp_new(tensor_L.base, empty_tuple, NULL);
    if (t == NULL)
        return NULL;
    put(&tensor_L, t, T_DATA, data);
    static const int nones[] = {T_GRAD, T_VC, T_ACC, T_EXTRA, T_DUAL};
    put_none(&tensor_L, t, nones, 5);
    put(&tensor_L, t, T_RG, node == Py_None ? Py_False : Py_True);
    put(&tensor_L, t, T_NODE, node);
    put(&tensor_L, t, T_POS, zero);
    return t;
}

/* recorded(cls, data, a, b[, out=into]) without the call: 1 and the new references *made_out
 * and *made_node; 0 when not taken (nothing happened: the Python function must run); -1 on
 * an error. `b` is rec_one for one input; `into` NULL for a fresh output, else an exact
 * Tensor (new_node_of's output that exists before its node). */
static int
recorded_into(PyObject *cls, PyObject *data, PyObject *a, PyObject *b, PyObject *into, PyObject **made_out,
              PyObject **made_node)
{
    PyObject *enabled = SLOT(rec_anomaly, anomaly_enabled_off);
    if (!PyType_Check(cls) || !layout_ok(&node_L, (PyTypeObject *)cls) || enabled != Py_False ||
        (a != Py_None && !layout_ok(&tensor_L, Py_TYPE(a))) ||
        (b != Py_None && b != rec_one && !layout_ok(&tensor_L, Py_TYPE(b))) || (into != NULL && !is_tensor(into)) ||
        !layout_ok(&tensor_L, tensor_L.base)) /* (inputs: subclasses that reach Tensor's slots too, nn.Parameter) */
        return 0;
    PyObject *shape = PyObject_GetAttr(data, str_shape);
    if (shape == NULL) { /* the fallback raises what Python raises */
        PyErr_Clear();
        return 0;
    }
    int made = -1;
    PyObject *node = NULL, *na = NULL, *pa = NULL, *nb = NULL, *pb = NULL, *out = NULL;
    PyObject *seq = NULL, *dtype = NULL, *atype = NULL;
    node = PyBaseObject_Type.tp_new((PyTypeObject *)cls, empty_tuple, NULL);
    if (node == NULL)
        goto done;
    if (edge_of(a, &na, &pa, &shape) < 0)
        goto done;
    if (b != rec_one && edge_of(b, &nb, &pb, NULL) < 0)
        goto done;
    if (set_edges(node, na, pa, nb, pb) < 0)
        goto done;
    static const int node_nones[] = {N_MORE, N_HOOKS, N_TRACE};
    put_none(&node_L, node, node_nones, 3);
    seq = PyIter_Next(rec_seq);
    if (seq == NULL) {
        if (!PyErr_Occurred())
            PyErr_SetNone(PyExc_StopIteration);
        goto done;
    }
    put(&node_L, node, N_SEQ, seq);
    put(&node_L, node, N_RELEASED, Py_False);
    put(&node_L, node, N_SHAPE, shape);
    dtype = PyObject_GetAttr(data, str_dtype);
    if (dtype == NULL)
        goto done;
    put(&node_L, node, N_DTYPE, dtype);
    atype = class_of(data);
    if (atype == NULL)
        goto done;
    put(&node_L, node, N_ATYPE, atype);
    if (into == NULL)
        out = new_tensor(data, node);
    else { /* out._requires_grad = True; out._node = node; out._pos = 0 */
        put(&tensor_L, into, T_RG, Py_True);
        put(&tensor_L, into, T_NODE, node);
        put(&tensor_L, into, T_POS, zero);
        out = Py_NewRef(into);
    }
    if (out == NULL)
        goto done;
    *made_out = out;
    *made_node = node;
    out = node = NULL;
    made = 1;
done:
    Py_XDECREF(shape);
    Py_XDECREF(node);
    Py_XDECREF(na);
    Py_XDECREF(pa);
    Py_XDECREF(nb);
    Py_XDECREF(pb);
    Py_XDECREF(seq);
    Py_XDECREF(dtype);
    Py_XDECREF(atype);
    Py_XDECREF(out);
    return made;
}

/* recorded(cls, data, a, b) without the call (the op driver's): see recorded_into. */
static inline int
recorded_c(PyObject *cls, PyObject *data, PyObject *a, PyObject *b, PyObject **made_out, PyObject **made_node)
{
    return recorded_into(cls, data, a, b, NULL, made_out, made_node);
}

static PyObject *str_out;

/* The `out=` keyword's value when `kwnames` is exactly ("out",) (None when absent, as the
 * default); NULL for any other keywords. */
static inline PyObject *
out_keyword(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    if (kwnames == NULL || PyTuple_GET_SIZE(kwnames) == 0)
        return Py_None;
    if (PyTuple_GET_SIZE(kwnames) != 1)
        return NULL;
    PyObject *k = PyTuple_GET_ITEM(kwnames, 0);
    return k == str_out || (PyUnicode_CheckExact(k) && _PyUnicode_EqualToASCIIString(k, "out")) ? args[nargs] : NULL;
}

static PyObject *
recorded(PyObject *self, PyObject *const *args, Py_ssize_t nargsf, PyObject *kwnames)
{
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (rec_fallback == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "_speedups.recorded: setup_recorded was not called");
        return NULL;
    }
    PyObject *into = out_keyword(args, nargs, kwnames);
    if (into == NULL || nargs < 3 || nargs > 4)
        return call_fallback(rec_fallback, args, nargsf, kwnames);
    PyObject *out, *node;
    int made = recorded_into(args[0], args[1], args[2], nargs == 4 ? args[3] : rec_one, into == Py_None ? NULL : into,
                             &out, &node);
    if (made == 0)
        return call_fallback(rec_fallback, args, nargsf, kwnames);
    if (made < 0)
        return NULL;
    PyObject *result = PyTuple_Pack(2, out, node);
    Py_DECREF(out);
    Py_DECREF(node);
    return result;
}

static PyObject *
setup_recorded(PyObject *self, PyObject *fn)
{
    PyObject *g = PyFunction_Check(fn) ? PyFunction_GET_GLOBALS(fn) : NULL;
    if (g == NULL) {
        PyErr_SetString(PyExc_TypeError, "setup_recorded: expects grad_node.recorded");
        return NULL;
    }
#define GLOBAL(var, name)                                                                       \
    PyObject *var = PyDict_GetItemString(g, name);                                             \
    if (var == NULL) {                                                                          \
        PyErr_Format(PyExc_AttributeError, "setup_recorded: grad_node has no %s", name);         \
        return NULL;                                                                            \
    }
    GLOBAL(gradnode, "GradNode")
    GLOBAL(tensor, "Tensor")
    GLOBAL(seq, "_SEQ")
    GLOBAL(anomaly, "_ANOMALY")
    GLOBAL(zeros, "_ZEROS")
    GLOBAL(one, "_ONE")
    GLOBAL(acc_of, "accumulator_of")
#undef GLOBAL
    if (layout_init(&node_L, gradnode) < 0 || layout_init(&tensor_L, tensor) < 0)
        return NULL;
    if (!PyIter_Check(seq) || !PyTuple_Check(zeros) || PyTuple_GET_SIZE(zeros) < 3) {
        PyErr_SetString(PyExc_TypeError, "setup_recorded: unexpected _SEQ or _ZEROS");
        return NULL;
    }
    PyObject *d = _PyType_Lookup(Py_TYPE(anomaly), PyUnicode_InternFromString("enabled"));
    if (d == NULL || Py_TYPE(d) != &PyMemberDescr_Type) {
        PyErr_SetString(PyExc_TypeError, "setup_recorded: _ANOMALY.enabled is not a slot");
        return NULL;
    }
    anomaly_enabled_off = ((PyMemberDescrObject *)d)->d_member->offset;
    Py_INCREF(fn);
    Py_XSETREF(rec_fallback, fn);
    Py_INCREF(seq);
    Py_XSETREF(rec_seq, seq);
    Py_INCREF(anomaly);
    Py_XSETREF(rec_anomaly, anomaly);
    Py_INCREF(PyTuple_GET_ITEM(zeros, 1));
    Py_XSETREF(rec_zeros1, PyTuple_GET_ITEM(zeros, 1));
    Py_INCREF(PyTuple_GET_ITEM(zeros, 2));
    Py_XSETREF(rec_zeros2, PyTuple_GET_ITEM(zeros, 2));
    Py_INCREF(one);
    Py_XSETREF(rec_one, one);
    Py_INCREF(acc_of);
    Py_XSETREF(rec_acc_of, acc_of);
    if (str_out == NULL && (str_out = PyUnicode_InternFromString("out")) == NULL)
        return NULL;
    return PyObject_GetAttrString(self, "recorded");
}

/* -- leaf accumulators (accumulator_of) and inputs saved as they are (of_input) ------------ */

/* A leaf's AccumulateGrad lives only as long as some graph uses the leaf (the leaf holds it
 * weakly), so a training step makes one per parameter: `accumulator_of(t)` finds the weakref
 * dead and runs `AccumulateGrad(t)` and `t._acc = weakref.ref(acc)`. `acc_make` does that
 * here: the instance of grad_holder.AccumulateGrad (object.__new__), with exactly the slots
 * its __init__ sets, to the same objects, and the weakref. It is taken only while the names
 * that path reads are the ones setup read -- grad_holder's AccumulateGrad, LEAF_SEQ and
 * _ANOMALY, grad_node's `later` and `weakref`, `later.grad_holder` (checked again whenever
 * one of their dicts changes) -- and the class keeps its metaclass, __new__, __init__ and
 * slots (checked again whenever its version tag changes); anomaly mode off (its __init__
 * captures a trace); the leaf an exact Tensor around an exact ndarray. Otherwise the Python
 * function runs. tests/test_fast_paths_leafacc.py compares the two slot for slot. */

static Layout acc_L = {"AccumulateGrad", NULL, 1, {"variable"}};
enum { A_VARIABLE };

static PyObject *acc_init;                        /* AccumulateGrad.__init__, as set up */
static PyObject *acc_leaf_seq;                    /* grad_holder.LEAF_SEQ */
static PyObject *acc_gh, *acc_gh_globals;         /* grad_holder, and its dict */
static PyObject *acc_gn_globals;                  /* grad_node's dict (accumulator_of's globals) */
static PyObject *acc_later, *acc_later_dict;      /* grad_node.later, and its instance dict */
static PyObject *acc_weakref_dict;                /* the weakref module's dict */
static PyObject *acc_of_fallback;                 /* grad_node.accumulator_of, the Python function */
static uint64_t acc_versions[4];                  /* those four dicts' versions when checked */
static unsigned int acc_tag;                      /* the class's version tag when checked */
static int acc_ok;                                /* what that check found */

static PyObject *str_init;


/* Whether acc_make may run: the names and the class are the ones set up (cached by their
 * dicts' versions and the class's version tag). */
static int
acc_ready(void)
{
    PyTypeObject *cls = acc_L.base;
    if (cls == NULL || acc_of_fallback == NULL)
        return 0;
    PyObject *dicts[4] = {acc_gh_globals, acc_gn_globals, acc_later_dict, acc_weakref_dict};
    uint64_t v[4];
    for (int i = 0; i < 4; i++)
        v[i] = dict_version(dicts[i]);
    if (acc_tag != 0 && cls->tp_version_tag == acc_tag && PyType_HasFeature(cls, Py_TPFLAGS_VALID_VERSION_TAG) &&
        memcmp(v, acc_versions, sizeof(v)) == 0)
        return acc_ok;
    acc_ok = global_is(acc_gh_globals, "AccumulateGrad", (PyObject *)cls) &&
             global_is(acc_gh_globals, "LEAF_SEQ", acc_leaf_seq) && global_is(acc_gh_globals, "_ANOMALY", rec_anomaly) &&
             global_is(acc_gn_globals, "later", acc_later) && global_is(acc_later_dict, "grad_holder", acc_gh) &&
             global_is(acc_weakref_dict, "ref", (PyObject *)&_PyWeakref_RefType) &&
             Py_TYPE(cls) == &PyType_Type && cls->tp_new == PyBaseObject_Type.tp_new &&
             _PyType_Lookup(cls, str_init) == acc_init && layout_ok(&node_L, cls) && layout_ok(&acc_L, cls);
    memcpy(acc_versions, v, sizeof(v));
    acc_tag = PyType_HasFeature(cls, Py_TPFLAGS_VALID_VERSION_TAG) ? cls->tp_version_tag : 0;
    return acc_ok;
}

/* For a Tensor `t` of a type with tensor_L's layout (an exact Tensor, or a subclass such as
 * nn.Parameter that reaches the same slots) whose `_acc` is None or a dead weakref: its new
 * accumulator (a new reference), made as above; NULL with an error; NULL without one when not
 * taken (nothing happened: accumulator_of must run). */
static PyObject *
acc_make(PyObject *t)
{
    PyObject *data = SLOT(t, tensor_L.offs[T_DATA]);
    if (data == NULL || Py_TYPE(data) != ndarray_type || SLOT(rec_anomaly, anomaly_enabled_off) != Py_False ||
        !acc_ready())
        return NULL;
    /* object.__new__(AccumulateGrad), then __init__'s stores in its order; an allocation may run
     * the collector, and with it any code, so what it could change is read after each, as
     * Python reads it (and before any store is seen, the Python path is taken instead) */
    PyObject *acc = PyBaseObject_Type.tp_new(acc_L.base, empty_tuple, NULL);
    if (acc == NULL)
        return NULL;
    data = SLOT(t, tensor_L.offs[T_DATA]);
    if (data == NULL || Py_TYPE(data) != ndarray_type || SLOT(rec_anomaly, anomaly_enabled_off) != Py_False ||
        !acc_ready()) {
        Py_DECREF(acc); /* (its slots unset: nobody saw it) */
        return NULL;
    }
    static const int nones[] = {N_NEXT0, N_NEXT1};
    put_none(&node_L, acc, nones, 2);
    put(&node_L, acc, N_NEXTS, empty_tuple);
    put(&node_L, acc, N_AT, empty_tuple);
    put(&node_L, acc, N_MORE, Py_None);
    put(&node_L, acc, N_RELEASED, Py_False);
    put(&node_L, acc, N_HOOKS, Py_None);
    put(&node_L, acc, N_TRACE, Py_None);
    put(&acc_L, acc, A_VARIABLE, t);
    put(&node_L, acc, N_SEQ, acc_leaf_seq);
    Py_INCREF(data); /* data = variable._data */
    PyObject *shape = PyObject_GetAttr(data, str_shape);
    if (shape != NULL) {
        put(&node_L, acc, N_SHAPE, shape);
        Py_DECREF(shape);
    }
    PyObject *dtype = shape == NULL ? NULL : PyObject_GetAttr(data, str_dtype);
    if (dtype != NULL) {
        put(&node_L, acc, N_DTYPE, dtype);
        Py_DECREF(dtype);
        put(&node_L, acc, N_ATYPE, (PyObject *)Py_TYPE(data)); /* an exact ndarray's __class__ */
    }
    Py_DECREF(data);
    PyObject *ref = dtype == NULL ? NULL : PyWeakref_NewRef(acc, NULL);
    if (ref == NULL) {
        Py_DECREF(acc);
        return NULL;
    }
    put(&tensor_L, t, T_ACC, ref); /* t._acc = weakref.ref(acc) */
    Py_DECREF(ref);
    return acc;
}

/* accumulator_of(t): the live accumulator, or one made by acc_make; the Python function for
 * everything else (before anything happened). */
static PyObject *
accumulator_of(PyObject *self, PyObject *const *args, Py_ssize_t nargsf, PyObject *kwnames)
{
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (acc_of_fallback == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "_speedups.accumulator_of: setup_leaf_edges was not called");
        return NULL;
    }
    if ((kwnames != NULL && PyTuple_GET_SIZE(kwnames)) || nargs != 1 || !layout_ok(&tensor_L, Py_TYPE(args[0])))
        goto fallback;
    PyObject *t = args[0], *ref = SLOT(t, tensor_L.offs[T_ACC]);
    if (ref != Py_None) {
        if (ref == NULL || !PyWeakref_CheckRefExact(ref))
            goto fallback;
        PyObject *acc = PyWeakref_GET_OBJECT(ref);
        if (acc != Py_None)
            return Py_NewRef(acc);
    }
    PyObject *acc = acc_make(t);
    if (acc != NULL || PyErr_Occurred())
        return acc;
fallback:
    return call_fallback(acc_of_fallback, args, nargsf, kwnames);
}

/* edge_to(t): `(accumulator_of(t), 0) if t._node is None else (t._node, t._pos)`, while
 * grad_node's `accumulator_of` is the C one (`edge_acc`); the Python function otherwise. */
static PyObject *edge_fallback, *edge_acc; /* grad_node.edge_to (Python), the C accumulator_of */
static uint64_t edge_version;              /* grad_node's dict version when `edge_bound` was read */
static int edge_bound;

/* grad_node's `accumulator_of` when rebound (neither the C one nor the Python one set up), which
 * `recorded` then calls for every edge to a leaf, as the Python recorded does; borrowed (grad_node's
 * dict holds it, and any rebinding changes the dict's version), or NULL. */
static PyObject *
acc_of_rebound(void)
{
    static uint64_t version;
    static PyObject *rebound;
    if (acc_gn_globals == NULL)
        return NULL;
    uint64_t v = dict_version(acc_gn_globals);
    if (v != version) {
        PyObject *f = PyDict_GetItemString(acc_gn_globals, "accumulator_of");
        rebound = f == NULL || f == edge_acc || f == rec_acc_of ? NULL : f;
        version = v;
    }
    return rebound;
}

static PyObject *
edge_to(PyObject *self, PyObject *const *args, Py_ssize_t nargsf, PyObject *kwnames)
{
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (edge_fallback == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "_speedups.edge_to: setup_leaf_edges was not called");
        return NULL;
    }
    if ((kwnames != NULL && PyTuple_GET_SIZE(kwnames)) || nargs != 1 || !layout_ok(&tensor_L, Py_TYPE(args[0])))
        goto fallback;
    uint64_t v = dict_version(acc_gn_globals);
    if (v != edge_version) {
        edge_bound = global_is(acc_gn_globals, "accumulator_of", edge_acc);
        edge_version = v;
    }
    PyObject *t = args[0], *node = SLOT(t, tensor_L.offs[T_NODE]), *pos = SLOT(t, tensor_L.offs[T_POS]);
    if (!edge_bound || node == NULL || (node != Py_None && pos == NULL))
        goto fallback;
    if (node != Py_None) {
        Py_INCREF(node); /* (the allocation may run the collector, and with it any code) */
        Py_INCREF(pos);
        PyObject *r = PyTuple_Pack(2, node, pos);
        Py_DECREF(node);
        Py_DECREF(pos);
        return r;
    }
    PyObject *acc = accumulator_of(NULL, args, 1, NULL);
    if (acc == NULL)
        return NULL;
    PyObject *r = PyTuple_Pack(2, acc, zero);
    Py_DECREF(acc);
    return r;
fallback:
    return call_fallback(edge_fallback, args, nargsf, kwnames);
}

/* setup_leaf_edges(accumulator_of, edge_to) -> (the C accumulator_of, the C edge_to), with those
 * Python functions as their fallbacks (grad_node's: its globals are read); after setup_recorded. */
static PyObject *
setup_leaf_edges(PyObject *self, PyObject *args)
{
    PyObject *fn, *edge_fn;
    if (!PyArg_ParseTuple(args, "OO:setup_leaf_edges", &fn, &edge_fn))
        return NULL;
    if (!PyFunction_Check(fn) || !PyFunction_Check(edge_fn) ||
        PyFunction_GET_GLOBALS(fn) != PyFunction_GET_GLOBALS(edge_fn) || tensor_L.base == NULL ||
        node_L.base == NULL) {
        PyErr_SetString(PyExc_TypeError,
                        "setup_leaf_edges: expects grad_node's accumulator_of and edge_to, after setup_recorded");
        return NULL;
    }
    PyObject *g = PyFunction_GET_GLOBALS(fn);
    PyObject *later = PyDict_GetItemString(g, "later");
    PyObject *weakref = PyDict_GetItemString(g, "weakref");
    PyObject *later_dict = later == NULL ? NULL : PyObject_GenericGetDict(later, NULL);
    if (later_dict == NULL || weakref == NULL || !PyModule_Check(weakref) || !PyDict_Check(later_dict)) {
        Py_XDECREF(later_dict);
        PyErr_Clear();
        PyErr_SetString(PyExc_TypeError, "setup_leaf_edges: grad_node has no `later` or `weakref`");
        return NULL;
    }
    Py_XSETREF(acc_later_dict, later_dict);
    Py_XSETREF(acc_later, Py_NewRef(later));
    Py_XSETREF(acc_weakref_dict, Py_NewRef(PyModule_GetDict(weakref)));
    PyObject *c_acc = PyObject_GetAttrString(self, "accumulator_of");
    PyObject *c_edge = c_acc == NULL ? NULL : PyObject_GetAttrString(self, "edge_to");
    PyObject *r = c_edge == NULL ? NULL : PyTuple_Pack(2, c_acc, c_edge);
    Py_XDECREF(c_edge);
    if (r == NULL) {
        Py_XDECREF(c_acc);
        return NULL;
    }
    Py_XSETREF(acc_gn_globals, Py_NewRef(g));
    Py_XSETREF(acc_of_fallback, Py_NewRef(fn));
    Py_XSETREF(edge_fallback, Py_NewRef(edge_fn));
    Py_XSETREF(edge_acc, c_acc);
    edge_version = 0;
    return r;
}

/* setup_accumulators(grad_holder) -> None: acc_make builds that module's AccumulateGrad
 * (whose __init__ it mirrors) from now on; after setup_leaf_edges. */
static PyObject *
setup_accumulators(PyObject *self, PyObject *module)
{
    PyObject *g = PyModule_Check(module) ? PyModule_GetDict(module) : NULL;
    PyObject *cls = g == NULL ? NULL : PyDict_GetItemString(g, "AccumulateGrad");
    PyObject *seq = g == NULL ? NULL : PyDict_GetItemString(g, "LEAF_SEQ");
    if (cls == NULL || seq == NULL || acc_of_fallback == NULL || !PyType_Check(cls) ||
        !PyType_IsSubtype((PyTypeObject *)cls, node_L.base)) {
        PyErr_SetString(PyExc_TypeError, "setup_accumulators: expects grad_holder, after setup_leaf_edges");
        return NULL;
    }
    if (str_init == NULL && (str_init = PyUnicode_InternFromString("__init__")) == NULL)
        return NULL;
    PyObject *init = _PyType_Lookup((PyTypeObject *)cls, str_init);
    if (init == NULL || !PyFunction_Check(init) || PyFunction_GET_GLOBALS(init) != g) {
        PyErr_SetString(PyExc_TypeError, "setup_accumulators: AccumulateGrad.__init__ is not grad_holder's");
        return NULL;
    }
    if (layout_init(&acc_L, cls) < 0)
        return NULL;
    if (!layout_ok(&node_L, (PyTypeObject *)cls) || !layout_ok(&acc_L, (PyTypeObject *)cls)) {
        Py_CLEAR(acc_L.base); /* acc_make never runs */
        PyErr_SetString(PyExc_TypeError, "setup_accumulators: AccumulateGrad does not reach GradNode's slots");
        return NULL;
    }
    Py_XSETREF(acc_init, Py_NewRef(init));
    Py_XSETREF(acc_leaf_seq, Py_NewRef(seq));
    Py_XSETREF(acc_gh, Py_NewRef(module));
    Py_XSETREF(acc_gh_globals, Py_NewRef(g));
    acc_tag = 0; /* acc_ready checks the rest on the next use (`later.grad_holder` is set on its first) */
    Py_RETURN_NONE;
}

/* TensorWrapper.of_input(t) while no saved_tensors_hooks context is open: `t` itself when it
 * is an exact Tensor at version 0 (no counter, or an exact VersionCounter at 0), else an
 * `_Input` holding it and the counter's value; the Python function for everything else.
 * `of_edge` comes here for an input whose counter is a VersionCounter (a parameter after
 * its first in-place update: the Python of_edge calls `TensorWrapper.of_input(t)` then),
 * while that name is this function (`in_bound`). */

static Layout vc_L = {"VersionCounter", NULL, 1, {"value"}};
static Layout input_L = {"_Input", NULL, 2, {"tensor", "_seen"}};
static PyObject *in_fallback;      /* TensorWrapper.of_input, the Python function */
static PyObject *in_static;        /* the staticmethod setup_inputs returned (TensorWrapper.of_input) */
static PyObject *in_tw_type, *str_of_input, *str_tensor_wrapper;
static uint64_t in_version;        /* tensor_wrapper's dict version when `in_global` was read */
static int in_global;

static inline int no_active_hooks(void); /* (the section after this one) */
static PyObject *static_func(PyObject *cls, const char *name); /* (likewise) */

static PyObject *str_dunder_class, *object_class; /* "__class__", object's __class__ descriptor */

/* `t` is a subclass of Tensor that reaches tensor_L's slots and whose `__class__` is its
 * type (what `t.__class__ is Tensor` reads). */
static int
tensor_subclass(PyObject *t)
{
    PyTypeObject *type = Py_TYPE(t);
    return type != tensor_L.base && layout_ok(&tensor_L, type) && object_class != NULL &&
           _PyType_Lookup(type, str_dunder_class) == object_class;
}

/* The body of of_input for `t`, an exact Tensor or a `tensor_subclass`, with no hooks open: a
 * new reference; NULL without an error when not taken. */
static PyObject *
input_c(PyObject *t)
{
    PyObject *vc = SLOT(t, tensor_L.offs[T_VC]), *value = zero;
    int exact = Py_TYPE(t) == tensor_L.base;
    if (vc == Py_None && exact)
        return Py_NewRef(t);
    if (vc == NULL || !layout_ok(&input_L, input_L.base))
        return NULL;
    if (vc != Py_None) {
        if (Py_TYPE(vc) != vc_L.base || !layout_ok(&vc_L, vc_L.base))
            return NULL;
        value = SLOT(vc, vc_L.offs[0]);
        if (value == NULL || !PyLong_CheckExact(value))
            return NULL;
        if (Py_SIZE(value) == 0) { /* `not vc.value`: t itself when exact, else seen = 0 */
            if (exact)
                return Py_NewRef(t);
            value = zero;
        }
    }
    Py_INCREF(value); /* (the allocation may run the collector, and with it any code) */
    PyObject *w = PyBaseObject_Type.tp_new(input_L.base, empty_tuple, NULL);
    if (w != NULL) {
        put(&input_L, w, 0, t);
        put(&input_L, w, 1, value);
    }
    Py_DECREF(value);
    return w;
}

static PyObject *
of_input(PyObject *self, PyObject *const *args, Py_ssize_t nargsf, PyObject *kwnames)
{
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (in_fallback == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "_speedups.of_input: setup_inputs was not called");
        return NULL;
    }
    if ((kwnames == NULL || !PyTuple_GET_SIZE(kwnames)) && nargs == 1 &&
        (is_tensor(args[0]) || tensor_subclass(args[0])) && no_active_hooks()) {
        PyObject *w = input_c(args[0]);
        if (w != NULL || PyErr_Occurred())
            return w;
    }
    else if (PyErr_Occurred())
        return NULL;
    return call_fallback(in_fallback, args, nargsf, kwnames);
}

/* True while `TensorWrapper.of_input`, as tensor_wrapper's code reads it, is this C function. */
static int
in_bound(void)
{
    if (in_static == NULL)
        return 0;
    uint64_t v = dict_version(tw_globals);
    if (v != in_version) {
        in_global = PyDict_GetItemWithError(tw_globals, str_tensor_wrapper) == in_tw_type;
        in_version = PyErr_Occurred() ? 0 : v;
        PyErr_Clear();
    }
    return in_global && Py_TYPE(in_tw_type) == &PyType_Type &&
           _PyType_Lookup((PyTypeObject *)in_tw_type, str_of_input) == in_static;
}

/* of_edge's cases of `t` (its args) with no hooks open -- an exact Tensor whose counter is an
 * exact VersionCounter, or a `tensor_subclass` -- where the Python of_edge calls
 * `TensorWrapper.of_input(t)`: here when that is this C function. */
static PyObject *
of_edge_input(PyObject *t, PyObject *const *args, size_t nargsf)
{
    if (in_bound()) {
        PyObject *w = input_c(t);
        if (w != NULL || PyErr_Occurred())
            return w;
    }
    return call_fallback(tw_of_edge, args, nargsf, NULL);
}

/* setup_inputs(tensor_wrapper's globals()) -> the staticmethod to bind as TensorWrapper.of_input
 * (the C one); after setup_wrappers. */
static PyObject *
setup_inputs(PyObject *self, PyObject *g)
{
    if (!PyDict_Check(g) || g != tw_globals) {
        PyErr_SetString(PyExc_TypeError, "setup_inputs: expects tensor_wrapper's globals(), after setup_wrappers");
        return NULL;
    }
    PyObject *tw = PyDict_GetItemString(g, "TensorWrapper");
    PyObject *vc = PyDict_GetItemString(g, "VersionCounter");
    PyObject *input = PyDict_GetItemString(g, "_Input");
    if (tw == NULL || vc == NULL || input == NULL || !PyType_Check(tw)) {
        PyErr_SetString(PyExc_TypeError, "setup_inputs: unexpected tensor_wrapper module");
        return NULL;
    }
    if (layout_init(&vc_L, vc) < 0 || layout_init(&input_L, input) < 0)
        return NULL;
    PyObject *fn = static_func(tw, "of_input");
    if (fn == NULL)
        return NULL;
    if ((str_of_input == NULL && (str_of_input = PyUnicode_InternFromString("of_input")) == NULL) ||
        (str_tensor_wrapper == NULL && (str_tensor_wrapper = PyUnicode_InternFromString("TensorWrapper")) == NULL)) {
        Py_DECREF(fn);
        return NULL;
    }
    PyObject *c = PyObject_GetAttrString(self, "of_input");
    PyObject *sm = c == NULL ? NULL : PyStaticMethod_New(c);
    Py_XDECREF(c);
    if (sm == NULL) {
        Py_DECREF(fn);
        return NULL;
    }
    if (str_dunder_class == NULL && (str_dunder_class = PyUnicode_InternFromString("__class__")) == NULL) {
        Py_DECREF(fn);
        Py_DECREF(sm);
        return NULL;
    }
    object_class = _PyType_Lookup(&PyBaseObject_Type, str_dunder_class); /* borrowed: lives with `object` */
    Py_XSETREF(in_fallback, fn);
    Py_XSETREF(in_tw_type, Py_NewRef(tw));
    Py_XSETREF(in_static, Py_NewRef(sm));
    in_version = 0;
    return sm;
}

/* runtime.tensor.wrap(data): a fresh Tensor without history around `data` (new_tensor's
 * stores are its stores), while tensor's `Tensor` and `_new` are what setup read; the
 * Python function otherwise. Every generated op and node that makes a tensor outside the
 * C drivers calls it (8 per MLP step, 14 with nn.Linear). */
static PyObject *wrap_fallback, *wrap_globals, *wrap_new; /* tensor.wrap, its globals, object.__new__ */
static uint64_t wrap_version;                              /* their version when `wrap_ok` was read */
static int wrap_ok;

static PyObject *
tensor_wrap(PyObject *self, PyObject *const *args, Py_ssize_t nargsf, PyObject *kwnames)
{
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (wrap_fallback == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "_speedups.wrap: setup_wrap was not called");
        return NULL;
    }
    if ((kwnames != NULL && PyTuple_GET_SIZE(kwnames)) || nargs != 1 || !layout_ok(&tensor_L, tensor_L.base))
        goto fallback;
    uint64_t v = dict_version(wrap_globals);
    if (v != wrap_version) {
        wrap_ok = global_is(wrap_globals, "Tensor", (PyObject *)tensor_L.base) && global_is(wrap_globals, "_new", wrap_new);
        wrap_version = v;
    }
    if (wrap_ok)
        return new_tensor(args[0], Py_None);
fallback:
    return call_fallback(wrap_fallback, args, nargsf, kwnames);
}

/* setup_wrap(wrap) -> the C wrap, with that Python function (runtime.tensor's) as its
 * fallback; sets the Tensor layout (setup_recorded sets it again, to the same). */
static PyObject *
setup_wrap(PyObject *self, PyObject *fn)
{
    PyObject *g = PyFunction_Check(fn) ? PyFunction_GET_GLOBALS(fn) : NULL;
    PyObject *tensor = g == NULL ? NULL : PyDict_GetItemString(g, "Tensor");
    PyObject *new = g == NULL ? NULL : PyDict_GetItemString(g, "_new");
    PyObject *object_new = PyObject_GetAttrString((PyObject *)&PyBaseObject_Type, "__new__");
    if (object_new == NULL)
        return NULL;
    int fits = tensor != NULL && new == object_new;
    Py_DECREF(object_new);
    if (!fits) {
        PyErr_SetString(PyExc_TypeError, "setup_wrap: expects runtime.tensor's wrap (its Tensor and _new)");
        return NULL;
    }
    if (layout_init(&tensor_L, tensor) < 0)
        return NULL;
    if (empty_tuple == NULL || zero == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "setup_wrap: the module is not initialized");
        return NULL;
    }
    Py_XSETREF(wrap_globals, Py_NewRef(g));
    Py_XSETREF(wrap_new, Py_NewRef(new));
    Py_XSETREF(wrap_fallback, Py_NewRef(fn));
    wrap_version = 0;
    return PyObject_GetAttrString(self, "wrap");
}

/* `f` is the C wrap (node_apply takes it where it takes runtime.tensor's Python wrap). */
static int
is_c_wrap(PyObject *f)
{
    return is_c_function(f, (PyCFunction)(void (*)(void))tensor_wrap);
}

/* -- the saved-tensor wrappers --------------------------------------------------------- */

/* True while no saved_tensors_hooks context is open (`not _ACTIVE_HOOKS`). */
static uint64_t hooks_version; /* tensor_wrapper's namespace when `hooks_none` was read */
static int hooks_none;

static inline int
no_active_hooks(void)
{
    if (tw_globals == NULL) /* (not set up: the callers' fallback raises) */
        return 0;
    uint64_t v = dict_version(tw_globals); /* any rebinding changes it */
    if (v != hooks_version) {
        hooks_none = PyDict_GetItemWithError(tw_globals, str_active_hooks) == zero;
        hooks_version = PyErr_Occurred() ? 0 : v;
    }
    return hooks_none;
}

static PyObject *
of_output(PyObject *self, PyObject *const *args, Py_ssize_t nargsf, PyObject *kwnames)
{
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if ((kwnames != NULL && PyTuple_GET_SIZE(kwnames)) || nargs != 2 || !no_active_hooks() ||
        !is_tensor(args[0]) || !layout_ok(&output_L, output_L.base))
        goto fallback;
    PyObject *t = args[0], *node = args[1];
    PyObject *vc = SLOT(t, tensor_L.offs[T_VC]);
    PyObject *data = SLOT(t, tensor_L.offs[T_DATA]);
    PyObject *pos = SLOT(t, tensor_L.offs[T_POS]);
    if (vc != Py_None || data == NULL || pos == NULL)
        goto fallback;
    PyObject *o = PyBaseObject_Type.tp_new(output_L.base, empty_tuple, NULL);
    if (o == NULL)
        return NULL;
    put(&output_L, o, O_VALUE, zero);
    put(&output_L, o, O_SHARED, Py_False);
    put(&output_L, o, O_DATA, data);
    put(&output_L, o, O_POS, pos);
    PyObject *seq = get_any(&node_L, node, N_SEQ);
    if (seq == NULL) {
        Py_DECREF(o);
        return NULL;
    }
    put(&output_L, o, O_SEQ, seq);
    Py_DECREF(seq);
    put(&tensor_L, t, T_VC, o);
    return o;
fallback:
    if (PyErr_Occurred())
        return NULL;
    return call_fallback(tw_of_output, args, nargsf, kwnames);
}

/* a == b, as Python's `if a == b` reads it */
static inline int
equal(PyObject *a, PyObject *b)
{
    if (a == NULL || b == NULL)
        return -1;
    if (PyLong_CheckExact(a) && PyLong_CheckExact(b))
        return a == b || PyObject_RichCompareBool(a, b, Py_EQ);
    PyObject *r = PyObject_RichCompare(a, b, Py_EQ);
    if (r == NULL)
        return -1;
    int truth = PyObject_IsTrue(r);
    Py_DECREF(r);
    return truth;
}

static PyObject *
of_edge(PyObject *self, PyObject *const *args, Py_ssize_t nargsf, PyObject *kwnames)
{
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if ((kwnames != NULL && PyTuple_GET_SIZE(kwnames)) || nargs != 1 || !no_active_hooks())
        goto fallback;
    if (!is_tensor(args[0])) { /* a subclass (nn.Parameter): of_input(t) (leafacc's section) */
        if (tensor_subclass(args[0]))
            return of_edge_input(args[0], args, nargsf);
        goto fallback;
    }
    PyObject *t = args[0];
    PyObject *vc = SLOT(t, tensor_L.offs[T_VC]);
    if (vc == Py_None) {
        Py_INCREF(t);
        return t;
    }
    if (vc != NULL && Py_TYPE(vc) == vc_L.base) /* not an _Output: of_input(t) (leafacc's section) */
        return of_edge_input(t, args, nargsf);
    if (vc == NULL || Py_TYPE(vc) != output_L.base || !layout_ok(&output_L, output_L.base))
        goto fallback;
    PyObject *value = SLOT(vc, output_L.offs[O_VALUE]);
    if (value != zero || SLOT(t, tensor_L.offs[T_EXTRA]) != Py_None ||
        SLOT(t, tensor_L.offs[T_DUAL]) != Py_None)
        goto fallback;
    PyObject *node = SLOT(t, tensor_L.offs[T_NODE]);
    if (node == NULL || node == Py_None || !layout_ok(&node_L, Py_TYPE(node)))
        goto fallback;
    int same = equal(SLOT(node, node_L.offs[N_SEQ]), SLOT(vc, output_L.offs[O_SEQ]));
    if (same < 0) {
        PyErr_Clear();
        goto fallback;
    }
    if (same) {
        same = equal(SLOT(t, tensor_L.offs[T_POS]), SLOT(vc, output_L.offs[O_POS]));
        if (same < 0) {
            PyErr_Clear();
            goto fallback;
        }
        if (same) {
            Py_INCREF(vc);
            return vc;
        }
    }
fallback:
    if (PyErr_Occurred())
        return NULL;
    return call_fallback(tw_of_edge, args, nargsf, kwnames);
}

static PyObject *
meta_of(PyObject *self, PyObject *const *args, Py_ssize_t nargsf, PyObject *kwnames)
{
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if ((kwnames != NULL && PyTuple_GET_SIZE(kwnames)) || nargs != 1 || !layout_ok(&tensor_L, Py_TYPE(args[0])) ||
        !layout_ok(&meta_L, meta_L.base)) /* (a subclass too, nn.Parameter: only `_data` is read) */
        return call_fallback(tw_meta_of, args, nargsf, kwnames);
    PyObject *data = SLOT(args[0], tensor_L.offs[T_DATA]);
    if (data == NULL || Py_TYPE(data) != ndarray_type)
        return call_fallback(tw_meta_of, args, nargsf, kwnames);
    PyObject *shape = PyObject_GetAttr(data, str_shape);
    if (shape == NULL) {
        PyErr_Clear();
        return call_fallback(tw_meta_of, args, nargsf, kwnames);
    }
    PyObject *meta = PyDict_GetItemWithError(tw_last, shape); /* borrowed */
    Py_DECREF(shape);
    if (meta == NULL) {
        if (PyErr_Occurred())
            return NULL;
        return call_fallback(tw_meta_of, args, nargsf, kwnames);
    }
    if (Py_TYPE(meta) == meta_L.base && SLOT(meta, meta_L.offs[M_WHERE]) == (PyObject *)ndarray_type) {
        PyObject *dtype = PyObject_GetAttr(data, str_dtype);
        if (dtype == NULL)
            return NULL;
        int hit = SLOT(meta, meta_L.offs[M_DTYPE]) == dtype;
        Py_DECREF(dtype);
        if (hit) {
            Py_INCREF(meta);
            return meta;
        }
    }
    return call_fallback(tw_meta_of, args, nargsf, kwnames);
}

static PyObject *
static_func(PyObject *cls, const char *name)
{
    PyObject *d = PyDict_GetItemString(((PyTypeObject *)cls)->tp_dict, name); /* borrowed */
    if (d == NULL || !PyObject_TypeCheck(d, &PyStaticMethod_Type)) {
        PyErr_Format(PyExc_TypeError, "setup_wrappers: TensorWrapper.%s is not a staticmethod", name);
        return NULL;
    }
    return PyObject_GetAttrString(cls, name); /* the function itself */
}

/* setup_wrappers(tensor_wrapper's globals()) -> (of_output, of_edge, meta_of), the C ones */
static PyObject *
setup_wrappers(PyObject *self, PyObject *g)
{
    if (!PyDict_Check(g)) {
        PyErr_SetString(PyExc_TypeError, "setup_wrappers: expects tensor_wrapper's globals()");
        return NULL;
    }
    if (tensor_L.base == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "setup_wrappers: setup_recorded first");
        return NULL;
    }
    PyObject *tw = PyDict_GetItemString(g, "TensorWrapper");
    PyObject *output = PyDict_GetItemString(g, "_Output");
    PyObject *meta = PyDict_GetItemString(g, "_Meta");
    PyObject *last = PyDict_GetItemString(g, "_LAST");
    if (tw == NULL || output == NULL || meta == NULL || last == NULL || !PyDict_Check(last) ||
        !PyType_Check(tw)) {
        PyErr_SetString(PyExc_TypeError, "setup_wrappers: unexpected tensor_wrapper module");
        return NULL;
    }
    if (layout_init(&output_L, output) < 0 || layout_init(&meta_L, meta) < 0)
        return NULL;
    PyObject *f1 = static_func(tw, "of_output");
    PyObject *f2 = f1 ? static_func(tw, "of_edge") : NULL;
    PyObject *f3 = f2 ? static_func(tw, "meta_of") : NULL;
    if (f3 == NULL) {
        Py_XDECREF(f1);
        Py_XDECREF(f2);
        return NULL;
    }
    Py_XSETREF(tw_of_output, f1);
    Py_XSETREF(tw_of_edge, f2);
    Py_XSETREF(tw_meta_of, f3);
    Py_INCREF(g);
    Py_XSETREF(tw_globals, g);
    Py_INCREF(last);
    Py_XSETREF(tw_last, last);
    PyObject *c1 = PyObject_GetAttrString(self, "of_output");
    PyObject *c2 = PyObject_GetAttrString(self, "of_edge");
    PyObject *c3 = PyObject_GetAttrString(self, "meta_of");
    PyObject *r = c1 && c2 && c3 ? PyTuple_Pack(3, c1, c2, c3) : NULL;
    Py_XDECREF(c1);
    Py_XDECREF(c2);
    Py_XDECREF(c3);
    return r;
}

/* -- the backward engine's loop (engine_loop.run_backward) ------------------------------ */

/* run_backward(ready, order, deps, holder, retain_graph, create_graph[, capture]): the loop
 * of engine_loop.run_backward (and run_grad), statement for statement: the same nodes in
 * the same order (the chain's direct hand-over, the heap of keys (-seq, order, node)), the
 * same deliveries, checks and errors, the same moments at which references are dropped.
 * Everything but the inline node and the inline checks of output 0's metadata goes through
 * engine_loop's Python helpers (`_pre_hooks`, `_apply`, `_accumulate`, `_capture`,
 * `_check_gradient`, `_freed_error`, `_count_error`, `holder.add`), read from the module's
 * globals at each use, so that replacing one (tests do) is seen. Arguments of other types
 * than the engine passes (keywords, a ready heap that is not a list, ...) go to the Python
 * function. Nodes' slots are read at node_L's offsets for classes that keep node_L's
 * layout, through getattr otherwise. */

/* get_any with layout_ok's cache hit inline (the loop reads ~15 slots per node). */
static inline PyObject *
el_get_any(Layout *L, PyObject *obj, int i)
{
    PyTypeObject *t = Py_TYPE(obj);
    CacheEntry *e = &L->cache[((uintptr_t)t >> 4) & (CACHE_SIZE - 1)];
    if (e->type == t && e->tag == t->tp_version_tag && PyType_HasFeature(t, Py_TPFLAGS_VALID_VERSION_TAG))
        return get(L, obj, i);
    return get_any(L, obj, i);
}

/* In a setup function: `var` = the interned string `s` (once), or return NULL. */
#define EL_INTERN(var, s)                                                                         \
    if (var == NULL && (var = PyUnicode_InternFromString(s)) == NULL)                             \
        return NULL;

static PyObject *el_globals;  /* engine_loop's globals() */
static PyObject *el_fallback; /* the Python run_backward */
static PyObject *el_heappush, *el_heappop, *el_heappushpop; /* heapq's */
static PyObject *el_one;
static PyObject *el_str_apply, *el_str_release_saved, *el_str_add, *el_str_buffers, *el_str_held, *el_str_plain;
static PyObject *el_str_pre_hooks, *el_str_apply_fn, *el_str_accumulate, *el_str_capture, *el_str_check_gradient;
static PyObject *el_str_freed_error, *el_str_count_error, *el_str_acc_grad, *el_str_apply_what;

/* Py_XDECREF of each of n references (an error path's locals). */
static void
el_release(PyObject *refs[], int n)
{
    for (int i = 0; i < n; i++)
        Py_XDECREF(refs[i]);
}

/* engine_loop.<name> (borrowed), or NameError as Python's lookup would raise. */
static PyObject *
el_name(PyObject *name)
{
    PyObject *v = PyDict_GetItemWithError(el_globals, name);
    if (v == NULL && !PyErr_Occurred()) {
        PyObject *b = PyEval_GetBuiltins();
        v = b == NULL ? NULL : PyDict_GetItemWithError(b, name);
        if (v == NULL && !PyErr_Occurred())
            PyErr_Format(PyExc_NameError, "name '%U' is not defined", name);
    }
    return v;
}

/* engine_loop.<name>(args...) as a new reference. */
static PyObject *
el_call(PyObject *name, PyObject *const *args, Py_ssize_t n)
{
    PyObject *fn = el_name(name);
    if (fn == NULL)
        return NULL;
    Py_INCREF(fn);
    PyObject *r = PyObject_Vectorcall(fn, args, n, NULL);
    Py_DECREF(fn);
    return r;
}

/* `raise <engine_loop.<name>(args...)>`: always -1. */
static int
el_raise(PyObject *name, PyObject *const *args, Py_ssize_t n)
{
    PyObject *exc = el_call(name, args, n);
    if (exc == NULL)
        return -1;
    if (PyExceptionInstance_Check(exc))
        PyErr_SetObject((PyObject *)Py_TYPE(exc), exc);
    else if (PyExceptionClass_Check(exc))
        PyErr_SetNone(exc);
    else
        PyErr_SetString(PyExc_TypeError, "exceptions must derive from BaseException");
    Py_DECREF(exc);
    return -1;
}

/* node._plain (a class attribute): from the type without a getattr when the type's
 * instances have no __dict__ and the attribute is no descriptor. */
static int
el_plain(PyObject *node)
{
    PyTypeObject *t = Py_TYPE(node);
    PyObject *v = NULL;
    if (t->tp_getattro == PyObject_GenericGetAttr && t->tp_dictoffset == 0) {
        v = _PyType_Lookup(t, el_str_plain);
        if (v == Py_True)
            return 1;
        if (v == Py_False)
            return 0;
        if (v != NULL && Py_TYPE(v)->tp_descr_get != NULL)
            v = NULL;
        Py_XINCREF(v);
    }
    if (v == NULL && (v = PyObject_GetAttr(node, el_str_plain)) == NULL)
        return -1;
    int r = PyObject_IsTrue(v);
    Py_DECREF(v);
    return r;
}

/* heapq.<fn>(ready[, key])[2] (the node of the key returned) as a new reference. */
static PyObject *
el_heap(PyObject *fn, PyObject *ready, PyObject *key)
{
    PyObject *args[2] = {ready, key};
    PyObject *item = PyObject_Vectorcall(fn, args, key == NULL ? 1 : 2, NULL);
    if (item == NULL)
        return NULL;
    PyObject *node = PySequence_GetItem(item, 2);
    Py_DECREF(item);
    return node;
}

/* (-node.seq, order, node) */
static PyObject *
el_key(PyObject *node, Py_ssize_t order)
{
    PyObject *seq = el_get_any(&node_L, node, N_SEQ);
    if (seq == NULL)
        return NULL;
    PyObject *neg = PyNumber_Negative(seq);
    Py_DECREF(seq);
    if (neg == NULL)
        return NULL;
    PyObject *o = PyLong_FromSsize_t(order);
    if (o == NULL) {
        Py_DECREF(neg);
        return NULL;
    }
    PyObject *key = PyTuple_New(3);
    if (key == NULL) {
        Py_DECREF(neg);
        Py_DECREF(o);
        return NULL;
    }
    Py_INCREF(node);
    PyTuple_SET_ITEM(key, 0, neg);
    PyTuple_SET_ITEM(key, 1, o);
    PyTuple_SET_ITEM(key, 2, node);
    return key;
}

/* The head of NumPy's PyArrayObject_fields (numpy/ndarraytypes.h, the same in NumPy 1 and
 * 2), read for an exact ndarray in place of the `shape` and `dtype` getters (a new tuple per
 * read) once setup_engine_loop has checked it against those getters (el_arrays_read). */
typedef struct {
    PyObject_HEAD
    char *data;
    int nd;
    Py_ssize_t *dimensions;
    Py_ssize_t *strides;
    PyObject *base;
    PyObject *descr;
} ElArrayFields;
#define EL_ARRAY_FIELDS(a) ((ElArrayFields *)(a))
static int el_arrays_read;

/* An exact ndarray's `dtype`, borrowed (the array holds it): its `descr` field once
 * setup_engine_loop has checked the fields against the getters, else the getter; NULL (no
 * error set) if the getter fails. The op and node drivers read their operands' dtypes so. */
static inline PyObject *
ndarray_dtype(PyObject *a)
{
    if (el_arrays_read)
        return EL_ARRAY_FIELDS(a)->descr;
    PyObject *dt = PyObject_GetAttr(a, str_dtype);
    if (dt == NULL) {
        PyErr_Clear();
        return NULL;
    }
    Py_DECREF(dt); /* (the array holds it) */
    return dt;
}

/* `data.shape != shape` for an exact ndarray `data` and a tuple of exact ints `shape` read
 * from the array's fields (1 or 0); -2: not that case (the caller compares the tuples). */
static int
el_shape_differs(PyObject *data, PyObject *shape)
{
    if (!el_arrays_read || !PyTuple_CheckExact(shape))
        return -2;
    ElArrayFields *a = EL_ARRAY_FIELDS(data);
    if (PyTuple_GET_SIZE(shape) != a->nd)
        return 1;
    for (int k = 0; k < a->nd; k++) {
        PyObject *d = PyTuple_GET_ITEM(shape, k);
        if (!PyLong_CheckExact(d))
            return -2;
        int overflow;
        long long v = PyLong_AsLongLongAndOverflow(d, &overflow);
        if (overflow || (v == -1 && PyErr_Occurred())) {
            PyErr_Clear();
            return -2;
        }
        if (v != (long long)a->dimensions[k])
            return 1;
    }
    return 0;
}

/* Whether an exact ndarray's fields read as ElArrayFields give its `shape` and `dtype`. */
static int
el_check_array(PyObject *a)
{
    PyObject *shape = PyObject_GetAttr(a, str_shape), *dtype = PyObject_GetAttr(a, str_dtype);
    int ok = shape != NULL && dtype != NULL && Py_TYPE(a) == ndarray_type && PyTuple_CheckExact(shape) &&
             EL_ARRAY_FIELDS(a)->descr == dtype && EL_ARRAY_FIELDS(a)->nd == PyTuple_GET_SIZE(shape);
    for (int k = 0; ok && k < EL_ARRAY_FIELDS(a)->nd; k++)
        ok = PyLong_AsSsize_t(PyTuple_GET_ITEM(shape, k)) == EL_ARRAY_FIELDS(a)->dimensions[k];
    Py_XDECREF(shape);
    Py_XDECREF(dtype);
    PyErr_Clear();
    return ok;
}

/* Whether gradient `data` (of `child`'s output 0) fails the inline comparison with output
 * 0's metadata in `child`'s slots: its array type, shape, dtype (1), or not (0); -1 on error. */
static int
el_mismatch(PyObject *data, PyObject *child)
{
    PyObject *cls = class_of(data), *want = NULL, *have = NULL;
    int bad = -1;
    if (cls == NULL || (want = el_get_any(&node_L, child, N_ATYPE)) == NULL)
        goto done;
    if (cls != want) {
        bad = 1;
        goto done;
    }
    Py_CLEAR(want);
    if ((want = el_get_any(&node_L, child, N_SHAPE)) == NULL)
        goto done;
    bad = cls == (PyObject *)ndarray_type ? el_shape_differs(data, want) : -2;
    if (bad == -2) {
        if ((have = PyObject_GetAttr(data, str_shape)) == NULL) {
            bad = -1;
            goto done;
        }
        bad = PyObject_RichCompareBool(have, want, Py_NE);
    }
    if (bad != 0)
        goto done;
    Py_CLEAR(have);
    Py_CLEAR(want);
    bad = -1;
    if ((want = el_get_any(&node_L, child, N_DTYPE)) == NULL)
        goto done;
    if (cls == (PyObject *)ndarray_type && el_arrays_read && EL_ARRAY_FIELDS(data)->descr == want) {
        bad = 0; /* `data.dtype is child._dtype` */
        goto done;
    }
    if ((have = PyObject_GetAttr(data, str_dtype)) == NULL)
        goto done;
    bad = have == want ? 0 : PyObject_RichCompareBool(have, want, Py_NE);
done:
    Py_XDECREF(cls);
    Py_XDECREF(want);
    Py_XDECREF(have);
    return bad;
}

/* A one-entry list [g]. */
static PyObject *
el_list1(PyObject *g)
{
    PyObject *l = PyList_New(1);
    if (l != NULL) {
        Py_INCREF(g);
        PyList_SET_ITEM(l, 0, g);
    }
    return l;
}

/* A leaf's turn in its common case, in C (el_leaf): what engine_loop._accumulate ->
 * run_leaf_hooks -> accumulate_into_leaf -> take_as_grad do for an AccumulateGrad node
 * without hooks, not under create_graph, whose leaf has an `_extra` without tensor hooks or
 * post-accumulate hooks and no `.grad` yet, and whose gradient is an exact ndarray's tensor
 * without history or requires_grad, writeable, whose memory block is not in `held`: the
 * gradient itself becomes `.grad` (`grad_owned` True, its block entered in `held` as a
 * `.grad`'s). The accumulate lock: that update runs entirely with the GIL held and calls no
 * Python code, so when the lock is free (`locked()` False) no other thread is inside its
 * critical section and none can enter it before the update is done, which is what holding
 * the lock gives; when it is taken, the Python path (which waits for it) runs. A leaf whose
 * `.grad` is set takes the sum in place in its common case (el_leaf_add). Every other case,
 * and any helper replaced in engine_loop's globals (tests do), goes to `_accumulate`. */

static int el_leaf_ok;                 /* the fast path's setup succeeded */
static uint64_t el_leaf_version;       /* engine_loop's globals when its helpers were last checked */
static PyObject *el_leaf_accumulate;   /* engine_loop._accumulate as set up */
static PyObject *el_leaf_into;         /* engine_loop.accumulate_into_leaf as set up */
static PyObject *el_leaf_hooks;        /* engine_loop.run_leaf_hooks as set up */
static PyObject *el_leaf_lock;         /* engine_loop.ACCUMULATE_LOCK */
static PyObject *el_str_locked, *el_str_into, *el_str_leaf_hooks, *el_str_lock, *el_str_acquire, *el_str_release;
static PyTypeObject *el_acc_type, *el_extra_type;
static Py_ssize_t el_off_variable, el_off_hooks, el_off_post, el_off_owned;

/* NumPy's PyArrayObject_fields up to `flags` (ElArrayFields, then the flags word). */
typedef struct {
    ElArrayFields head;
    int flags;
} ElArrayFlags;
#define EL_WRITEABLE 0x0400 /* NPY_ARRAY_WRITEABLE */

/* A slot's offset in `type` (a member descriptor of an object slot), or -1. */
static Py_ssize_t
el_slot_offset(PyTypeObject *type, const char *name)
{
    PyObject *s = PyUnicode_InternFromString(name);
    if (s == NULL)
        return -1;
    PyObject *d = _PyType_Lookup(type, s);
    Py_DECREF(s);
    if (d == NULL || Py_TYPE(d) != &PyMemberDescr_Type)
        return -1;
    PyMemberDef *m = ((PyMemberDescrObject *)d)->d_member;
    return m->type == T_OBJECT_EX && !(m->flags & READONLY) ? m->offset : -1;
}

/* Whether `flags` of an exact ndarray reads as its `flags.writeable`. */
static int
el_check_writeable(PyObject *a, int want)
{
    return Py_TYPE(a) == ndarray_type && !!(((ElArrayFlags *)a)->flags & EL_WRITEABLE) == want;
}

/* Sets the fast path up from engine_loop's globals; leaves it off on any mismatch. */
static void
el_leaf_setup(PyObject *g)
{
    el_leaf_ok = 0;
    PyObject *acc = PyDict_GetItemString(g, "AccumulateGrad");
    PyObject *fn = PyDict_GetItemString(g, "_accumulate"), *into = PyDict_GetItemString(g, "accumulate_into_leaf");
    PyObject *hooks = PyDict_GetItemString(g, "run_leaf_hooks"), *lock = PyDict_GetItemString(g, "ACCUMULATE_LOCK");
    PyObject *tmod = PyImport_ImportModule("opgrad.runtime.tensor");
    PyObject *extra = tmod == NULL ? NULL : PyObject_GetAttrString(tmod, "_TensorExtra");
    Py_XDECREF(tmod);
    PyObject *arrays = PyRun_String("(__import__('numpy').empty((2,), 'f4'), __import__('numpy').empty((3, 2))[:, 1], "
                                    "__import__('numpy').broadcast_to(__import__('numpy').empty(()), (2,)))",
                                    Py_eval_input, g, g);
    int ok = acc != NULL && PyType_Check(acc) && fn != NULL && into != NULL && hooks != NULL && lock != NULL &&
             extra != NULL && PyType_Check(extra) && arrays != NULL && PyTuple_CheckExact(arrays) &&
             PyTuple_GET_SIZE(arrays) == 3 && el_arrays_read;
    ok = ok && el_check_writeable(PyTuple_GET_ITEM(arrays, 0), 1) &&
         el_check_writeable(PyTuple_GET_ITEM(arrays, 1), 1) && el_check_writeable(PyTuple_GET_ITEM(arrays, 2), 0);
    if (ok) {
        el_off_variable = el_slot_offset((PyTypeObject *)acc, "variable");
        el_off_hooks = el_slot_offset((PyTypeObject *)extra, "hooks");
        el_off_post = el_slot_offset((PyTypeObject *)extra, "post_accumulate");
        el_off_owned = el_slot_offset((PyTypeObject *)extra, "grad_owned");
        ok = el_off_variable >= 0 && el_off_hooks >= 0 && el_off_post >= 0 && el_off_owned >= 0;
    }
    if (ok) { /* (each made once; one that failed is tried again at the next setup) */
        PyObject **strs[] = {&el_str_locked, &el_str_into, &el_str_leaf_hooks, &el_str_lock, &el_str_acquire,
                             &el_str_release};
        const char *texts[] = {"locked", "accumulate_into_leaf", "run_leaf_hooks", "ACCUMULATE_LOCK", "acquire",
                               "release"};
        for (int i = 0; i < 6; i++)
            if (*strs[i] == NULL && (*strs[i] = PyUnicode_InternFromString(texts[i])) == NULL)
                ok = 0;
    }
    if (ok) {
        Py_INCREF(acc);
        Py_XSETREF(el_acc_type, (PyTypeObject *)acc);
        Py_INCREF(extra);
        Py_XSETREF(el_extra_type, (PyTypeObject *)extra);
        Py_XSETREF(el_leaf_accumulate, Py_NewRef(fn));
        Py_XSETREF(el_leaf_into, Py_NewRef(into));
        Py_XSETREF(el_leaf_hooks, Py_NewRef(hooks));
        Py_XSETREF(el_leaf_lock, Py_NewRef(lock));
    }
    Py_XDECREF(extra);
    Py_XDECREF(arrays);
    PyErr_Clear();
    el_leaf_version = 0; /* (checked at the first use) */
    el_leaf_ok = ok;
}

/* A hook table (`_extra.hooks`, `_extra.post_accumulate`) that holds nothing: None or {}. */
static inline int
el_no_hooks(PyObject *h)
{
    return h == Py_None || (PyDict_CheckExact(h) && PyDict_GET_SIZE(h) == 0);
}

/* `old._data += gdata` (its array `data`): 0, or -1 on error (NumPy's, `old` unchanged). */
static int
el_iadd(PyObject *old, PyObject *data, PyObject *gdata)
{
    Py_INCREF(old);
    Py_INCREF(data);
    Py_INCREF(gdata);
    PyObject *sum = PyNumber_InPlaceAdd(data, gdata);
    Py_DECREF(data);
    Py_DECREF(gdata);
    if (sum != NULL) {
        put(&tensor_L, old, T_DATA, sum);
        Py_DECREF(sum);
    }
    Py_DECREF(old);
    return sum == NULL ? -1 : 0;
}

/* accumulate_into_leaf when `.grad` is set, in its common case: a `.grad` the engine made
 * (`grad_owned`) that nothing but the leaf refers to (its tensor and its array: what
 * `_grad_refs(leaf) <= _ONE_REF` reads), without requires_grad, a writeable ndarray: the
 * gradient is added into it in place (`old._data += grad._data`), under the accumulate lock
 * (acquired here: NumPy may release the GIL while it adds; the conditions are read once the
 * lock is held). 1 done, 0 not that case (nothing changed), -1 error (the lock released). */
static int
el_leaf_add(PyObject *leaf, PyObject *extra, PyObject *g)
{
    PyObject *gdata = SLOT(g, tensor_L.offs[T_DATA]);
    if (gdata == NULL || Py_TYPE(gdata) != ndarray_type)
        return 0;
    Py_INCREF(extra); /* (alive while acquire() may wait, the GIL released) */
    Py_INCREF(gdata);
    PyObject *r = PyObject_CallMethodNoArgs(el_leaf_lock, el_str_acquire);
    if (r == NULL) {
        Py_DECREF(extra);
        Py_DECREF(gdata);
        return -1;
    }
    Py_DECREF(r);
    int done = 0;
    PyObject *old = SLOT(leaf, tensor_L.offs[T_GRAD]), *data;
    if (old != NULL && old != Py_None && SLOT(leaf, tensor_L.offs[T_EXTRA]) == extra &&
        SLOT(extra, el_off_owned) == Py_True && Py_REFCNT(old) == 1 && layout_ok(&tensor_L, Py_TYPE(old)) &&
        SLOT(old, tensor_L.offs[T_RG]) == Py_False && (data = SLOT(old, tensor_L.offs[T_DATA])) != NULL &&
        Py_TYPE(data) == ndarray_type && Py_REFCNT(data) == 1 && (((ElArrayFlags *)data)->flags & EL_WRITEABLE)) {
        done = el_iadd(old, data, gdata) < 0 ? -1 : 1; /* old._data += grad._data */
    }
    Py_DECREF(extra);
    Py_DECREF(gdata);
    PyObject *exc_type, *exc_value, *exc_tb;
    PyErr_Fetch(&exc_type, &exc_value, &exc_tb);
    r = PyObject_CallMethodNoArgs(el_leaf_lock, el_str_release);
    if (r == NULL) {
        Py_XDECREF(exc_type);
        Py_XDECREF(exc_value);
        Py_XDECREF(exc_tb);
        return -1;
    }
    Py_DECREF(r);
    PyErr_Restore(exc_type, exc_value, exc_tb);
    return done;
}

/* `_accumulate(node, grads, create_graph, held)` in its common case: 1 done, 0 not that
 * case (nothing was changed), -1 error. `node` is an exact AccumulateGrad without hooks. */
static int
el_leaf(PyObject *node, PyObject *grads, int create, PyObject *held)
{
    if (!el_leaf_ok || create || !PyDict_CheckExact(held) || !PyList_CheckExact(grads) || PyList_GET_SIZE(grads) < 1 ||
        Py_TYPE(node) != el_acc_type)
        return 0;
    /* the helpers as set up (a test may replace one in engine_loop): read again when
     * engine_loop's globals changed since they were last found so */
    uint64_t version = dict_version(el_globals);
    if (version != el_leaf_version) {
        if (PyDict_GetItemWithError(el_globals, el_str_accumulate) != el_leaf_accumulate ||
            PyDict_GetItemWithError(el_globals, el_str_into) != el_leaf_into ||
            PyDict_GetItemWithError(el_globals, el_str_leaf_hooks) != el_leaf_hooks ||
            PyDict_GetItemWithError(el_globals, el_str_lock) != el_leaf_lock)
            return PyErr_Occurred() ? -1 : 0;
        el_leaf_version = version;
    }
    PyObject *leaf = SLOT(node, el_off_variable), *g = PyList_GET_ITEM(grads, 0);
    if (leaf == NULL || !layout_ok(&tensor_L, Py_TYPE(leaf)) || !layout_ok(&tensor_L, Py_TYPE(g)))
        return 0;
    PyObject *extra = SLOT(leaf, tensor_L.offs[T_EXTRA]);
    if (extra == NULL || Py_TYPE(extra) != el_extra_type)
        return 0;
    PyObject *hooks = SLOT(extra, el_off_hooks), *post = SLOT(extra, el_off_post);
    if (hooks == NULL || post == NULL || SLOT(extra, el_off_owned) == NULL || !el_no_hooks(hooks) ||
        !el_no_hooks(post))
        return 0;
    if (SLOT(leaf, tensor_L.offs[T_GRAD]) != Py_None)
        return el_leaf_add(leaf, extra, g);
    PyObject *data = SLOT(g, tensor_L.offs[T_DATA]);
    if (SLOT(g, tensor_L.offs[T_NODE]) != Py_None || SLOT(g, tensor_L.offs[T_RG]) != Py_False || data == NULL ||
        Py_TYPE(data) != ndarray_type || !(((ElArrayFlags *)data)->flags & EL_WRITEABLE))
        return 0;
    PyObject *base = EL_ARRAY_FIELDS(data)->base;
    PyObject *block = PyLong_FromVoidPtr(base == NULL ? data : base);
    if (block == NULL)
        return -1;
    int in_held = PyDict_Contains(held, block);
    PyObject *locked = in_held ? NULL : PyObject_CallMethodNoArgs(el_leaf_lock, el_str_locked);
    int busy = locked == NULL ? -1 : PyObject_IsTrue(locked);
    Py_XDECREF(locked);
    if (in_held || busy) { /* (an error of either, or the Python path) */
        Py_DECREF(block);
        return in_held < 0 || (!in_held && busy < 0) ? -1 : 0;
    }
    /* From here to the end: no Python code runs and the GIL is not released. The checks
     * above still hold (nothing ran since them but `locked()`, a C method). */
    if (PyDict_SetItem(held, block, Py_True) < 0) {
        Py_DECREF(block);
        return -1;
    }
    Py_DECREF(block);
    put(&tensor_L, leaf, T_GRAD, g);
    PyObject **owned = &SLOT(extra, el_off_owned);
    PyObject *old = *owned;
    *owned = Py_NewRef(Py_True);
    Py_DECREF(old);
    return 1;
}

/* GradTensorHolder.add(node, pos, grad) in its common cases, in C (el_add): not under
 * create_graph, a buffer list for `node` already there with room for `pos`: an empty entry
 * takes the gradient; an entry the holder owns (its key in `owned`) that is a writeable
 * ndarray's tensor takes the sum in place (`old._data += grad._data`). 1 done, 0 not that
 * case (nothing changed: the method runs), -1 error. Off when the class's `add` is not the
 * one set up (a test may replace it) or the holder is of another class. */
static PyObject *el_holder_type, *el_holder_add;
static Py_ssize_t el_off_buffers, el_off_owned_set, el_off_create;

static void
el_add_setup(PyObject *g)
{
    PyObject *cls = PyDict_GetItemString(g, "GradTensorHolder");
    PyObject *fn = NULL;
    if (cls != NULL && PyType_Check(cls))
        fn = PyDict_GetItemString(((PyTypeObject *)cls)->tp_dict, "add");
    Py_CLEAR(el_holder_type);
    if (fn == NULL || !PyFunction_Check(fn))
        return;
    el_off_buffers = el_slot_offset((PyTypeObject *)cls, "buffers");
    el_off_owned_set = el_slot_offset((PyTypeObject *)cls, "owned");
    el_off_create = el_slot_offset((PyTypeObject *)cls, "create_graph");
    PyErr_Clear();
    if (el_off_buffers < 0 || el_off_owned_set < 0 || el_off_create < 0)
        return;
    Py_XSETREF(el_holder_add, Py_NewRef(fn));
    el_holder_type = Py_NewRef(cls);
}

static int
el_add(PyObject *holder, PyObject *node, PyObject *pos, PyObject *g)
{
    if (el_holder_type == NULL || (PyObject *)Py_TYPE(holder) != el_holder_type || !PyLong_CheckExact(pos))
        return 0;
    PyObject *fn = PyDict_GetItemWithError(((PyTypeObject *)el_holder_type)->tp_dict, el_str_add);
    if (fn != el_holder_add)
        return PyErr_Occurred() ? -1 : 0;
    PyObject *buffers = SLOT(holder, el_off_buffers), *owned = SLOT(holder, el_off_owned_set);
    if (buffers == NULL || owned == NULL || SLOT(holder, el_off_create) != Py_False || !PyDict_CheckExact(buffers) ||
        !PySet_CheckExact(owned))
        return 0;
    PyObject *l = PyDict_GetItemWithError(buffers, node);
    if (l == NULL)
        return PyErr_Occurred() ? -1 : 0;
    Py_ssize_t i = PyLong_AsSsize_t(pos);
    if (i == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        return 0;
    }
    if (!PyList_CheckExact(l) || i < 0 || i >= PyList_GET_SIZE(l))
        return 0;
    PyObject *old = PyList_GET_ITEM(l, i);
    if (old == Py_None) { /* buffers[pos] = grad */
        Py_INCREF(g);
        PyList_SET_ITEM(l, i, g);
        Py_DECREF(old);
        return 1;
    }
    if (!layout_ok(&tensor_L, Py_TYPE(old)) || !layout_ok(&tensor_L, Py_TYPE(g)))
        return 0;
    PyObject *data = SLOT(old, tensor_L.offs[T_DATA]), *gdata = SLOT(g, tensor_L.offs[T_DATA]);
    if (data == NULL || gdata == NULL || Py_TYPE(data) != ndarray_type ||
        !(((ElArrayFlags *)data)->flags & EL_WRITEABLE))
        return 0;
    PyObject *id = PyLong_FromVoidPtr(node);
    PyObject *key = id == NULL ? NULL : PyTuple_Pack(2, id, pos);
    Py_XDECREF(id);
    if (key == NULL)
        return -1;
    int in = PySet_Contains(owned, key);
    Py_DECREF(key);
    if (in <= 0)
        return in;
    return el_iadd(old, data, gdata) < 0 ? -1 : 1; /* old._data += grad._data */
}

/* The ready heap in C (ElHeap): the keys (-seq, order, node) as (k, order) integers, the
 * node held. The order of the nodes popped from a heap with unique keys depends only on the
 * keys, and `order` makes every key unique (the engine numbers the initial keys 0..n-1 and
 * the loop numbers the rest from `order` on), so this heap pops exactly what heapq pops from
 * the list of tuples, without a tuple, an int or a call per key. A key that does not fit (a
 * `seq` that is not an int of 63 bits) moves the heap's entries into the `ready` list as the
 * tuples they stand for (a valid heapq heap: the same array under the same order) and the
 * pass goes on with heapq, as the Python loop does. */
typedef struct {
    long long k;
    Py_ssize_t order;
    PyObject *node; /* a reference held */
} ElEntry;

typedef struct {
    ElEntry *a;
    Py_ssize_t n, cap;
    ElEntry small[16];
} ElHeap;

static inline int
el_less(const ElEntry *x, const ElEntry *y)
{
    return x->k < y->k || (x->k == y->k && x->order < y->order);
}

static void
el_heap_init(ElHeap *h)
{
    h->a = h->small;
    h->n = 0;
    h->cap = 16;
}

static void
el_heap_free(ElHeap *h)
{
    for (Py_ssize_t i = 0; i < h->n; i++)
        Py_DECREF(h->a[i].node);
    if (h->a != h->small)
        PyMem_Free(h->a);
    h->a = h->small;
    h->n = 0;
    h->cap = 16;
}

/* Push (k, order, node) (a new reference to node is taken): 0, or -1 (MemoryError). */
static int
el_heap_push(ElHeap *h, long long k, Py_ssize_t order, PyObject *node)
{
    if (h->n == h->cap) {
        Py_ssize_t cap = h->cap * 2;
        ElEntry *a = PyMem_Malloc(cap * sizeof(ElEntry));
        if (a == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        memcpy(a, h->a, h->n * sizeof(ElEntry));
        if (h->a != h->small)
            PyMem_Free(h->a);
        h->a = a;
        h->cap = cap;
    }
    ElEntry e = {k, order, Py_NewRef(node)};
    Py_ssize_t i = h->n++;
    while (i > 0) {
        Py_ssize_t parent = (i - 1) >> 1;
        if (!el_less(&e, &h->a[parent]))
            break;
        h->a[i] = h->a[parent];
        i = parent;
    }
    h->a[i] = e;
    return 0;
}

/* Put `e` at the root and sift it down (the root's entry has been taken). */
static void
el_heap_sift_root(ElHeap *h, ElEntry e)
{
    Py_ssize_t i = 0, n = h->n;
    for (;;) {
        Py_ssize_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && el_less(&h->a[c + 1], &h->a[c]))
            c++;
        if (!el_less(&h->a[c], &e))
            break;
        h->a[i] = h->a[c];
        i = c;
    }
    h->a[i] = e;
}

/* The node of the smallest key, taken out (its reference passes to the caller); n > 0. */
static PyObject *
el_heap_pop(ElHeap *h)
{
    PyObject *node = h->a[0].node;
    ElEntry last = h->a[--h->n];
    if (h->n)
        el_heap_sift_root(h, last);
    return node;
}

/* heappushpop when the root's key is below (k, order): the root's node out (its reference
 * to the caller), (k, order, node) in (a new reference taken). */
static PyObject *
el_heap_replace(ElHeap *h, long long k, Py_ssize_t order, PyObject *node)
{
    PyObject *out = h->a[0].node;
    ElEntry e = {k, order, Py_NewRef(node)};
    el_heap_sift_root(h, e);
    return out;
}

/* -node.seq as a C integer: 1 (in *k), 0 when it does not fit (not an exact int, or out of
 * 63 bits), -1 on an error of the read. */
static int
el_seq_key(PyObject *node, long long *k)
{
    PyObject *seq = el_get_any(&node_L, node, N_SEQ);
    if (seq == NULL)
        return -1;
    int fits = 0;
    if (PyLong_CheckExact(seq)) {
        int overflow;
        long long v = PyLong_AsLongLongAndOverflow(seq, &overflow);
        if (v == -1 && PyErr_Occurred())
            PyErr_Clear();
        else if (!overflow && v != LLONG_MIN) {
            *k = -v;
            fits = 1;
        }
    }
    Py_DECREF(seq);
    return fits;
}

/* Move the heap's entries into `ready` (empty) as the tuples they stand for: 0 or -1. */
static int
el_heap_spill(ElHeap *h, PyObject *ready)
{
    for (Py_ssize_t i = 0; i < h->n; i++) {
        PyObject *k = PyLong_FromLongLong(h->a[i].k), *o = PyLong_FromSsize_t(h->a[i].order);
        PyObject *t = k == NULL || o == NULL ? NULL : PyTuple_Pack(3, k, o, h->a[i].node);
        Py_XDECREF(k);
        Py_XDECREF(o);
        if (t == NULL || PyList_Append(ready, t) < 0) {
            Py_XDECREF(t);
            return -1;
        }
        Py_DECREF(t);
    }
    el_heap_free(h);
    return 0;
}

/* The initial keys of `ready` into the heap (and `ready` emptied): 1; 0 when one does not fit
 * (a key that is not (int, int, node) of C integers, an order outside 0..order-1 or given
 * twice): the pass keeps heapq; -1 on an error. */
static int
el_heap_take(ElHeap *h, PyObject *ready, Py_ssize_t order)
{
    Py_ssize_t n = PyList_GET_SIZE(ready);
    if (n == 0)
        return 1;
    if (order < n || order > 4 * n + 64)
        return 0;
    char *seen = PyMem_Calloc(order, 1);
    if (seen == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    int ok = 1;
    for (Py_ssize_t i = 0; ok && i < n; i++) {
        PyObject *t = PyList_GET_ITEM(ready, i);
        ok = PyTuple_CheckExact(t) && PyTuple_GET_SIZE(t) == 3 && PyLong_CheckExact(PyTuple_GET_ITEM(t, 0)) &&
             PyLong_CheckExact(PyTuple_GET_ITEM(t, 1));
        if (!ok)
            break;
        int overflow;
        long long k = PyLong_AsLongLongAndOverflow(PyTuple_GET_ITEM(t, 0), &overflow);
        Py_ssize_t o = PyLong_AsSsize_t(PyTuple_GET_ITEM(t, 1));
        if (PyErr_Occurred()) {
            PyErr_Clear();
            ok = 0;
            break;
        }
        ok = !overflow && o >= 0 && o < order && !seen[o];
        if (ok) {
            seen[o] = 1;
            ok = el_heap_push(h, k, o, PyTuple_GET_ITEM(t, 2)) == 0;
            if (!ok) {
                PyMem_Free(seen);
                return -1;
            }
        }
    }
    PyMem_Free(seen);
    if (!ok) {
        el_heap_free(h);
        return 0;
    }
    return PyList_SetSlice(ready, 0, n, NULL) < 0 ? -1 : 1;
}

/* Whether `node.release_saved` is GradNode's own (a no-op: its body is its docstring), so
 * that its call can be left out: the type's attribute, no instance dict to shadow it. */
static PyObject *el_base_release; /* GradNode.release_saved, as set up */

static inline int
el_base_release_saved(PyObject *node)
{
    PyTypeObject *t = Py_TYPE(node);
    return el_base_release != NULL && t->tp_getattro == PyObject_GenericGetAttr && t->tp_dictoffset == 0 &&
           _PyType_Lookup(t, el_str_release_saved) == el_base_release;
}

static PyObject *
el_run_backward(PyObject *self, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (el_fallback == NULL || kwnames != NULL || nargs < 6 || nargs > 7 || !PyList_CheckExact(args[0]) ||
        !PyLong_CheckExact(args[1]) || !PyDict_CheckExact(args[2]))
        return call_fallback(el_fallback, args, nargsf, kwnames);
    Py_ssize_t order = PyLong_AsSsize_t(args[1]);
    if (order == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        return call_fallback(el_fallback, args, nargsf, kwnames);
    }
    PyObject *ready = args[0], *deps = args[2], *holder = args[3], *retain_obj = args[4], *create = args[5];
    PyObject *capture = nargs > 6 ? args[6] : Py_None;
    PyObject *buffers = PyObject_GetAttr(holder, el_str_buffers);
    if (buffers == NULL)
        return NULL;
    if (!PyDict_CheckExact(buffers)) {
        Py_DECREF(buffers);
        return call_fallback(el_fallback, args, nargsf, kwnames);
    }
    PyObject *held = NULL, *captured = NULL;
    PyObject *node = NULL, *grads = NULL, *direct = NULL, *outs = NULL, *at = NULL, *kids = NULL;
    PyObject *child = NULL, *nxt = NULL, *pos = NULL, *left = NULL, *g = NULL, *data = NULL, *r = NULL;
    PyObject *key = NULL, *more = NULL;
    Py_ssize_t nxt_order = 0;
    ElHeap heap;
    el_heap_init(&heap);
    int cheap = 0; /* the ready keys are in `heap` (else in `ready`, through heapq) */
    long long k = 0;
    int retain = PyObject_IsTrue(retain_obj);
    if (retain < 0)
        goto error;
    int create_ = PyObject_IsTrue(create);
    if (create_ < 0)
        goto error;
    if ((held = PyObject_GetAttr(holder, el_str_held)) == NULL || (captured = PyDict_New()) == NULL)
        goto error;
    if ((cheap = el_heap_take(&heap, ready, order)) < 0)
        goto error;
    if (cheap) {
        if (heap.n)
            node = el_heap_pop(&heap);
    }
    else if (PyList_GET_SIZE(ready) && (node = el_heap(el_heappop, ready, NULL)) == NULL)
        goto error;
    while (node != NULL) {
        if (direct == NULL) {
            if ((grads = _PyDict_Pop(buffers, node, Py_None)) == NULL)
                goto error;
        }
        else {
            grads = direct;
            direct = NULL;
        }
        if (grads != Py_None) {
            int inline_ = el_plain(node);
            if (inline_ < 0)
                goto error;
            PyObject *hooks = NULL;
            if (inline_) {
                if ((hooks = el_get_any(&node_L, node, N_HOOKS)) == NULL)
                    goto error;
                inline_ = hooks == Py_None;
                Py_DECREF(hooks);
                if (inline_) {
                    if ((more = el_get_any(&node_L, node, N_MORE)) == NULL)
                        goto error;
                    inline_ = more == Py_None;
                    Py_CLEAR(more);
                }
            }
            if (inline_) {
                if ((r = el_get_any(&node_L, node, N_RELEASED)) == NULL)
                    goto error;
                int released = PyObject_IsTrue(r);
                Py_CLEAR(r);
                if (released < 0 || (released && el_raise(el_str_freed_error, &node, 1) < 0))
                    goto error;
                PyObject *a[3] = {node, grads, create};
                if ((outs = PyObject_VectorcallMethod(el_str_apply, a, 3, NULL)) == NULL)
                    goto error;
                Py_ssize_t n = PyObject_Size(outs);
                if (n < 0 || (at = el_get_any(&node_L, node, N_AT)) == NULL)
                    goto error;
                Py_ssize_t n_at = PyObject_Size(at);
                Py_CLEAR(at);
                if (n_at < 0)
                    goto error;
                if (n != n_at) {
                    PyObject *ea[3] = {node, outs, el_str_apply_what};
                    el_raise(el_str_count_error, ea, 3);
                    goto error;
                }
                if (!retain && !el_base_release_saved(node)) {
                    if ((r = PyObject_CallMethodNoArgs(node, el_str_release_saved)) == NULL)
                        goto error;
                    Py_CLEAR(r);
                }
            }
            else {
                if ((hooks = el_get_any(&node_L, node, N_HOOKS)) == NULL)
                    goto error;
                int has_hooks = hooks != Py_None;
                Py_DECREF(hooks);
                if (has_hooks) {
                    PyObject *a[3] = {node, grads, held};
                    if ((r = el_call(el_str_pre_hooks, a, 3)) == NULL)
                        goto error;
                    Py_SETREF(grads, r);
                    r = NULL;
                }
                PyObject *cls = el_name(el_str_acc_grad);
                if (cls == NULL)
                    goto error;
                if ((PyObject *)Py_TYPE(node) != cls) {
                    PyObject *a[5] = {node, grads, held, retain_obj, create};
                    if ((outs = el_call(el_str_apply_fn, a, 5)) == NULL)
                        goto error;
                }
                else if (capture == Py_None) {
                    int done = has_hooks ? 0 : el_leaf(node, grads, create_, held);
                    if (done < 0)
                        goto error;
                    if (!done) {
                        PyObject *a[4] = {node, grads, create, held};
                        if ((r = el_call(el_str_accumulate, a, 4)) == NULL)
                            goto error;
                        Py_CLEAR(r);
                    }
                }
                else {
                    PyObject *a[5] = {node, grads, capture, captured, held};
                    if ((r = el_call(el_str_capture, a, 5)) == NULL)
                        goto error;
                    Py_CLEAR(r);
                }
            }
        }
        Py_CLEAR(grads); /* the node's own incoming gradients: freed before its outputs are summed */
        /* Deliver gradient i along edge i (see run_backward's comments). */
        Py_ssize_t n_outs = 0;
        if (outs != NULL && (n_outs = PyObject_Size(outs)) < 0)
            goto error;
        if ((at = el_get_any(&node_L, node, N_AT)) == NULL || (kids = el_get_any(&node_L, node, N_NEXTS)) == NULL)
            goto error;
        int has_kids = PyObject_IsTrue(kids);
        if (has_kids < 0)
            goto error;
        child = has_kids ? PySequence_GetItem(kids, 0) : el_get_any(&node_L, node, N_NEXT0);
        if (child == NULL)
            goto error;
        Py_ssize_t i = 0;
        for (;;) {
            if (child != Py_None) {
                if ((pos = PySequence_GetItem(at, i)) == NULL)
                    goto error;
                PyObject *count = PyDict_GetItemWithError(deps, child);
                if (count == NULL) {
                    if (!PyErr_Occurred())
                        PyErr_SetObject(PyExc_KeyError, child);
                    goto error;
                }
                Py_INCREF(count);
                left = PyNumber_Subtract(count, el_one);
                Py_DECREF(count);
                if (left == NULL)
                    goto error;
                int nonzero = PyObject_IsTrue(left);
                if (nonzero < 0 || (nonzero && PyDict_SetItem(deps, child, left) < 0))
                    goto error;
                if (i < n_outs) {
                    if ((g = PySequence_GetItem(outs, i)) == NULL)
                        goto error;
                }
                else
                    g = Py_NewRef(Py_None);
                if (g != Py_None) {
                    if ((data = el_get_any(&tensor_L, g, T_DATA)) == NULL)
                        goto error;
                    int p = PyObject_IsTrue(pos);
                    if (p < 0)
                        goto error;
                    int bad = p ? 1 : el_mismatch(data, child);
                    if (bad < 0)
                        goto error;
                    if (bad) {
                        PyObject *io = PyLong_FromSsize_t(i);
                        if (io == NULL)
                            goto error;
                        PyObject *a[5] = {node, io, g, child, pos};
                        r = el_call(el_str_check_gradient, a, 5);
                        Py_DECREF(io);
                        if (r == NULL)
                            goto error;
                        Py_CLEAR(r);
                    }
                    int add = p;
                    if (!add) {
                        if ((more = el_get_any(&node_L, child, N_MORE)) == NULL)
                            goto error;
                        add = more != Py_None;
                        Py_CLEAR(more);
                    }
                    if (!add && (add = PyDict_Contains(buffers, child)) < 0)
                        goto error;
                    if (add) {
                        int done = el_add(holder, child, pos, g);
                        if (done < 0)
                            goto error;
                        if (!done) {
                            PyObject *a[4] = {holder, child, pos, g};
                            r = PyObject_VectorcallMethod(el_str_add, a, 4, NULL);
                            if (r == NULL)
                                goto error;
                            Py_CLEAR(r);
                        }
                    }
                    else if (nonzero || nxt != NULL) {
                        PyObject *l = el_list1(g);
                        if (l == NULL)
                            goto error;
                        int e = PyDict_SetItem(buffers, child, l);
                        Py_DECREF(l);
                        if (e < 0)
                            goto error;
                    }
                    else if ((direct = el_list1(g)) == NULL)
                        goto error;
                    Py_CLEAR(data);
                }
                Py_CLEAR(g);
                int due = PyLong_CheckExact(left) ? !nonzero : PyObject_RichCompareBool(left, zero, Py_EQ);
                Py_CLEAR(left);
                Py_CLEAR(pos);
                if (due < 0)
                    goto error;
                if (due) {
                    if (nxt == NULL) {
                        nxt = Py_NewRef(child);
                        nxt_order = order;
                    }
                    else {
                        int fits = cheap ? el_seq_key(child, &k) : 0;
                        if (fits < 0)
                            goto error;
                        if (fits) {
                            if (el_heap_push(&heap, k, order, child) < 0)
                                goto error;
                            order++;
                            goto pushed;
                        }
                        if (cheap) {
                            if (el_heap_spill(&heap, ready) < 0)
                                goto error;
                            cheap = 0;
                        }
                        if ((key = el_key(child, order)) == NULL)
                            goto error;
                        PyObject *a[2] = {ready, key};
                        if ((r = PyObject_Vectorcall(el_heappush, a, 2, NULL)) == NULL)
                            goto error;
                        Py_CLEAR(r);
                        Py_CLEAR(key);
                    }
                    order++;
                }
            }
        pushed:
            i++;
            Py_CLEAR(child);
            if (has_kids) {
                Py_ssize_t n_kids = PyObject_Size(kids);
                if (n_kids < 0)
                    goto error;
                if (i == n_kids)
                    break;
                if ((child = PySequence_GetItem(kids, i)) == NULL)
                    goto error;
            }
            else if (i == 1) {
                if ((child = el_get_any(&node_L, node, N_NEXT1)) == NULL)
                    goto error;
                if (child == Py_None)
                    break;
            }
            else
                break;
        }
        Py_CLEAR(child);
        Py_CLEAR(outs); /* the last gradient delivered: its references go now */
        Py_CLEAR(at);
        Py_CLEAR(kids);
        Py_CLEAR(node);
        if (nxt == NULL) {
            if (cheap) {
                if (heap.n)
                    node = el_heap_pop(&heap);
            }
            else if (PyList_GET_SIZE(ready) && (node = el_heap(el_heappop, ready, NULL)) == NULL)
                goto error;
            continue;
        }
        if (cheap && heap.n) {
            int fits = el_seq_key(nxt, &k);
            if (fits < 0)
                goto error;
            if (fits) {
                ElEntry e = {k, nxt_order, NULL};
                if (el_less(&heap.a[0], &e)) { /* the heap's top is due first: heappushpop */
                    if (direct != NULL) {
                        if (PyDict_SetItem(buffers, nxt, direct) < 0)
                            goto error;
                        Py_CLEAR(direct);
                    }
                    node = el_heap_replace(&heap, k, nxt_order, nxt);
                    Py_CLEAR(nxt);
                }
                else {
                    node = nxt;
                    nxt = NULL;
                }
                continue;
            }
            if (el_heap_spill(&heap, ready) < 0)
                goto error;
            cheap = 0;
        }
        int before = 0;
        if (PyList_GET_SIZE(ready)) {
            if ((key = el_key(nxt, nxt_order)) == NULL)
                goto error;
            PyObject *top = PyList_GET_ITEM(ready, 0);
            Py_INCREF(top);
            before = PyObject_RichCompareBool(top, key, Py_LT);
            Py_DECREF(top);
            if (before < 0)
                goto error;
        }
        if (before) {
            if (direct != NULL) {
                if (PyDict_SetItem(buffers, nxt, direct) < 0)
                    goto error;
                Py_CLEAR(direct);
            }
            Py_CLEAR(nxt);
            if ((node = el_heap(el_heappushpop, ready, key)) == NULL)
                goto error;
        }
        else {
            node = nxt;
            nxt = NULL;
        }
        Py_CLEAR(key);
    }
    el_heap_free(&heap);
    Py_DECREF(buffers);
    Py_DECREF(held);
    return captured;
error:
    el_heap_free(&heap);
    el_release((PyObject *[]){buffers, held, captured, node, grads, direct, outs, at, kids, child, nxt, pos, left, g,
                               data, r, key, more},
               18);
    return NULL;
}

/* setup_engine_loop(globals): bind run_backward to engine_loop (its globals(), read at each
 * use of a helper); returns the C function. After setup_recorded (the node layout). */
static PyObject *
setup_engine_loop(PyObject *self, PyObject *g)
{
    if (!PyDict_CheckExact(g) || node_L.base == NULL || tensor_L.base == NULL) {
        PyErr_SetString(PyExc_TypeError, "setup_engine_loop: expects engine_loop's globals(), after setup_recorded");
        return NULL;
    }
    PyObject *fallback = PyDict_GetItemString(g, "run_backward");
    PyObject *heapq = PyImport_ImportModule("heapq");
    if (heapq == NULL)
        return NULL;
    PyObject *push = PyObject_GetAttrString(heapq, "heappush");
    PyObject *pop = PyObject_GetAttrString(heapq, "heappop");
    PyObject *pushpop = PyObject_GetAttrString(heapq, "heappushpop");
    Py_DECREF(heapq);
    if (fallback == NULL || !PyFunction_Check(fallback) || push == NULL || pop == NULL || pushpop == NULL) {
        Py_XDECREF(push);
        Py_XDECREF(pop);
        Py_XDECREF(pushpop);
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_TypeError, "setup_engine_loop: engine_loop has no Python run_backward");
        return NULL;
    }
    EL_INTERN(el_str_apply, "apply");
    EL_INTERN(el_str_release_saved, "release_saved");
    EL_INTERN(el_str_add, "add");
    EL_INTERN(el_str_buffers, "buffers");
    EL_INTERN(el_str_held, "held");
    EL_INTERN(el_str_plain, "_plain");
    EL_INTERN(el_str_pre_hooks, "_pre_hooks");
    EL_INTERN(el_str_apply_fn, "_apply");
    EL_INTERN(el_str_accumulate, "_accumulate");
    EL_INTERN(el_str_capture, "_capture");
    EL_INTERN(el_str_check_gradient, "_check_gradient");
    EL_INTERN(el_str_freed_error, "_freed_error");
    EL_INTERN(el_str_count_error, "_count_error");
    EL_INTERN(el_str_acc_grad, "AccumulateGrad");
    EL_INTERN(el_str_apply_what, "apply");
    if (el_one == NULL && (el_one = PyLong_FromLong(1)) == NULL)
        return NULL;
    if (!el_arrays_read) { /* arrays of 0 to 3 dimensions, two dtypes, one a view */
        PyObject *r = PyRun_String("(__import__('numpy').empty((), 'f8'), __import__('numpy').empty((3,), 'f4'), "
                                   "__import__('numpy').zeros((5, 2, 7))[1:, :, ::2])",
                                   Py_eval_input, g, g);
        if (r == NULL)
            return NULL;
        int ok = PyTuple_CheckExact(r);
        for (Py_ssize_t k = 0; ok && k < PyTuple_GET_SIZE(r); k++)
            ok = el_check_array(PyTuple_GET_ITEM(r, k));
        Py_DECREF(r);
        el_arrays_read = ok;
    }
    Py_XSETREF(el_heappush, push);
    Py_XSETREF(el_heappop, pop);
    Py_XSETREF(el_heappushpop, pushpop);
    Py_INCREF(g);
    Py_XSETREF(el_globals, g);
    Py_INCREF(fallback);
    Py_XSETREF(el_fallback, fallback);
    el_leaf_setup(g);
    el_add_setup(g);
    PyObject *base = PyDict_GetItemString(g, "GradNode"), *rel = NULL;
    if (base != NULL && PyType_Check(base))
        rel = PyDict_GetItemString(((PyTypeObject *)base)->tp_dict, "release_saved");
    Py_XSETREF(el_base_release, rel != NULL && PyFunction_Check(rel) ? Py_NewRef(rel) : NULL);
    return PyObject_GetAttrString(self, "run_backward");
}

/* count_deps(roots, blocked): engine._count_deps, the walk that counts, for every node
 * reachable from the roots, the edges into it (step 1 of engine._run), when nothing is
 * blocked: the same walk in the same order (the first new child next, the others through
 * the stack), so the same `deps` (in the same insertion order) and the same `ends`. Other
 * arguments (no_grad_vars' blocked edges, roots that are not a list) go to the Python function. */

static PyObject *el_count_fallback; /* engine._count_deps */

/* deps[child] += 1, or = 1 for a new child; returns 1 when the child is new and is to be
 * walked (not one of several roots, `roots` when not NULL), else 0. */
static int
el_count_edge(PyObject *deps, PyObject *child, PyObject *roots)
{
    PyObject *n = PyDict_GetItemWithError(deps, child);
    if (n == NULL) {
        if (PyErr_Occurred() || PyDict_SetItem(deps, child, el_one) < 0)
            return -1;
        int in = roots != NULL ? PyDict_Contains(roots, child) : 0;
        return in < 0 ? -1 : !in;
    }
    Py_INCREF(n);
    PyObject *m = PyNumber_Add(n, el_one);
    Py_DECREF(n);
    if (m == NULL)
        return -1;
    int e = PyDict_SetItem(deps, child, m);
    Py_DECREF(m);
    return e;
}

static PyObject *
el_count_deps(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (el_count_fallback == NULL || nargs != 2 || args[1] != Py_None || !PyList_CheckExact(args[0]) ||
        PyList_GET_SIZE(args[0]) == 0)
        return call_fallback(el_count_fallback, args, (size_t)nargs, NULL);
    PyObject *roots = args[0];
    PyObject *deps = PyDict_New(), *ends = PyList_New(0), *stack = NULL, *root_nodes = NULL;
    PyObject *node = NULL, *nxt = NULL, *n0 = NULL, *n1 = NULL, *nexts = NULL, *it = NULL, *child = NULL;
    int several = 0;
    if (deps == NULL || ends == NULL)
        goto error;
    if (PyList_GET_SIZE(roots) == 1) {
        if ((node = PySequence_GetItem(PyList_GET_ITEM(roots, 0), 0)) == NULL)
            goto error;
    }
    else {
        if ((root_nodes = PyDict_New()) == NULL)
            goto error;
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(roots); i++) {
            PyObject *r = PySequence_GetItem(PyList_GET_ITEM(roots, i), 0);
            int e = r == NULL ? -1 : PyDict_SetItem(root_nodes, r, Py_None);
            Py_XDECREF(r);
            if (e < 0)
                goto error;
        }
        several = PyDict_GET_SIZE(root_nodes) > 1;
        if ((stack = PyDict_Keys(root_nodes)) == NULL)
            goto error;
        Py_ssize_t n = PyList_GET_SIZE(stack);
        node = Py_NewRef(PyList_GET_ITEM(stack, n - 1));
        if (PyList_SetSlice(stack, n - 1, n, NULL) < 0)
            goto error;
    }
    for (;;) {
        while (node != Py_None) {
            if ((n1 = el_get_any(&node_L, node, N_NEXT1)) == NULL || (nexts = el_get_any(&node_L, node, N_NEXTS)) == NULL)
                goto error;
            int has_nexts = PyObject_IsTrue(nexts);
            if (has_nexts < 0)
                goto error;
            if (n1 == Py_None && !has_nexts) { /* at most one edge, in _next0 */
                if ((child = el_get_any(&node_L, node, N_NEXT0)) == NULL)
                    goto error;
                if (child != Py_None) {
                    int walk = el_count_edge(deps, child, several ? root_nodes : NULL);
                    if (walk < 0)
                        goto error;
                    if (walk)
                        nxt = Py_NewRef(child);
                }
                else if (PyList_Append(ends, node) < 0)
                    goto error;
                Py_CLEAR(child);
            }
            else {
                if ((n0 = el_get_any(&node_L, node, N_NEXT0)) == NULL)
                    goto error;
                it = has_nexts ? PyObject_GetIter(nexts) : NULL;
                if (has_nexts && it == NULL)
                    goto error;
                for (int k = 0;; k++) {
                    if (has_nexts) {
                        if ((child = PyIter_Next(it)) == NULL) {
                            if (PyErr_Occurred())
                                goto error;
                            break;
                        }
                    }
                    else if (k < 2)
                        child = Py_NewRef(k == 0 ? n0 : n1);
                    else
                        break;
                    if (child != Py_None) {
                        int walk = el_count_edge(deps, child, several ? root_nodes : NULL);
                        if (walk < 0)
                            goto error;
                        if (walk && nxt == NULL)
                            nxt = Py_NewRef(child);
                        else if (walk && ((stack == NULL && (stack = PyList_New(0)) == NULL) ||
                                          PyList_Append(stack, child) < 0))
                            goto error;
                    }
                    Py_CLEAR(child);
                }
                Py_CLEAR(it);
                /* (rare: a node of three or more positions none of which needs a gradient) */
                if (nxt == NULL && n0 == Py_None && n1 == Py_None) {
                    Py_ssize_t len = PyObject_Size(nexts);
                    PyObject *c = len < 0 ? NULL : PyObject_CallMethod(nexts, "count", "O", Py_None);
                    if (c == NULL)
                        goto error;
                    Py_ssize_t nones = PyLong_AsSsize_t(c);
                    Py_DECREF(c);
                    if (nones == -1 && PyErr_Occurred())
                        goto error;
                    if (nones == len && PyList_Append(ends, node) < 0)
                        goto error;
                }
                Py_CLEAR(n0);
            }
            Py_CLEAR(n1);
            Py_CLEAR(nexts);
            Py_SETREF(node, nxt == NULL ? Py_NewRef(Py_None) : nxt);
            nxt = NULL;
        }
        Py_ssize_t n = stack == NULL ? 0 : PyList_GET_SIZE(stack);
        if (n == 0)
            break;
        Py_SETREF(node, PyList_GET_ITEM(stack, n - 1)); /* stack.pop(): the list's reference taken over */
        Py_SET_SIZE(stack, n - 1);
    }
    Py_DECREF(node);
    Py_XDECREF(stack);
    Py_XDECREF(root_nodes);
    PyObject *result = PyTuple_Pack(2, deps, ends);
    Py_DECREF(deps);
    Py_DECREF(ends);
    return result;
error:
    el_release((PyObject *[]){deps, ends, stack, root_nodes, node, nxt, n0, n1, nexts, it, child}, 11);
    return NULL;
}

/* setup_count_deps(fallback): bind count_deps to engine (its Python _count_deps); returns
 * the C function. After setup_engine_loop. */
static PyObject *
setup_count_deps(PyObject *self, PyObject *fallback)
{
    if (el_one == NULL || node_L.base == NULL || !PyFunction_Check(fallback)) {
        PyErr_SetString(PyExc_TypeError, "setup_count_deps: expects engine._count_deps, after setup_engine_loop");
        return NULL;
    }
    Py_INCREF(fallback);
    Py_XSETREF(el_count_fallback, fallback);
    return PyObject_GetAttrString(self, "count_deps");
}

/* backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False): engine.backward
 * with its lean one-loss path in C, the path Tensor.backward takes for a loss: one exact
 * Tensor with history at output 0 of a node of one output, no seed given, not create_graph,
 * anomaly mode off. What the Python path does there, step for step: the seed (`_ones_like`:
 * a copy of ONES[dtype] for a 0-d NumPy array, else the Python function), `_count_deps`,
 * `GradTensorHolder(False, {})`, the one-key ready list, and `_execute`'s frame: the pass's
 * entry in `_CALLBACKS.passes`, grad mode off (`_set_enabled`, its statements on grad_mode's
 * `_OFF` and `_STATE` read at each use) and restored on every exit, the queued callbacks run
 * after. Every other call, and any of those names of engine (or GradTensorHolder's class,
 * `_execute`'s or `_set_enabled`'s code) changed since setup, goes to the Python function;
 * `run_backward` is read from engine at each call (tests replace it); a replaced `_count_deps`
 * sends the call to the Python function (it is one of the names checked). */

enum { EB_ONES_LIKE, EB_WRAP, EB_COUNT, EB_HOLDER, EB_EXECUTE, EB_SET_ENABLED, EB_CALLBACKS, EB_ANOMALY, EB_ONES,
       EB_TENSOR, EB_N };
static const char *eb_names[EB_N] = {"_ones_like", "wrap", "_count_deps", "GradTensorHolder", "_execute",
                                     "_set_enabled", "_CALLBACKS", "_anomaly", "ONES", "Tensor"};
static PyObject *eb_name_objs[EB_N], *eb_values[EB_N];
static PyObject *eb_globals, *eb_fallback, *eb_gm_globals, *eb_execute_code, *eb_set_code;
static PyObject *eb_str_passes, *eb_str_state, *eb_str_enabled, *eb_str_off, *eb_str_copy, *eb_str_seed_what;
static PyObject *eb_str_run, *eb_str_gm_state;
static uint64_t eb_version;         /* engine's globals as last checked */
static unsigned int eb_holder_tag;  /* GradTensorHolder's type version at setup */
static Py_ssize_t eb_off_held;      /* GradTensorHolder.held */
static PyObject *el_count_deps(PyObject *self, PyObject *const *args, Py_ssize_t nargs);

/* Whether engine's names are the ones set up (re-read when its globals changed). */
static int
eb_names_ok(void)
{
    uint64_t v = dict_version(eb_globals);
    if (v == eb_version)
        return 1;
    for (int i = 0; i < EB_N; i++) {
        if (PyDict_GetItemWithError(eb_globals, eb_name_objs[i]) != eb_values[i]) {
            PyErr_Clear();
            return 0;
        }
    }
    eb_version = v;
    return 1;
}

/* `seq.append(item)`: 0, or -1 on an error. */
static int
eb_append(PyObject *seq, PyObject *item)
{
    if (PyList_CheckExact(seq))
        return PyList_Append(seq, item);
    PyObject *r = PyObject_CallMethod(seq, "append", "O", item);
    Py_XDECREF(r);
    return r == NULL ? -1 : 0;
}

/* grad_mode._set_enabled(flag), its statements (`flag` used for its truth): the previous
 * mode as a new reference, or NULL on an error. */
static PyObject *
eb_set_enabled(PyObject *flag_obj)
{
    PyObject *fn = PyDict_GetItemWithError(eb_globals, eb_name_objs[EB_SET_ENABLED]);
    if (fn != eb_values[EB_SET_ENABLED] || PyFunction_GET_CODE(fn) != eb_set_code) {
        if (fn == NULL && !PyErr_Occurred())
            PyErr_SetString(PyExc_NameError, "name '_set_enabled' is not defined");
        return fn == NULL ? NULL : PyObject_Vectorcall(fn, &flag_obj, 1, NULL);
    }
    int flag = PyObject_IsTrue(flag_obj);
    if (flag < 0)
        return NULL;
    PyObject *off = PyDict_GetItemWithError(eb_gm_globals, eb_str_off), *state, *prev;
    if (off == NULL) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_NameError, "name '_OFF' is not defined");
        return NULL;
    }
    if (flag) {
        int any = PyObject_IsTrue(off);
        if (any < 0)
            return NULL;
        if (!any)
            return Py_NewRef(Py_True);
    }
    if ((state = PyDict_GetItemWithError(eb_gm_globals, eb_str_gm_state)) == NULL) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_NameError, "name '_STATE' is not defined");
        return NULL;
    }
    Py_INCREF(off);
    Py_INCREF(state);
    if ((prev = PyObject_GetAttr(state, eb_str_enabled)) == NULL)
        goto done;
    int was = PyObject_IsTrue(prev);
    PyObject *r = NULL;
    if (was < 0)
        goto fail;
    if (flag && !was) { /* state.enabled = True; _OFF.pop() */
        if (PyObject_SetAttr(state, eb_str_enabled, Py_True) < 0)
            goto fail;
        Py_ssize_t n = PyList_CheckExact(off) ? PyList_GET_SIZE(off) : 0;
        if (n) {
            if (PyList_SetSlice(off, n - 1, n, NULL) < 0)
                goto fail;
        }
        else {
            if ((r = PyObject_CallMethod(off, "pop", NULL)) == NULL)
                goto fail;
            Py_DECREF(r);
        }
    }
    else if (!flag && was) { /* _OFF.append(None); state.enabled = False */
        if (eb_append(off, Py_None) < 0 || PyObject_SetAttr(state, eb_str_enabled, Py_False) < 0)
            goto fail;
    }
    goto done;
fail:
    Py_CLEAR(prev);
done:
    Py_DECREF(off);
    Py_DECREF(state);
    return prev;
}

/* The seed: wrap(_ones_like(data, 0, "grad_tensors")). */
static PyObject *
eb_seed(PyObject *data)
{
    PyObject *ones = NULL;
    if (Py_TYPE(data) == ndarray_type && el_arrays_read && EL_ARRAY_FIELDS(data)->nd == 0) {
        PyObject *one = PyDict_GetItemWithError(eb_values[EB_ONES], EL_ARRAY_FIELDS(data)->descr);
        if (one == NULL && PyErr_Occurred())
            return NULL;
        if (one != NULL)
            ones = PyObject_CallMethodNoArgs(one, eb_str_copy);
        else
            goto general;
    }
    else {
    general:;
        PyObject *a[3] = {data, zero, eb_str_seed_what};
        ones = PyObject_Vectorcall(eb_values[EB_ONES_LIKE], a, 3, NULL);
    }
    if (ones == NULL)
        return NULL;
    PyObject *t = new_tensor(ones, Py_None);
    Py_DECREF(ones);
    return t;
}

/* GradTensorHolder(False, {}) (its __init__'s stores, the class unchanged since setup). */
static PyObject *
eb_holder(void)
{
    PyTypeObject *cls = (PyTypeObject *)eb_values[EB_HOLDER];
    PyObject *h = PyBaseObject_Type.tp_new(cls, empty_tuple, NULL);
    if (h == NULL)
        return NULL;
    PyObject *buffers = PyDict_New(), *owned = PySet_New(NULL), *held = PyDict_New();
    if (buffers == NULL || owned == NULL || held == NULL) {
        Py_XDECREF(buffers);
        Py_XDECREF(owned);
        Py_XDECREF(held);
        Py_DECREF(h);
        return NULL;
    }
    SLOT(h, el_off_buffers) = buffers;
    SLOT(h, el_off_owned_set) = owned;
    SLOT(h, el_off_create) = Py_NewRef(Py_False);
    SLOT(h, eb_off_held) = held;
    return h;
}

/* engine._execute(run_backward, args, True, False), its statements. */
static PyObject *
eb_execute(PyObject *loop, PyObject *const *args)
{
    PyObject *callbacks = PyList_New(0), *passes = NULL, *entry = NULL, *prev = NULL, *captured = NULL, *r = NULL;
    if (callbacks == NULL)
        return NULL;
    if ((passes = PyObject_GetAttr(eb_values[EB_CALLBACKS], eb_str_passes)) == NULL ||
        (entry = PyTuple_Pack(2, callbacks, Py_True)) == NULL)
        goto done;
    if (eb_append(passes, entry) < 0 || (prev = eb_set_enabled(Py_False)) == NULL)
        goto done;
    if (PyCFunction_Check(loop) && PyCFunction_GET_FUNCTION(loop) == (PyCFunction)(void (*)(void))el_run_backward)
        captured = el_run_backward(NULL, args, 6, NULL);
    else
        captured = PyObject_Vectorcall(loop, args, 6, NULL);
    /* finally: grad mode back, the pass's entry off (the loop's error, if any, kept) */
    PyObject *et, *ev, *tb;
    PyErr_Fetch(&et, &ev, &tb);
    r = eb_set_enabled(prev);
    if (r != NULL) {
        Py_DECREF(r);
        r = PyList_CheckExact(passes) && PyList_GET_SIZE(passes) ? PySequence_GetItem(passes, -1) : NULL;
        if (r != NULL && PySequence_DelItem(passes, -1) < 0)
            Py_CLEAR(r);
        if (r == NULL && !PyErr_Occurred())
            r = PyObject_CallMethod(passes, "pop", NULL);
    }
    if (r == NULL) {
        _PyErr_ChainExceptions(et, ev, tb);
        Py_CLEAR(captured);
        goto done;
    }
    Py_DECREF(r);
    PyErr_Restore(et, ev, tb);
    if (captured == NULL)
        goto done;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(callbacks); i++) { /* for fn in callbacks: fn() */
        PyObject *fn = Py_NewRef(PyList_GET_ITEM(callbacks, i));
        r = PyObject_CallNoArgs(fn);
        Py_DECREF(fn);
        if (r == NULL) {
            Py_CLEAR(captured);
            goto done;
        }
        Py_DECREF(r);
    }
done:
    el_release((PyObject *[]){callbacks, passes, entry, prev}, 4);
    return captured;
}

static PyObject *
el_backward(PyObject *self, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (eb_fallback == NULL || kwnames != NULL || nargs < 1 || nargs > 4 || !PyList_CheckExact(args[0]) ||
        PyList_GET_SIZE(args[0]) != 1 || (nargs > 1 && args[1] != Py_None) || (nargs > 3 && args[3] != Py_False) ||
        !eb_names_ok() || el_holder_type != eb_values[EB_HOLDER]) /* (the holder's slots: el_add_setup's offsets) */
        return call_fallback(eb_fallback, args, nargsf, kwnames);
    PyObject *out = PyList_GET_ITEM(args[0], 0), *node, *more, *data, *state, *en;
    if (Py_TYPE(out) != tensor_L.base || !layout_ok(&tensor_L, tensor_L.base) ||
        (node = SLOT(out, tensor_L.offs[T_NODE])) == NULL || node == Py_None ||
        SLOT(out, tensor_L.offs[T_POS]) != zero || SLOT(out, tensor_L.offs[T_RG]) != Py_True ||
        (data = SLOT(out, tensor_L.offs[T_DATA])) == NULL || !layout_ok(&node_L, Py_TYPE(node)) ||
        (more = SLOT(node, node_L.offs[N_MORE])) == NULL || more != Py_None ||
        ((PyTypeObject *)eb_values[EB_HOLDER])->tp_version_tag != eb_holder_tag ||
        PyFunction_GET_CODE(eb_values[EB_EXECUTE]) != eb_execute_code)
        return call_fallback(eb_fallback, args, nargsf, kwnames);
    if ((state = PyObject_GetAttr(eb_values[EB_ANOMALY], eb_str_state)) == NULL)
        return NULL;
    en = state == rec_anomaly ? Py_NewRef(SLOT(state, anomaly_enabled_off)) : PyObject_GetAttr(state, eb_str_enabled);
    Py_DECREF(state);
    if (en == NULL)
        return NULL;
    Py_DECREF(en);
    if (en != Py_False)
        return call_fallback(eb_fallback, args, nargsf, kwnames);
    PyObject *loop = PyDict_GetItemWithError(eb_globals, eb_str_run);
    PyObject *count = eb_values[EB_COUNT]; /* (the one set up: eb_names_ok checked it) */
    if (loop == NULL) /* (a name gone: the Python function raises its NameError) */
        return PyErr_Occurred() ? NULL : call_fallback(eb_fallback, args, nargsf, kwnames);
    Py_INCREF(node);
    Py_INCREF(loop);
    Py_INCREF(count);
    PyObject *seed = NULL, *root = NULL, *roots = NULL, *res = NULL, *deps = NULL, *holder = NULL, *l = NULL;
    PyObject *key = NULL, *ready = NULL, *order = NULL, *captured = NULL;
    if ((seed = eb_seed(data)) == NULL || (root = PyTuple_Pack(2, node, zero)) == NULL ||
        (roots = PyList_New(1)) == NULL)
        goto done;
    PyList_SET_ITEM(roots, 0, Py_NewRef(root));
    {
        PyObject *a[2] = {roots, Py_None};
        res = is_c_function(count, (PyCFunction)(void (*)(void))el_count_deps) ? el_count_deps(NULL, a, 2)
                  : PyObject_Vectorcall(count, a, 2, NULL);
    }
    if (res == NULL || (deps = PySequence_GetItem(res, 0)) == NULL || (holder = eb_holder()) == NULL ||
        (l = el_list1(seed)) == NULL || PyDict_SetItem(SLOT(holder, el_off_buffers), node, l) < 0 ||
        (key = el_key(node, 0)) == NULL || (ready = el_list1(key)) == NULL || (order = PyLong_FromLong(1)) == NULL)
        goto done;
    {
        PyObject *retain = nargs > 2 && args[2] != Py_None ? args[2] : Py_False;
        PyObject *a[6] = {ready, order, deps, holder, retain, Py_False};
        Py_CLEAR(seed); /* (the holder has it: the Python frame's `seed` would keep it; the loop frees it) */
        Py_CLEAR(l);
        captured = eb_execute(loop, a);
    }
done:
    el_release((PyObject *[]){node, loop, count, seed, root, roots, res, deps, holder, l, key, ready, order}, 13);
    if (captured == NULL)
        return NULL;
    Py_DECREF(captured);
    Py_RETURN_NONE;
}

/* setup_engine_backward(globals): bind backward to engine (its globals()); returns the C
 * function. After setup_count_deps. */
static PyObject *
setup_engine_backward(PyObject *self, PyObject *g)
{
    if (!PyDict_CheckExact(g) || el_holder_type == NULL || tensor_L.base == NULL || rec_anomaly == NULL) {
        PyErr_SetString(PyExc_TypeError, "setup_engine_backward: expects engine's globals(), after setup_count_deps");
        return NULL;
    }
    EL_INTERN(eb_str_passes, "passes");
    EL_INTERN(eb_str_state, "STATE");
    EL_INTERN(eb_str_enabled, "enabled");
    EL_INTERN(eb_str_off, "_OFF");
    EL_INTERN(eb_str_copy, "copy");
    EL_INTERN(eb_str_seed_what, "grad_tensors");
    EL_INTERN(eb_str_run, "run_backward");
    EL_INTERN(eb_str_gm_state, "_STATE");
    for (int i = 0; i < EB_N; i++)
        EL_INTERN(eb_name_objs[i], eb_names[i]);
    PyObject *v[EB_N];
    for (int i = 0; i < EB_N; i++) {
        if ((v[i] = PyDict_GetItemWithError(g, eb_name_objs[i])) == NULL) {
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_TypeError, "setup_engine_backward: engine has no %s", eb_names[i]);
            return NULL;
        }
    }
    PyObject *fallback = PyDict_GetItemString(g, "backward");
    PyObject *set = v[EB_SET_ENABLED], *gm = PyFunction_Check(set) ? PyFunction_GET_GLOBALS(set) : NULL;
    if (fallback == NULL || !PyFunction_Check(fallback) || !PyFunction_Check(v[EB_ONES_LIKE]) ||
        !PyFunction_Check(v[EB_EXECUTE]) || gm == NULL || !PyDict_CheckExact(v[EB_ONES]) ||
        (PyObject *)el_holder_type != v[EB_HOLDER] || v[EB_TENSOR] != (PyObject *)tensor_L.base ||
        PyDict_GetItemString(gm, "_OFF") == NULL || PyDict_GetItemString(gm, "_STATE") == NULL ||
        !PyType_HasFeature((PyTypeObject *)v[EB_HOLDER], Py_TPFLAGS_VALID_VERSION_TAG)) {
        PyErr_SetString(PyExc_TypeError, "setup_engine_backward: engine's names are not the expected ones");
        return NULL;
    }
    /* wrap is runtime.tensor's (new_tensor makes what it makes) */
    PyObject *tmod = PyImport_ImportModule("opgrad.runtime.tensor");
    PyObject *wrap = tmod == NULL ? NULL : PyObject_GetAttrString(tmod, "wrap");
    Py_XDECREF(tmod);
    Py_XDECREF(wrap);
    if (wrap == NULL)
        return NULL;
    if (wrap != v[EB_WRAP]) {
        PyErr_SetString(PyExc_TypeError, "setup_engine_backward: engine's wrap is not runtime.tensor's");
        return NULL;
    }
    eb_off_held = el_slot_offset((PyTypeObject *)v[EB_HOLDER], "held");
    if (eb_off_held < 0) {
        PyErr_SetString(PyExc_TypeError, "setup_engine_backward: GradTensorHolder.held is not a slot");
        return NULL;
    }
    for (int i = 0; i < EB_N; i++)
        Py_XSETREF(eb_values[i], Py_NewRef(v[i]));
    Py_XSETREF(eb_globals, Py_NewRef(g));
    Py_XSETREF(eb_gm_globals, Py_NewRef(gm));
    Py_XSETREF(eb_execute_code, Py_NewRef(PyFunction_GET_CODE(v[EB_EXECUTE])));
    Py_XSETREF(eb_set_code, Py_NewRef(PyFunction_GET_CODE(set)));
    eb_holder_tag = ((PyTypeObject *)v[EB_HOLDER])->tp_version_tag;
    eb_version = dict_version(g);
    Py_XSETREF(eb_fallback, Py_NewRef(fallback));
    return PyObject_GetAttrString(self, "backward");
}

/* tensor_backward(self, grad_tensor=None, retain_graph=None, create_graph=False): Tensor.backward's
 * statement, `later.engine.backward([self], None if grad_tensor is None else [grad_tensor],
 * retain_graph, create_graph)`, without its frame (`later` read from runtime.tensor's globals
 * at each call; engine.backward called directly when it is the C one). Bound as a method
 * (an instancemethod); arguments the Python method would reject go to it. */
static PyObject *tb_fallback, *tb_globals, *tb_str_later, *tb_str_engine, *tb_str_backward, *tb_kw[3];

static PyObject *
el_tensor_backward(PyObject *unused, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    PyObject *a[4] = {NULL, Py_None, Py_None, Py_False}; /* self, grad_tensor, retain_graph, create_graph */
    if (tb_fallback == NULL || nargs < 1 || nargs > 4)
        return call_fallback(tb_fallback, args, nargsf, kwnames);
    for (Py_ssize_t i = 0; i < nargs; i++)
        a[i] = args[i];
    Py_ssize_t nkw = kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames);
    for (Py_ssize_t j = 0; j < nkw; j++) {
        PyObject *name = PyTuple_GET_ITEM(kwnames, j);
        int k = 0;
        while (k < 3 && name != tb_kw[k])
            k++;
        if (k == 3 || k + 1 < nargs) /* (unknown, or given by position too: the method raises) */
            return call_fallback(tb_fallback, args, nargsf, kwnames);
        for (Py_ssize_t jj = 0; jj < j; jj++) /* a keyword given twice */
            if (PyTuple_GET_ITEM(kwnames, jj) == name)
                return call_fallback(tb_fallback, args, nargsf, kwnames);
        a[k + 1] = args[nargs + j];
    }
    PyObject *later = PyDict_GetItemWithError(tb_globals, tb_str_later);
    if (later == NULL)
        return PyErr_Occurred() ? NULL : call_fallback(tb_fallback, args, nargsf, kwnames);
    Py_INCREF(later);
    PyObject *engine = PyObject_GetAttr(later, tb_str_engine);
    Py_DECREF(later);
    if (engine == NULL)
        return NULL;
    PyObject *fn = PyObject_GetAttr(engine, tb_str_backward);
    Py_DECREF(engine);
    if (fn == NULL)
        return NULL;
    PyObject *tensors = el_list1(a[0]), *seeds = NULL, *r = NULL;
    if (tensors == NULL || (a[1] != Py_None && (seeds = el_list1(a[1])) == NULL))
        goto done;
    {
        PyObject *call[4] = {tensors, seeds == NULL ? Py_None : seeds, a[2], a[3]};
        r = PyCFunction_Check(fn) && PyCFunction_GET_FUNCTION(fn) == (PyCFunction)(void (*)(void))el_backward
                ? el_backward(NULL, call, 4, NULL)
                : PyObject_Vectorcall(fn, call, 4, NULL);
    }
done:
    Py_DECREF(fn);
    Py_XDECREF(tensors);
    Py_XDECREF(seeds);
    return r;
}

/* setup_tensor_backward(method): Tensor.backward (runtime/tensor.py's function) in C, as an
 * instancemethod (bound like the function); after setup_engine_backward. */
static PyObject *
setup_tensor_backward(PyObject *self, PyObject *fn)
{
    if (!PyFunction_Check(fn) || eb_fallback == NULL) {
        PyErr_SetString(PyExc_TypeError, "setup_tensor_backward: expects Tensor.backward, after setup_engine_backward");
        return NULL;
    }
    PyObject *g = PyFunction_GET_GLOBALS(fn);
    if (PyDict_GetItemString(g, "later") == NULL) {
        PyErr_SetString(PyExc_TypeError, "setup_tensor_backward: runtime.tensor has no `later`");
        return NULL;
    }
    const char *kw[3] = {"grad_tensor", "retain_graph", "create_graph"};
    for (int i = 0; i < 3; i++)
        EL_INTERN(tb_kw[i], kw[i]);
    EL_INTERN(tb_str_later, "later");
    EL_INTERN(tb_str_engine, "engine");
    EL_INTERN(tb_str_backward, "backward");
    Py_XSETREF(tb_globals, Py_NewRef(g));
    Py_XSETREF(tb_fallback, Py_NewRef(fn));
    PyObject *c_fn = PyObject_GetAttrString(self, "tensor_backward");
    if (c_fn == NULL)
        return NULL;
    PyObject *m = PyInstanceMethod_New(c_fn);
    Py_DECREF(c_fn);
    return m;
}

/* -- the driver of the generated ops of one plain shape ---------------------------------- */

/* `op(ctx, function, row)`: the C version of one function of generated/ops.py whose body has the
 * shape codegen/plan_fast.py recognizes (read its docstring), described by its table row:
 * (name, kernel table name, node class name, recorded's inputs, saves, dtype test, jvp,
 * which arguments take a number). It runs that body's common case -- exact Tensors whose
 * arrays are exact ndarrays of one float dtype (float16/32/64, FLOAT_DTYPES's members), or
 * for an argument the body converts with `as_tensor_arg(v, the other, ...)` an exact float or
 * int next to such a Tensor (made into what as_tensor_arg makes: a 0-d array of the tensor's
 * dtype, wrapped; a conversion that fails goes to the Python function), FORWARD.active false,
 * the kernel already resolved for ndarray -- and calls the Python function (`__wrapped__`) for
 * everything else, before anything observable happened: keyword arguments, other argument
 * counts, other numbers (bool, NumPy scalars, two numbers),
 * subclasses, other dtypes or array types, forward mode, a kernel that raises one of the
 * errors the body maps (TypeError, ValueError, OverflowError, MemoryError; the Python body
 * runs it again and raises the mapped error), and any name the body reads that is no longer
 * what it was when checked (ops.py's and nodes.py's namespaces, grad_mode's, TensorWrapper's
 * methods: `driver_ready`). Recording goes through the C `recorded` and savers, which take
 * anomaly mode and saved-tensor hooks to their Python functions themselves. */

#define MAX_SAVES 4
enum { HOW_EDGE, HOW_INPUT, HOW_META, HOW_OUTPUT, HOW_VALUE };
static const char *const how_names[] = {"of_edge", "of_input", "meta_of", "of_output", "value"};
#define MAX_ATTRS 2

/* What one generated module's bodies read, as set up (`setup_ops`: a context per module,
 * so that another module generated from another spec, a test's, has its own) and checked
 * (`driver_ready`). */
typedef struct {
    PyObject_HEAD
    PyObject *globals, *nodes_module, *nodes_dict, *gm_globals, *gm_off, *gm_enabled, *fwd, *tensor_wrap;
    PyObject *float_set, *float_dtypes[3];
    PyObject *as_arg; /* the module's as_tensor_arg, as set up (NULL: it has none) */
    PyObject *gm_state, *gm_code; /* grad_mode's _STATE and grad_enabled's code, as set up (see grad_on) */
    PyTypeObject *tw_type;
    Py_ssize_t fwd_active_off;
    PyObject *of_input_fn; /* TensorWrapper.of_input, as last checked */
    uint64_t v_ops, v_nodes, v_gm;
    unsigned int v_tw;
    unsigned long epoch;
    int ok;
} Ctx;

static PyTypeObject Ctx_Type;

typedef struct {
    PyObject_HEAD
    vectorcallfunc vectorcall;
    Ctx *ctx;
    PyObject *wrapped;               /* the Python function */
    PyObject *dict, *weakrefs;
    PyObject *name, *qualname, *module, *doc;
    PyObject *table_name, *node_name; /* as ops.py and nodes.py name them */
    PyObject *table, *node_cls;       /* what they named at `epoch` (NULL: not there) */
    unsigned long epoch;
    int nargs, inputs[2], kind, jvp, nsaves;
    int nattrs; /* number arguments after the tensors: exact floats or ints, passed and saved as they are */
    int attr_bool[MAX_ATTRS]; /* that attribute is a bool instead (exact bool; `bool_arg` otherwise);
                               * a missing one is read from the function's __defaults__ */
    int numbers[2]; /* takes an exact float or int, as `as_tensor_arg(it, the other, ...)` converts it */
    PyObject *save_slot[MAX_SAVES];
    int save_how[MAX_SAVES], save_arg[MAX_SAVES];
    Py_ssize_t save_off[MAX_SAVES]; /* the slots' offsets in node_cls, valid while its version is */
    unsigned int slots_tag;          /* node_cls's version tag when they were read (0: not read) */
    /* A Tensor method whose body is `return <m_names[0]>.<m_names[1]>.<m_names[2]>(self[, other])`
     * (method 1; 2: `(other, self)`, a reflected operator); 0 for an op. */
    int method;
    PyObject *m_globals, *m_names[3]; /* the method's module's globals(), and the names it reads */
    PyObject *m_mods[2], *m_target;   /* what they named when last read (NULL: not read) */
    uint64_t m_versions[3];           /* the versions of the dicts they were read from */
    /* An in-place op `op_(x[, y])` whose direct write (`write_into`) is run here (see inplace_run). */
    int inplace;
    PyObject *ip_fns[2], *ip_codes[2]; /* check_inplace and write_into as set up, and their code */
    PyObject *ip_globals, *ip_into, *ip_vc_type, *ip_bump; /* their module's globals; _INTO,
                                                             * VersionCounter, bump_version in it */
    uint64_t ip_versions[2]; /* ops' and that module's dict versions when last checked (0: not yet) */
} OpObject;

static PyTypeObject Op_Type;

static PyObject *mapped_errors, *str_jvp;

/* The bound C function `TensorWrapper.<name>` is `c`. */
static int
tw_method_is(Ctx *c, const char *name, PyCFunction cf)
{
    PyObject *f = PyObject_GetAttrString((PyObject *)c->tw_type, name);
    if (f == NULL) {
        PyErr_Clear();
        return 0;
    }
    int same = is_c_function(f, cf);
    Py_DECREF(f);
    return same;
}

/* Check every name the bodies read against what the C path assumes; a new epoch. */
static int
revalidate(Ctx *c)
{
    c->epoch++;
    c->ok = 0;
    PyObject *g = c->globals;
    if (tensor_L.base == NULL || output_L.base == NULL || rec_fallback == NULL)
        return 0;
    int ok = is_c_function(PyDict_GetItemString(g, "recorded"), (PyCFunction)(void (*)(void))recorded) &&
             global_is(g, "grad_enabled", c->gm_enabled) && global_is(g, "FORWARD", c->fwd) &&
             global_is(g, "wrap", c->tensor_wrap) && global_is(g, "Tensor", (PyObject *)tensor_L.base) &&
             global_is(g, "TensorWrapper", (PyObject *)c->tw_type) &&
             PyDict_GetItemString(g, "FLOAT_DTYPES") == c->float_set && global_is(g, "_nodes", c->nodes_module) &&
             PyDict_GetItemString(g, "as_tensor_arg") == c->as_arg &&
             PyDict_GetItemString(g, "isinstance") == NULL && global_is(c->gm_globals, "_OFF", c->gm_off) &&
             global_is(c->gm_globals, "_STATE", c->gm_state) &&
             layout_ok(&tensor_L, tensor_L.base) &&
             tw_method_is(c, "of_output", (PyCFunction)(void (*)(void))of_output) &&
             tw_method_is(c, "of_edge", (PyCFunction)(void (*)(void))of_edge) &&
             tw_method_is(c, "meta_of", (PyCFunction)(void (*)(void))meta_of);
    PyObject *inp = ok ? PyObject_GetAttrString((PyObject *)c->tw_type, "of_input") : NULL;
    if (inp == NULL) {
        PyErr_Clear();
        return 0;
    }
    Py_XSETREF(c->of_input_fn, inp);
    if (!PyType_HasFeature(c->tw_type, Py_TPFLAGS_VALID_VERSION_TAG))
        return 0; /* (checked again on every call) */
    c->v_ops = dict_version(g);
    c->v_nodes = dict_version(c->nodes_dict);
    c->v_gm = dict_version(c->gm_globals);
    c->v_tw = c->tw_type->tp_version_tag;
    c->ok = 1;
    return 1;
}

static inline int
driver_ready(Ctx *c)
{
    if (dict_version(c->globals) == c->v_ops && dict_version(c->nodes_dict) == c->v_nodes &&
        dict_version(c->gm_globals) == c->v_gm && c->tw_type->tp_version_tag == c->v_tw &&
        PyType_HasFeature(c->tw_type, Py_TPFLAGS_VALID_VERSION_TAG))
        return c->ok;
    return revalidate(c);
}

static PyObject *str_enabled; /* "enabled", interned */

/* `grad_enabled()`, that is `not _OFF or _STATE.enabled` (its truth): the thread-local read
 * here while grad_enabled's code is the one set up (its globals, _OFF and _STATE, are checked
 * by driver_ready); the function called otherwise. 1, 0, or -1 with an error. */
static int
grad_on(Ctx *c)
{
    if (!PyList_GET_SIZE(c->gm_off))
        return 1;
    PyObject *v = PyFunction_GET_CODE(c->gm_enabled) == c->gm_code ? PyObject_GetAttr(c->gm_state, str_enabled)
                                                                    : PyObject_CallNoArgs(c->gm_enabled);
    int r = v == NULL ? -1 : PyObject_IsTrue(v);
    Py_XDECREF(v);
    return r;
}

/* The offsets of the node class's slots the op saves into, when `node.<slot> = v` stores
 * there (member descriptors of object slots, the generic __setattr__); op->slots_tag stays
 * 0 (PyObject_SetAttr) otherwise. */
static void
slot_offsets(OpObject *op)
{
    PyTypeObject *t = (PyTypeObject *)op->node_cls;
    op->slots_tag = 0;
    if (t->tp_setattro != PyObject_GenericSetAttr)
        return;
    for (int i = 0; i < op->nsaves; i++) {
        PyObject *d = _PyType_Lookup(t, op->save_slot[i]); /* (assigns the type a version tag) */
        if (d == NULL || Py_TYPE(d) != &PyMemberDescr_Type)
            return;
        PyMemberDef *m = ((PyMemberDescrObject *)d)->d_member;
        if ((m->type != T_OBJECT_EX && m->type != T_OBJECT) || (m->flags & READONLY))
            return;
        op->save_off[i] = m->offset;
    }
    if (PyType_HasFeature(t, Py_TPFLAGS_VALID_VERSION_TAG))
        op->slots_tag = t->tp_version_tag;
}

/* The op's kernel table and node class, looked up again in a new epoch. */
static int
op_ready(OpObject *op)
{
    Ctx *c = op->ctx;
    if (op->epoch == c->epoch)
        return op->table != NULL;
    op->epoch = c->epoch;
    Py_CLEAR(op->table);
    Py_CLEAR(op->node_cls);
    PyObject *table = PyDict_GetItemWithError(c->globals, op->table_name);
    PyObject *cls = PyDict_GetItemWithError(c->nodes_dict, op->node_name);
    if (table == NULL || cls == NULL || !PyDict_CheckExact(table) || !PyType_Check(cls)) {
        PyErr_Clear();
        return 0;
    }
    Py_INCREF(cls);
    op->node_cls = cls;
    Py_INCREF(table);
    op->table = table;
    slot_offsets(op);
    return 1;
}

/* One of the float dtypes the driver takes (by identity: anything else, even an equal dtype,
 * goes to the Python body). */
static inline int
is_float_dtype(Ctx *c, PyObject *dtype)
{
    return dtype == c->float_dtypes[0] || dtype == c->float_dtypes[1] || dtype == c->float_dtypes[2];
}

/* `result.dtype.kind == "f"` (kind 1) or `in "fc"` (kind 2), as Python reads it. */
static int
kind_test(Ctx *c, PyObject *result, int kind)
{
    if (Py_TYPE(result) == ndarray_type) { /* (its dtype read without the getter) */
        PyObject *dt = ndarray_dtype(result);
        if (dt != NULL && is_float_dtype(c, dt))
            return 1;
    }
    PyObject *dtype = PyObject_GetAttr(result, str_dtype);
    if (dtype == NULL)
        return -1;
    PyObject *k = PyObject_GetAttrString(dtype, "kind");
    Py_DECREF(dtype);
    if (k == NULL)
        return -1;
    int r;
    if (kind == 1) {
        PyObject *f = PyUnicode_FromString("f");
        r = f == NULL ? -1 : PyObject_RichCompareBool(k, f, Py_EQ);
        Py_XDECREF(f);
    }
    else {
        PyObject *fc = PyUnicode_FromString("fc");
        r = fc == NULL ? -1 : PySequence_Contains(fc, k);
        Py_XDECREF(fc);
    }
    Py_DECREF(k);
    return r;
}

/* The saves: node.<slot> = TensorWrapper.<how>(<input or out>[, node]), in order. */
static int
save_all(OpObject *op, PyObject *const *ts, PyObject *out, PyObject *node)
{
    PyTypeObject *t = Py_TYPE(node);
    int direct = op->slots_tag != 0 && (PyObject *)t == op->node_cls && t->tp_version_tag == op->slots_tag &&
                 PyType_HasFeature(t, Py_TPFLAGS_VALID_VERSION_TAG);
    for (int i = 0; i < op->nsaves; i++) {
        PyObject *v, *t = op->save_arg[i] < 0 ? out : ts[op->save_arg[i]];
        switch (op->save_how[i]) {
        case HOW_EDGE:
            v = of_edge(NULL, &t, 1, NULL);
            break;
        case HOW_META:
            v = meta_of(NULL, &t, 1, NULL);
            break;
        case HOW_OUTPUT: {
            PyObject *a[2] = {t, node};
            v = of_output(NULL, a, 2, NULL);
            break;
        }
        case HOW_VALUE: /* `node.<slot> = <the number>` */
            v = Py_NewRef(t);
            break;
        default:
            v = PyObject_Vectorcall(op->ctx->of_input_fn, &t, 1, NULL);
        }
        if (v == NULL)
            return -1;
        if (direct) { /* what `node.<slot> = v` stores, at the slot's offset */
            PyObject **p = &SLOT(node, op->save_off[i]);
            PyObject *old = *p;
            *p = v;
            Py_XDECREF(old);
            continue;
        }
        int r = PyObject_SetAttr(node, op->save_slot[i], v);
        Py_DECREF(v);
        if (r < 0)
            return -1;
    }
    return 0;
}

/* What `op_run` returns for a call it does not take (not a new reference). */
#define FALLBACK ((PyObject *)&Op_Type)

/* The op's common case for positional `args`, or FALLBACK before anything observable
 * happened (the caller then calls a Python function), or NULL with an error. */
/* Tensor t's array is an exact ndarray of the float dtype *dtype (the first: of one the driver
 * takes) and its _requires_grad a bool: 1, *data its array, *dtype set; else 0. */
static int
plain_array(Ctx *c, PyObject *t, PyObject **data, PyObject **dtype)
{
    PyObject *d = *data = SLOT(t, tensor_L.offs[T_DATA]);
    PyObject *r = SLOT(t, tensor_L.offs[T_RG]);
    if (d == NULL || Py_TYPE(d) != ndarray_type || (r != Py_True && r != Py_False))
        return 0;
    PyObject *dt = ndarray_dtype(d);
    if (dt == NULL || (*dtype == NULL ? !is_float_dtype(c, dt) : dt != *dtype))
        return 0;
    *dtype = dt;
    return 1;
}

static PyObject *nk_kernel_call(PyObject *kernel, PyObject *const *data, Py_ssize_t nargs);
static PyObject *nk_into_call(PyObject *into, PyObject *const *data, Py_ssize_t nargs);
static int nk_writeable(PyObject *a);
static PyObject *nk_number(PyObject *kernel, Py_ssize_t nargs, PyObject *v, PyObject *dtype);
static int nk_bump(PyObject *x, PyObject *vc_type);

static PyObject *
op_run(OpObject *op, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    Ctx *c = op->ctx;
    PyObject *data[2 + MAX_ATTRS], *dtype = NULL, *targs[2 + MAX_ATTRS] = {NULL, NULL}, *conv = NULL;
    PyObject *full[2 + MAX_ATTRS];
    int rg = 0, number = -1; /* the argument that is a number, converted below */
    Py_ssize_t all = op->nargs + op->nattrs;
    if ((kwnames != NULL && PyTuple_GET_SIZE(kwnames)) || nargs > all || nargs < op->nargs || !driver_ready(c) ||
        !op_ready(op) || SLOT(c->fwd, c->fwd_active_off) != Py_False)
        goto fallback;
    if (nargs < all) { /* the missing bool attributes: the function's defaults, as Python fills them in
                        * (True and False are never freed: borrowed safely) */
        PyObject *defs = PyFunction_GET_DEFAULTS(op->wrapped);
        Py_ssize_t nd = defs == NULL ? 0 : PyTuple_GET_SIZE(defs);
        if (all - nargs > nd)
            goto fallback;
        for (Py_ssize_t i = 0; i < all; i++) {
            PyObject *v = i < nargs ? args[i] : PyTuple_GET_ITEM(defs, nd - (all - i));
            if (i >= nargs && (!op->attr_bool[i - op->nargs] || (v != Py_True && v != Py_False)))
                goto fallback;
            full[i] = v;
        }
        args = full;
        nargs = all;
    }
    for (int i = op->nargs; i < nargs; i++) { /* a number argument: an exact float or int (`y.__class__ is
                                               * float or int`: no scalar_arg, no promotion of a float x);
                                               * a bool one: True or False (`.__class__ is bool`) */
        if (op->attr_bool[i - op->nargs] ? args[i] != Py_True && args[i] != Py_False
                                         : !PyFloat_CheckExact(args[i]) && !PyLong_CheckExact(args[i]))
            goto fallback;
        targs[i] = data[i] = args[i];
    }
    for (int i = 0; i < op->nargs; i++) {
        PyObject *t = targs[i] = args[i];
        if (!is_tensor(t)) {
            /* `as_tensor_arg(v, other, ...)`: an exact float or int (not bool) next to a Tensor */
            if (!op->numbers[i] || number >= 0 || !(PyFloat_CheckExact(t) || PyLong_CheckExact(t)))
                goto fallback;
            number = i;
            continue;
        }
        if (!plain_array(c, t, &data[i], &dtype))
            goto fallback;
    }
    for (int i = 0; i < op->nargs; i++) /* `(x._requires_grad or y._requires_grad)`, those with an edge */
        if (op->inputs[i] >= 0 && op->inputs[i] != number && SLOT(args[op->inputs[i]], tensor_L.offs[T_RG]) == Py_True)
            rg = 1;
    PyObject *kernel; /* borrowed */
    int found = ndarray_kernel(op->table, &kernel);
    if (found < 0)
        return NULL;
    if (!found)
        goto fallback; /* not resolved yet: the body's dispatch resolves it */
    if (number >= 0) { /* `wrap(np.asarray(v, dtype=<the tensor's dtype>))`, as_tensor_arg's (scalar_dtype:
                        * the tensor's float dtype for a float or an int); any error: the Python body */
        PyObject *v = args[number];
        double d = PyFloat_CheckExact(v) ? PyFloat_AS_DOUBLE(v) : PyLong_AsDouble(v);
        if (d == -1.0 && PyErr_Occurred()) { /* an int too large for a double: NumPy raises */
            PyErr_Clear();
            goto fallback;
        }
        static const double max_of[3] = {65504.0, FLT_MAX, DBL_MAX}; /* float16, 32, 64 */
        int k = dtype == c->float_dtypes[0] ? 0 : dtype == c->float_dtypes[1] ? 1 : dtype == c->float_dtypes[2] ? 2 : -1;
        if (k < 0 || (isfinite(d) && fabs(d) > max_of[k])) /* a cast that overflows: NumPy warns, from the body */
            goto fallback;
        PyObject *kept = rg ? NULL : nk_number(kernel, nargs, v, dtype); /* (nothing recorded) */
        if (kept != NULL) {
            data[number] = conv = kept; /* (held here; the Tensor around it made only if the jvp wants it) */
            targs[number] = NULL;
            goto call;
        }
        PyObject *cargs[2] = {v, dtype};
        PyObject *arr = PyObject_Vectorcall(np_asarray, cargs, 1, dtype_kwnames);
        if (arr == NULL) {
            PyErr_Clear();
            goto fallback;
        }
        if (Py_TYPE(arr) != ndarray_type) {
            Py_DECREF(arr);
            goto fallback;
        }
        conv = new_tensor(arr, Py_None);
        Py_DECREF(arr);
        if (conv == NULL)
            return NULL;
        targs[number] = conv;
        data[number] = arr; /* (the tensor holds it) */
    }
call:
    Py_INCREF(kernel);
    PyObject *result = nk_kernel_call(kernel, data, nargs);
    Py_DECREF(kernel);
    if (result == NULL) {
        if (PyErr_ExceptionMatches(mapped_errors)) {
            PyErr_Clear();
            Py_CLEAR(conv);
            goto fallback;
        }
        Py_XDECREF(conv);
        return NULL;
    }
    PyObject *out = NULL;
    if (rg) /* grad_enabled() */
        rg = grad_on(c);
    if (rg > 0 && op->kind)
        rg = kind_test(c, result, op->kind);
    if (rg < 0)
        goto error;
    if (rg) {
        PyObject *rargs[4] = {op->node_cls, result};
        for (int i = 0; i < op->nargs; i++)
            rargs[2 + i] = op->inputs[i] < 0 ? Py_None : targs[op->inputs[i]];
        PyObject *node;
        int made = recorded_c(rargs[0], result, rargs[2], op->nargs == 2 ? rargs[3] : rec_one, &out, &node);
        if (made == 0) { /* `out, node = recorded(...)`: the Python function's pair */
            PyObject *pair = call_fallback(rec_fallback, rargs, 2 + op->nargs, NULL);
            if (pair == NULL)
                goto error;
            if (!PyTuple_CheckExact(pair) || PyTuple_GET_SIZE(pair) != 2) {
                Py_DECREF(pair);
                PyErr_SetString(PyExc_TypeError, "_speedups: recorded returned something else than (out, node)");
                goto error;
            }
            out = Py_NewRef(PyTuple_GET_ITEM(pair, 0));
            node = Py_NewRef(PyTuple_GET_ITEM(pair, 1));
            Py_DECREF(pair);
        }
        else if (made < 0)
            goto error;
        int r = save_all(op, targs, out, node);
        Py_DECREF(node);
        if (r < 0)
            goto error;
    }
    else {
        out = new_tensor(result, Py_None);
        if (out == NULL)
            goto error;
    }
    Py_DECREF(result);
    PyObject *active = SLOT(c->fwd, c->fwd_active_off);
    if (active != Py_False && op->jvp) { /* only if something the op ran opened a dual level */
        int on = active == NULL ? 0 : PyObject_IsTrue(active);
        PyObject *r = NULL;
        if (on > 0) {
            PyObject *jvp_mod = PyDict_GetItemWithError(c->globals, str_jvp);
            PyObject *fn = jvp_mod == NULL ? NULL : PyObject_GetAttr(jvp_mod, op->name);
            if (fn == NULL && !PyErr_Occurred())
                PyErr_SetString(PyExc_NameError, "name '_jvp' is not defined");
            if (fn != NULL && number >= 0 && targs[number] == NULL) { /* the number's Tensor, as as_tensor_arg makes it */
                PyObject *cargs[2] = {args[number], dtype};
                PyObject *arr = PyObject_Vectorcall(np_asarray, cargs, 1, dtype_kwnames);
                Py_XSETREF(conv, arr == NULL ? NULL : new_tensor(arr, Py_None));
                Py_XDECREF(arr);
                targs[number] = conv;
                if (conv == NULL)
                    Py_CLEAR(fn);
            }
            PyObject *jargs[3 + MAX_ATTRS]; /* `_jvp.<op>(<the arguments>, out)` */
            for (Py_ssize_t i = 0; i < nargs; i++)
                jargs[i] = targs[i];
            jargs[nargs] = out;
            r = fn == NULL ? NULL : PyObject_Vectorcall(fn, jargs, nargs + 1, NULL);
            Py_XDECREF(fn);
        }
        if (on < 0 || (on > 0 && r == NULL)) {
            Py_DECREF(out);
            Py_XDECREF(conv);
            return NULL;
        }
        Py_XDECREF(r);
    }
    Py_XDECREF(conv);
    return out;
error:
    Py_XDECREF(out);
    Py_DECREF(result);
    Py_XDECREF(conv);
    return NULL;
fallback:
    return FALLBACK;
}

static PyObject *ip_one, *ip_refused; /* 1; write_into's (TypeError, ValueError, OverflowError) */
static PyObject *ip_strs[4];           /* "flags", "writeable", "_vc", "value", interned */

/* check_inplace and write_into, and what they read, are still what was set up. */
static int
ip_ready(OpObject *op)
{
    Ctx *c = op->ctx;
    PyObject *g = c->globals, *m = op->ip_globals;
    if (PyFunction_GET_CODE(op->ip_fns[0]) != op->ip_codes[0] || PyFunction_GET_CODE(op->ip_fns[1]) != op->ip_codes[1])
        return 0;
    if (dict_version(g) == op->ip_versions[0] && dict_version(m) == op->ip_versions[1])
        return 1;
    if (PyDict_GetItemString(g, "check_inplace") != op->ip_fns[0] ||
        PyDict_GetItemString(g, "write_into") != op->ip_fns[1] ||
        PyDict_GetItemString(m, "grad_enabled") != c->gm_enabled || PyDict_GetItemString(m, "_INTO") != op->ip_into ||
        PyDict_GetItemString(m, "VersionCounter") != op->ip_vc_type ||
        PyDict_GetItemString(m, "bump_version") != op->ip_bump || PyDict_GetItemString(m, "isinstance") != NULL ||
        PyDict_GetItemString(m, "any") != NULL)
        return 0;
    op->ip_versions[0] = dict_version(g);
    op->ip_versions[1] = dict_version(m);
    return 1;
}

/* An in-place op's common case, the body's first lines for exact Tensors of one float dtype:
 *     record = check_inplace("<op>", x[, y])      # False: grad mode off, or nothing requires grad
 *     if not (record or FORWARD.active) and write_into(x, <table>, (x._data[, y._data])):
 *         return x
 * write_into: the kernel's into variant (_INTO) writes into x's writeable array, then x's
 * version counter (made if x has none) counts one more write. Anything else -- recording,
 * forward mode, a kernel without an into variant, a read-only array, the into variant
 * refusing (TypeError, ValueError, OverflowError: nothing written) or declining -- returns
 * FALLBACK before anything was written, and the Python function runs the whole body. */
static PyObject *
inplace_run(OpObject *op, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    Ctx *c = op->ctx;
    PyObject *data[3], *dtype = NULL;
    if ((kwnames != NULL && PyTuple_GET_SIZE(kwnames)) || nargs != op->nargs || !driver_ready(c) ||
        !ip_ready(op) || SLOT(c->fwd, c->fwd_active_off) != Py_False)
        return FALLBACK;
    if (op->epoch != c->epoch) { /* the kernel table, read again in a new epoch */
        op->epoch = c->epoch;
        Py_CLEAR(op->table);
        PyObject *t = PyDict_GetItemWithError(c->globals, op->table_name);
        if (t != NULL && PyDict_CheckExact(t))
            op->table = Py_NewRef(t);
        PyErr_Clear();
    }
    if (op->table == NULL)
        return FALLBACK;
    int rg = 0;
    for (Py_ssize_t i = 0; i < nargs; i++) {
        if (!is_tensor(args[i]) || !plain_array(c, args[i], &data[i + 1], &dtype))
            return FALLBACK;
        rg |= SLOT(args[i], tensor_L.offs[T_RG]) == Py_True;
    }
    PyObject *x = args[0];
    data[0] = data[1];
    if (rg) { /* check_inplace: `grad_enabled()` decides (`not _OFF or _STATE.enabled`) */
        int on = grad_on(c);
        if (on < 0)
            return NULL;
        if (on) /* a node to record, or check_inplace's error: the Python function */
            return FALLBACK;
    }
    PyObject *kernel = PyDict_GetItemWithError(op->table, (PyObject *)ndarray_type);
    PyObject *into = kernel == NULL ? NULL : PyDict_GetItemWithError(op->ip_into, kernel);
    if (into == NULL || into == Py_None) {
        if (PyErr_Occurred())
            return NULL;
        return FALLBACK;
    }
    Py_INCREF(into);
    int writeable = nk_writeable(data[0]);
    if (writeable <= 0) {
        Py_DECREF(into);
        return writeable < 0 ? NULL : FALLBACK;
    }
    PyObject *done = nk_into_call(into, data, nargs + 1);
    Py_DECREF(into);
    if (done == NULL) {
        if (PyErr_ExceptionMatches(ip_refused)) { /* refused before writing */
            PyErr_Clear();
            return FALLBACK;
        }
        PyObject *et, *ev, *tb; /* `except BaseException: bump_version(x); raise` */
        PyErr_Fetch(&et, &ev, &tb);
        PyObject *r = PyObject_CallOneArg(op->ip_bump, x);
        if (r == NULL)
            _PyErr_ChainExceptions(et, ev, tb);
        else {
            Py_DECREF(r);
            PyErr_Restore(et, ev, tb);
        }
        return NULL;
    }
    int wrote = PyObject_IsTrue(done);
    Py_DECREF(done);
    if (wrote <= 0)
        return wrote < 0 ? NULL : FALLBACK;
    /* `vc = x._vc; if vc is None: vc = x._vc = VersionCounter()`; `vc.value += 1` */
    return nk_bump(x, op->ip_vc_type) < 0 ? NULL : Py_NewRef(x);
}

/* -- kernels run as their ufunc (the op driver's and the in-place write's kernel call) -------- */

/* A kernel function may say, with the attribute `as_ufunc` (kernels/common.py's
 * `same_as_ufunc`), that for exact ndarrays of one real float dtype -- what the op driver and
 * the in-place write pass it -- it computes exactly `<that ufunc>(*arrays)` made an array as
 * `nd` makes it (a NumPy scalar, the result of 0-d operands, becomes a 0-d array), its
 * trailing arguments being False (matmul's transpose flags); an into variant, that it is
 * `<that ufunc>(*arrays, out)`, returning True (it also carries `ufunc_call_site`, below).
 * The drivers then call the ufunc themselves, without the kernel's frame. The attribute is
 * read per kernel object and cached with the function's code object and its __dict__'s
 * version (a kernel re-registered, replaced in a table, given other code or another
 * attribute is read again); anything not a NumPy ufunc of one or two inputs and one output
 * is ignored. An error is what the kernel's own ufunc call raised: the op driver maps it as
 * before (its mapped errors send the call to the Python body, which runs the kernel again). */

#define NK_CACHE 16
typedef struct {
    PyObject *fn, *code, *ufunc, *site; /* the kernel, its __code__, the ufunc (NULL: unmarked), its call site */
    uint64_t dver;                      /* its __dict__'s version (0: it has none) */
    int nin, argc;                      /* the ufunc's inputs; the function's positional parameters */
} NkEntry;
static NkEntry nk_cache[NK_CACHE];
static int nk_next;
static PyObject *nk_str_mark, *nk_str_site;           /* "as_ufunc", "ufunc_call_site", interned */
static PyTypeObject *nk_ufunc_type, *nk_generic_type; /* numpy.ufunc, numpy.generic */

/* The cache's entry of `fn` (read again if stale), or NULL: not a function (no error). */
static NkEntry *
nk_entry(PyObject *fn)
{
    if (!PyFunction_Check(fn))
        return NULL;
    PyObject *code = PyFunction_GET_CODE(fn), *d = ((PyFunctionObject *)fn)->func_dict;
    uint64_t dver = d == NULL ? 0 : dict_version(d);
    NkEntry *e = NULL;
    for (int i = 0; i < NK_CACHE; i++)
        if (nk_cache[i].fn == fn) {
            e = &nk_cache[i];
            if (e->code == code && e->dver == dver)
                return e;
            break;
        }
    if (nk_ufunc_type == NULL) { /* (once) */
        PyObject *numpy = PyImport_ImportModule("numpy");
        PyObject *u = numpy == NULL ? NULL : PyObject_GetAttrString(numpy, "ufunc");
        PyObject *g = numpy == NULL ? NULL : PyObject_GetAttrString(numpy, "generic");
        Py_XDECREF(numpy);
        if (nk_str_mark == NULL)
            nk_str_mark = PyUnicode_InternFromString("as_ufunc");
        if (nk_str_site == NULL)
            nk_str_site = PyUnicode_InternFromString("ufunc_call_site");
        if (u == NULL || g == NULL || !PyType_Check(u) || !PyType_Check(g) || !nk_str_mark || !nk_str_site) {
            Py_XDECREF(u);
            Py_XDECREF(g);
            PyErr_Clear();
            return NULL;
        }
        nk_ufunc_type = (PyTypeObject *)u;
        nk_generic_type = (PyTypeObject *)g;
    }
    if (e == NULL) { /* a new entry, in turn */
        e = &nk_cache[nk_next];
        nk_next = (nk_next + 1) % NK_CACHE;
    }
    PyObject *u = d == NULL ? NULL : PyDict_GetItemWithError(d, nk_str_mark);
    PyObject *site = d == NULL ? NULL : PyDict_GetItemWithError(d, nk_str_site);
    long n = -1;
    if (u != NULL && Py_TYPE(u) == nk_ufunc_type) {
        PyObject *nin_o = PyObject_GetAttrString(u, "nin"), *nout_o = PyObject_GetAttrString(u, "nout");
        long nout = nout_o == NULL ? -1 : PyLong_AsLong(nout_o);
        n = nin_o == NULL ? -1 : PyLong_AsLong(nin_o);
        Py_XDECREF(nin_o);
        Py_XDECREF(nout_o);
        if (nout != 1 || n < 1 || n > 2)
            n = -1;
    }
    if (site != NULL && !(PyTuple_CheckExact(site) && PyTuple_GET_SIZE(site) == 3 &&
                          PyDict_CheckExact(PyTuple_GET_ITEM(site, 0)) && PyUnicode_Check(PyTuple_GET_ITEM(site, 1)) &&
                          PyLong_CheckExact(PyTuple_GET_ITEM(site, 2))))
        site = NULL;
    PyErr_Clear();
    PyObject *old[4] = {e->fn, e->code, e->ufunc, e->site};
    e->fn = Py_NewRef(fn);
    e->code = Py_NewRef(code);
    e->ufunc = n < 0 ? NULL : Py_NewRef(u);
    e->site = n < 0 ? NULL : Py_XNewRef(site);
    e->dver = dver;
    e->nin = (int)n;
    e->argc = ((PyCodeObject *)code)->co_argcount;
    for (int i = 0; i < 4; i++)
        Py_XDECREF(old[i]);
    return e;
}
/* NumPy reports floating-point events (errstate) from inside the ufunc, as warnings that
 * name the innermost Python frame: the kernel's, where the kernel runs. So the ufunc runs
 * here with those reports off -- in a context of its own where NumPy's errstate variable
 * holds errstate(all="ignore") -- and only while the caller's errstate is NumPy's default
 * (the variable's default object; its modes read at set-up: "ignore" or "warn" each); the
 * FP flags it raised are then read: an event the default reports sends an op's kernel call
 * to the Python kernel (which runs again and reports it where it always did), and has an
 * into variant's call report it as NumPy would have from that variant's frame (its
 * `ufunc_call_site`: the warning's globals, file and line). A context already entered (by
 * another thread while a ufunc released the GIL) is not waited for: the Python function.
 * (Python code run from inside the ufunc call -- a finalizer the collector runs from one of
 * NumPy's allocations -- sees that context: errstate(all="ignore"), other variables unset.) */
static PyObject *nk_fp_var, *nk_fp_default, *nk_fp_quiet; /* errstate's ContextVar, its default, the quiet context */
static int nk_fp_flags = -1;                               /* the FE_ flags the default reports; -1: not set up */
/* The head of NumPy's errstate object (its capsule's npy_extobj), read once set-up has checked
 * it against _get_extobj_dict (nk_fp_mask >= 0): an errstate equal to the default (np.seterr
 * restoring it makes a new object) runs the same way. */
typedef struct {
    int errmask;
    Py_ssize_t bufsize;
} NkExtobj;
static int nk_fp_mask = -1;
static Py_ssize_t nk_fp_bufsize;

/* The errstate `cap`'s settings, or NULL (no error): not an errstate capsule. */
static NkExtobj *
nk_extobj(PyObject *cap)
{
    NkExtobj *e = PyCapsule_CheckExact(cap) ? PyCapsule_GetPointer(cap, "numpy.ufunc.extobj") : NULL;
    if (e == NULL)
        PyErr_Clear();
    return e;
}
static const int nk_fe[4] = {FE_DIVBYZERO, FE_OVERFLOW, FE_UNDERFLOW, FE_INVALID};
static const char *const nk_fe_names[4] = {"divide", "over", "under", "invalid"};
static const char *const nk_fe_what[4] = {"divide by zero", "overflow", "underflow", "invalid value"};

static void
nk_fp_setup(void)
{
    nk_fp_flags = 0;
    PyObject *g = PyDict_New();
    PyObject *r = g == NULL || PyDict_SetItemString(g, "__builtins__", PyEval_GetBuiltins()) < 0
                      ? NULL
                      : PyRun_String("import contextvars\n"
                                     "from numpy._core import umath as u\n"
                                     "v = u._extobj_contextvar\n"
                                     "c = contextvars.Context()\n"
                                     "d, m = c.run(v.get), c.run(u._get_extobj_dict)\n"
                                     "q = contextvars.Context()\n"
                                     "q.run(lambda: v.set(u._make_extobj(all='ignore')))\n"
                                     "mq = q.run(u._get_extobj_dict)\n"
                                     "ok = mq == dict(m, divide='ignore', over='ignore', under='ignore', "
                                     "invalid='ignore') and m['call'] is None and "
                                     "all(m[k] in ('ignore', 'warn') for k in ('divide', 'over', 'under', 'invalid'))\n"
                                     "modes = ('ignore', 'warn', 'raise', 'call', 'print', 'log')\n"
                                     "mask = sum(modes.index(m[k]) << 3 * i for i, k in "
                                     "enumerate(('divide', 'over', 'under', 'invalid')))\n"
                                     "others = (c.run(u._make_extobj, bufsize=2 * m['bufsize']), "
                                     "c.run(u._make_extobj, divide='raise'), c.run(u._make_extobj, invalid='ignore'))\n",
                                     Py_file_input, g, g);
    PyObject *ok = r == NULL ? NULL : PyDict_GetItemString(g, "ok");
    PyObject *m = r == NULL ? NULL : PyDict_GetItemString(g, "m");
    int flags = 0;
    for (int i = 0; ok == Py_True && m != NULL && i < 4; i++) {
        PyObject *mode = PyDict_GetItemString(m, nk_fe_names[i]);
        if (mode != NULL && PyUnicode_Check(mode) && PyUnicode_CompareWithASCIIString(mode, "warn") == 0)
            flags |= nk_fe[i];
    }
    PyObject *mask = ok == Py_True ? PyDict_GetItemString(g, "mask") : NULL;
    PyObject *others = ok == Py_True ? PyDict_GetItemString(g, "others") : NULL;
    PyObject *bufsize = m == NULL ? NULL : PyDict_GetItemString(m, "bufsize");
    if (mask != NULL && others != NULL && bufsize != NULL && PyTuple_CheckExact(others) &&
        PyTuple_GET_SIZE(others) == 3) { /* the capsule's head reads as _get_extobj_dict says */
        long want = PyLong_AsLong(mask);
        Py_ssize_t size = PyLong_AsSsize_t(bufsize);
        NkExtobj *d = nk_extobj(PyDict_GetItemString(g, "d"));
        NkExtobj *o[3] = {nk_extobj(PyTuple_GET_ITEM(others, 0)), nk_extobj(PyTuple_GET_ITEM(others, 1)),
                          nk_extobj(PyTuple_GET_ITEM(others, 2))};
        if (d != NULL && o[0] != NULL && o[1] != NULL && o[2] != NULL && d->errmask == want && d->bufsize == size &&
            o[0]->errmask == want && o[0]->bufsize == 2 * size && o[1]->errmask == (want & ~7) + 2 &&
            o[1]->bufsize == size && o[2]->errmask == (want & ~(7 << 9)) && o[2]->bufsize == size) {
            nk_fp_mask = (int)want;
            nk_fp_bufsize = size;
        }
    }
    if (ok == Py_True && m != NULL) {
        nk_fp_var = Py_NewRef(PyDict_GetItemString(g, "v"));
        nk_fp_default = Py_NewRef(PyDict_GetItemString(g, "d"));
        nk_fp_quiet = Py_NewRef(PyDict_GetItemString(g, "q"));
        nk_fp_flags = flags | 0x40000000; /* (set up: never 0 again) */
    }
    Py_XDECREF(r);
    Py_XDECREF(g);
    PyErr_Clear();
}

/* The FP flags of `mask` (FE_ bits) raised, and clearing them: on x86-64 the x87 status word and
 * MXCSR read directly (the same bits in both; glibc's feclearexcept rewrites the x87
 * environment, ~20 ns), clearing only a unit that has one of them set; else <fenv.h>. */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && FE_INVALID == 0x01 && FE_DIVBYZERO == 0x04 && \
    FE_OVERFLOW == 0x08 && FE_UNDERFLOW == 0x10
static inline void
nk_fe_read(unsigned short *sw, unsigned int *csr)
{
    __asm__ volatile("fnstsw %0" : "=m"(*sw));
    __asm__ volatile("stmxcsr %0" : "=m"(*csr));
}
static inline int
nk_fe_test(int mask)
{
    unsigned short sw;
    unsigned int csr;
    nk_fe_read(&sw, &csr);
    return (int)((sw | csr) & (unsigned int)mask);
}
static inline void
nk_fe_clear(int mask)
{
    unsigned short sw;
    unsigned int csr;
    nk_fe_read(&sw, &csr);
    if (sw & mask)
        __asm__ volatile("fnclex");
    if (csr & mask) {
        csr &= ~(unsigned int)mask;
        __asm__ volatile("ldmxcsr %0" : : "m"(csr));
    }
}
#else
static inline int
nk_fe_test(int mask)
{
    return fetestexcept(mask);
}
static inline void
nk_fe_clear(int mask)
{
    feclearexcept(mask);
}
#endif

/* u(*args) with the default errstate's reports off: 1 (*r the result or NULL with an error,
 * *fe the reported events' flags raised), or 0: not run (another errstate, or the context
 * taken). */
static int
nk_quiet_call(PyObject *u, PyObject *const *args, Py_ssize_t n, PyObject **r, int *fe)
{
    if (nk_fp_flags < 0)
        nk_fp_setup();
    if (nk_fp_flags == 0)
        return 0;
    PyObject *cur;
    if (PyContextVar_Get(nk_fp_var, NULL, &cur) < 0) {
        PyErr_Clear();
        return 0;
    }
    Py_XDECREF(cur); /* (the variable holds it) */
    NkExtobj *e;
    if (cur != nk_fp_default &&
        (nk_fp_mask < 0 || (e = nk_extobj(cur)) == NULL || e->errmask != nk_fp_mask || e->bufsize != nk_fp_bufsize))
        return 0;
    if (PyContext_Enter(nk_fp_quiet) < 0) {
        PyErr_Clear();
        return 0;
    }
    int flags = nk_fp_flags & (FE_DIVBYZERO | FE_OVERFLOW | FE_UNDERFLOW | FE_INVALID);
    nk_fe_clear(flags);
    Py_INCREF(u); /* (held through the call) */
    *r = PyObject_Vectorcall(u, args, n, NULL);
    Py_DECREF(u);
    *fe = nk_fe_test(flags);
    if (PyContext_Exit(nk_fp_quiet) < 0) /* (only if something else entered a context and left it entered) */
        Py_CLEAR(*r);
    return 1;
}

/* kernel(*data) as the op driver calls it: its ufunc's when it has one and the arguments
 * after the arrays are False, made an array as `nd` makes it; else the kernel's call. */
static PyObject *
nk_kernel_call(PyObject *kernel, PyObject *const *data, Py_ssize_t nargs)
{
    NkEntry *e = nk_entry(kernel);
    PyObject *u = e == NULL || nargs < e->nin || nargs > e->argc ? NULL : e->ufunc, *r;
    for (Py_ssize_t i = u == NULL ? nargs : e->nin; i < nargs; i++)
        if (data[i] != Py_False)
            u = NULL;
    int fe;
    if (u == NULL || !nk_quiet_call(u, data, e->nin, &r, &fe))
        return PyObject_Vectorcall(kernel, data, nargs, NULL);
    if (r != NULL && fe) { /* an event NumPy reports: the kernel runs again and reports it */
        Py_DECREF(r);
        return PyObject_Vectorcall(kernel, data, nargs, NULL);
    }
    if (r == NULL || Py_TYPE(r) == ndarray_type || !PyObject_TypeCheck(r, nk_generic_type))
        return r;
    PyObject *a = PyObject_CallOneArg(np_asarray, r); /* nd: a NumPy scalar as a 0-d array */
    Py_DECREF(r);
    return a;
}

/* What NumPy's `warn` mode reports for the events `fe` of ufunc `u`, from the frame at `site`
 * ((globals, file name, line): the warnings module's context for that frame). */
static int
nk_report(PyObject *u, PyObject *site, int fe)
{
    PyObject *g = PyTuple_GET_ITEM(site, 0), *name = PyObject_GetAttrString(u, "__name__");
    if (name == NULL)
        return -1;
    int lineno = (int)PyLong_AsLong(PyTuple_GET_ITEM(site, 2)), r = 0;
    for (int i = 0; r == 0 && i < 4; i++) {
        if (!(fe & nk_fe[i]))
            continue;
        PyObject *registry = PyDict_GetItemString(g, "__warningregistry__"); /* (as warnings' setup_context) */
        if (registry == NULL) {
            registry = PyDict_New();
            if (registry == NULL || PyDict_SetItemString(g, "__warningregistry__", registry) < 0) {
                Py_XDECREF(registry);
                r = -1;
                break;
            }
            Py_DECREF(registry);
        }
        Py_INCREF(registry);
        PyObject *module = PyDict_GetItemString(g, "__name__");
        module = module != NULL && (module == Py_None || PyUnicode_Check(module)) ? Py_NewRef(module)
                                                                                  : PyUnicode_FromString("<string>");
        PyObject *msg = PyUnicode_FromFormat("%s encountered in %U", nk_fe_what[i], name);
        r = module == NULL || msg == NULL ? -1
                                          : PyErr_WarnExplicitObject(PyExc_RuntimeWarning, msg, PyTuple_GET_ITEM(site, 1),
                                                                     lineno, module, registry);
        Py_XDECREF(msg);
        Py_XDECREF(module);
        Py_DECREF(registry);
    }
    Py_DECREF(name);
    return r;
}

/* into(*data) as the in-place write calls it (data[0] the output): `<its ufunc>(*data[1:],
 * data[0])`, then True, when it has one and its call site; else the into variant's call. */
static PyObject *
nk_into_call(PyObject *into, PyObject *const *data, Py_ssize_t nargs)
{
    NkEntry *e = nk_entry(into);
    PyObject *args[3], *r;
    int fe;
    if (e == NULL || e->ufunc == NULL || e->site == NULL || nargs != e->nin + 1 || nargs > e->argc)
        return PyObject_Vectorcall(into, data, nargs, NULL);
    for (Py_ssize_t i = 1; i < nargs; i++)
        args[i - 1] = data[i];
    args[e->nin] = data[0];
    PyObject *site = Py_NewRef(e->site), *u = Py_NewRef(e->ufunc); /* (the entry may be refilled meanwhile) */
    if (!nk_quiet_call(u, args, nargs, &r, &fe)) {
        Py_DECREF(site);
        Py_DECREF(u);
        return PyObject_Vectorcall(into, data, nargs, NULL);
    }
    Py_XDECREF(r);
    int bad = r == NULL || (fe && nk_report(u, site, fe) < 0);
    Py_DECREF(site);
    Py_DECREF(u);
    if (bad)
        return NULL;
    Py_RETURN_TRUE;
}

/* The 0-d array `as_tensor_arg` makes of an exact float `v` for an operand of `dtype`
 * (`np.asarray(v, dtype=dtype)`), for a call that records nothing and whose kernel is its
 * ufunc on the arrays alone (nothing keeps the array, which only feeds the ufunc): the
 * same array, read-only, kept for the next call with the same float (its bits) and dtype;
 * a new reference, or NULL (no error): make it as before. */
#define NK_NUMBERS 4
static struct {
    PyObject *dtype, *arr;
    uint64_t bits;
} nk_numbers[NK_NUMBERS];
static int nk_numbers_next;

static PyObject *
nk_number(PyObject *kernel, Py_ssize_t nargs, PyObject *v, PyObject *dtype)
{
    NkEntry *e = PyFloat_CheckExact(v) ? nk_entry(kernel) : NULL;
    if (e == NULL || e->ufunc == NULL || e->nin != nargs || e->argc < nargs)
        return NULL;
    double d = PyFloat_AS_DOUBLE(v);
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    for (int i = 0; i < NK_NUMBERS; i++)
        if (nk_numbers[i].dtype == dtype && nk_numbers[i].bits == bits)
            return Py_NewRef(nk_numbers[i].arr);
    PyObject *cargs[2] = {v, dtype};
    PyObject *arr = PyObject_Vectorcall(np_asarray, cargs, 1, dtype_kwnames);
    PyObject *flags = arr == NULL || Py_TYPE(arr) != ndarray_type ? NULL : PyObject_GetAttrString(arr, "flags");
    int ro = flags == NULL ? -1 : PyObject_SetAttrString(flags, "writeable", Py_False);
    Py_XDECREF(flags);
    if (ro < 0) {
        Py_XDECREF(arr);
        PyErr_Clear();
        return NULL;
    }
    int i = nk_numbers_next;
    nk_numbers_next = (i + 1) % NK_NUMBERS;
    PyObject *old[2] = {nk_numbers[i].dtype, nk_numbers[i].arr};
    nk_numbers[i].dtype = Py_NewRef(dtype);
    nk_numbers[i].arr = arr;
    nk_numbers[i].bits = bits;
    Py_XDECREF(old[0]);
    Py_XDECREF(old[1]);
    return Py_NewRef(arr);
}

/* kernel_ufunc(fn): the ufunc the drivers call for the kernel or into variant `fn`, or None
 * (tests read it). */
static PyObject *
nk_kernel_ufunc(PyObject *self, PyObject *fn)
{
    NkEntry *e = nk_entry(fn);
    return Py_NewRef(e == NULL || e->ufunc == NULL ? Py_None : e->ufunc);
}

/* The in-place write's two reads around the kernel, without attribute look-ups: an exact
 * ndarray's `flags.writeable` from its flags word once that reading was checked against the
 * getter (nk_flags_read: on arrays writeable and not, a view and a broadcast one), and the
 * version bump (`vc = x._vc; if vc is None: vc = x._vc = VersionCounter()`; `vc.value += 1`)
 * through the Tensor's slot and, while VersionCounter is the class set up and its `value`
 * the object slot it was (nk_vc_*: its version tag), the counter's slot. */

static int nk_flags_read = -1; /* -1: not checked yet */

static int
nk_writeable(PyObject *a)
{
    if (nk_flags_read < 0) {
        PyObject *g = PyDict_New();
        PyObject *r = g == NULL || PyDict_SetItemString(g, "__builtins__", PyEval_GetBuiltins()) < 0
                          ? NULL
                          : PyRun_String("(__import__('numpy').empty((2,), 'f4'), __import__('numpy').empty((3, 2))[:, 1], "
                                         "__import__('numpy').broadcast_to(__import__('numpy').empty(()), (2,)), "
                                         "__import__('numpy').arange(3.0).view(), __import__('numpy').empty(()))",
                                         Py_eval_input, g, g);
        int ok = r != NULL && PyTuple_CheckExact(r) && PyTuple_GET_SIZE(r) == 5;
        if (ok) {
            PyObject *ro = PyTuple_GET_ITEM(r, 3), *flags = PyObject_GetAttrString(ro, "flags");
            ok = flags != NULL && PyObject_SetAttrString(flags, "writeable", Py_False) == 0;
            Py_XDECREF(flags);
        }
        for (Py_ssize_t k = 0; ok && k < 5; k++) {
            PyObject *e = PyTuple_GET_ITEM(r, k), *flags = PyObject_GetAttrString(e, "flags");
            PyObject *w = flags == NULL ? NULL : PyObject_GetAttrString(flags, "writeable");
            ok = w != NULL && (w == Py_True || w == Py_False) && el_check_writeable(e, w == Py_True) &&
                 (w == Py_True) == (k != 2 && k != 3);
            Py_XDECREF(flags);
            Py_XDECREF(w);
        }
        Py_XDECREF(r);
        Py_XDECREF(g);
        PyErr_Clear();
        nk_flags_read = ok;
    }
    if (nk_flags_read && Py_TYPE(a) == ndarray_type)
        return !!(((ElArrayFlags *)a)->flags & EL_WRITEABLE);
    PyObject *flags = PyObject_GetAttr(a, ip_strs[0]);
    PyObject *w = flags == NULL ? NULL : PyObject_GetAttr(flags, ip_strs[1]);
    int writeable = w == NULL ? -1 : PyObject_IsTrue(w);
    Py_XDECREF(flags);
    Py_XDECREF(w);
    return writeable;
}

static PyTypeObject *nk_vc_type; /* the VersionCounter class whose `value` slot is read below */
static unsigned int nk_vc_tag;   /* its version tag then */
static Py_ssize_t nk_vc_off;     /* the slot's offset */

/* x (an exact Tensor of the checked layout) counts one more write: 0, or -1 with an error. */
static int
nk_bump(PyObject *x, PyObject *vc_type)
{
    PyObject *vc = get(&tensor_L, x, T_VC);
    if (vc == Py_None) {
        Py_DECREF(vc);
        vc = PyObject_CallNoArgs(vc_type);
        if (vc == NULL)
            return -1;
        put(&tensor_L, x, T_VC, vc); /* (`x._vc = ...` reaches that slot: layout_ok) */
    }
    if (vc == NULL)
        return -1;
    PyTypeObject *t = Py_TYPE(vc);
    if ((PyObject *)t == vc_type && PyType_HasFeature(t, Py_TPFLAGS_VALID_VERSION_TAG) &&
        (t != nk_vc_type || t->tp_version_tag != nk_vc_tag)) { /* (read again) */
        PyObject *d = t->tp_setattro == PyObject_GenericSetAttr && t->tp_getattro == PyObject_GenericGetAttr
                          ? _PyType_Lookup(t, ip_strs[3])
                          : NULL;
        PyMemberDef *m = d != NULL && Py_TYPE(d) == &PyMemberDescr_Type ? ((PyMemberDescrObject *)d)->d_member : NULL;
        Py_CLEAR(nk_vc_type);
        if (m != NULL && m->type == T_OBJECT_EX && !(m->flags & READONLY) &&
            PyType_HasFeature(t, Py_TPFLAGS_VALID_VERSION_TAG)) {
            nk_vc_type = (PyTypeObject *)Py_NewRef(t);
            nk_vc_tag = t->tp_version_tag;
            nk_vc_off = m->offset;
        }
    }
    PyObject *v, *nv;
    int r;
    if (t == nk_vc_type && t->tp_version_tag == nk_vc_tag && PyType_HasFeature(t, Py_TPFLAGS_VALID_VERSION_TAG) &&
        (v = SLOT(vc, nk_vc_off)) != NULL) {
        nv = PyNumber_InPlaceAdd(v, ip_one);
        if (nv != NULL) {
            SLOT(vc, nk_vc_off) = nv;
            Py_DECREF(v);
        }
        r = nv == NULL ? -1 : 0;
    }
    else { /* `vc.value += 1`, by attribute */
        v = PyObject_GetAttr(vc, ip_strs[3]);
        nv = v == NULL ? NULL : PyNumber_InPlaceAdd(v, ip_one);
        r = nv == NULL ? -1 : PyObject_SetAttr(vc, ip_strs[3], nv);
        Py_XDECREF(v);
        Py_XDECREF(nv);
    }
    Py_DECREF(vc);
    return r;
}

/* An op object's common case (an op, or an in-place op), or FALLBACK. */
static PyObject *
run_op(OpObject *op, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    return op->inplace ? inplace_run(op, args, nargs, kwnames) : op_run(op, args, nargs, kwnames);
}

/* A method's op: what `<m_names[0]>.<m_names[1]>.<m_names[2]>` reads now, when each of
 * the two is an exact module (whose attributes are its dict's items) -- the dicts' versions
 * tell whether the last reading still holds; NULL when something else would be read. */
static PyObject *
method_target(OpObject *m)
{
    PyObject *g = m->m_globals, *a = m->m_mods[0], *b = m->m_mods[1];
    if (a != NULL && dict_version(g) == m->m_versions[0] && Py_TYPE(a) == &PyModule_Type &&
        Py_TYPE(b) == &PyModule_Type && dict_version(PyModule_GetDict(a)) == m->m_versions[1] &&
        dict_version(PyModule_GetDict(b)) == m->m_versions[2])
        return m->m_target;
    Py_CLEAR(m->m_mods[0]);
    Py_CLEAR(m->m_mods[1]);
    Py_CLEAR(m->m_target);
    a = PyDict_GetItemWithError(g, m->m_names[0]); /* (not there: LOAD_GLOBAL reads builtins) */
    b = a != NULL && Py_TYPE(a) == &PyModule_Type ? PyDict_GetItemWithError(PyModule_GetDict(a), m->m_names[1])
                                                   : NULL;
    PyObject *t = b != NULL && Py_TYPE(b) == &PyModule_Type
                      ? PyDict_GetItemWithError(PyModule_GetDict(b), m->m_names[2])
                      : NULL;
    if (t == NULL) {
        PyErr_Clear();
        return NULL;
    }
    m->m_versions[0] = dict_version(g);
    m->m_versions[1] = dict_version(PyModule_GetDict(a));
    m->m_versions[2] = dict_version(PyModule_GetDict(b));
    m->m_mods[0] = Py_NewRef(a);
    m->m_mods[1] = Py_NewRef(b);
    m->m_target = Py_NewRef(t);
    return t;
}

static PyObject *
op_vectorcall(PyObject *self, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    OpObject *op = (OpObject *)self, *t = NULL;
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    PyObject *r = FALLBACK;
    if (!op->method)
        r = run_op(op, args, nargs, kwnames);
    else if ((kwnames == NULL || !PyTuple_GET_SIZE(kwnames)) && nargs == op->nargs &&
             (t = (OpObject *)method_target(op)) != NULL && Py_TYPE(t) == &Op_Type && !t->method) {
        /* the op's common case, without the method's frame; anything else: the method */
        PyObject *swapped[2] = {args[nargs - 1], args[0]};
        Py_INCREF(t); /* (the call may rebind the names) */
        r = run_op(t, op->method == 2 ? swapped : args, nargs, NULL);
        Py_DECREF(t);
    }
    return r == FALLBACK ? PyObject_Vectorcall(op->wrapped, args, nargsf, kwnames) : r;
}

/* A context's and an op's object fields, each list written once for traverse and dealloc:
 * the first list may take part in cycles (visited), the second holds strings, types and
 * other acyclic objects (only freed). */
#define CTX_VISITED(X)                                                                                 \
    X(globals) X(nodes_module) X(gm_globals) X(gm_enabled) X(fwd) X(tensor_wrap) X(of_input_fn) X(as_arg) X(gm_state)
#define CTX_OTHERS(X)                                                                                  \
    X(nodes_dict) X(gm_off) X(float_set) X(float_dtypes[0]) X(float_dtypes[1]) X(float_dtypes[2]) X(gm_code)
#define OP_VISITED(X)                                                                                  \
    X(ctx) X(wrapped) X(dict) X(table) X(node_cls) X(doc) X(m_globals) X(m_mods[0]) X(m_mods[1]) X(m_target) \
    X(ip_fns[0]) X(ip_fns[1]) X(ip_globals) X(ip_into) X(ip_vc_type) X(ip_bump)
#define OP_OTHERS(X)                                                                                   \
    X(name) X(qualname) X(module) X(table_name) X(node_name) X(m_names[0]) X(m_names[1]) X(m_names[2]) \
    X(ip_codes[0]) X(ip_codes[1])
#define VISIT_FIELD(f) Py_VISIT(self->f);
#define CLEAR_FIELD(f) Py_CLEAR(self->f);
#define TRAVERSE(name, type, fields)                                                                \
    static int name(type *self, visitproc visit, void *arg)                                         \
    {                                                                                               \
        fields(VISIT_FIELD) return 0;                                                               \
    }

TRAVERSE(ctx_traverse, Ctx, CTX_VISITED)

/* (No tp_clear: a context's cycles go through its module's namespace, which the collector
 * clears; an op called after that finds its names gone and calls its Python function.) */
static void
ctx_dealloc(Ctx *self)
{
    PyObject_GC_UnTrack(self);
    CTX_VISITED(CLEAR_FIELD)
    CTX_OTHERS(CLEAR_FIELD)
    Py_CLEAR(self->tw_type);
    PyObject_GC_Del(self);
}

static PyTypeObject Ctx_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "opgrad.runtime._speedups.ops_context",
    .tp_basicsize = sizeof(Ctx),
    .tp_dealloc = (destructor)ctx_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_traverse = (traverseproc)ctx_traverse,
};

/* setup_ops(ops.py's globals(), (float16, float32, float64)) -> the context of its ops: what
 * the driver reads, from that module's own names; the dtypes are the ones it takes (members
 * of FLOAT_DTYPES where the module reads it: a module whose ops test no dtype lacks it). */
static PyObject *
setup_ops(PyObject *self, PyObject *args)
{
    PyObject *g, *dtypes;
    if (!PyArg_ParseTuple(args, "O!O!:setup_ops", &PyDict_Type, &g, &PyTuple_Type, &dtypes))
        return NULL;
    if (!PyDict_CheckExact(g) || PyTuple_GET_SIZE(dtypes) != 3 || tensor_L.base == NULL || output_L.base == NULL) {
        PyErr_SetString(PyExc_TypeError, "setup_ops: expects ops.py's globals() and 3 dtypes, after setup_wrappers");
        return NULL;
    }
    PyObject *nodes = PyDict_GetItemString(g, "_nodes");
    PyObject *enabled = PyDict_GetItemString(g, "grad_enabled");
    PyObject *forward = PyDict_GetItemString(g, "FORWARD");
    PyObject *wrap = PyDict_GetItemString(g, "wrap");
    PyObject *floats = PyDict_GetItemString(g, "FLOAT_DTYPES");
    PyObject *tw = PyDict_GetItemString(g, "TensorWrapper");
    if (nodes == NULL || !PyModule_Check(nodes) || enabled == NULL || !PyFunction_Check(enabled) ||
        forward == NULL || wrap == NULL || (floats != NULL && !PyFrozenSet_CheckExact(floats)) || tw == NULL ||
        !PyType_Check(tw)) {
        PyErr_SetString(PyExc_TypeError, "setup_ops: unexpected ops module");
        return NULL;
    }
    for (int i = 0; floats != NULL && i < 3; i++) {
        int in = PySet_Contains(floats, PyTuple_GET_ITEM(dtypes, i));
        if (in <= 0) {
            if (in == 0)
                PyErr_SetString(PyExc_TypeError, "setup_ops: FLOAT_DTYPES lacks a dtype the driver takes");
            return NULL;
        }
    }
    PyObject *gm = PyFunction_GET_GLOBALS(enabled);
    PyObject *off = PyDict_GetItemString(gm, "_OFF");
    PyObject *state = PyDict_GetItemString(gm, "_STATE");
    PyObject *d = _PyType_Lookup(Py_TYPE(forward), str_active);
    if (str_enabled == NULL && (str_enabled = PyUnicode_InternFromString("enabled")) == NULL)
        return NULL;
    if (off == NULL || !PyList_CheckExact(off) || state == NULL || d == NULL || Py_TYPE(d) != &PyMemberDescr_Type ||
        ((PyMemberDescrObject *)d)->d_member->type != T_OBJECT_EX) {
        PyErr_SetString(PyExc_TypeError, "setup_ops: unexpected grad_mode._OFF, _STATE or FORWARD.active");
        return NULL;
    }
    Ctx *c = PyObject_GC_New(Ctx, &Ctx_Type);
    if (c == NULL)
        return NULL;
    c->fwd_active_off = ((PyMemberDescrObject *)d)->d_member->offset;
    c->of_input_fn = NULL;
    c->gm_state = Py_NewRef(state);
    c->gm_code = Py_NewRef(PyFunction_GET_CODE(enabled));
    c->v_ops = c->v_nodes = c->v_gm = 0; /* checked on the first call (a dict's version is never 0) */
    c->v_tw = 0;
    c->epoch = 1;
    c->ok = 0;
    Py_INCREF(g);
    c->globals = g;
    Py_INCREF(nodes);
    c->nodes_module = nodes;
    c->nodes_dict = PyModule_GetDict(nodes);
    Py_INCREF(c->nodes_dict);
    Py_INCREF(gm);
    c->gm_globals = gm;
    Py_INCREF(off);
    c->gm_off = off;
    Py_INCREF(enabled);
    c->gm_enabled = enabled;
    Py_INCREF(forward);
    c->fwd = forward;
    Py_INCREF(wrap);
    c->tensor_wrap = wrap;
    Py_XINCREF(floats);
    c->float_set = floats; /* (NULL: the module has no FLOAT_DTYPES, and must not get one) */
    c->as_arg = Py_XNewRef(PyDict_GetItemString(g, "as_tensor_arg")); /* (likewise) */
    Py_INCREF(tw);
    c->tw_type = (PyTypeObject *)tw;
    for (int i = 0; i < 3; i++)
        c->float_dtypes[i] = Py_NewRef(PyTuple_GET_ITEM(dtypes, i));
    PyObject_GC_Track(c);
    return (PyObject *)c;
}

/* A new op object standing in for the function `fn` (its fields empty, tracked). */
static OpObject *
op_new(PyObject *fn)
{
    OpObject *op = PyObject_GC_New(OpObject, &Op_Type);
    if (op == NULL)
        return NULL;
    op->vectorcall = op_vectorcall;
    op->ctx = NULL;
    op->dict = op->weakrefs = op->table = op->node_cls = op->table_name = op->node_name = NULL;
    op->name = op->qualname = op->module = op->doc = NULL;
    op->epoch = 0;
    op->slots_tag = 0;
    op->nsaves = op->nattrs = 0;
    op->attr_bool[0] = op->attr_bool[1] = 0;
    op->kind = 0;
    op->method = 0;
    op->m_globals = op->m_names[0] = op->m_names[1] = op->m_names[2] = NULL;
    op->m_mods[0] = op->m_mods[1] = op->m_target = NULL;
    op->inplace = 0;
    op->ip_fns[0] = op->ip_fns[1] = op->ip_codes[0] = op->ip_codes[1] = NULL;
    op->ip_globals = op->ip_into = op->ip_vc_type = op->ip_bump = NULL;
    op->ip_versions[0] = op->ip_versions[1] = 0;
    op->wrapped = Py_NewRef(fn);
    PyObject_GC_Track(op);
    return op;
}

/* The function's __name__, __qualname__, __module__ and __doc__, as the op's. */
static int
op_names(OpObject *op)
{
    PyObject *fn = op->wrapped;
    op->name = PyObject_GetAttrString(fn, "__name__");
    op->qualname = op->name ? PyObject_GetAttrString(fn, "__qualname__") : NULL;
    op->module = op->qualname ? PyObject_GetAttrString(fn, "__module__") : NULL;
    op->doc = op->module ? PyObject_GetAttrString(fn, "__doc__") : NULL;
    return op->doc == NULL ? -1 : 0;
}

/* The op, named as its function (op_names), when that is `name`; else NULL (the op freed). */
static PyObject *
op_named(OpObject *op, PyObject *name, const char *what)
{
    if (op_names(op) < 0 || PyObject_RichCompareBool(op->name, name, Py_EQ) != 1) {
        if (!PyErr_Occurred())
            PyErr_Format(PyExc_ValueError, "%s: the row of %R is not for %R", what, name, op->name);
        Py_DECREF(op);
        return NULL;
    }
    return (PyObject *)op;
}

/* op(context, function, row): the C version of `function` (see above). */
static PyObject *
make_op(PyObject *self, PyObject *args)
{
    PyObject *ctx, *fn, *row, *name, *table, *node, *inputs, *saves, *kind, *numbers;
    const char *classes = NULL; /* (then their classes, "n" a number, "b" a bool, when one is a bool) */
    int jvp, nattrs = 0;        /* (a row may end with the count of number arguments) */
    if (!PyArg_ParseTuple(args, "O!OO!:op", &Ctx_Type, &ctx, &fn, &PyTuple_Type, &row) ||
        !PyArg_ParseTuple(row, "UUUO!O!UpO!|is:op", &name, &table, &node, &PyTuple_Type, &inputs, &PyTuple_Type,
                          &saves, &kind, &jvp, &PyTuple_Type, &numbers, &nattrs, &classes))
        return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(inputs), ns = PyTuple_GET_SIZE(saves);
    if (!PyFunction_Check(fn) || PyFunction_GET_GLOBALS(fn) != ((Ctx *)ctx)->globals || n < 1 || n > 2 ||
        ns > MAX_SAVES || PyTuple_GET_SIZE(numbers) != n || nattrs < 0 || nattrs > MAX_ATTRS ||
        ((PyCodeObject *)PyFunction_GET_CODE(fn))->co_argcount != n + nattrs) {
        PyErr_SetString(PyExc_TypeError, "op: expects a function of the context's module and its row");
        return NULL;
    }
    OpObject *op = op_new(fn);
    if (op == NULL)
        return NULL;
    Py_INCREF(ctx);
    op->ctx = (Ctx *)ctx;
    op->nargs = (int)n;
    op->nattrs = nattrs;
    op->jvp = jvp;
    if (classes != NULL && (int)strlen(classes) != nattrs)
        op->kind = -1; /* (a malformed row, below) */
    for (int i = 0; i < nattrs && i < MAX_ATTRS; i++) {
        op->attr_bool[i] = classes != NULL && classes[i] == 'b';
        if (classes != NULL && classes[i] != 'b' && classes[i] != 'n')
            op->kind = -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) /* (a number needs the other argument, a Tensor) */
        op->numbers[i] = n == 2 && PyTuple_GET_ITEM(numbers, i) == Py_True;
    Py_INCREF(table);
    op->table_name = table;
    Py_INCREF(node);
    op->node_name = node;
    op->kind = op->kind < 0                                         ? -1
               : PyUnicode_CompareWithASCIIString(kind, "") == 0    ? 0
               : PyUnicode_CompareWithASCIIString(kind, "f") == 0 ? 1
               : PyUnicode_CompareWithASCIIString(kind, "fc") == 0 ? 2
                                                                    : -1;
    for (Py_ssize_t i = 0; i < n; i++) {
        long v = PyLong_AsLong(PyTuple_GET_ITEM(inputs, i));
        if (v == -1 && PyErr_Occurred())
            goto error;
        op->inputs[i] = (int)v;
        if (v < -1 || v >= n)
            op->kind = -1;
    }
    for (Py_ssize_t i = 0; i < ns; i++) {
        PyObject *slot, *how;
        int arg;
        if (!PyArg_ParseTuple(PyTuple_GET_ITEM(saves, i), "UUi", &slot, &how, &arg))
            goto error;
        int h = -1;
        for (int j = 0; j < 5; j++)
            if (PyUnicode_CompareWithASCIIString(how, how_names[j]) == 0)
                h = j;
        if (h < 0 || arg < -1 || arg >= n + nattrs || (arg == -1) != (h == HOW_OUTPUT) || (arg >= n) != (h == HOW_VALUE))
            op->kind = -1;
        Py_INCREF(slot);
        PyUnicode_InternInPlace(&slot);
        op->save_slot[i] = slot;
        op->save_how[i] = h;
        op->save_arg[i] = arg;
        op->nsaves++;
    }
    if (op->kind < 0) {
        PyErr_Format(PyExc_ValueError, "op: a malformed row for %R", name);
        goto error;
    }
    if (op_names(op) < 0)
        goto error;
    if (PyObject_RichCompareBool(op->name, name, Py_EQ) != 1) {
        if (!PyErr_Occurred())
            PyErr_Format(PyExc_ValueError, "op: the row of %R is not for %R", name, op->name);
        goto error;
    }
    return (PyObject *)op;
error:
    Py_DECREF(op);
    return NULL;
}

/* inplace_op(context, function, (name, kernel table name)): the C version of an in-place op
 * `function(x[, y])` whose body starts as inplace_run says (codegen/plan_fast.py's
 * fast_inplace); check_inplace and write_into are the ones the context's module names now. */
static PyObject *
make_inplace(PyObject *self, PyObject *args)
{
    PyObject *ctx, *fn, *name, *table;
    if (!PyArg_ParseTuple(args, "O!O(UU):inplace_op", &Ctx_Type, &ctx, &fn, &name, &table))
        return NULL;
    Ctx *c = (Ctx *)ctx;
    PyObject *chk = PyDict_GetItemString(c->globals, "check_inplace");
    PyObject *wi = PyDict_GetItemString(c->globals, "write_into");
    PyObject *m = chk != NULL && PyFunction_Check(chk) ? PyFunction_GET_GLOBALS(chk) : NULL;
    PyObject *into = m ? PyDict_GetItemString(m, "_INTO") : NULL;
    PyObject *vc = m ? PyDict_GetItemString(m, "VersionCounter") : NULL;
    PyObject *bump = m ? PyDict_GetItemString(m, "bump_version") : NULL;
    if (!PyFunction_Check(fn) || PyFunction_GET_GLOBALS(fn) != c->globals || m == NULL || wi == NULL ||
        !PyFunction_Check(wi) || PyFunction_GET_GLOBALS(wi) != m || into == NULL || !PyDict_CheckExact(into) ||
        vc == NULL || !PyType_Check(vc) || bump == NULL) {
        PyErr_SetString(PyExc_TypeError, "inplace_op: expects a function of the context's module and its row");
        return NULL;
    }
    PyCodeObject *code = (PyCodeObject *)PyFunction_GET_CODE(fn);
    if (code->co_argcount < 1 || code->co_argcount > 2) {
        PyErr_SetString(PyExc_TypeError, "inplace_op: expects a function of one or two arguments");
        return NULL;
    }
    if (ip_one == NULL && (ip_one = PyLong_FromLong(1)) == NULL)
        return NULL;
    if (ip_refused == NULL &&
        (ip_refused = PyTuple_Pack(3, PyExc_TypeError, PyExc_ValueError, PyExc_OverflowError)) == NULL)
        return NULL;
    static const char *const strs[4] = {"flags", "writeable", "_vc", "value"};
    for (int i = 0; i < 4; i++)
        if (ip_strs[i] == NULL && (ip_strs[i] = PyUnicode_InternFromString(strs[i])) == NULL)
            return NULL;
    OpObject *op = op_new(fn);
    if (op == NULL)
        return NULL;
    op->ctx = (Ctx *)Py_NewRef(ctx);
    op->inplace = 1;
    op->nargs = code->co_argcount;
    op->table_name = Py_NewRef(table);
    op->ip_fns[0] = Py_NewRef(chk);
    op->ip_fns[1] = Py_NewRef(wi);
    op->ip_codes[0] = Py_NewRef(PyFunction_GET_CODE(chk));
    op->ip_codes[1] = Py_NewRef(PyFunction_GET_CODE(wi));
    op->ip_globals = Py_NewRef(m);
    op->ip_into = Py_NewRef(into);
    op->ip_vc_type = Py_NewRef(vc);
    op->ip_bump = Py_NewRef(bump);
    return op_named(op, name, "inplace_op");
}

/* method(function, (name, (module, submodule, op), swapped)): the C version of a Tensor method
 * `function` whose body is `return module.submodule.op(self[, other])` (swapped: `(other,
 * self)`), positional parameters only, without defaults (codegen/plan_fast.py's
 * fast_methods). A call of that op's C version (an op object) runs its common case; every
 * other call (keywords, other argument counts, another object bound to the names, the op's
 * other cases) calls `function`, which reads the names again. */
static PyObject *
make_method(PyObject *self, PyObject *args)
{
    PyObject *fn, *name, *path[3];
    int swapped;
    if (!PyArg_ParseTuple(args, "O(U(UUU)p):method", &fn, &name, &path[0], &path[1], &path[2], &swapped))
        return NULL;
    PyCodeObject *code = PyFunction_Check(fn) ? (PyCodeObject *)PyFunction_GET_CODE(fn) : NULL;
    if (code == NULL || code->co_argcount < 1 || code->co_argcount > 2 || code->co_kwonlyargcount ||
        code->co_posonlyargcount || (code->co_flags & (CO_VARARGS | CO_VARKEYWORDS)) ||
        PyFunction_GET_DEFAULTS(fn) != NULL || (swapped && code->co_argcount != 2)) {
        PyErr_SetString(PyExc_TypeError, "method: expects a function of one or two positional parameters");
        return NULL;
    }
    OpObject *op = op_new(fn);
    if (op == NULL)
        return NULL;
    op->method = swapped ? 2 : 1;
    op->nargs = code->co_argcount;
    op->m_globals = Py_NewRef(PyFunction_GET_GLOBALS(fn));
    for (int i = 0; i < 3; i++)
        op->m_names[i] = Py_NewRef(path[i]);
    return op_named(op, name, "method");
}

TRAVERSE(op_traverse, OpObject, OP_VISITED)

/* Breaks cycles through the op's own attributes; its context and function stay until it
 * is freed, so that a call after this still runs (as its Python function). */
static int
op_clear(OpObject *op)
{
    Py_CLEAR(op->dict);
    Py_CLEAR(op->table);
    Py_CLEAR(op->node_cls);
    Py_CLEAR(op->m_mods[0]); /* (read again, from m_globals, on the next call) */
    Py_CLEAR(op->m_mods[1]);
    Py_CLEAR(op->m_target);
    op->epoch = 0;
    return 0;
}

static void
op_dealloc(OpObject *self)
{
    PyObject_GC_UnTrack(self);
    if (self->weakrefs != NULL)
        PyObject_ClearWeakRefs((PyObject *)self);
    OP_VISITED(CLEAR_FIELD)
    OP_OTHERS(CLEAR_FIELD)
    for (int i = 0; i < self->nsaves; i++)
        Py_CLEAR(self->save_slot[i]);
    PyObject_GC_Del(self);
}

static PyObject *
op_repr(OpObject *op)
{
    return PyObject_Repr(op->wrapped);
}

/* A function's __get__: bound to an instance, a method. */
static PyObject *
op_descr_get(PyObject *self, PyObject *obj, PyObject *type)
{
    if (obj == NULL || obj == Py_None) {
        Py_INCREF(self);
        return self;
    }
    return PyMethod_New(self, obj);
}

/* Pickled (and copied) by reference, as a function is: its module's attribute. */
static PyObject *
op_reduce(OpObject *op, PyObject *unused)
{
    Py_INCREF(op->qualname);
    return op->qualname;
}

static PyObject *
op_forward(OpObject *op, void *name)
{
    return PyObject_GetAttrString(op->wrapped, (const char *)name);
}

/* grad_property(prop): Tensor.grad (runtime/tensor.py's property `prop`) with its common cases
 * in C, for an exact Tensor whose slots are the ones checked (is_tensor), while the getter's
 * and setter's code are the ones given:
 *     get: `self._node is None`: `self._grad` (a leaf: nothing to warn about)
 *     set: `self.grad = None`: `self._grad = None`, then `self._extra.grad_owned = False` if
 *          `self._extra is not None`
 * Everything else -- a non-leaf, a Tensor to check, a subclass, a class
 * access, deletion -- is the property's own __get__/__set__. */
typedef struct {
    PyObject_HEAD
    PyObject *prop, *fget, *fset, *get_code, *set_code;
} GradPropObject;

static PyTypeObject GradProp_Type;
static PyObject *str_grad_owned;

static inline int
gp_fast(GradPropObject *gp, PyObject *obj)
{
    return obj != NULL && tensor_L.base != NULL && is_tensor(obj) &&
           PyFunction_GET_CODE(gp->fget) == gp->get_code && PyFunction_GET_CODE(gp->fset) == gp->set_code;
}

static PyObject *
gp_get(PyObject *self, PyObject *obj, PyObject *type)
{
    GradPropObject *gp = (GradPropObject *)self;
    if (obj != Py_None && gp_fast(gp, obj) && SLOT(obj, tensor_L.offs[T_NODE]) == Py_None) {
        PyObject *g = SLOT(obj, tensor_L.offs[T_GRAD]);
        if (g != NULL)
            return Py_NewRef(g);
    }
    return Py_TYPE(gp->prop)->tp_descr_get(gp->prop, obj, type);
}

static int
gp_set(PyObject *self, PyObject *obj, PyObject *value)
{
    GradPropObject *gp = (GradPropObject *)self;
    if (value == Py_None && gp_fast(gp, obj) && SLOT(obj, tensor_L.offs[T_EXTRA]) != NULL) {
        PyObject **p = &SLOT(obj, tensor_L.offs[T_GRAD]);
        PyObject *old = *p;
        *p = Py_NewRef(Py_None);
        Py_XDECREF(old);
        PyObject *extra = SLOT(obj, tensor_L.offs[T_EXTRA]); /* `if self._extra is not None:` */
        if (extra == NULL) { /* (deleted by what the old grad's release ran: the error Python's read raises) */
            PyObject *e = PyObject_GetAttrString(obj, "_extra");
            Py_XDECREF(e);
            return e == NULL ? -1 : 0;
        }
        if (extra == Py_None)
            return 0;
        if (str_grad_owned == NULL && (str_grad_owned = PyUnicode_InternFromString("grad_owned")) == NULL)
            return -1;
        Py_INCREF(extra);
        int r = PyObject_SetAttr(extra, str_grad_owned, Py_False); /* `self._extra.grad_owned = False` */
        Py_DECREF(extra);
        return r;
    }
    return Py_TYPE(gp->prop)->tp_descr_set(gp->prop, obj, value);
}

static int
gp_traverse(GradPropObject *self, visitproc visit, void *arg)
{
    Py_VISIT(self->prop);
    Py_VISIT(self->fget);
    Py_VISIT(self->fset);
    return 0;
}

static int
gp_clear(GradPropObject *self)
{
    return 0; /* (the property stays: a call after this still runs) */
}

static void
gp_dealloc(GradPropObject *self)
{
    PyObject_GC_UnTrack(self);
    Py_CLEAR(self->prop);
    Py_CLEAR(self->fget);
    Py_CLEAR(self->fset);
    Py_CLEAR(self->get_code);
    Py_CLEAR(self->set_code);
    PyObject_GC_Del(self);
}

/* fget, fset, fdel, __doc__, __isabstractmethod__: the property's */
static PyObject *
gp_forward(GradPropObject *gp, void *name)
{
    return PyObject_GetAttrString(gp->prop, (const char *)name);
}

static PyGetSetDef gp_getset[] = {
    {"fget", (getter)gp_forward, NULL, NULL, "fget"},
    {"fset", (getter)gp_forward, NULL, NULL, "fset"},
    {"fdel", (getter)gp_forward, NULL, NULL, "fdel"},
    {"__doc__", (getter)gp_forward, NULL, NULL, "__doc__"},
    {"__isabstractmethod__", (getter)gp_forward, NULL, NULL, "__isabstractmethod__"},
    {NULL, NULL, NULL, NULL, NULL}};

static PyMemberDef gp_members[] = {
    {"__wrapped__", T_OBJECT, offsetof(GradPropObject, prop), READONLY, "The property."}, {NULL, 0, 0, 0, NULL}};

static PyTypeObject GradProp_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "opgrad.runtime._speedups.grad_property",
    .tp_basicsize = sizeof(GradPropObject),
    .tp_dealloc = (destructor)gp_dealloc,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_traverse = (traverseproc)gp_traverse,
    .tp_clear = (inquiry)gp_clear,
    .tp_getset = gp_getset,
    .tp_members = gp_members,
    .tp_descr_get = gp_get,
    .tp_descr_set = gp_set,
};

static PyObject *
make_grad_property(PyObject *self, PyObject *prop)
{
    if (!(GradProp_Type.tp_flags & Py_TPFLAGS_READY) && PyType_Ready(&GradProp_Type) < 0)
        return NULL;
    PyObject *fget = Py_TYPE(prop) == &PyProperty_Type ? PyObject_GetAttrString(prop, "fget") : NULL;
    PyObject *fset = fget != NULL ? PyObject_GetAttrString(prop, "fset") : NULL;
    if (fset == NULL || !PyFunction_Check(fget) || !PyFunction_Check(fset)) {
        Py_XDECREF(fget);
        Py_XDECREF(fset);
        PyErr_Clear();
        PyErr_SetString(PyExc_TypeError, "grad_property: expects a property with a getter and a setter");
        return NULL;
    }
    GradPropObject *gp = PyObject_GC_New(GradPropObject, &GradProp_Type);
    if (gp == NULL) {
        Py_DECREF(fget);
        Py_DECREF(fset);
        return NULL;
    }
    gp->prop = Py_NewRef(prop);
    gp->fget = fget;
    gp->fset = fset;
    gp->get_code = Py_NewRef(PyFunction_GET_CODE(fget));
    gp->set_code = Py_NewRef(PyFunction_GET_CODE(fset));
    PyObject_GC_Track(gp);
    return (PyObject *)gp;
}

static PyMethodDef op_methods[] = {
    {"__reduce__", (PyCFunction)op_reduce, METH_NOARGS, "Pickled by reference, as a function."},
    {NULL, NULL, 0, NULL}};

static PyMemberDef op_members[] = {
    {"__wrapped__", T_OBJECT, offsetof(OpObject, wrapped), READONLY, "The Python function."},
    {"__name__", T_OBJECT, offsetof(OpObject, name), READONLY, NULL},
    {"__qualname__", T_OBJECT, offsetof(OpObject, qualname), READONLY, NULL},
    {"__module__", T_OBJECT, offsetof(OpObject, module), READONLY, NULL},
    {"__doc__", T_OBJECT, offsetof(OpObject, doc), READONLY, NULL},
    {NULL, 0, 0, 0, NULL}};

static PyGetSetDef op_getset[] = {
    {"__dict__", PyObject_GenericGetDict, PyObject_GenericSetDict, NULL, NULL},
    {"__annotations__", (getter)op_forward, NULL, NULL, "__annotations__"},
    {"__defaults__", (getter)op_forward, NULL, NULL, "__defaults__"},
    {"__kwdefaults__", (getter)op_forward, NULL, NULL, "__kwdefaults__"},
    {NULL, NULL, NULL, NULL, NULL}};

static PyTypeObject Op_Type = {
    /* named as what it stands in for: messages that name an argument's type say "function" */
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "opgrad.runtime._speedups.function",
    .tp_basicsize = sizeof(OpObject),
    .tp_dealloc = (destructor)op_dealloc,
    .tp_vectorcall_offset = offsetof(OpObject, vectorcall),
    .tp_repr = (reprfunc)op_repr,
    .tp_call = PyVectorcall_Call,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL | Py_TPFLAGS_METHOD_DESCRIPTOR,
    .tp_doc = NULL,
    .tp_traverse = (traverseproc)op_traverse,
    .tp_clear = (inquiry)op_clear,
    .tp_weaklistoffset = offsetof(OpObject, weakrefs),
    .tp_methods = op_methods,
    .tp_members = op_members,
    .tp_getset = op_getset,
    .tp_descr_get = op_descr_get,
    .tp_dictoffset = offsetof(OpObject, dict),
};

/* -- the driver of the generated nodes' first-order apply --------------------------------- */

/* `node_apply(cls, method, row, dtypes, wrap, unpack_data)`: the C version of the `apply` of
 * one GradNode class of generated/nodes.py whose first-order path has the shape
 * codegen/plan_fast_nodes.py recognizes (read its docstring), described by its table row:
 * (class name, kernel table name,
 * saves (slot, "data" | "meta"), kernel arguments (kind, value), the arrays that pick the
 * kernel, result kinds, returned entries). Bound like a function (a method descriptor), it
 * runs that path's common case -- a node of exactly that class, create_graph False, grads[0]
 * an exact Tensor around an exact ndarray of float16/32/64 (by identity), each saved tensor an
 * exact Tensor or `_Output` at version 0 (what `unpack_data` reads inline; the metadata saves
 * as they are) or an `_Input` at the version it was saved at (the nodeg section, after this
 * one, with the C common cases of three kernels), the arrays that pick the kernel exact
 * ndarrays, the kernel already resolved
 * for ndarray -- and calls the Python method (`__wrapped__`) for everything else, before
 * anything observable happened: keyword arguments, create_graph, subclasses, other saved
 * kinds (hooks, a counter that moved: the Python method raises the stale-tensor error), an
 * unset slot, nodes.py's or tensor_wrapper's names rebound (checked through their dict
 * versions: `napply_ready`; each apply keeps what it checked, so that another module
 * generated from another spec, a test's, has its own), a kernel that raises one of the
 * errors the method maps (TypeError, ValueError, OverflowError, MemoryError) or returns
 * another count of results (the method runs the kernel again and raises the mapped error).
 * `wrap` must be runtime.tensor's (a function whose module's Tensor is the Tensor the C
 * path makes, as `new_tensor` does), `unpack_data` runtime.tensor_wrapper's. */

#define NA_MAX_SAVES 6
#define NA_MAX_ARGS 12
#define NA_MAX_RESULTS 6
#define NA_MAX_RETURNS 8
enum { ARG_SAVE, ARG_GRAD, ARG_ATTR, ARG_NEEDS };
static const char *const arg_kinds[] = {"save", "grad", "attr", "needs"};

/* Its first fields are OpObject's (checked below): the op's members and methods serve it. */
typedef struct {
    PyObject_HEAD
    vectorcallfunc vectorcall;
    PyObject *globals; /* the method's module namespace (where OpObject has its context) */
    PyObject *wrapped; /* the Python method */
    PyObject *dict, *weakrefs;
    PyObject *name, *qualname, *module, *doc;
    PyObject *cls;                   /* the class it is the apply of */
    PyObject *table_name, *table;    /* the kernel table, as last checked (NULL: none) */
    PyObject *wrap, *unpack_data, *tw_dict; /* what the namespace's names must be */
    PyObject *float_dtypes[3];
    uint64_t v_nodes, v_tw; /* the namespaces' versions when checked */
    int ok;
    int nsaves, save_meta[NA_MAX_SAVES];
    int nargs, arg_kind[NA_MAX_ARGS], arg_val[NA_MAX_ARGS];
    int narrays, arrays[NA_MAX_ARGS]; /* a save's index, or -1: the gradient's array */
    int nneeds, needs[NA_MAX_ARGS];
    int nresults, optional[NA_MAX_RESULTS]; /* 0: one result, wrapped */
    int nreturns, returns[NA_MAX_RETURNS];
    int nslots;                       /* the saves' slots, then the attributes' */
    PyObject *slot_name[2 * NA_MAX_ARGS];
    Py_ssize_t slot_off[2 * NA_MAX_ARGS]; /* valid while cls's version is slots_tag */
    unsigned int slots_tag;
} NApply;

static PyTypeObject NApply_Type;

_Static_assert(offsetof(NApply, wrapped) == offsetof(OpObject, wrapped) &&
                   offsetof(NApply, dict) == offsetof(OpObject, dict) &&
                   offsetof(NApply, weakrefs) == offsetof(OpObject, weakrefs) &&
                   offsetof(NApply, name) == offsetof(OpObject, name) &&
                   offsetof(NApply, qualname) == offsetof(OpObject, qualname) &&
                   offsetof(NApply, module) == offsetof(OpObject, module) &&
                   offsetof(NApply, doc) == offsetof(OpObject, doc),
               "NApply shares OpObject's first fields");

/* (the nodeg section, at the end of this one: `_Input` saves, the MLP's grad kernels) */
static int ng_names_ok(NApply *na);
static PyObject *ng_unpack(PyObject *saved);
static PyObject *ng_vc_value(PyObject *vc);
static void ng_setup_saves(void);
static PyObject *ng_kernel(PyObject *kernel, PyObject *const *kargs, Py_ssize_t n);

/* Check the names the method reads against what the C path assumes, and look its kernel
 * table up again. */
static int
napply_revalidate(NApply *na)
{
    na->ok = 0;
    Py_CLEAR(na->table);
    if (tensor_L.base == NULL || output_L.base == NULL || na->tw_dict != tw_globals)
        return 0;
    PyObject *g = na->globals;
    int ok = global_is(g, "unpack_data", na->unpack_data) && global_is(g, "wrap", na->wrap) &&
             global_is(na->tw_dict, "Tensor", (PyObject *)tensor_L.base) &&
             global_is(na->tw_dict, "_Output", (PyObject *)output_L.base) && layout_ok(&tensor_L, tensor_L.base) &&
             layout_ok(&output_L, output_L.base) && ng_names_ok(na);
    PyObject *table = ok ? PyDict_GetItemWithError(g, na->table_name) : NULL;
    if (table == NULL || !PyDict_CheckExact(table)) {
        PyErr_Clear();
        return 0;
    }
    na->table = Py_NewRef(table);
    na->v_nodes = dict_version(g);
    na->v_tw = dict_version(na->tw_dict);
    na->ok = 1;
    return 1;
}

static inline int
napply_ready(NApply *na)
{
    if (dict_version(na->globals) == na->v_nodes && dict_version(na->tw_dict) == na->v_tw)
        return na->ok;
    return napply_revalidate(na);
}

/* The slots' offsets in the class, when `self.<slot>` reads there (member descriptors of
 * object slots, the generic __getattr__); slots_tag stays 0 (the Python method) otherwise. */
static int
napply_slots(NApply *na)
{
    PyTypeObject *t = (PyTypeObject *)na->cls;
    if (na->slots_tag != 0 && t->tp_version_tag == na->slots_tag && PyType_HasFeature(t, Py_TPFLAGS_VALID_VERSION_TAG))
        return 1;
    na->slots_tag = 0;
    if (t->tp_getattro != PyObject_GenericGetAttr || !layout_ok(&node_L, t))
        return 0;
    for (int i = 0; i < na->nslots; i++) {
        PyObject *d = _PyType_Lookup(t, na->slot_name[i]);
        if (d == NULL || Py_TYPE(d) != &PyMemberDescr_Type)
            return 0;
        PyMemberDef *m = ((PyMemberDescrObject *)d)->d_member;
        if (m->type != T_OBJECT_EX && m->type != T_OBJECT)
            return 0;
        na->slot_off[i] = m->offset;
    }
    if (!PyType_HasFeature(t, Py_TPFLAGS_VALID_VERSION_TAG))
        return 0;
    na->slots_tag = t->tp_version_tag;
    return 1;
}

static inline int
is_int_zero(PyObject *v)
{
    return v != NULL && PyLong_CheckExact(v) && Py_SIZE(v) == 0;
}

/* `unpack_data(saved, node)` for what it reads inline: an exact Tensor whose counter (none,
 * or an `_Output`'s) is at version 0, or an `_Output` at version 0; its array (borrowed), or
 * NULL for anything else (the Python method runs it: another kind, a stale version). */
static PyObject *
unpack_inline(PyObject *saved)
{
    PyObject *v;
    if (Py_TYPE(saved) == tensor_L.base) { /* (layout_ok checked by napply_ready) */
        PyObject *vc = SLOT(saved, tensor_L.offs[T_VC]);
        if (vc == NULL || (vc != Py_None && !is_int_zero(ng_vc_value(vc))))
            return NULL;
        return SLOT(saved, tensor_L.offs[T_DATA]);
    }
    if (Py_TYPE(saved) == output_L.base) {
        v = SLOT(saved, output_L.offs[O_VALUE]);
        return is_int_zero(v) ? SLOT(saved, output_L.offs[O_DATA]) : NULL;
    }
    return ng_unpack(saved);
}

static PyObject *
napply_vectorcall(PyObject *self, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    NApply *na = (NApply *)self;
    PyObject *kargs[NA_MAX_ARGS], *saves[NA_MAX_SAVES], *grads[NA_MAX_RESULTS];
    int held = 0; /* kargs[0:held] are references */
    if ((kwnames != NULL && PyTuple_GET_SIZE(kwnames)) || PyVectorcall_NARGS(nargsf) != 3 || args[2] != Py_False ||
        Py_TYPE(args[0]) != (PyTypeObject *)na->cls || !napply_ready(na) || !napply_slots(na))
        goto fallback;
    PyObject *node = args[0], *gl = args[1], *out_grad;
    if (PyList_CheckExact(gl) && PyList_GET_SIZE(gl) > 0)
        out_grad = PyList_GET_ITEM(gl, 0);
    else if (PyTuple_CheckExact(gl) && PyTuple_GET_SIZE(gl) > 0)
        out_grad = PyTuple_GET_ITEM(gl, 0);
    else
        goto fallback;
    if (Py_TYPE(out_grad) != tensor_L.base)
        goto fallback;
    PyObject *gdata = SLOT(out_grad, tensor_L.offs[T_DATA]);
    if (gdata == NULL || Py_TYPE(gdata) != ndarray_type)
        goto fallback;
    PyObject *dt = ndarray_dtype(gdata);
    if (dt == NULL || (dt != na->float_dtypes[0] && dt != na->float_dtypes[1] && dt != na->float_dtypes[2]))
        goto fallback;
    for (int i = 0; i < na->nsaves; i++) { /* `x = unpack_data(self.x, self)` | `x = self.x` */
        PyObject *s = SLOT(node, na->slot_off[i]);
        if (s == NULL)
            goto fallback;
        saves[i] = na->save_meta[i] ? s : unpack_inline(s);
        if (saves[i] == NULL)
            goto fallback;
    }
    for (int i = 0; i < na->narrays; i++) /* the arrays' classes alike: ndarray's kernel */
        if (Py_TYPE(na->arrays[i] < 0 ? gdata : saves[na->arrays[i]]) != ndarray_type)
            goto fallback;
    PyObject *kernel;
    int found = ndarray_kernel(na->table, &kernel);
    if (found <= 0) /* (none: not resolved yet, the method's dispatch resolves it) */
        return found < 0 ? NULL : PyObject_Vectorcall(na->wrapped, args, nargsf, kwnames);
    for (int i = 0; i < na->nargs; i++) {
        PyObject *a;
        switch (na->arg_kind[i]) {
        case ARG_SAVE:
            a = Py_NewRef(saves[na->arg_val[i]]);
            break;
        case ARG_GRAD:
            a = Py_NewRef(gdata);
            break;
        case ARG_ATTR:
            a = SLOT(node, na->slot_off[na->arg_val[i]]);
            if (a == NULL)
                goto fallback;
            Py_INCREF(a);
            break;
        default: /* `(self._next0 is not None, ...)` */
            a = PyTuple_New(na->nneeds);
            if (a == NULL)
                goto error;
            for (int j = 0; j < na->nneeds; j++) {
                int p = na->needs[j];
                PyObject *n;
                if (p < 2)
                    n = SLOT(node, node_L.offs[p == 0 ? N_NEXT0 : N_NEXT1]);
                else {
                    PyObject *nexts = SLOT(node, node_L.offs[N_NEXTS]);
                    n = nexts != NULL && PyTuple_CheckExact(nexts) && PyTuple_GET_SIZE(nexts) > p
                            ? PyTuple_GET_ITEM(nexts, p)
                            : NULL;
                }
                if (n == NULL) {
                    Py_DECREF(a);
                    goto fallback;
                }
                PyTuple_SET_ITEM(a, j, Py_NewRef(n != Py_None ? Py_True : Py_False));
            }
        }
        kargs[held++] = a;
    }
    Py_INCREF(kernel);
    PyObject *result = ng_kernel(kernel, kargs, na->nargs); /* a C common case, or NULL */
    if (result == NULL && !PyErr_Occurred())
        result = PyObject_Vectorcall(kernel, kargs, na->nargs, NULL);
    Py_DECREF(kernel);
    for (int i = 0; i < held; i++)
        Py_DECREF(kargs[i]);
    held = 0;
    if (result == NULL) {
        if (PyErr_ExceptionMatches(mapped_errors)) {
            PyErr_Clear();
            goto fallback;
        }
        return NULL;
    }
    int n = na->nresults;
    if (n == 0) {
        grads[0] = new_tensor(result, Py_None);
        Py_DECREF(result);
        if (grads[0] == NULL)
            return NULL;
        n = 1;
    }
    else {
        if (!PyTuple_CheckExact(result) || PyTuple_GET_SIZE(result) != n) { /* kernel_results_error */
            Py_DECREF(result);
            goto fallback;
        }
        for (int i = 0; i < n; i++) {
            PyObject *r = PyTuple_GET_ITEM(result, i);
            grads[i] = r == Py_None && na->optional[i] ? Py_NewRef(Py_None) : new_tensor(r, Py_None);
            if (grads[i] == NULL) {
                while (i--)
                    Py_DECREF(grads[i]);
                Py_DECREF(result);
                return NULL;
            }
        }
        Py_DECREF(result);
    }
    PyObject *outs = PyTuple_New(na->nreturns);
    if (outs != NULL)
        for (int i = 0; i < na->nreturns; i++)
            PyTuple_SET_ITEM(outs, i, Py_NewRef(na->returns[i] < 0 ? Py_None : grads[na->returns[i]]));
    for (int i = 0; i < n; i++)
        Py_DECREF(grads[i]);
    return outs;
error:
    for (int i = 0; i < held; i++)
        Py_DECREF(kargs[i]);
    return NULL;
fallback:
    for (int i = 0; i < held; i++)
        Py_DECREF(kargs[i]);
    if (PyErr_Occurred())
        return NULL;
    return PyObject_Vectorcall(na->wrapped, args, nargsf, kwnames);
}

#define NAPPLY_VISITED(X) X(globals) X(wrapped) X(dict) X(cls) X(table) X(doc) X(wrap) X(unpack_data) X(tw_dict)
#define NAPPLY_OTHERS(X)                                                                                \
    X(name) X(qualname) X(module) X(table_name) X(float_dtypes[0]) X(float_dtypes[1]) X(float_dtypes[2])

/* A slot's index in na->slot_name, added when new. */
static int
napply_slot(NApply *na, PyObject *name)
{
    for (int i = 0; i < na->nslots; i++)
        if (PyUnicode_Compare(na->slot_name[i], name) == 0)
            return i;
    if (na->nslots == 2 * NA_MAX_ARGS)
        return -1;
    Py_INCREF(name);
    PyUnicode_InternInPlace(&name);
    na->slot_name[na->nslots] = name;
    return na->nslots++;
}

/* A tuple of small ints into `into` (at most `max`); its length, or -1. */
static int
int_tuple(PyObject *t, int *into, int max, int lo, int hi)
{
    if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) > max)
        return -1;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(t); i++) {
        long v = PyLong_AsLong(PyTuple_GET_ITEM(t, i));
        if ((v == -1 && PyErr_Occurred()) || v < lo || v > hi) {
            PyErr_Clear();
            return -1;
        }
        into[i] = (int)v;
    }
    return (int)PyTuple_GET_SIZE(t);
}

/* node_apply(cls, method, row, (float16, float32, float64), tensor.wrap,
 * tensor_wrapper.unpack_data): the C version of `cls.apply` (see above), which runs
 * `method` (defined in a generated nodes module, whose names it reads) for what it does not
 * take. */
static PyObject *
make_node_apply(PyObject *self, PyObject *args)
{
    PyObject *cls, *fn, *name, *table, *saves, *kargs, *arrays, *results, *returns, *dtypes, *wrap, *unpack_data;
    if (!PyArg_ParseTuple(args, "O!O(UUO!O!O!UO!)O!OO:node_apply", &PyType_Type, &cls, &fn, &name, &table,
                          &PyTuple_Type, &saves, &PyTuple_Type, &kargs, &PyTuple_Type, &arrays, &results,
                          &PyTuple_Type, &returns, &PyTuple_Type, &dtypes, &wrap, &unpack_data))
        return NULL;
    if (!PyFunction_Check(fn) || !PyDict_CheckExact(PyFunction_GET_GLOBALS(fn)) || node_L.base == NULL ||
        !PyType_IsSubtype((PyTypeObject *)cls, node_L.base) || PyTuple_GET_SIZE(dtypes) != 3 ||
        tensor_L.base == NULL || output_L.base == NULL || tw_globals == NULL || !PyFunction_Check(unpack_data) ||
        PyFunction_GET_GLOBALS(unpack_data) != tw_globals ||
        !(is_c_wrap(wrap) || /* (or the C wrap: leafacc's section) */
          (PyFunction_Check(wrap) && global_is(PyFunction_GET_GLOBALS(wrap), "Tensor", (PyObject *)tensor_L.base)))) {
        PyErr_SetString(PyExc_TypeError, "node_apply: expects a generated GradNode class, its apply, its row, "
                                         "3 dtypes, wrap and unpack_data, after setup_wrappers");
        return NULL;
    }
    NApply *na = PyObject_GC_New(NApply, &NApply_Type);
    if (na == NULL)
        return NULL;
    na->vectorcall = napply_vectorcall;
    na->globals = Py_NewRef(PyFunction_GET_GLOBALS(fn));
    na->wrapped = Py_NewRef(fn);
    na->cls = Py_NewRef(cls);
    na->table_name = Py_NewRef(table);
    na->wrap = Py_NewRef(wrap);
    na->unpack_data = Py_NewRef(unpack_data);
    na->tw_dict = Py_NewRef(tw_globals);
    ng_setup_saves(); /* (the nodeg section: the `_Input` case) */
    for (int i = 0; i < 3; i++)
        na->float_dtypes[i] = Py_NewRef(PyTuple_GET_ITEM(dtypes, i));
    na->dict = na->weakrefs = na->table = NULL;
    na->name = na->qualname = na->module = na->doc = NULL;
    na->v_nodes = na->v_tw = 0; /* checked on the first call (a dict's version is never 0) */
    na->ok = 0;
    na->slots_tag = 0;
    na->nsaves = na->nargs = na->narrays = na->nneeds = na->nresults = na->nreturns = na->nslots = 0;
    PyObject_GC_Track(na);
    PyObject *cls_name = PyObject_GetAttrString(cls, "__name__");
    int bad = cls_name == NULL || PyObject_RichCompareBool(cls_name, name, Py_EQ) != 1 ||
              PyTuple_GET_SIZE(saves) > NA_MAX_SAVES || PyTuple_GET_SIZE(kargs) > NA_MAX_ARGS ||
              PyUnicode_GET_LENGTH(results) > NA_MAX_RESULTS;
    Py_XDECREF(cls_name);
    PyErr_Clear();
    for (Py_ssize_t i = 0; !bad && i < PyTuple_GET_SIZE(saves); i++) {
        PyObject *slot, *form;
        if (!PyArg_ParseTuple(PyTuple_GET_ITEM(saves, i), "UU", &slot, &form) || napply_slot(na, slot) != i) {
            bad = 1;
            break;
        }
        na->save_meta[i] = PyUnicode_CompareWithASCIIString(form, "meta") == 0;
        bad = !na->save_meta[i] && PyUnicode_CompareWithASCIIString(form, "data") != 0;
        na->nsaves++;
    }
    for (Py_ssize_t i = 0; !bad && i < PyTuple_GET_SIZE(kargs); i++) {
        PyObject *kind, *value;
        if (!PyArg_ParseTuple(PyTuple_GET_ITEM(kargs, i), "UO", &kind, &value)) {
            bad = 1;
            break;
        }
        int k = -1;
        for (int j = 0; j < 4; j++)
            if (PyUnicode_CompareWithASCIIString(kind, arg_kinds[j]) == 0)
                k = j;
        na->arg_kind[i] = k;
        na->arg_val[i] = 0;
        if (k == ARG_SAVE) {
            long v = PyLong_AsLong(value);
            bad = v < 0 || v >= na->nsaves;
            na->arg_val[i] = (int)v;
        }
        else if (k == ARG_ATTR)
            bad = !PyUnicode_Check(value) || (na->arg_val[i] = napply_slot(na, value)) < na->nsaves;
        else if (k == ARG_NEEDS)
            bad = na->nneeds > 0 || (na->nneeds = int_tuple(value, na->needs, NA_MAX_ARGS, 0, 64)) <= 0;
        else
            bad = k != ARG_GRAD;
        na->nargs++;
    }
    PyErr_Clear();
    if (!bad) {
        na->narrays = int_tuple(arrays, na->arrays, NA_MAX_ARGS, -1, na->nsaves - 1);
        na->nresults = (int)PyUnicode_GET_LENGTH(results);
        for (int i = 0; i < na->nresults; i++) {
            Py_UCS4 ch = PyUnicode_READ_CHAR(results, i);
            na->optional[i] = ch == 'o';
            bad |= ch != 'o' && ch != 't';
        }
        na->nreturns = int_tuple(returns, na->returns, NA_MAX_RETURNS, -1, (na->nresults ? na->nresults : 1) - 1);
        bad |= na->narrays <= 0 || na->nresults == 1 || na->nreturns <= 0;
        for (int i = 0; !bad && i < na->narrays; i++)
            bad = na->arrays[i] >= 0 && na->save_meta[na->arrays[i]];
    }
    if (bad) {
        PyErr_Format(PyExc_ValueError, "node_apply: a malformed row for %R", name);
        goto error;
    }
    /* the method's names, as a function's (read by the members the op driver defines) */
    static const char *const attrs[] = {"__name__", "__qualname__", "__module__", "__doc__"};
    PyObject **into[] = {&na->name, &na->qualname, &na->module, &na->doc};
    for (int i = 0; i < 4; i++)
        if ((*into[i] = PyObject_GetAttrString(fn, attrs[i])) == NULL)
            goto error;
    return (PyObject *)na;
error:
    Py_DECREF(na);
    return NULL;
}

TRAVERSE(napply_traverse, NApply, NAPPLY_VISITED)

/* Breaks cycles through its own attributes (its namespace, method and class stay, so that a
 * call after this still runs, as the method); with `all`, frees everything. */
static int
napply_release(NApply *self, int all)
{
    Py_CLEAR(self->dict);
    Py_CLEAR(self->table);
    self->v_nodes = 0; /* (checked again: the table is looked up again) */
    if (all) {
        NAPPLY_VISITED(CLEAR_FIELD)
        NAPPLY_OTHERS(CLEAR_FIELD)
        while (self->nslots > 0)
            Py_CLEAR(self->slot_name[--self->nslots]);
    }
    return 0;
}

static int
napply_clear(NApply *self)
{
    return napply_release(self, 0);
}

static void
napply_dealloc(NApply *self)
{
    PyObject_GC_UnTrack(self);
    if (self->weakrefs != NULL)
        PyObject_ClearWeakRefs((PyObject *)self);
    napply_release(self, 1);
    PyObject_GC_Del(self);
}

static PyTypeObject NApply_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "opgrad.runtime._speedups.function",
    .tp_basicsize = sizeof(NApply),
    .tp_dealloc = (destructor)napply_dealloc,
    .tp_vectorcall_offset = offsetof(NApply, vectorcall),
    .tp_repr = (reprfunc)op_repr,
    .tp_call = PyVectorcall_Call,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL | Py_TPFLAGS_METHOD_DESCRIPTOR,
    .tp_traverse = (traverseproc)napply_traverse,
    .tp_clear = (inquiry)napply_clear,
    .tp_weaklistoffset = offsetof(NApply, weakrefs),
    .tp_methods = op_methods,
    .tp_members = op_members,
    .tp_getset = op_getset,
    .tp_descr_get = op_descr_get,
    .tp_dictoffset = offsetof(NApply, dict),
};

/* -- nodeg: the node driver's `_Input` saves and the MLP's grad kernels ------------------ */

/* Two more cases of the node driver (the section above), each exactly what the Python code
 * it stands in for does:
 * - a saved input kept as an exact `_Input` (a tensor saved after an in-place write: a
 *   parameter after its first SGD update) around an exact Tensor whose counter (an exact
 *   VersionCounter or `_Output`) still holds the version it was saved at: its array (what
 *   `unpack_data` reads inline for an `_Input`); and a Tensor saved as
 *   itself whose counter is an exact VersionCounter at 0 (`unpack_data`'s first case). Any
 *   other kind or a moved counter: NULL, the Python method runs (and raises the stale error);
 * - the common cases of three kernels, when the kernel the table gave is (by identity) the
 *   Python function registered here (`node_kernel`, called by the kernels' modules through
 *   `_accel.node_kernel`) and the names of its module that its case reads are still the ones
 *   registered (checked again on each change of that namespace): matmul_grad's 2-D case
 *   without transposes, add_grad where the
 *   gradient keeps its shape or is summed over the rows (a bias), tanh_grad -- the same
 *   NumPy calls in the same order, on exact ndarrays of one dtype (the driver has checked
 *   the gradient's is float16/32/64). Anything else: NULL without an error, and the driver
 *   calls the Python kernel (which runs that case from the start: the kernels are pure). */

/* (the recorded section's input_L and vc_L read the same classes, set up from of_input's side: these
 * are the node driver's own, switched off on their own) */
static Layout ng_input_L = {"_Input", NULL, 2, {"tensor", "_seen"}};
enum { I_TENSOR, I_SEEN };
static Layout ng_vc_L = {"VersionCounter", NULL, 1, {"value"}};
static PyObject *ng_tw; /* the tensor_wrapper namespace ng_input_L and ng_vc_L come from */
static PyObject *ng_str_T;

/* ng_input_L and ng_vc_L from tensor_wrapper's namespace (once per namespace); on failure the
 * `_Input` case stays off (ng_input_L.base NULL), the rest of the driver runs. */
static void
ng_setup_saves(void)
{
    if (ng_tw == tw_globals)
        return;
    Py_XSETREF(ng_tw, Py_XNewRef(tw_globals));
    Py_CLEAR(ng_input_L.base);
    PyObject *input = tw_globals ? PyDict_GetItemString(tw_globals, "_Input") : NULL;
    PyObject *vc = tw_globals ? PyDict_GetItemString(tw_globals, "VersionCounter") : NULL;
    if (input == NULL || vc == NULL || layout_init(&ng_vc_L, vc) < 0 || layout_init(&ng_input_L, input) < 0 ||
        output_L.base == NULL ||
        !PyType_IsSubtype(output_L.base, ng_vc_L.base) || !layout_ok(&ng_vc_L, output_L.base)) {
        PyErr_Clear();
        Py_CLEAR(ng_input_L.base);
        return;
    }
}

/* The names the `_Input` case relies on are still tensor_wrapper's (napply_revalidate). */
static int
ng_names_ok(NApply *na)
{
    if (ng_input_L.base == NULL || na->tw_dict != ng_tw)
        return 1; /* (the case is off: ng_unpack returns NULL) */
    return global_is(na->tw_dict, "_Input", (PyObject *)ng_input_L.base) &&
           global_is(na->tw_dict, "VersionCounter", (PyObject *)ng_vc_L.base) && layout_ok(&ng_input_L, ng_input_L.base) &&
           layout_ok(&ng_vc_L, ng_vc_L.base);
}

/* A counter's `value` (borrowed) for an exact VersionCounter or `_Output` whose slot holds
 * it, else NULL. */
static PyObject *
ng_vc_value(PyObject *vc)
{
    if (Py_TYPE(vc) == output_L.base) /* (layout_ok checked by napply_ready) */
        return SLOT(vc, output_L.offs[O_VALUE]);
    if (ng_input_L.base != NULL && Py_TYPE(vc) == ng_vc_L.base && layout_ok(&ng_vc_L, ng_vc_L.base))
        return SLOT(vc, ng_vc_L.offs[0]);
    return NULL;
}

/* What `unpack_data(saved, node)` reads inline for an exact `_Input` (see above): its array,
 * borrowed, or NULL. */
static PyObject *
ng_unpack(PyObject *saved)
{
    PyTypeObject *it = ng_input_L.base;
    if (it == NULL || Py_TYPE(saved) != it || !layout_ok(&ng_input_L, it))
        return NULL;
    PyObject *t = SLOT(saved, ng_input_L.offs[I_TENSOR]), *seen = SLOT(saved, ng_input_L.offs[I_SEEN]);
    if (t == NULL || seen == NULL || Py_TYPE(t) != tensor_L.base)
        return NULL;
    PyObject *vc = SLOT(t, tensor_L.offs[T_VC]);
    if (vc == NULL)
        return NULL;
    if (vc != Py_None) { /* `vc.value != self._seen`: stale (the method raises) */
        PyObject *v = ng_vc_value(vc);
        if (v == NULL)
            return NULL;
        if (v != seen && (!PyLong_CheckExact(v) || !PyLong_CheckExact(seen) ||
                          PyObject_RichCompareBool(v, seen, Py_NE) != 0))
            return NULL;
    }
    return SLOT(t, tensor_L.offs[T_DATA]);
}

/* A registered kernel: the Python function, the module globals its C case reads (by name,
 * checked again on each change of its module's namespace: a rebound name sends it to the
 * Python kernel) and their values as registered. */
typedef struct {
    PyObject *fn, *globals, *names, *values;
    uint64_t version; /* the namespace's when checked (0: never) */
    int ok;
} NgKernel;

enum { NG_MATMUL, NG_ADD, NG_TANH, NG_KERNELS };
static const char *const ng_kernel_names[NG_KERNELS] = {"matmul_grad", "add_grad", "tanh_grad"};
/* the globals each reads, in this order (the C below reads the values by position) */
static const char *const ng_matmul_globals[] = {"_matmul_grad", "_NDARRAY", NULL};
static const char *const ng_add_globals[] = {"_NDARRAY", "_ADD_REDUCE", NULL};
static const char *const ng_tanh_globals[] = {"_NDARRAY", "_MULTIPLY", "_SUBTRACT", "ONES",
                                              "_F64", "_F32", "_ONE_F64", "_ONE_F32", NULL};
static const char *const *const ng_globals[NG_KERNELS] = {ng_matmul_globals, ng_add_globals, ng_tanh_globals};
static NgKernel ng_k[NG_KERNELS];
#define NG_VALUE(k, i) PyTuple_GET_ITEM(ng_k[k].values, i)

/* Whether kernel k's globals are still the values registered. */
static int
ng_ready(int k)
{
    NgKernel *K = &ng_k[k];
    if (dict_version(K->globals) == K->version)
        return K->ok;
    K->ok = 0;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(K->names); i++) {
        PyObject *v = PyDict_GetItemWithError(K->globals, PyTuple_GET_ITEM(K->names, i));
        if (v != PyTuple_GET_ITEM(K->values, i)) {
            PyErr_Clear();
            K->version = dict_version(K->globals);
            return 0;
        }
    }
    K->version = dict_version(K->globals);
    K->ok = 1;
    return 1;
}

#define NG_ND(a) (EL_ARRAY_FIELDS(a)->nd)
#define NG_DESCR(a) (EL_ARRAY_FIELDS(a)->descr)

/* The `needs` tuple the driver made: want[0], want[1]; 0 if not two bools. */
static int
ng_needs(PyObject *needs, int want[2])
{
    if (!PyTuple_CheckExact(needs) || PyTuple_GET_SIZE(needs) != 2)
        return 0;
    for (int i = 0; i < 2; i++) {
        PyObject *b = PyTuple_GET_ITEM(needs, i);
        if (b != Py_True && b != Py_False)
            return 0;
        want[i] = b == Py_True;
    }
    return 1;
}

/* (a, b), each a new reference or NULL for None (stolen), or NULL on an error. */
static PyObject *
ng_pair(PyObject *a, PyObject *b)
{
    PyObject *r = PyTuple_New(2);
    if (r == NULL) {
        Py_XDECREF(a);
        Py_XDECREF(b);
        return NULL;
    }
    PyTuple_SET_ITEM(r, 0, a != NULL ? a : Py_NewRef(Py_None));
    PyTuple_SET_ITEM(r, 1, b != NULL ? b : Py_NewRef(Py_None));
    return r;
}

/* _matmul_grad's common case: x, y, out_grad 2-D of one dtype, no transposes:
 * `(out_grad @ y.T if want_x else None), (x.T @ out_grad if want_y else None)`. */
static PyObject *
ng_matmul(PyObject *const *a, Py_ssize_t n)
{
    int want[2];
    if (n != 6 || a[3] != Py_False || a[4] != Py_False || !ng_needs(a[5], want))
        return NULL;
    PyObject *x = a[0], *y = a[1], *g = a[2];
    if (Py_TYPE(x) != ndarray_type || Py_TYPE(y) != ndarray_type || Py_TYPE(g) != ndarray_type ||
        NG_ND(x) != 2 || NG_ND(y) != 2 || NG_DESCR(y) != NG_DESCR(x) || NG_DESCR(g) != NG_DESCR(x))
        return NULL;
    PyObject *xg = NULL, *yg = NULL, *tr;
    if (want[0]) {
        if ((tr = PyObject_GetAttr(y, ng_str_T)) == NULL)
            return NULL;
        xg = PyNumber_MatrixMultiply(g, tr);
        Py_DECREF(tr);
        if (xg == NULL)
            return NULL;
    }
    if (want[1]) {
        if ((tr = PyObject_GetAttr(x, ng_str_T)) == NULL) {
            Py_XDECREF(xg);
            return NULL;
        }
        yg = PyNumber_MatrixMultiply(tr, g);
        Py_DECREF(tr);
        if (yg == NULL) {
            Py_XDECREF(xg);
            return NULL;
        }
    }
    return ng_pair(xg, yg);
}

/* Whether metadata `m` (an exact _Meta) has `g`'s dtype (by identity) and g's shape
 * (`skip` 0) or g's shape without its first dimension (`skip` 1): 1, 0; -1 on an error. */
static int
ng_meta_is(PyObject *m, PyObject *g, int skip)
{
    if (Py_TYPE(m) != meta_L.base || !layout_ok(&meta_L, meta_L.base))
        return 0;
    PyObject *dt = SLOT(m, meta_L.offs[M_DTYPE]);
    if (dt != NG_DESCR(g))
        return 0;
    PyObject *shape = PyObject_GetAttr(m, str_shape);
    if (shape == NULL)
        return -1;
    int same = 0;
    ElArrayFields *f = EL_ARRAY_FIELDS(g);
    if (!skip)
        same = el_shape_differs(g, shape) == 0;
    else if (PyTuple_CheckExact(shape) && f->nd >= 2 && PyTuple_GET_SIZE(shape) == f->nd - 1) {
        same = 1;
        for (int k = 1; same && k < f->nd; k++) {
            PyObject *d = PyTuple_GET_ITEM(shape, k - 1);
            int overflow;
            long long v = PyLong_CheckExact(d) ? PyLong_AsLongLongAndOverflow(d, &overflow) : -1;
            same = PyLong_CheckExact(d) && !overflow && v == (long long)f->dimensions[k];
        }
        PyErr_Clear(); /* (-1 with an error only for a value that never matches a dimension) */
    }
    Py_DECREF(shape);
    return same;
}

/* add_grad's common cases: each wanted gradient is out_grad itself (x's or y's shape and
 * dtype) or, for y, `np.add.reduce(out_grad, 0)` (a bias added to each row). */
static PyObject *
ng_add(PyObject *const *a, Py_ssize_t n)
{
    int want[2], ok;
    if (n != 4 || !ng_needs(a[3], want) || Py_TYPE(a[2]) != ndarray_type)
        return NULL;
    PyObject *g = a[2];
    int bias = 0;
    if (want[0] && (ok = ng_meta_is(a[0], g, 0)) <= 0)
        return NULL;
    if (want[1] && (ok = ng_meta_is(a[1], g, 0)) <= 0) {
        if (ok < 0 || (ok = ng_meta_is(a[1], g, 1)) <= 0)
            return NULL;
        bias = 1;
    }
    PyObject *yg = NULL;
    if (want[1]) {
        if (bias) {
            PyObject *ra[2] = {g, zero};
            if ((yg = PyObject_Vectorcall(NG_VALUE(NG_ADD, 1), ra, 2, NULL)) == NULL)
                return NULL;
        }
        else
            yg = Py_NewRef(g);
    }
    return ng_pair(want[0] ? Py_NewRef(g) : NULL, yg);
}

/* tanh_grad on two real ndarrays (not 0-d): t = out * out; then `out_grad * (1 - t)`, into t
 * when t has out_grad's shape, dtype and strides and more than 256 elements. */
static PyObject *
ng_tanh(PyObject *const *a, Py_ssize_t n)
{
    if (n != 2)
        return NULL;
    PyObject *out = a[0], *g = a[1];
    if (Py_TYPE(out) != ndarray_type || Py_TYPE(g) != ndarray_type || NG_ND(out) == 0 || NG_ND(g) == 0)
        return NULL;
    PyObject *dtype = NG_DESCR(out), *one;
    PyObject *multiply = NG_VALUE(NG_TANH, 1), *subtract = NG_VALUE(NG_TANH, 2), *ones = NG_VALUE(NG_TANH, 3);
    if (dtype == NG_VALUE(NG_TANH, 4))
        one = NG_VALUE(NG_TANH, 6);
    else if (dtype == NG_VALUE(NG_TANH, 5))
        one = NG_VALUE(NG_TANH, 7);
    else if (!PyDict_CheckExact(ones) || (one = PyDict_GetItemWithError(ones, dtype)) == NULL)
        return NULL; /* (complex: the kernel's other formula; or an error, passed on) */
    PyObject *ta[3] = {out, out, NULL};
    PyObject *t = PyObject_Vectorcall(multiply, ta, 2, NULL), *r;
    if (t == NULL)
        return NULL;
    if (Py_TYPE(t) == ndarray_type) {
        ElArrayFields *ft = EL_ARRAY_FIELDS(t), *fg = EL_ARRAY_FIELDS(g);
        Py_ssize_t size = 1;
        for (int k = 0; k < ft->nd; k++)
            size *= ft->dimensions[k];
        int into = size > 256 && ft->nd == fg->nd && ft->descr == fg->descr;
        for (int k = 0; into && k < ft->nd; k++)
            into = ft->dimensions[k] == fg->dimensions[k] && ft->strides[k] == fg->strides[k];
        if (into) {
            PyObject *sa[3] = {one, t, t}, *ma[3] = {g, t, t};
            if ((r = PyObject_Vectorcall(subtract, sa, 3, NULL)) == NULL) {
                Py_DECREF(t);
                return NULL;
            }
            Py_DECREF(r);
            r = PyObject_Vectorcall(multiply, ma, 3, NULL);
            Py_DECREF(t);
            return r;
        }
    }
    PyObject *sa[2] = {one, t};
    PyObject *s = PyObject_Vectorcall(subtract, sa, 2, NULL);
    Py_DECREF(t);
    if (s == NULL)
        return NULL;
    PyObject *ma[2] = {g, s};
    r = PyObject_Vectorcall(multiply, ma, 2, NULL);
    Py_DECREF(s);
    if (r != NULL && Py_TYPE(r) != ndarray_type) /* (nd(r): the kernel again, from the start) */
        Py_CLEAR(r);
    return r;
}

/* The C common case of `kernel` when it is one registered here: its result (a new
 * reference), or NULL (with an error: the kernel's; without: the driver calls `kernel`). */
static PyObject *
ng_kernel(PyObject *kernel, PyObject *const *kargs, Py_ssize_t n)
{
    if (!el_arrays_read)
        return NULL;
    for (int k = 0; k < NG_KERNELS; k++)
        if (kernel == ng_k[k].fn) {
            if (!ng_ready(k))
                return NULL;
            return k == NG_MATMUL ? ng_matmul(kargs, n) : k == NG_ADD ? ng_add(kargs, n) : ng_tanh(kargs, n);
        }
    return NULL;
}

/* node_kernel(name, kernel): register the Python kernel `name` (matmul_grad, add_grad or
 * tanh_grad, defined in a module whose globals hold what its C case reads: ng_globals) whose
 * common case ng_kernel runs (by identity). */
static PyObject *
node_kernel(PyObject *self, PyObject *args)
{
    const char *name;
    PyObject *fn;
    if (!PyArg_ParseTuple(args, "sO:node_kernel", &name, &fn))
        return NULL;
    int k = 0;
    while (k < NG_KERNELS && strcmp(name, ng_kernel_names[k]) != 0)
        k++;
    if (k == NG_KERNELS || !PyFunction_Check(fn) || !PyDict_CheckExact(PyFunction_GET_GLOBALS(fn))) {
        PyErr_Format(PyExc_ValueError, "node_kernel: not a kernel the C node driver knows: %s", name);
        return NULL;
    }
    if (ng_str_T == NULL && (ng_str_T = PyUnicode_InternFromString("T")) == NULL)
        return NULL;
    PyObject *g = PyFunction_GET_GLOBALS(fn);
    Py_ssize_t n = 0;
    while (ng_globals[k][n] != NULL)
        n++;
    PyObject *names = PyTuple_New(n), *values = PyTuple_New(n);
    if (names == NULL || values == NULL)
        goto error;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *key = PyUnicode_InternFromString(ng_globals[k][i]);
        if (key == NULL)
            goto error;
        PyTuple_SET_ITEM(names, i, key);
        PyObject *v = PyDict_GetItemWithError(g, key);
        if (v == NULL) {
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_ValueError, "node_kernel: %s's module has no %U", name, key);
            goto error;
        }
        PyTuple_SET_ITEM(values, i, Py_NewRef(v));
    }
    if (PyTuple_GET_ITEM(values, k == NG_MATMUL ? 1 : 0) != (PyObject *)ndarray_type) {
        PyErr_Format(PyExc_ValueError, "node_kernel: %s's module's _NDARRAY is not numpy.ndarray", name);
        goto error;
    }
    NgKernel *K = &ng_k[k];
    Py_XSETREF(K->fn, Py_NewRef(fn));
    Py_XSETREF(K->globals, Py_NewRef(g));
    Py_XSETREF(K->names, names);
    Py_XSETREF(K->values, values);
    K->version = 0; /* (checked on the first call) */
    K->ok = 0;
    Py_RETURN_NONE;
error:
    Py_XDECREF(names);
    Py_XDECREF(values);
    return NULL;
}

/* -- cross_entropy's plain path (runtime/kernels/generic/nn.py) ----------------------------- */

/* The `_plain_labels` calls of cross_entropy's kernels on exact ndarrays (float32 or float64
 * (N, C) logits, C-contiguous and aligned, the class axis last; 1-D native integer labels,
 * all in [0, C); an ignore_index none can equal; no smoothing; 'mean' or 'sum'), one C call
 * each way, with the Python path's numbers bit for bit: NumPy's own loops do the exp and the
 * log (the ufuncs, called), and the rest is the arithmetic NumPy's loops do, in their order:
 * the row maxima (exact), the shifts, the sums (NumPy's pairwise summation from its identity
 * 0, as `np.add.reduce` runs it), the picked entries, the mean in float64, the divide; the
 * grad's scale and one-hot as `_plain_grad` does them. Any other call, a non-finite logit,
 * probability or out_grad, or a floating-point flag raised by the C arithmetic (where NumPy
 * would warn or raise, by its error state) gives None: the Python path then runs from the
 * start and does what NumPy does. */

static PyObject *ce_f4, *ce_f8;                   /* the float32 and float64 dtypes */
static PyObject *ce_label_dtypes[16];             /* the native integer dtypes, */
static int ce_label_sizes[16], ce_label_signed[16]; /* their sizes and signedness */
static int ce_n_labels;
static PyObject *ce_exp, *ce_log, *ce_empty_like, *ce_empty; /* numpy's */

/* The floating-point flags the C arithmetic may raise where NumPy would check them: cleared
 * before each C step (ce_clear_flags), tested after it (ce_flags), through the ufunc
 * section's readers (nk_fe_clear/nk_fe_test: on x86-64 the status registers read directly). */
#define CE_FE_FLAGS (FE_OVERFLOW | FE_UNDERFLOW | FE_INVALID | FE_DIVBYZERO)
static inline void
ce_clear_flags(void)
{
    nk_fe_clear(CE_FE_FLAGS);
}
static inline int
ce_flags(void)
{
    return nk_fe_test(CE_FE_FLAGS) != 0;
}
#define CE_STACK 64 /* labels read into a stack buffer up to this many rows */

/* NumPy's pairwise summation (loops_utils.h.src, `pairwise_sum`) of n contiguous values. */
#define CE_PAIRWISE(T, NAME)                                                                 \
    static T NAME(const T *a, Py_ssize_t n)                                                  \
    {                                                                                        \
        if (n < 8) {                                                                         \
            T res = -0.0;                                                                    \
            for (Py_ssize_t i = 0; i < n; i++)                                               \
                res += a[i];                                                                 \
            return res;                                                                      \
        }                                                                                    \
        if (n <= 128) {                                                                      \
            T r[8];                                                                          \
            Py_ssize_t i;                                                                    \
            for (int j = 0; j < 8; j++)                                                      \
                r[j] = a[j];                                                                 \
            for (i = 8; i < n - (n % 8); i += 8)                                             \
                for (int j = 0; j < 8; j++)                                                  \
                    r[j] += a[i + j];                                                        \
            T res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));       \
            for (; i < n; i++)                                                               \
                res += a[i];                                                                 \
            return res;                                                                      \
        }                                                                                    \
        Py_ssize_t n2 = n / 2;                                                               \
        n2 -= n2 % 8;                                                                        \
        return NAME(a, n2) + NAME(a + n2, n - n2);                                           \
    }

/* The forward's C steps in T: `shift` writes x - its row's maximum into sh (0: a non-finite
 * logit); `soften` writes each row's sum (`np.add.reduce(e, axis=1)`) into s and divides the
 * row by it; `total` is the sum of s[i] - sh[i, lab[i]] (s: the sums' logs, overwritten). */
#define CE_FORWARD_STEPS(T, SUM, SHIFT, SOFTEN, TOTAL)                                       \
    CE_PAIRWISE(T, SUM)                                                                      \
    static int SHIFT(const T *x, T *sh, Py_ssize_t n, Py_ssize_t c)                          \
    {                                                                                        \
        for (Py_ssize_t i = 0; i < n; i++, x += c, sh += c) {                                \
            T m = x[0];                                                                      \
            for (Py_ssize_t j = 0; j < c; j++) {                                             \
                if (!isfinite(x[j]))                                                         \
                    return 0;                                                                \
                if (x[j] > m)                                                                \
                    m = x[j];                                                                \
            }                                                                                \
            for (Py_ssize_t j = 0; j < c; j++)                                               \
                sh[j] = x[j] - m;                                                            \
        }                                                                                    \
        return 1;                                                                            \
    }                                                                                        \
    static void SOFTEN(T *e, T *s, Py_ssize_t n, Py_ssize_t c)                               \
    {                                                                                        \
        for (Py_ssize_t i = 0; i < n; i++, e += c) {                                         \
            T sum = 0;                                                                       \
            sum += SUM(e, c);                                                                \
            s[i] = sum;                                                                      \
            for (Py_ssize_t j = 0; j < c; j++)                                               \
                e[j] = e[j] / sum;                                                           \
        }                                                                                    \
    }                                                                                        \
    static double TOTAL(T *s, const T *sh, const Py_ssize_t *lab, Py_ssize_t n, Py_ssize_t c) \
    {                                                                                        \
        for (Py_ssize_t i = 0; i < n; i++)                                                   \
            s[i] = s[i] - sh[i * c + lab[i]];                                                \
        T total = 0;                                                                         \
        total += SUM(s, n);                                                                  \
        return (double)total;                                                                \
    }
CE_FORWARD_STEPS(float, ce_sum_f4, ce_shift_f4, ce_soften_f4, ce_total_f4)
CE_FORWARD_STEPS(double, ce_sum_f8, ce_shift_f8, ce_soften_f8, ce_total_f8)

/* The grad's C steps in T, `_plain_grad`'s with prob saved (0: a non-finite probability): for
 * `exact` (a power of two, `_exact_scale`) p * w in T, then w subtracted at the labels in T;
 * else (p - one-hot) * w in float64, rounded once to T. */
#define CE_GRAD_STEPS(T, GRAD)                                                               \
    static int GRAD(const T *p, T *d, const Py_ssize_t *lab, Py_ssize_t n, Py_ssize_t c,     \
                    double weight, int exact)                                                \
    {                                                                                        \
        Py_ssize_t size = n * c;                                                             \
        T w = (T)weight;                                                                     \
        for (Py_ssize_t k = 0; k < size; k++) {                                              \
            if (!isfinite(p[k]))                                                             \
                return 0;                                                                    \
            d[k] = exact ? p[k] * w : (T)((double)p[k] * weight);                            \
        }                                                                                    \
        for (Py_ssize_t i = 0; i < n; i++) {                                                 \
            Py_ssize_t k = i * c + lab[i];                                                   \
            d[k] = exact ? d[k] - w : (T)(((double)p[k] - 1.0) * weight);                    \
        }                                                                                    \
        return 1;                                                                            \
    }
CE_GRAD_STEPS(float, ce_grad_f4)
CE_GRAD_STEPS(double, ce_grad_f8)

/* Whether an exact ndarray is C-contiguous and aligned, of `nd` dimensions and dtype `descr`. */
static int
ce_plain_array(PyObject *a, int nd, PyObject *descr, Py_ssize_t itemsize)
{
    if (Py_TYPE(a) != ndarray_type || EL_ARRAY_FIELDS(a)->nd != nd || EL_ARRAY_FIELDS(a)->descr != descr)
        return 0;
    ElArrayFields *f = EL_ARRAY_FIELDS(a);
    Py_ssize_t step = itemsize;
    for (int k = nd - 1; k >= 0; k--) {
        if (f->dimensions[k] != 1 && f->strides[k] != step)
            return 0;
        step *= f->dimensions[k];
    }
    return ((uintptr_t)f->data % (uintptr_t)itemsize) == 0;
}

/* A call of the case above (input, label, axis, reduction, ignore_index, label_smoothing:
 * the kernels' arguments): 1, with *n, *c, the logits' item size in *size, whether the
 * reduction is 'mean' in *mean and the label dtype's index in *kind; 0 for any other. */
static int
ce_plain_call(PyObject *const *args, Py_ssize_t *n, Py_ssize_t *c, Py_ssize_t *size, int *mean, int *kind)
{
    PyObject *input = args[0], *label = args[1], *axis = args[2], *reduction = args[3];
    PyObject *ignore_index = args[4], *smoothing = args[5];
    if (!el_arrays_read || ce_f4 == NULL || Py_TYPE(input) != ndarray_type || Py_TYPE(label) != ndarray_type)
        return 0;
    PyObject *descr = EL_ARRAY_FIELDS(input)->descr;
    *size = descr == ce_f4 ? 4 : descr == ce_f8 ? 8 : 0;
    if (*size == 0 || !ce_plain_array(input, 2, descr, *size))
        return 0;
    *n = EL_ARRAY_FIELDS(input)->dimensions[0];
    *c = EL_ARRAY_FIELDS(input)->dimensions[1];
    if (*n == 0 || *c == 0 || !PyLong_CheckExact(axis) || !PyLong_CheckExact(ignore_index) ||
        !PyUnicode_CheckExact(reduction))
        return 0;
    int ax_overflow, overflow;
    long long ax = PyLong_AsLongLongAndOverflow(axis, &ax_overflow);
    long long ignored = PyLong_AsLongLongAndOverflow(ignore_index, &overflow);
    if (PyErr_Occurred()) {
        PyErr_Clear();
        return 0;
    }
    if (ax_overflow || (ax != -1 && ax != 1) || (!overflow && 0 <= ignored && ignored < *c))
        return 0;
    *mean = PyUnicode_CompareWithASCIIString(reduction, "mean") == 0;
    if (!*mean && PyUnicode_CompareWithASCIIString(reduction, "sum") != 0)
        return 0;
    if (!(PyFloat_CheckExact(smoothing) && PyFloat_AS_DOUBLE(smoothing) == 0.0) &&
        !(PyLong_CheckExact(smoothing) && Py_SIZE(smoothing) == 0))
        return 0;
    ElArrayFields *l = EL_ARRAY_FIELDS(label);
    for (*kind = 0; *kind < ce_n_labels && ce_label_dtypes[*kind] != l->descr; ++*kind)
        ;
    return *kind < ce_n_labels && l->nd == 1 && l->dimensions[0] == *n &&
           ((uintptr_t)l->data % (uintptr_t)ce_label_sizes[*kind]) == 0 &&
           l->strides[0] % ce_label_sizes[*kind] == 0; /* (every label aligned, as ce_read_labels reads them) */
}

/* Reads the n labels (dtype index `kind`) into lab: 1 if all are in [0, c), else 0. */
static int
ce_read_labels(PyObject *label, int kind, Py_ssize_t n, Py_ssize_t c, Py_ssize_t *lab)
{
    ElArrayFields *l = EL_ARRAY_FIELDS(label);
    const char *p = l->data;
    for (Py_ssize_t i = 0; i < n; i++, p += l->strides[0]) {
        unsigned long long v; /* a negative label read as unsigned is huge */
        switch (ce_label_sizes[kind] * 2 + ce_label_signed[kind]) {
        case 2: v = *(const uint8_t *)p; break;
        case 3: v = (unsigned long long)(long long)*(const int8_t *)p; break;
        case 4: v = *(const uint16_t *)p; break;
        case 5: v = (unsigned long long)(long long)*(const int16_t *)p; break;
        case 8: v = *(const uint32_t *)p; break;
        case 9: v = (unsigned long long)(long long)*(const int32_t *)p; break;
        case 16: v = *(const uint64_t *)p; break;
        default: v = (unsigned long long)*(const int64_t *)p; break;
        }
        if (v >= (unsigned long long)c)
            return 0;
        lab[i] = (Py_ssize_t)v;
    }
    return 1;
}

/* Whether the calls below have their `expected` number of arguments (else a TypeError set). */
static int
ce_nargs(Py_ssize_t nargs, Py_ssize_t expected)
{
    if (nargs != expected)
        PyErr_Format(PyExc_TypeError, "cross_entropy's C path takes %zd arguments", expected);
    return nargs == expected;
}

/* The start of both calls below: for a call of the case above, its labels read into *lab
 * (`stack`, or memory to PyMem_Free when *lab is not `stack`), 1; any other call: 0 (nothing
 * to free); -1 on an error. *dims: N, C and the logits' item size. */
static int
ce_begin(PyObject *const *call, Py_ssize_t *dims, int *mean, Py_ssize_t *stack, Py_ssize_t **lab)
{
    int kind;
    *lab = stack;
    if (!ce_plain_call(call, &dims[0], &dims[1], &dims[2], mean, &kind))
        return 0;
    if (dims[0] > CE_STACK && (*lab = PyMem_Malloc(dims[0] * sizeof(Py_ssize_t))) == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    if (ce_read_labels(call[1], kind, dims[0], dims[1], *lab))
        return 1;
    if (*lab != stack)
        PyMem_Free(*lab);
    return 0;
}

/* A new array like `input` (`np.empty_like`), C-contiguous and aligned, or NULL (an error
 * set, or not such an array: none set). */
static PyObject *
ce_new_like(PyObject *input, Py_ssize_t size)
{
    PyObject *a = PyObject_CallOneArg(ce_empty_like, input);
    if (a != NULL && !ce_plain_array(a, 2, EL_ARRAY_FIELDS(input)->descr, size))
        Py_CLEAR(a);
    return a;
}

/* cross_entropy_plain(input, label, axis, reduction, ignore_index, label_smoothing): (loss,
 * prob) as `cross_entropy_and_prob` gives them for the case above, else None. */
static PyObject *
ce_forward(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (!ce_nargs(nargs, 6))
        return NULL;
    Py_ssize_t dims[3], stack[CE_STACK], *lab;
    int mean, begun = ce_begin(args, dims, &mean, stack, &lab);
    if (begun <= 0)
        return begun < 0 ? NULL : Py_NewRef(Py_None);
    Py_ssize_t n = dims[0], c = dims[1], size = dims[2];
    PyObject *input = args[0], *descr = EL_ARRAY_FIELDS(input)->descr;
    PyObject *shifted = NULL, *e = NULL, *s = NULL, *r = NULL, *nobj = NULL, *loss = NULL, *value = NULL;
    int ok = (shifted = ce_new_like(input, size)) != NULL;
    if (ok) {
        void *x = EL_ARRAY_FIELDS(input)->data, *sh = EL_ARRAY_FIELDS(shifted)->data;
        ce_clear_flags();
        ok = (size == 4 ? ce_shift_f4(x, sh, n, c) : ce_shift_f8(x, sh, n, c)) && !ce_flags();
    }
    ok = ok && (e = PyObject_CallOneArg(ce_exp, shifted)) != NULL && ce_plain_array(e, 2, descr, size) &&
         (nobj = PyLong_FromSsize_t(n)) != NULL &&
         (s = PyObject_CallFunctionObjArgs(ce_empty, nobj, descr, NULL)) != NULL && ce_plain_array(s, 1, descr, size);
    if (ok) {
        ce_clear_flags();
        void *ed = EL_ARRAY_FIELDS(e)->data, *sd = EL_ARRAY_FIELDS(s)->data;
        size == 4 ? ce_soften_f4(ed, sd, n, c) : ce_soften_f8(ed, sd, n, c);
        ok = !ce_flags() && (r = PyObject_CallOneArg(ce_log, s)) != NULL && ce_plain_array(r, 1, descr, size);
    }
    if (ok) {
        ce_clear_flags();
        void *ld = EL_ARRAY_FIELDS(r)->data, *sh = EL_ARRAY_FIELDS(shifted)->data;
        double total = size == 4 ? ce_total_f4(ld, sh, lab, n, c) : ce_total_f8(ld, sh, lab, n, c);
        /* the mean in float64, stored in the logits' dtype (`_plain_reduced`) */
        ok = !ce_flags() && (value = PyFloat_FromDouble(mean ? total / (double)n : total)) != NULL;
    }
    if (ok) {
        PyObject *call[2] = {value, descr};
        ok = (loss = PyObject_Vectorcall(np_asarray, call, 1, dtype_kwnames)) != NULL;
    }
    PyObject *result = !ok ? NULL : PyTuple_Pack(2, loss, e);
    if (lab != stack)
        PyMem_Free(lab);
    Py_XDECREF(shifted);
    Py_XDECREF(e);
    Py_XDECREF(s);
    Py_XDECREF(r);
    Py_XDECREF(nobj);
    Py_XDECREF(loss);
    Py_XDECREF(value);
    if (result == NULL && !PyErr_Occurred())
        Py_RETURN_NONE;
    return result;
}

/* cross_entropy_grad_plain(input, label, prob, out_grad, axis, reduction, ignore_index,
 * label_smoothing): what `cross_entropy_grad_saved` gives for the case above with prob the
 * forward's (input's shape and dtype) and out_grad a finite 0-d float32 or float64 array,
 * else None. */
static PyObject *
ce_grad(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (!ce_nargs(nargs, 8))
        return NULL;
    PyObject *input = args[0], *prob = args[2], *out_grad = args[3];
    if (Py_TYPE(out_grad) != ndarray_type || EL_ARRAY_FIELDS(out_grad)->nd != 0)
        Py_RETURN_NONE;
    ElArrayFields *g = EL_ARRAY_FIELDS(out_grad);
    if ((g->descr != ce_f4 && g->descr != ce_f8) || !ce_plain_array(out_grad, 0, g->descr, g->descr == ce_f4 ? 4 : 8))
        Py_RETURN_NONE;
    PyObject *call[6] = {input, args[1], args[4], args[5], args[6], args[7]};
    Py_ssize_t dims[3], stack[CE_STACK], *lab;
    int mean, begun = ce_begin(call, dims, &mean, stack, &lab);
    if (begun <= 0)
        return begun < 0 ? NULL : Py_NewRef(Py_None);
    Py_ssize_t n = dims[0], c = dims[1], size = dims[2];
    /* the mean's weight: out_grad in float64 over n (`_plain_grad`) */
    double weight = g->descr == ce_f4 ? (double)*(const float *)g->data : *(const double *)g->data;
    weight = mean ? weight / (double)n : weight;
    int e2;
    double m2 = frexp(weight, &e2);
    int exact = weight > 0 && isfinite(weight) && m2 == 0.5 && -60 <= e2 && e2 <= 60; /* `_plain_grad`'s */
    PyObject *d = NULL;
    int ok = isfinite(weight) && ce_plain_array(prob, 2, EL_ARRAY_FIELDS(input)->descr, size) &&
             EL_ARRAY_FIELDS(prob)->dimensions[0] == n && EL_ARRAY_FIELDS(prob)->dimensions[1] == c &&
             (d = ce_new_like(input, size)) != NULL;
    if (ok) {
        void *p = EL_ARRAY_FIELDS(prob)->data, *dd = EL_ARRAY_FIELDS(d)->data;
        ce_clear_flags();
        ok = (size == 4 ? ce_grad_f4(p, dd, lab, n, c, weight, exact) : ce_grad_f8(p, dd, lab, n, c, weight, exact)) &&
             !ce_flags();
    }
    if (lab != stack)
        PyMem_Free(lab);
    if (!ok)
        Py_CLEAR(d);
    if (d == NULL && !PyErr_Occurred())
        Py_RETURN_NONE;
    return d;
}

/* setup_cross_entropy(float32, float64, signed, unsigned, exp, log, empty_like, empty, sample):
 * bind the dtypes (the integer ones in tuples) and NumPy's functions; `sample` is
 * `np.empty((3, 4), np.float32)[:, 1:3]`, whose fields must read as ElArrayFields. */
static PyObject *
setup_cross_entropy(PyObject *self, PyObject *args)
{
    PyObject *f4, *f8, *sig, *uns, *exp_, *log_, *empty_like, *empty, *sample;
    if (!PyArg_ParseTuple(args, "OOO!O!OOOOO", &f4, &f8, &PyTuple_Type, &sig, &PyTuple_Type, &uns, &exp_, &log_,
                          &empty_like, &empty, &sample))
        return NULL;
    if (Py_TYPE(sample) != ndarray_type || !el_check_array(sample) || EL_ARRAY_FIELDS(sample)->strides[0] != 16 ||
        EL_ARRAY_FIELDS(sample)->strides[1] != 4 || EL_ARRAY_FIELDS(sample)->descr != f4) {
        PyErr_SetString(PyExc_TypeError, "ndarray's fields are not the ones read");
        return NULL;
    }
    if (PyTuple_GET_SIZE(sig) + PyTuple_GET_SIZE(uns) > 16) {
        PyErr_SetString(PyExc_TypeError, "at most 16 label dtypes");
        return NULL;
    }
    while (ce_n_labels > 0) /* (a second setup replaces the first's) */
        Py_CLEAR(ce_label_dtypes[--ce_n_labels]);
    for (int signed_ = 0; signed_ < 2; signed_++) {
        PyObject *t = signed_ ? sig : uns;
        for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(t); k++) {
            PyObject *dt = PyTuple_GET_ITEM(t, k), *itemsize = PyObject_GetAttrString(dt, "itemsize");
            long v = itemsize == NULL ? -1 : PyLong_AsLong(itemsize);
            Py_XDECREF(itemsize);
            if (v != 1 && v != 2 && v != 4 && v != 8) {
                PyErr_Clear();
                PyErr_SetString(PyExc_TypeError, "label dtypes of 1, 2, 4 or 8 bytes");
                return NULL;
            }
            Py_INCREF(dt);
            ce_label_dtypes[ce_n_labels] = dt;
            ce_label_sizes[ce_n_labels] = (int)v;
            ce_label_signed[ce_n_labels++] = signed_;
        }
    }
    PyObject **slots[] = {&ce_exp, &ce_log, &ce_empty_like, &ce_empty, &ce_f8, &ce_f4};
    PyObject *values[] = {exp_, log_, empty_like, empty, f8, f4};
    for (int k = 0; k < 6; k++) {
        Py_INCREF(values[k]);
        Py_XSETREF(*slots[k], values[k]);
    }
    Py_RETURN_NONE;
}

/* -- module ---------------------------------------------------------------------------- */

static PyMethodDef methods[] = {
    {"recorded", (PyCFunction)(void (*)(void))recorded, METH_FASTCALL | METH_KEYWORDS,
     "grad_node.recorded, in C (see the module's docstring)."},
    {"of_output", (PyCFunction)(void (*)(void))of_output, METH_FASTCALL | METH_KEYWORDS,
     "TensorWrapper.of_output, in C."},
    {"of_edge", (PyCFunction)(void (*)(void))of_edge, METH_FASTCALL | METH_KEYWORDS,
     "TensorWrapper.of_edge, in C."},
    {"meta_of", (PyCFunction)(void (*)(void))meta_of, METH_FASTCALL | METH_KEYWORDS,
     "TensorWrapper.meta_of, in C."},
    {"setup_recorded", setup_recorded, METH_O, "Bind `recorded` to grad_node (its Python function)."},
    {"setup_wrappers", setup_wrappers, METH_O, "Bind the wrappers to tensor_wrapper (its globals())."},
    {"setup_ops", setup_ops, METH_VARARGS, "A context of the op driver for a generated ops module (its globals())."},
    {"op", make_op, METH_VARARGS, "op(function, row): the C version of a generated op (see _accel.ops)."},
    {"run_backward", (PyCFunction)(void (*)(void))el_run_backward, METH_FASTCALL | METH_KEYWORDS,
     "engine_loop.run_backward (and run_grad), in C (see its section)."},
    {"setup_engine_loop", setup_engine_loop, METH_O, "Bind run_backward to engine_loop (its globals())."},
    {"count_deps", (PyCFunction)(void (*)(void))el_count_deps, METH_FASTCALL,
     "engine._count_deps, in C (see its section)."},
    {"setup_count_deps", setup_count_deps, METH_O, "Bind count_deps to engine (its Python _count_deps)."},
    {"backward", (PyCFunction)(void (*)(void))el_backward, METH_FASTCALL | METH_KEYWORDS,
     "backward($module, /, tensors, grad_tensors=None, retain_graph=None, create_graph=False)\n--\n\n"
     "Accumulate the gradients of `tensors` into the `.grad` of every leaf they depend on.\n\n"
     "(engine.backward with its lean one-loss path in C: runtime/_speedups.c)"},
    {"setup_engine_backward", setup_engine_backward, METH_O, "Bind backward to engine (its globals())."},
    {"tensor_backward", (PyCFunction)(void (*)(void))el_tensor_backward, METH_FASTCALL | METH_KEYWORDS,
     "tensor_backward($module, /, self, grad_tensor=None, retain_graph=None, create_graph=False)\n--\n\n"
     "Accumulate d(self)/d(leaf) into every leaf's `.grad` (seed: ones, or grad_tensor).\n\n"
     "(Tensor.backward in C: runtime/_speedups.c)"},
    {"setup_tensor_backward", setup_tensor_backward, METH_O, "Tensor.backward in C, as an instancemethod."},
    {"node_apply", make_node_apply, METH_VARARGS,
     "node_apply(cls, method, row, dtypes, wrap, unpack_data): the C version of a generated node's apply "
     "(see _accel.nodes)."},
    {"inplace_op", make_inplace, METH_VARARGS,
     "inplace_op(context, function, row): the C version of a generated in-place op (see _accel.ops)."},
    {"method", make_method, METH_VARARGS,
     "method(function, row): the C version of a Tensor method that calls a generated op (see _accel.methods)."},
    {"kernel_ufunc", nk_kernel_ufunc, METH_O,
     "kernel_ufunc(fn): the ufunc the op driver calls for kernel `fn` (its as_ufunc), or None."},
    {"grad_property", make_grad_property, METH_O,
     "grad_property(prop): Tensor.grad with its common cases in C (see _accel.grad_property)."},
    {"accumulator_of", (PyCFunction)(void (*)(void))accumulator_of, METH_FASTCALL | METH_KEYWORDS,
     "grad_node.accumulator_of, in C (see its section)."},
    {"edge_to", (PyCFunction)(void (*)(void))edge_to, METH_FASTCALL | METH_KEYWORDS, "grad_node.edge_to, in C."},
    {"wrap", (PyCFunction)(void (*)(void))tensor_wrap, METH_FASTCALL | METH_KEYWORDS, "runtime.tensor.wrap, in C."},
    {"setup_wrap", setup_wrap, METH_O, "Bind wrap to runtime.tensor (its Python wrap)."},
    {"setup_leaf_edges", setup_leaf_edges, METH_VARARGS,
     "Bind accumulator_of and edge_to to grad_node (its Python accumulator_of and edge_to)."},
    {"setup_accumulators", setup_accumulators, METH_O,
     "Let accumulator_of make grad_holder's AccumulateGrad (the module)."},
    {"of_input", (PyCFunction)(void (*)(void))of_input, METH_FASTCALL | METH_KEYWORDS,
     "TensorWrapper.of_input, in C."},
    {"setup_inputs", setup_inputs, METH_O,
     "Bind of_input to tensor_wrapper (its globals()); returns the staticmethod to set."},
    {"node_kernel", node_kernel, METH_VARARGS,
     "node_kernel(name, kernel): a Python grad kernel whose common case the node driver runs in C."},
    {"cross_entropy_plain", (PyCFunction)(void (*)(void))ce_forward, METH_FASTCALL,
     "cross_entropy_and_prob's common case in C, else None (see its section)."},
    {"cross_entropy_grad_plain", (PyCFunction)(void (*)(void))ce_grad, METH_FASTCALL,
     "cross_entropy_grad_saved's common case in C, else None (see its section)."},
    {"setup_cross_entropy", setup_cross_entropy, METH_VARARGS, "Bind the two above (see _accel.cross_entropy)."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_speedups",
    "Optional C versions of opgrad's hottest runtime primitives (see runtime/_accel.py).", -1,
    methods};

#ifndef SPEEDUPS_SOURCE_SHA
#define SPEEDUPS_SOURCE_SHA "unknown"
#endif

PyMODINIT_FUNC
PyInit__speedups(void)
{
    PyObject *numpy = PyImport_ImportModule("numpy");
    if (numpy == NULL)
        return NULL;
    ndarray_type = (PyTypeObject *)PyObject_GetAttrString(numpy, "ndarray");
    np_asarray = PyObject_GetAttrString(numpy, "asarray");
    Py_DECREF(numpy);
    dtype_kwnames = Py_BuildValue("(s)", "dtype");
    if (np_asarray == NULL || dtype_kwnames == NULL)
        return NULL;
    if (ndarray_type == NULL)
        return NULL;
    empty_tuple = PyTuple_New(0);
    zero = PyLong_FromLong(0);
    str_shape = PyUnicode_InternFromString("shape");
    str_dtype = PyUnicode_InternFromString("dtype");
    str_class = PyUnicode_InternFromString("__class__");
    str_active_hooks = PyUnicode_InternFromString("_ACTIVE_HOOKS");
    str_active = PyUnicode_InternFromString("active");
    mapped_errors = PyTuple_Pack(4, PyExc_TypeError, PyExc_ValueError, PyExc_OverflowError, PyExc_MemoryError);
    str_jvp = PyUnicode_InternFromString("_jvp");
    if (!str_active || !mapped_errors || !str_jvp)
        return NULL;
    if (!empty_tuple || !zero || !str_shape || !str_dtype || !str_class || !str_active_hooks)
        return NULL;
    if (PyType_Ready(&Op_Type) < 0 || PyType_Ready(&Ctx_Type) < 0 || PyType_Ready(&NApply_Type) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module);
    /* what the build read: runtime/_accel.py ignores a build older than the source */
    if (m != NULL && PyModule_AddStringConstant(m, "SOURCE_SHA", SPEEDUPS_SOURCE_SHA) < 0)
        Py_CLEAR(m);
    return m;
}
