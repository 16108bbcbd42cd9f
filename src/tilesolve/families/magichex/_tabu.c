/* The swap tabu search of tabu.py, compiled: the same steps, scored swap by swap in C.
 *
 * Each step scores every swap of a movable cell on a wrong line with any other movable cell,
 * delta = 2 d (g_i - g_j) + d^2 (6 - 2 S_ij) (tabu.py's docstring), and makes the best one that
 * is not tabu (or that beats the best cost seen); ties are broken uniformly at random. The line
 * errors e and g = A^T e are kept up to date swap by swap instead of recomputed. After `stall`
 * steps without a new best of the run, `shake` random swaps move the board elsewhere.
 *
 * `step` releases Python's lock while it runs, so several searches (one per thread) run at
 * once: tabu.tabu_race races them.
 */
#include "../../_buffers.h"

#include <stdint.h>

enum {
    S_N, S_L, S_IT, S_COST, S_BEST, S_RUN_BEST, S_SINCE, S_SHAKES, S_TENURE, S_STALL, S_SHAKE,
    S_RNG, S_SCORED, S_MOVABLE, S_STUCK, S_LEN
};

static uint64_t next(uint64_t *s) /* splitmix64 */
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static int64_t below(uint64_t *s, int64_t n) { return (int64_t)(next(s) % (uint64_t)n); }

typedef struct {
    const int64_t *line_of, *line_start, *line_cells, *movable;
    int64_t *v, *e, *g, *tabu, *best, *rows, *st;
    int64_t n, L;
} Tabu;

static int64_t squared(const Tabu *t)
{
    int64_t c = 0;
    for (int64_t l = 0; l < t->L; l++)
        c += t->e[l] * t->e[l];
    return c;
}

/* line l's sum changed by by: its error and the g of each of its cells follow */
static void add_to_line(Tabu *t, int64_t l, int64_t by)
{
    t->e[l] += by;
    for (int64_t k = t->line_start[l]; k < t->line_start[l + 1]; k++)
        t->g[t->line_cells[k]] += by;
}

static void swap_cells(Tabu *t, int64_t i, int64_t j)
{
    int64_t d = t->v[j] - t->v[i];
    t->v[i] += d;
    t->v[j] -= d;
    for (int k = 0; k < 3; k++) {
        int64_t li = t->line_of[3 * i + k], lj = t->line_of[3 * j + k];
        if (li != lj) { /* a line through both keeps its sum */
            add_to_line(t, li, d);
            add_to_line(t, lj, -d);
        }
    }
}

static void shake(Tabu *t, uint64_t *rng)
{
    int64_t *st = t->st, m = st[S_MOVABLE];
    for (int64_t s = 0; s < st[S_SHAKE]; s++) {
        int64_t a = below(rng, m), b = below(rng, m - 1);
        b += b >= a; /* two different movable cells, as numpy's choice without replacement */
        swap_cells(t, t->rows[t->n + a], t->rows[t->n + b]);
    }
}

