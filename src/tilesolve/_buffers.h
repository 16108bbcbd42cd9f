/* Borrowing numpy arrays in the compiled search cores (_rowscan, _loopscan, _linewalk).
 *
 * Each core's `step` receives its whole search state as numpy arrays owned by Python. These
 * helpers take their buffers, read-only or writable, checking the item width of each, and
 * give every buffer back on failure, so a core only states which arrays it expects.
 */
#ifndef TILESOLVE_BUFFERS_H
#define TILESOLVE_BUFFERS_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

static inline void release_buffers(Py_buffer *v, int n)
{
    for (int k = 0; k < n; k++)
        PyBuffer_Release(&v[k]);
}

/* Take the buffers of objs[0..n): width[k] bytes per item, writable when writable[k].
 * Returns 0, or -1 with a Python error set and nothing held. */
static inline int take_buffers(PyObject *const *objs, int n, const int *width, const int *writable,
                        Py_buffer *v)
{
    for (int k = 0; k < n; k++) {
        int flags = writable[k] ? (PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) : PyBUF_C_CONTIGUOUS;
        if (PyObject_GetBuffer(objs[k], &v[k], flags) < 0) {
            release_buffers(v, k);
            return -1;
        }
        if (v[k].itemsize != width[k]) {
            PyErr_Format(PyExc_TypeError, "array %d: expected %d-byte items", k, width[k]);
            release_buffers(v, k + 1);
            return -1;
        }
    }
    return 0;
}

/* The Tantrix cores' layout: a tuple of n arrays, the first `fixed` read-only int32, the rest
 * writable int32 but the last (the int64 state vector). */
static inline int take_state_tuple(PyObject *tuple, int n, int fixed, Py_buffer *v)
{
    if (PyTuple_GET_SIZE(tuple) != n) {
        PyErr_Format(PyExc_ValueError, "expected %d arrays, got %zd", n,
                     PyTuple_GET_SIZE(tuple));
        return -1;
    }
    int width[64], writable[64];
    if (n > 64) {
        PyErr_SetString(PyExc_ValueError, "too many arrays");
        return -1;
    }
    for (int k = 0; k < n; k++) {
        width[k] = k == n - 1 ? 8 : 4;
        writable[k] = k >= fixed;
    }
    return take_buffers(&PyTuple_GET_ITEM(tuple, 0), n, width, writable, v);
}

/* The arguments of a core's `step(arrays, budget)`: the budget, and the tuple's n buffers
 * taken into v as take_state_tuple takes them. 0, or -1 with a Python error set. */
static inline int take_step_args(PyObject *args, int n, int fixed, Py_buffer *v,
                                 long long *budget)
{
    PyObject *tuple;
    if (!PyArg_ParseTuple(args, "O!L", &PyTuple_Type, &tuple, budget))
        return -1;
    return take_state_tuple(tuple, n, fixed, v);
}

#endif
