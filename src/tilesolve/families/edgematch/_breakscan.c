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

/* The walk's position, saved for the next step; the step's placements. */
static inline long long keep_walk(int64_t *state, long long d, int mode, long long maxd,
                                  long long nodes)
{
    state[0] = d;
    state[1] = mode;
    state[2] = maxd;
    return nodes;
}

/* After the search at depth *d placed a piece or not: deeper (counting the placement), or
 * back; 1 when the step ends (the budget spent, or the tree done: code -1). */
static inline int advance(int placed, long long *d, long long *maxd, int *mode, long long *nodes,
                          long long budget, int *code)
{
    if (placed) {
        if (++*d > *maxd)
            *maxd = *d;
        *mode = OPEN;
        return ++*nodes >= budget;
    }
    if (*d == 0) {
        *code = -1;
        return 1;
    }
    *mode = BACK;
    return 0;
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
        if (advance(placed, &d, &maxd, &mode, &nodes, budget, code))
            break;
    }
    return keep_walk(t->state, d, mode, maxd, nodes);
}

static PyObject *step(PyObject *self, PyObject *args)
{
    long long budget;
    Py_buffer v[NARRAYS];
    if (take_step_args(args, NARRAYS, NFIXED, v, &budget) < 0)
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

/* The Blackwood rule's loop (`--break-rule blackwood`): at most one break per placement, so
 * no phase 3, and one load per candidate: each bucket's entries are packed records
 *   bits 0-11 piece, 12-17 E colour, 18-23 S colour, 24-29 the colour of the join that may
 *   break (N in phase 1, W in phase 2), the record of candidate idxK[i] at PK[i].
 * A fixed neighbour's demand is one mask and compare per depth (need_mask, need_val on the
 * E and S bits), the border's colour 0 sits in slot n of pe/ps (left/up point there), and the
 * breaks so far in br[d + 1] (br[0] = 0). Measured on Eternity II against the general loop
 * above (lab/scripts/e2_rate.py, lab/pages/hybrid.md "The Blackwood rule").
 *
 * Blackwood's colour-exhaustion rule (`--colour-rule`, colour_rule.py): up to and including
 * depth d the pieces placed must carry at least floor[d] sides of the chosen colours, weight[p]
 * sides on piece p. With the rule on, each bucket lists its candidates by weight, heaviest
 * first, so the first free candidate that fails the floor ends its bucket: every later one
 * fails too (one test per placement, not per candidate). Depths from state[6] on have no floor
 * (0 with the rule off), and neither count nor test.
 *
 * fast_step(arrays, budget) -> (code, placements); arrays (int32 unless said):
 *   0-5   P0, start0, P1, start1, P2, start2 (the buckets of step's phases 0-2)
 *   6,7   left, up: the depth whose E (S) colour keys this depth, n for the border
 *   8,9   need_mask, need_val (per depth)
 *   10,11 allow, exact (per depth, as for step)
 *   12    kind (per depth): the buckets' block of the depth (its cell, or a class of cells
 *         sharing one candidate list, as Blackwood's lists per cell kind)
 *   13,14 weight (per piece), floor (per depth): the colour rule
 *   15-21 pos, lim, phase, piece (per depth), br, pe, ps (n + 1)   [writable]
 *   22    used (per piece)   [writable]
 *   23    cum (n + 1): the chosen colours' sides on depths 0..d-1 at cum[d]   [writable]
 *   24    deep (2n): pos and phase of each depth of the deepest walk so far: copied when the
 *         walk first goes deeper than max_depth, so that the deepest partial board can be
 *         completed when no complete one is found (a copy of d entries at each new depth:
 *         n (n + 1) / 2 in a whole run, nothing beside its placements)   [writable]
 *   25    state (int64): [depth, mode, max_depth, nkeys, ncol, kinds, floor_end]
 */
enum { FAST_ARRAYS = 26, FAST_FIXED = 15 };
#define PIECE(v) ((v) & 0xfff)
#define OTHER(v) (((v) >> 24) & 0x3f)

/* The loop reads each depth's fixed facts from one record and keeps each depth's walk in
 * another (copied from and back to the arrays at each step), so that a placement touches two
 * cache lines of per-depth data instead of sixteen arrays, and the compiler keeps far fewer
 * pointers live: 64.3 -> 86-88 M placements per CPU s on Eternity II (the official
 * search's loop alone, no hole fill, seed 0, 10 CPU s, one core, idle machine). */
typedef struct {
    int32_t left, up, allow, exact; /* left/up: the depth whose E (S) colour keys this one */
    int32_t off0, off1, floor, unused; /* off0/off1: the kind's first bucket, phase 0 / 1-2 */
    uint32_t mask, want;               /* a fixed neighbour's demand */
} Depth;

typedef struct {
    int32_t pos, lim, phase, piece, br, pe, ps, cum; /* br, cum: before this depth */
} Walk;

typedef struct {
    const uint32_t *P[3];
    const int32_t *start[3], *weight;
    const Depth *dp;
    Walk *w;
    uint8_t *used; /* per piece, a byte each (4 cache lines for 256 pieces): +2%, 86 -> 88 M */
    int32_t *deep;
    long long n, floor_end, ncol;
} Fast;

/* Open phase `ph`'s bucket at depth d; 0 when that phase may not be tried there. */
static inline int fast_open(Fast *t, long long d, int ph)
{
    const Depth *q = &t->dp[d];
    Walk *w = t->w;
    if (ph && (q->exact & (ph == 1 ? 2 : 1))) /* the breaks left: fast_place's test */
        return 0;
    int32_t l = w[q->left].pe, u = w[q->up].ps;
    long long b = ph == 0 ? q->off0 + (long long)l * t->ncol + u : q->off1 + (ph == 1 ? l : u);
    w[d].phase = ph;
    w[d].pos = t->start[ph][b];
    w[d].lim = t->start[ph][b + 1];
    return 1;
}

/* The first entry of P[i..end) whose piece is free, meeting the fixed neighbours (m, want)
 * and, from phase 1 on, breaking the other join (its colour is not `key`); end if none. The
 * exact phase skips the third test: its loop is the one most placements come from. */
static inline int32_t fast_scan(const uint32_t *P, int32_t i, int32_t end, const uint8_t *used,
                                uint32_t m, uint32_t want, int ph, uint32_t key)
{
    if (ph == 0) {
        for (; i < end; i++)
            if (!used[PIECE(P[i])] && (P[i] & m) == want)
                return i;
        return end;
    }
    for (; i < end; i++)
        if (!used[PIECE(P[i])] && (P[i] & m) == want && OTHER(P[i]) != key)
            return i;
    return end;
}

/* The next candidate of depth d from its pos on, placed; 0 when its buckets are spent. */
static inline int fast_place(Fast *t, long long d)
{
    const Depth *q = &t->dp[d];
    Walk *w = t->w, *here = &w[d];
    for (;;) {
        int ph = here->phase;
        const uint32_t *P = t->P[ph];
        uint32_t key = ph == 0 ? 0 : ph == 1 ? (uint32_t)w[q->up].ps : (uint32_t)w[q->left].pe;
        int32_t end = here->lim, i = fast_scan(P, here->pos, end, t->used, q->mask, q->want, ph,
                                               key);
        if (i < end && d < t->floor_end) {
            int32_t c = here->cum + t->weight[PIECE(P[i])];
            if (c < q->floor)
                i = end; /* the heaviest free candidate is short: so is the rest */
            else
                here[1].cum = c;
        }
        here->pos = i;
        if (i < end) {
            uint32_t v = P[i];
            here->piece = PIECE(v);
            t->used[PIECE(v)] = 1;
            here->pe = (v >> 12) & 0x3f;
            here->ps = (v >> 18) & 0x3f;
            here[1].br = here->br + (ph != 0);
            return 1;
        }
        if (here->br >= q->allow)
            return 0; /* no break left here: the break phases are not tried (most depths) */
        int next = ph;
        do
            if (++next > 2)
                return 0;
        while (!fast_open(t, d, next));
    }
}

/* The walk of depths 0..d (the one just placed included), kept as the deepest. */
static inline void keep_deepest(Fast *t, long long d)
{
    for (long long k = 0; k <= d; k++) {
        t->deep[k] = t->w[k].pos;
        t->deep[t->n + k] = t->w[k].phase;
    }
}

static long long fast_run(Fast *t, long long budget, int *code, int64_t *state)
{
    long long d = state[0], maxd = state[2], nodes = 0;
    int mode = (int)state[1];
    *code = 0;
    for (;;) {
        if (mode == OPEN) {
            if (d == t->n) {
                mode = BACK;
                *code = 1;
                break;
            }
            fast_open(t, d, 0);
        } else {
            d--;
            t->used[t->w[d].piece] = 0;
            t->w[d].pos++;
        }
        int placed = fast_place(t, d);
        if (placed && d >= maxd)
            keep_deepest(t, d);
        if (advance(placed, &d, &maxd, &mode, &nodes, budget, code))
            break;
    }
    return keep_walk(state, d, mode, maxd, nodes);
}

/* Whether the arrays fit: per-depth ones (br, pe, ps, cum hold one more) and per-piece ones
 * (weight, used) long enough, the floor's end and every depth's kind in range. */
static int fast_arrays_bad(const Py_buffer *v, long long n)
{
    const int32_t *kind = v[12].buf;
    const int64_t *state = v[25].buf;
    if (v[25].len < 7 * 8 || v[24].len / 4 < 2 * n || v[13].len != v[22].len)
        return 1;
    for (int k = 6; k < 24; k++)
        if (k != 13 && k != 22 && v[k].len / 4 < n + (k >= 19))
            return 1;
    if (state[6] < 0 || state[6] > n)
        return 1;
    for (long long d = 0; d < n; d++) /* every kind's buckets there */
        if (kind[d] < 0 || kind[d] >= state[5] || v[1].len / 4 <= (kind[d] + 1) * state[3] ||
            v[3].len / 4 <= (kind[d] + 1) * state[4])
            return 1;
    return 0;
}

/* The per-depth records from the arrays (and the walk, n + 1 records, back with `out`). */
static void fast_records(const Py_buffer *v, long long n, Depth *dp, Walk *w, int out)
{
    int32_t *a[8];
    for (int k = 0; k < 7; k++) /* pos, lim, phase, piece, br, pe, ps */
        a[k] = v[15 + k].buf;
    a[7] = v[23].buf; /* cum */
    for (long long d = 0; d <= n; d++) {
        int32_t *f = &w[d].pos;
        for (int k = 0; k < 8; k++)
            if (d < n || k >= 4) /* pos, lim, phase, piece: n entries */
                out ? (a[k][d] = f[k]) : (f[k] = a[k][d]);
    }
    if (out)
        return;
    const int32_t *r[9];
    for (int k = 0; k < 9; k++) /* left, up, need_mask, need_val, allow, exact, kind, -, floor */
        r[k] = v[6 + k].buf;
    const int64_t *state = v[25].buf;
    for (long long d = 0; d < n; d++)
        dp[d] = (Depth){r[0][d], r[1][d], r[4][d], r[5][d], (int32_t)(r[6][d] * state[3]),
                        (int32_t)(r[6][d] * state[4]), r[8][d], 0, (uint32_t)r[2][d],
                        (uint32_t)r[3][d]};
}

static PyObject *fast_step(PyObject *self, PyObject *args)
{
    long long budget;
    Py_buffer v[FAST_ARRAYS];
    if (take_step_args(args, FAST_ARRAYS, FAST_FIXED, v, &budget) < 0)
        return NULL;
    long long n = v[6].len / 4;
    Depth *dp = NULL;
    Walk *w = NULL;
    if (fast_arrays_bad(v, n)) {
        PyErr_SetString(PyExc_ValueError, "per-depth arrays too short");
        release_buffers(v, FAST_ARRAYS);
        return NULL;
    }
    long long pieces = v[22].len / 4;
    int32_t *used = v[22].buf;
    dp = PyMem_Malloc(sizeof(Depth) * (n + 1));
    w = PyMem_Malloc(sizeof(Walk) * (n + 1));
    uint8_t *used8 = PyMem_Malloc(pieces + 1);
    if (!dp || !w || !used8) {
        PyMem_Free(dp);
        PyMem_Free(w);
        PyMem_Free(used8);
        release_buffers(v, FAST_ARRAYS);
        return PyErr_NoMemory();
    }
    fast_records(v, n, dp, w, 0);
    int64_t *state = v[25].buf;
    for (long long p = 0; p < pieces; p++)
        used8[p] = used[p] != 0;
    Fast t = {.weight = v[13].buf, .dp = dp, .w = w, .used = used8, .deep = v[24].buf,
              .n = n, .floor_end = state[6], .ncol = state[4]};
    for (int k = 0; k < 3; k++) {
        t.P[k] = v[2 * k].buf;
        t.start[k] = v[2 * k + 1].buf;
    }
    int code = 0;
    long long nodes;
    Py_BEGIN_ALLOW_THREADS
    nodes = fast_run(&t, budget < 1 ? 1 : budget, &code, state);
    Py_END_ALLOW_THREADS
    fast_records(v, n, dp, w, 1);
    for (long long p = 0; p < pieces; p++)
        used[p] = used8[p];
    PyMem_Free(dp);
    PyMem_Free(w);
    PyMem_Free(used8);
    release_buffers(v, FAST_ARRAYS);
    return Py_BuildValue("iL", code, nodes);
}

static PyMethodDef methods[] = {
    {"step", step, METH_VARARGS, "Run the break search for at most `budget` placements."},
    {"fast_step", fast_step, METH_VARARGS, "The Blackwood rule's loop, at most `budget` placements."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_breakscan",
                                    "Compiled rowscan search with bounded breaks.", -1, methods};

PyMODINIT_FUNC PyInit__breakscan(void) { return PyModule_Create(&module); }
