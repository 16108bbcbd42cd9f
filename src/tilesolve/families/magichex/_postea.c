/* The generation loop of the magic-hexagon post's EA (post_ea.py), compiled.
 *
 * One call runs up to k generations of: swap two cells in each of the first nc rows of the
 * cloned population (the swap columns are drawn beforehand by numpy's RandomState, so the
 * run is the post's draw for draw), cost every board (sum over lines of |M - line sum|),
 * order the boards as numpy 1.17-1.24 argsort did (legacy_sort.py), and clone the best nc
 * boards p / nc times each. It stops early when a board costs 0.
 */
#include "../../_buffers.h"

#include <stdint.h>
#include <string.h>

#define SMALL 15 /* numpy's SMALL_QUICKSORT */

static void heapsort_idx(const int64_t *v, int64_t *tosort, int64_t n)
{
    int64_t *a = tosort - 1, i, j, l, tmp;
    for (l = n >> 1; l > 0; --l) {
        tmp = a[l];
        for (i = l, j = l << 1; j <= n;) {
            if (j < n && v[a[j]] < v[a[j + 1]])
                j += 1;
            if (v[tmp] < v[a[j]]) {
                a[i] = a[j];
                i = j;
                j += j;
            } else
                break;
        }
        a[i] = tmp;
    }
    for (; n > 1;) {
        tmp = a[n];
        a[n] = a[1];
        n -= 1;
        for (i = 1, j = 2; j <= n;) {
            if (j < n && v[a[j]] < v[a[j + 1]])
                j++;
            if (v[tmp] < v[a[j]]) {
                a[i] = a[j];
                i = j;
                j += j;
            } else
                break;
        }
        a[i] = tmp;
    }
}

#define SWAP(x, y)        \
    do {                  \
        int64_t t_ = (x); \
        (x) = (y);        \
        (y) = t_;         \
    } while (0)

/* numpy's aquicksort_ (introsort) on tosort[0..num) by keys v */
static void legacy_argsort(const int64_t *v, int64_t *tosort, int64_t num)
{
    int64_t *pl = tosort, *pr = tosort + num - 1;
    int64_t *stack[128], **sptr = stack, *pm, *pi, *pj, *pk, vp, vi;
    int depth[128], *psdepth = depth, cdepth = 0;
    for (int64_t u = num; u >>= 1;)
        cdepth++;
    cdepth *= 2;
    for (;;) {
        if (cdepth < 0) {
            heapsort_idx(v, pl, pr - pl + 1);
            goto stack_pop;
        }
        while ((pr - pl) > SMALL) {
            pm = pl + ((pr - pl) >> 1);
            if (v[*pm] < v[*pl])
                SWAP(*pm, *pl);
            if (v[*pr] < v[*pm])
                SWAP(*pr, *pm);
            if (v[*pm] < v[*pl])
                SWAP(*pm, *pl);
            vp = v[*pm];
            pi = pl;
            pj = pr - 1;
            SWAP(*pm, *pj);
            for (;;) {
                do
                    ++pi;
                while (v[*pi] < vp);
                do
                    --pj;
                while (vp < v[*pj]);
                if (pi >= pj)
                    break;
                SWAP(*pi, *pj);
            }
            pk = pr - 1;
            SWAP(*pi, *pk);
            if (pi - pl < pr - pi) {
                *sptr++ = pi + 1;
                *sptr++ = pr;
                pr = pi - 1;
            } else {
                *sptr++ = pl;
                *sptr++ = pi - 1;
                pl = pi + 1;
            }
            *psdepth++ = --cdepth;
        }
        for (pi = pl + 1; pi <= pr; ++pi) {
            vi = *pi;
            vp = v[vi];
            pj = pi;
            pk = pi - 1;
            while (pj > pl && vp < v[*pk])
                *pj-- = *pk--;
            *pj = vi;
        }
    stack_pop:
        if (sptr == stack)
            break;
        pr = *(--sptr);
        pl = *(--sptr);
        cdepth = *(--psdepth);
    }
}

/* state: [best cost so far, number of boards p, genes per board L, lines, line width,
 *         candidates nc, magic sum, rows mutated m]; returns the generations run */
