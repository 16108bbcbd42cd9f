/* Rowscan backtracking with a bounded number of mismatches ("breaks"): the inner loop of the
 * break search (breakscan.py), after the record searches for Eternity II, which allow a few
 * breaks late in the scan and none early.
 *
 * Cells are filled in row-major order. At each cell the candidates come in three phases:
 *   0: placements matching both the west and the north colour (bucket cell, W, N),
 *   1: placements matching the west colour only (bucket cell, W; those also matching N skipped),
 *   2: placements matching the north colour only (bucket cell, N; those also matching W skipped),
 *   3: placements matching neither (bucket cell; the others skipped): two breaks at once.
 * A placement costs one break per join it mismatches (west, north); next to a fixed piece
 * placed later in the scan it must meet that piece's colour exactly (east, south). allow[d]
 * bounds the breaks placed up to and including depth d (the schedule; the caller lowers it to
 * demand better boards); exact[d] says which joins of depth d may not break (bit 0 west,
 * bit 1 north). Piece groups (Verhaard's eii, eii_groups.py): flags[p] marks piece p good (1),
 * precious (2) or useless (4); up to and including depth d at most gmax[d] good and pmax[d]
 * precious pieces may be placed, and at least umin[d] useless ones must be.
 *
 * step(arrays, budget) -> (code, placements); arrays is a tuple of int32 arrays
 *   0-4   cpiece, cw, cn, ce, cs: candidate piece (0-based) and colours W, N, E, S
 *   5,6   start0, idx0: bucket (cell * nkeys + W * ncol + N) -> idx0[start0[b]..start0[b+1])
 *   7,8   start1, idx1: bucket (cell * ncol + W)
 *   9,10  start2, idx2: bucket (cell * ncol + N)
 *   11,12 start3, idx3: bucket (cell)
 *   13,14 left, up: the cell whose east (south) colour keys this cell, or -1 (colour 0)
 *   15,16 need_e, need_s: colour a fixed piece to the east (south) demands, or -1
 *   17    allow[depth] (cumulative breaks allowed)
 *   18    exact[depth]: joins that must match (bit 0 west, bit 1 north)
 *   19    flags[piece]: good 1, precious 2, useless 4
 *   20-22 gmax, pmax, umin [depth]
 *   23-30 pos, lim, phase, cur, br, pe, ps (per depth), used (per piece)   [writable]
 *   31-33 cg, cp, cu (per depth): good, precious, useless pieces on depths 0..d   [writable]
 *   34    state (int64): [depth, mode, max_depth, nkeys, ncol]
 *   code: 1 a full board (state left ready to find the next), 0 budget spent, -1 tree done
 */
#include "../../_buffers.h"
#include <stdint.h>

enum { OPEN = 0, SCAN = 1, BACK = 2 };
enum { NARRAYS = 35, NFIXED = 17, NPHASES = 4 };

typedef struct {
    const int32_t *cpiece, *cw, *cn, *ce, *cs, *start[NPHASES], *idx[NPHASES], *left, *up, *need_e,
        *need_s, *allow, *exact, *flags, *gmax, *pmax, *umin;
    int32_t *pos, *lim, *phase, *cur, *br, *pe, *ps, *used, *cg, *cp, *cu;
    int64_t *state;
    long long ncells;
} Tables;

static inline long long bucket(const Tables *t, long long d, int ph, int32_t l, int32_t u)
{
    long long nkeys = t->state[3], ncol = t->state[4];
    if (ph == 0)
        return d * nkeys + (long long)l * ncol + u;
    if (ph == 3)
        return d;
    return d * ncol + (ph == 1 ? l : u);
}

