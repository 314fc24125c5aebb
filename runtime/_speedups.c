/* Optional C versions of the hottest pure-Python primitives of a recorded op.
 *
 * Each function here is an exact equivalent of one Python function, which stays the
 * definition (and the default): `runtime/_accel.py` binds these in its place only when
 * this extension was built (`python tools/build_speedups.py`) and OPGRAD_PURE is unset.
 *   recorded(cls, data, a[, b])       grad_node.recorded
 *   of_output(t, node)                tensor_wrapper.TensorWrapper.of_output
 *   of_edge(t)                        tensor_wrapper.TensorWrapper.of_edge
 *   meta_of(t)                        tensor_wrapper.TensorWrapper.meta_of
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

static PyObject *empty_tuple, *zero, *str_shape, *str_dtype, *str_class, *str_active_hooks;
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

static inline PyObject *
call_fallback(PyObject *fn, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    return PyObject_Vectorcall(fn, args, nargsf, kwnames);
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

/* -- recorded -------------------------------------------------------------------------- */

/* The edge to one input, as `recorded` spells it for a and b: *n the node (or None), *p
 * its output position; for a, `*shape` becomes the node's shape tuple when equal. */
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
    else {
        Py_DECREF(node);
        node = PyObject_CallOneArg(rec_acc_of, t);
        if (node == NULL)
            return -1;
    }
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

static PyObject *
recorded(PyObject *self, PyObject *const *args, Py_ssize_t nargsf, PyObject *kwnames)
{
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (rec_fallback == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "_speedups.recorded: setup_recorded was not called");
        return NULL;
    }
    if ((kwnames != NULL && PyTuple_GET_SIZE(kwnames)) || nargs < 3 || nargs > 4)
        return call_fallback(rec_fallback, args, nargsf, kwnames);
    PyObject *cls = args[0], *data = args[1], *a = args[2];
    PyObject *b = nargs == 4 ? args[3] : rec_one;
    PyObject *enabled = SLOT(rec_anomaly, anomaly_enabled_off);
    if (!PyType_Check(cls) || !layout_ok(&node_L, (PyTypeObject *)cls) || enabled != Py_False ||
        (a != Py_None && !is_tensor(a)) || (b != Py_None && b != rec_one && !is_tensor(b)) ||
        !layout_ok(&tensor_L, tensor_L.base))
        return call_fallback(rec_fallback, args, nargsf, kwnames);
    PyObject *shape = PyObject_GetAttr(data, str_shape);
    if (shape == NULL) { /* the fallback raises what Python raises */
        PyErr_Clear();
        return call_fallback(rec_fallback, args, nargsf, kwnames);
    }
    PyObject *node = NULL, *na = NULL, *pa = NULL, *nb = NULL, *pb = NULL, *out = NULL;
    PyObject *seq = NULL, *dtype = NULL, *atype = NULL, *result = NULL;
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
    out = PyBaseObject_Type.tp_new(tensor_L.base, empty_tuple, NULL);
    if (out == NULL)
        goto done;
    put(&tensor_L, out, T_DATA, data);
    static const int tensor_nones[] = {T_GRAD, T_VC, T_ACC, T_EXTRA, T_DUAL};
    put_none(&tensor_L, out, tensor_nones, 5);
    put(&tensor_L, out, T_RG, Py_True);
    put(&tensor_L, out, T_NODE, node);
    put(&tensor_L, out, T_POS, zero);
    result = PyTuple_Pack(2, out, node);
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
    return PyObject_GetAttrString(self, "recorded");
}

/* -- the saved-tensor wrappers --------------------------------------------------------- */

/* True while no saved_tensors_hooks context is open (`not _ACTIVE_HOOKS`). */
static inline int
no_active_hooks(void)
{
    PyObject *v = PyDict_GetItemWithError(tw_globals, str_active_hooks);
    return v == zero;
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
    if ((kwnames != NULL && PyTuple_GET_SIZE(kwnames)) || nargs != 1 || !is_tensor(args[0]) ||
        !no_active_hooks())
        goto fallback;
    PyObject *t = args[0];
    PyObject *vc = SLOT(t, tensor_L.offs[T_VC]);
    if (vc == Py_None) {
        Py_INCREF(t);
        return t;
    }
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
    if ((kwnames != NULL && PyTuple_GET_SIZE(kwnames)) || nargs != 1 || !is_tensor(args[0]) ||
        !layout_ok(&meta_L, meta_L.base))
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
    Py_DECREF(numpy);
    if (ndarray_type == NULL)
        return NULL;
    empty_tuple = PyTuple_New(0);
    zero = PyLong_FromLong(0);
    str_shape = PyUnicode_InternFromString("shape");
    str_dtype = PyUnicode_InternFromString("dtype");
    str_class = PyUnicode_InternFromString("__class__");
    str_active_hooks = PyUnicode_InternFromString("_ACTIVE_HOOKS");
    if (!empty_tuple || !zero || !str_shape || !str_dtype || !str_class || !str_active_hooks)
        return NULL;
    PyObject *m = PyModule_Create(&module);
    /* what the build read: runtime/_accel.py ignores a build older than the source */
    if (m != NULL && PyModule_AddStringConstant(m, "SOURCE_SHA", SPEEDUPS_SOURCE_SHA) < 0)
        Py_CLEAR(m);
    return m;
}