static int64_t run(const int64_t *row_map, const int64_t *swaps, int64_t *pop, int64_t *scratch,
                   int64_t *best_board, int64_t *gen_best, double *gen_mean, int64_t *costs,
                   int64_t *order, int64_t *state, int64_t k)
{
    const int64_t p = state[1], L = state[2], nl = state[3], w = state[4], nc = state[5];
    const int64_t magic = state[6], m = state[7], factor = p / nc;
    for (int64_t g = 0; g < k; g++) {
        const int64_t *a = swaps + g * 2 * m, *b = a + m;
        for (int64_t r = 0; r < m; r++) /* the post's code: m = nc; its prose: m = p */
            SWAP(pop[r * L + a[r]], pop[r * L + b[r]]);
        int64_t total = 0;
        for (int64_t r = 0; r < p; r++) {
            const int64_t *board = pop + r * L;
            int64_t c = 0;
            for (int64_t l = 0; l < nl; l++) {
                int64_t s = 0;
                for (int64_t j = 0; j < w; j++)
                    s += board[row_map[l * w + j]];
                c += s > magic ? s - magic : magic - s;
            }
            costs[r] = c;
            total += c;
            order[r] = r;
        }
        legacy_argsort(costs, order, p);
        int64_t low = costs[order[0]];
        gen_best[g] = low;
        gen_mean[g] = (double)total / (double)p;
        if (low < state[0]) {
            state[0] = low;
            memcpy(best_board, pop + order[0] * L, (size_t)L * sizeof(int64_t));
        }
        if (low == 0)
            return g + 1;
        for (int64_t i = 0; i < nc; i++)
            for (int64_t f = 0; f < factor; f++)
                memcpy(scratch + (i * factor + f) * L, pop + order[i] * L,
                       (size_t)L * sizeof(int64_t));
        memcpy(pop, scratch, (size_t)(p * L) * sizeof(int64_t));
    }
    return k;
}

static PyObject *step(PyObject *self, PyObject *args)
{
    enum { N = 10 };
    PyObject *objs[N];
    long long k;
    if (!PyArg_ParseTuple(args, "OOOOOOOOOOL", &objs[0], &objs[1], &objs[2], &objs[3],
                          &objs[4], &objs[5], &objs[6], &objs[7], &objs[8], &objs[9], &k))
        return NULL;
    /* row_map, swaps, pop, scratch, best_board, gen_best, gen_mean, costs, order, state */
    static const int width[N] = {8, 8, 8, 8, 8, 8, 8, 8, 8, 8};
    static const int writable[N] = {0, 0, 1, 1, 1, 1, 1, 1, 1, 1};
    Py_buffer v[N];
    if (take_buffers(objs, N, width, writable, v) < 0)
        return NULL;
    const int64_t *st = v[9].buf;
    if (v[9].len < 8 * 8) {
        PyErr_SetString(PyExc_ValueError, "state too short");
        goto fail;
    }
    int64_t p = st[1], L = st[2], nl = st[3], w = st[4], nc = st[5], m = st[7];
    if (p < 1 || nc < 1 || p % nc || m < 0 || m > p || v[0].len / 8 < nl * w ||
        v[1].len / 8 < 2 * m * k ||
        v[2].len / 8 < p * L || v[3].len / 8 < p * L || v[4].len / 8 < L || v[5].len / 8 < k ||
        v[6].len / 8 < k || v[7].len / 8 < p || v[8].len / 8 < p) {
        PyErr_SetString(PyExc_ValueError, "arrays do not match the state");
        goto fail;
    }
    int64_t done;
    Py_BEGIN_ALLOW_THREADS
    done = run(v[0].buf, v[1].buf, v[2].buf, v[3].buf, v[4].buf, v[5].buf, v[6].buf, v[7].buf,
               v[8].buf, v[9].buf, k);
    Py_END_ALLOW_THREADS
    release_buffers(v, N);
    return PyLong_FromLongLong(done);
fail:
    release_buffers(v, N);
    return NULL;
}

static PyMethodDef methods[] = {
    {"step", step, METH_VARARGS, "Run up to k generations of the post's EA."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_postea",
                                    "Compiled generation loop of the magic-hexagon post's EA.",
                                    -1, methods};

PyMODINIT_FUNC PyInit__postea(void) { return PyModule_Create(&module); }