static long long run(Tables *t, long long budget, int *code)
{
    long long d = t->state[0];
    int mode = (int)t->state[1];
    long long maxd = t->state[2];
    long long nodes = 0;
    *code = 0;
    for (;;) {
        int32_t l = 0, u = 0;
        if (mode == BACK) {
            d--;
            t->used[t->cpiece[t->cur[d]]] = 0;
            t->pos[d]++;
        }
        if (d < t->ncells) {
            l = t->left[d] < 0 ? 0 : t->pe[t->left[d]];
            u = t->up[d] < 0 ? 0 : t->ps[t->up[d]];
        }
        if (mode == OPEN) {
            if (d == t->ncells) {
                mode = BACK;
                *code = 1;
                break;
            }
            long long b = bucket(t, d, 0, l, u);
            t->phase[d] = 0;
            t->pos[d] = t->start[0][b];
            t->lim[d] = t->start[0][b + 1];
        }
        int32_t base = d > 0 ? t->br[d - 1] : 0, cap = t->allow[d], ex = t->exact[d];
        int32_t g0 = d > 0 ? t->cg[d - 1] : 0, p0 = d > 0 ? t->cp[d - 1] : 0,
                u0 = d > 0 ? t->cu[d - 1] : 0;
        int placed = 0;
        for (;;) {
            int ph = t->phase[d];
            const int32_t *idx = t->idx[ph];
            int32_t i = t->pos[d], end = t->lim[d];
            for (; i < end; i++) {
                int32_t c = idx[i];
                if (t->used[t->cpiece[c]])
                    continue;
                int wm = t->cw[c] != l, nm = t->cn[c] != u;
                if ((ph == 1 && !nm) || (ph == 2 && !wm) || (ph == 3 && (!wm || !nm)))
                    continue; /* met already in an earlier phase */
                if ((t->need_e[d] >= 0 && t->ce[c] != t->need_e[d]) ||
                    (t->need_s[d] >= 0 && t->cs[c] != t->need_s[d]))
                    continue; /* a fixed neighbour is met exactly */
                int cost = wm + nm;
                if (base + cost > cap || (wm && (ex & 1)) || (nm && (ex & 2)))
                    continue;
                int32_t f = t->flags[t->cpiece[c]], g = g0 + (f & 1), p = p0 + ((f >> 1) & 1),
                        u = u0 + ((f >> 2) & 1);
                if (g > t->gmax[d] || p > t->pmax[d] || u < t->umin[d])
                    continue; /* the piece groups' gates */
                t->cg[d] = g;
                t->cp[d] = p;
                t->cu[d] = u;
                t->pos[d] = i;
                t->cur[d] = c;
                t->used[t->cpiece[c]] = 1;
                t->pe[d] = t->ce[c];
                t->ps[d] = t->cs[c];
                t->br[d] = base + cost;
                placed = 1;
                break;
            }
            if (placed || ph == NPHASES - 1 || base + (ph == 2 ? 2 : 1) > cap)
                break;
            long long b = bucket(t, d, ph + 1, l, u);
            t->phase[d] = ph + 1;
            t->pos[d] = t->start[ph + 1][b];
            t->lim[d] = t->start[ph + 1][b + 1];
        }
        if (placed) {
            d++;
            if (d > maxd)
                maxd = d;
            mode = OPEN;
            if (++nodes >= budget)
                break;
        } else if (d == 0) {
            *code = -1;
            break;
        } else {
            mode = BACK;
        }
    }
    t->state[0] = d;
    t->state[1] = mode;
    t->state[2] = maxd;
    return nodes;
}

static PyObject *step(PyObject *self, PyObject *args)
{
    PyObject *tuple;
    long long budget;
    if (!PyArg_ParseTuple(args, "O!L", &PyTuple_Type, &tuple, &budget))
        return NULL;
    Py_buffer v[NARRAYS];
    if (take_state_tuple(tuple, NARRAYS, NFIXED, v) < 0)
        return NULL;
    Tables t;
    const int32_t **ro[] = {&t.cpiece, &t.cw, &t.cn, &t.ce, &t.cs, &t.start[0], &t.idx[0],
                            &t.start[1], &t.idx[1], &t.start[2], &t.idx[2], &t.start[3],
                            &t.idx[3], &t.left, &t.up,
                            &t.need_e, &t.need_s, &t.allow, &t.exact, &t.flags, &t.gmax,
                            &t.pmax, &t.umin};
    for (int k = 0; k < 23; k++)
        *ro[k] = v[k].buf;
    int32_t **rw[] = {&t.pos, &t.lim, &t.phase, &t.cur, &t.br, &t.pe, &t.ps, &t.used,
                      &t.cg, &t.cp, &t.cu};
    for (int k = 0; k < 11; k++)
        *rw[k] = v[23 + k].buf;
    t.state = v[34].buf;
    t.ncells = v[13].len / 4;
    for (int k = 13; k < 34; k++) { /* per-cell arrays, the per-piece ones (19, 30) aside */
        if (k != 19 && k != 30 && v[k].len / 4 < t.ncells) {
            PyErr_SetString(PyExc_ValueError, "per-cell arrays too short");
            release_buffers(v, NARRAYS);
            return NULL;
        }
    }
    if (v[34].len < 5 * 8) {
        PyErr_SetString(PyExc_ValueError, "state vector too short");
        release_buffers(v, NARRAYS);
        return NULL;
    }
    int code = 0;
    long long nodes;
    Py_BEGIN_ALLOW_THREADS
    nodes = run(&t, budget < 1 ? 1 : budget, &code);
    Py_END_ALLOW_THREADS
    release_buffers(v, NARRAYS);
    return Py_BuildValue("iL", code, nodes);
}

static PyMethodDef methods[] = {
    {"step", step, METH_VARARGS, "Run the break search for at most `budget` placements."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_breakscan",
                                    "Compiled rowscan search with bounded breaks.", -1, methods};

PyMODINIT_FUNC PyInit__breakscan(void) { return PyModule_Create(&module); }