static int64_t run(Tabu *t, int64_t budget)
{
    int64_t *st = t->st, n = t->n;
    uint64_t rng = (uint64_t)st[S_RNG];
    int64_t done = 0;
    int64_t others = st[S_MOVABLE] - 1;
    for (; done < budget && st[S_COST] > 0; done++) {
        int64_t nrows = 0;
        for (int64_t i = 0; i < n; i++) {
            if (!t->movable[i])
                continue;
            const int64_t *lo = t->line_of + 3 * i;
            if (t->e[lo[0]] || t->e[lo[1]] || t->e[lo[2]])
                t->rows[nrows++] = i;
        }
        int64_t cost = st[S_COST], best_cost = st[S_BEST], it = st[S_IT];
        int64_t top = INT64_MAX, ties = 0, bi = -1, bj = -1;
        for (int64_t r = 0; r < nrows; r++) {
            int64_t i = t->rows[r], vi = t->v[i], gi = t->g[i];
            const int64_t *li = t->line_of + 3 * i;
            const int64_t *tabu = t->tabu + i * n;
            for (int64_t j = 0; j < n; j++) {
                if (j == i || !t->movable[j])
                    continue;
                int64_t d = t->v[j] - vi;
                const int64_t *lj = t->line_of + 3 * j;
                int64_t shared = (li[0] == lj[0]) + (li[1] == lj[1]) + (li[2] == lj[2]);
                int64_t delta = 2 * d * (gi - t->g[j]) + d * d * (6 - 2 * shared);
                if (delta > top)
                    continue;
                if (tabu[j] > it && cost + delta >= best_cost)
                    continue;
                if (delta < top) {
                    top = delta, ties = 1, bi = i, bj = j;
                } else if (below(&rng, ++ties) == 0) {
                    bi = i, bj = j;
                }
            }
        }
        st[S_SCORED] += nrows * others;
        if (bi < 0) { /* everything tabu or frozen (tiny boards) */
            st[S_STUCK] = 1;
            break;
        }
        swap_cells(t, bi, bj);
        cost = st[S_COST] = cost + top;
        int64_t tenure = st[S_TENURE];
        t->tabu[bi * n + bj] = t->tabu[bj * n + bi] = it + tenure + below(&rng, tenure + 1);
        st[S_IT] = it + 1;
        if (cost < st[S_BEST]) {
            st[S_BEST] = cost;
            for (int64_t c = 0; c < n; c++)
                t->best[c] = t->v[c];
        }
        if (cost < st[S_RUN_BEST]) {
            st[S_RUN_BEST] = cost, st[S_SINCE] = 0;
        } else if (++st[S_SINCE] > st[S_STALL]) {
            shake(t, &rng);
            st[S_COST] = st[S_RUN_BEST] = squared(t);
            st[S_SCORED] += 1;
            st[S_SINCE] = 0;
            st[S_SHAKES] += 1;
        }
    }
    st[S_RNG] = (int64_t)rng;
    return done;
}

static PyObject *step(PyObject *self, PyObject *args)
{
    enum { N = 11 };
    PyObject *objs[N];
    long long budget;
    if (!PyArg_ParseTuple(args, "OOOOOOOOOOOL", &objs[0], &objs[1], &objs[2], &objs[3],
                          &objs[4], &objs[5], &objs[6], &objs[7], &objs[8], &objs[9], &objs[10],
                          &budget))
        return NULL;
    /* line_of, line_start, line_cells, movable | v, e, g, tabu, best, rows, state */
    static const int width[N] = {8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8};
    static const int writable[N] = {0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1};
    Py_buffer b[N];
    if (take_buffers(objs, N, width, writable, b) < 0)
        return NULL;
    Tabu t = {b[0].buf, b[1].buf, b[2].buf, b[3].buf, b[4].buf, b[5].buf, b[6].buf,
              b[7].buf, b[8].buf, b[9].buf, b[10].buf, 0, 0};
    int64_t done = 0;
    if (b[10].len / 8 < S_LEN) {
        PyErr_SetString(PyExc_ValueError, "state too short");
        goto fail;
    }
    t.n = t.st[S_N], t.L = t.st[S_L];
    int64_t n = t.n, L = t.L;
    if (n < 2 || L < 1 || b[0].len / 8 < 3 * n || b[1].len / 8 < L + 1 ||
        b[2].len / 8 < t.line_start[L] || b[3].len / 8 < n || b[4].len / 8 < n ||
        b[5].len / 8 < L || b[6].len / 8 < n || b[7].len / 8 < n * n || b[8].len / 8 < n ||
        b[9].len / 8 < 2 * n || t.st[S_MOVABLE] < 2 || t.st[S_TENURE] < 0) {
        PyErr_SetString(PyExc_ValueError, "arrays do not match the state");
        goto fail;
    }
    Py_BEGIN_ALLOW_THREADS
    done = run(&t, budget);
    Py_END_ALLOW_THREADS
    release_buffers(b, N);
    return PyLong_FromLongLong(done);
fail:
    release_buffers(b, N);
    return NULL;
}

static PyMethodDef methods[] = {
    {"step", step, METH_VARARGS, "Run up to budget steps of the swap tabu search."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_tabu",
                                    "Compiled swap tabu search for magic hexagons.", -1,
                                    methods};

PyMODINIT_FUNC PyInit__tabu(void) { return PyModule_Create(&module); }
