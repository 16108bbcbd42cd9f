/* Simulated annealing over swaps and rotations for the most matched joins (anneal.py).
 *
 * A move either swaps the pieces of two movable cells of one class (corner, border, inner),
 * each piece turned to its best rotation at its new cell (ties broken at random), or turns
 * one piece to its best other rotation. The change in matched joins is counted on the joins
 * of the one or two cells only; a move of equal score is always taken (walks across the
 * plateaus of Eternity II), a worse one with probability exp(delta / T).
 *
 * Two more moves, each a share of the others (0 by default, options of the LNS lane): a 3-cycle
 * moves the pieces of three cells of one class round, each turned to its best rotation
 * (`triples`, a share of the swaps); a block turn moves the four pieces of a 2x2 block of movable
 * inner cells one cell round, each turned a quarter with it, which keeps the block's four inner
 * joins (`blocks`, a share of the moves from an inner cell).
 *
 * Guided by join weights (an eleventh array, `weights`, int32 [cells * 4]): the matched join
 * across side s of cell c is then worth weights[c * 4 + s] = (w << 8) | 1, w in units of 1/unit
 * of a join, and the Metropolis rule and the best rotations follow the weighted sum; the low byte
 * still counts the joins, so the score and best board stay the plain matched joins (anneal.py
 * raises the weight of joins that stay mismatched: guided local search).
 *
 * run(arrays, moves, temperature, focus[, triples, blocks, unit]) -> (score, best, accepted);
 * arrays:
 *   0 col    int32 [pieces * 16]: colour of piece p turned r on side s at (p * 4 + r) * 4 + s
 *   1 nb     int32 [cells * 4]: neighbour across side s (N, E, S, W), or -1 at the frame
 *   2 amask  uint8 [cells * pieces]: bit r set when piece p turned r may stand at the cell
 *   3 movable int32 [m]: the cells whose piece may move (fixed pieces are left out)
 *   4 klass  int32 [cells]: 0 corner, 1 border, 2 inner
 *   5,6 pcs, rts  int32 [cells]: the current board                               [writable]
 *   7,8 bpcs, brts int32 [cells]: the best board met                             [writable]
 *   9 state  int64 [4]: rng state, current score, best score, pieces              [writable]
 *  10 weights int32 [cells * 4]: packed join weights (optional, see above)
 * focus: the chance that a first cell with no mismatched join is drawn again (up to 4 times),
 * so most moves start where the board is broken.
 */
#include "../../_buffers.h"
#include <math.h>
#include <stdint.h>
#include <string.h>

enum { NARRAYS = 10, NFIXED = 5, MAXCELLS = 4096, MAXLOSS = 4096 };

/* Every function below takes W, 1 when the joins are weighted: `run` is compiled once for each
 * value with everything inlined, so the unweighted default pays nothing for the weights. */
#if defined(__GNUC__)
#define INLINE static inline __attribute__((always_inline))
#else
#define INLINE static inline
#endif

typedef struct {
    const int32_t *col, *nb, *movable, *klass, *w;
    const uint8_t *amask;
    int32_t *pcs, *rts, *bpcs, *brts;
    int64_t *state;
    long long ncells, npieces, nmov;
} Tables;

static inline uint64_t next(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *s = x;
}

static inline uint32_t below(uint64_t *s, uint32_t n) { return (uint32_t)((next(s) >> 32) % n); }

static inline int32_t shown(const Tables *t, long long cell, int side)
{
    return t->col[((long long)t->pcs[cell] * 4 + t->rts[cell]) * 4 + side];
}

/* the packed value of a matched join across a side of a cell (1 unweighted) */
INLINE int32_t weight(const Tables *t, long long side, int W) { return W ? t->w[side] : 1; }

/* matched joins of one cell (their packed weights when weighted) */
INLINE int cell_score(const Tables *t, long long c, int W)
{
    int k = 0;
    for (int s = 0; s < 4; s++) {
        int32_t o = t->nb[c * 4 + s];
        if (o < 0)
            continue;
        int32_t a = shown(t, c, s);
        k += -(int32_t)(a != 0 && a == shown(t, o, (s + 2) & 3)) & weight(t, c * 4 + s, W);
    }
    return k;
}

/* the change from packed sum `before` to `after`: returns the weighted change, the change in
 * matched joins in *real */
INLINE int change(int before, int after, int *real, int W)
{
    if (!W)
        return *real = after - before;
    *real = (after & 255) - (before & 255);
    return (after >> 8) - (before >> 8);
}

static inline int adjacent(const Tables *t, long long a, long long b)
{
    for (int s = 0; s < 4; s++)
        if (t->nb[a * 4 + s] == b)
            return s;
    return -1;
}

/* 1 (its packed weight) when the join of a with its neighbour across `side` matches (side -1:
 * no join) */
INLINE int joined(const Tables *t, long long a, long long b, int side, int W)
{
    if (side < 0)
        return 0;
    int32_t x = shown(t, a, side);
    return -(int32_t)(x != 0 && x == shown(t, b, (side + 2) & 3)) & weight(t, a * 4 + side, W);
}

/* joins touching a or b, each counted once */
INLINE int pair_score(const Tables *t, long long a, long long b, int side, int W)
{
    return cell_score(t, a, W) + cell_score(t, b, W) - joined(t, a, b, side, W);
}

/* joins touching a, b or c, each counted once */
INLINE int trio_score(const Tables *t, long long a, long long b, long long c, int W)
{
    return cell_score(t, a, W) + cell_score(t, b, W) + cell_score(t, c, W) -
           joined(t, a, b, adjacent(t, a, b), W) - joined(t, b, c, adjacent(t, b, c), W) -
           joined(t, a, c, adjacent(t, a, c), W);
}

/* turn the piece at c to its best allowed rotation (ties at random); returns its score */
INLINE int best_turn(const Tables *t, long long c, uint64_t *rng, int skip, int W)
{
    uint8_t mask = t->amask[c * t->npieces + t->pcs[c]];
    int best = -1, ties = 0, pick = t->rts[c];
    for (int r = 0; r < 4; r++) {
        if (!(mask >> r & 1) || r == skip)
            continue;
        t->rts[c] = r;
        int k = cell_score(t, c, W);
        if (k > best) {
            best = k, pick = r, ties = 1;
        } else if (k == best && below(rng, ++ties) == 0) {
            pick = r;
        }
    }
    t->rts[c] = pick;
    return best;
}

/* both rotations at once for adjacent cells (16 pairs at most) */
INLINE void best_pair_turns(const Tables *t, long long a, long long b, int side, uint64_t *rng,
                            int W)
{
    uint8_t ma = t->amask[a * t->npieces + t->pcs[a]], mb = t->amask[b * t->npieces + t->pcs[b]];
    int best = -1, ties = 0, pa = t->rts[a], pb = t->rts[b];
    for (int ra = 0; ra < 4; ra++) {
        if (!(ma >> ra & 1))
            continue;
        for (int rb = 0; rb < 4; rb++) {
            if (!(mb >> rb & 1))
                continue;
            t->rts[a] = ra, t->rts[b] = rb;
            int k = pair_score(t, a, b, side, W);
            if (k > best) {
                best = k, pa = ra, pb = rb, ties = 1;
            } else if (k == best && below(rng, ++ties) == 0) {
                pa = ra, pb = rb;
            }
        }
    }
    t->rts[a] = pa, t->rts[b] = pb;
}

/* accept[0] holds the largest loss with a chance above 0 */
static inline int taken(uint64_t *rng, int delta, const uint64_t *accept)
{
    return delta >= 0 || (delta >= -(int)accept[0] && (next(rng) >> 32) < accept[-delta]);
}

/* moves a piece of a to b, b's to c and c's to a, each turned to its best rotation in turn;
 * kept by the Metropolis rule, else undone; returns the change in matched joins (0 undone) */
INLINE int cycle3(const Tables *t, long long a, long long b, long long c, uint64_t *rng,
                  const uint64_t *accept, int *kept, int W)
{
    int32_t pa = t->pcs[a], pb = t->pcs[b], pc = t->pcs[c];
    int32_t ra = t->rts[a], rb = t->rts[b], rc = t->rts[c];
    int before = trio_score(t, a, b, c, W);
    t->pcs[b] = pa, t->pcs[c] = pb, t->pcs[a] = pc;
    best_turn(t, a, rng, -1, W);
    best_turn(t, b, rng, -1, W);
    best_turn(t, c, rng, -1, W);
    int real, delta = change(before, trio_score(t, a, b, c, W), &real, W);
    *kept = taken(rng, delta, accept);
    if (*kept)
        return real;
    t->pcs[a] = pa, t->pcs[b] = pb, t->pcs[c] = pc;
    t->rts[a] = ra, t->rts[b] = rb, t->rts[c] = rc;
    return 0;
}

/* the top-left cell of the 2x2 block that holds a at its corner (dx, dy of 0 or 1 step west and
 * north), or -1 when a cell of that block is off the board, fixed or not inner */
static long long block_at(const Tables *t, const uint8_t *inner, long long a, int west, int north)
{
    long long c = a;
    if (west && c >= 0)
        c = t->nb[c * 4 + 3];
    if (north && c >= 0)
        c = t->nb[c * 4 + 0];
    if (c < 0 || !inner[c])
        return -1;
    long long b = t->nb[c * 4 + 1], e = t->nb[c * 4 + 2];
    if (b < 0 || e < 0 || !inner[b] || !inner[e])
        return -1;
    long long d = t->nb[b * 4 + 2];
    return d >= 0 && inner[d] ? c : -1;
}

/* turns the 2x2 block at top-left c a quarter clockwise (cw) or anticlockwise: each piece moves
 * one cell round and turns with it, so the block's four inner joins stay as they were and only
 * its eight outer ones change; kept by the Metropolis rule, else undone. Returns the change. */
INLINE int turn_block(const Tables *t, long long c, int cw, uint64_t *rng, const uint64_t *accept,
                      int *kept, int W)
{
    long long q[4] = {c, t->nb[c * 4 + 1], 0, t->nb[c * 4 + 2]}; /* clockwise order */
    q[2] = t->nb[q[1] * 4 + 2];
    int32_t p[4], r[4];
    for (int k = 0; k < 4; k++)
        p[k] = t->pcs[q[k]], r[k] = t->rts[q[k]];
    int before = 0, after = 0;
    for (int k = 0; k < 4; k++)
        before += cell_score(t, q[k], W) - joined(t, q[k], q[(k + 1) & 3],
                                               adjacent(t, q[k], q[(k + 1) & 3]), W);
    for (int k = 0; k < 4; k++) {
        int to = cw ? (k + 1) & 3 : (k + 3) & 3;
        t->pcs[q[to]] = p[k];
        t->rts[q[to]] = (r[k] + (cw ? 1 : 3)) & 3;
    }
    int allowed = 1;
    for (int k = 0; k < 4; k++)
        allowed &= t->amask[q[k] * t->npieces + t->pcs[q[k]]] >> t->rts[q[k]] & 1;
    int real = 0;
    if (allowed) {
        for (int k = 0; k < 4; k++)
            after += cell_score(t, q[k], W) - joined(t, q[k], q[(k + 1) & 3],
                                                  adjacent(t, q[k], q[(k + 1) & 3]), W);
        *kept = taken(rng, change(before, after, &real, W), accept);
    } else {
        *kept = 0;
    }
    if (*kept)
        return real;
    for (int k = 0; k < 4; k++)
        t->pcs[q[k]] = p[k], t->rts[q[k]] = r[k];
    return 0;
}

INLINE long long run(Tables *t, long long moves, double temp, double focus, double triples,
                     double blocks, int unit, int W)
{
    uint64_t rng = (uint64_t)t->state[0] | 1;
    long long score = t->state[1], best = t->state[2], accepted = 0;
    /* acceptance thresholds of a loss of 1..8 joins (in weight units: up to MAXLOSS - 1), as
     * fractions of 2^32; accept[0]: the largest loss that may be taken */
    uint64_t accept[MAXLOSS] = {0};
    int most = W ? MAXLOSS - 1 : 8;
    accept[0] = most;
    for (int d = 1; d <= most; d++) {
        accept[d] = temp > 0 ? (uint64_t)(exp(-d / (temp * unit)) * 4294967296.0) : 0;
        if (W && !accept[d] && accept[0] == (uint64_t)most)
            accept[0] = d - 1; /* losses beyond have no chance: skip their draw */
    }
    uint64_t refocus = (uint64_t)(focus * 4294967296.0);
    uint64_t tri = (uint64_t)(triples * 4294967296.0);
    uint64_t blk = (uint64_t)(blocks * 4294967296.0);
    /* the movable inner cells, for the 2x2 blocks */
    uint8_t inner[MAXCELLS] = {0};
    for (long long i = 0; i < t->nmov; i++)
        inner[t->movable[i]] = t->klass[t->movable[i]] == 2;
    /* the movable cells of each class */
    int32_t byclass[3][MAXCELLS];
    long long count[3] = {0, 0, 0};
    for (long long i = 0; i < t->nmov; i++) {
        int32_t c = t->movable[i];
        byclass[t->klass[c]][count[t->klass[c]]++] = c;
    }
    for (long long m = 0; m < moves; m++) {
        long long a = t->movable[below(&rng, (uint32_t)t->nmov)];
        for (int k = 0; k < 4 && (cell_score(t, a, W) & (W ? 255 : -1)) ==
                                     4 - (t->klass[a] == 0 ? 2 : t->klass[a] == 1)
                        && (next(&rng) >> 32) < refocus; k++)
            a = t->movable[below(&rng, (uint32_t)t->nmov)];
        int kl = t->klass[a];
        int32_t oa = t->rts[a], pa = t->pcs[a];
        int turn = kl == 2 && (count[kl] < 2 || below(&rng, 8) == 0);
        if (kl == 2 && blk && (next(&rng) >> 32) < blk) {
            uint32_t way = below(&rng, 8);
            long long c = block_at(t, inner, a, way & 1, way >> 1 & 1);
            if (c < 0)
                continue;
            int kept;
            int delta = turn_block(t, c, way >> 2 & 1, &rng, accept, &kept, W);
            if (!kept)
                continue;
            score += delta, accepted++;
        } else if (!turn && count[kl] >= 3 && tri && (next(&rng) >> 32) < tri) {
            long long b = a, c = a;
            while (b == a)
                b = byclass[kl][below(&rng, (uint32_t)count[kl])];
            while (c == a || c == b)
                c = byclass[kl][below(&rng, (uint32_t)count[kl])];
            int kept;
            int delta = cycle3(t, a, b, c, &rng, accept, &kept, W);
            if (!kept)
                continue;
            score += delta, accepted++;
        } else if (turn) {
            int before = cell_score(t, a, W);
            int real, delta = change(before, best_turn(t, a, &rng, oa, W), &real, W);
            if (taken(&rng, delta, accept)) {
                score += real, accepted++;
            } else {
                t->rts[a] = oa;
                continue;
            }
        } else {
            if (count[kl] < 2)
                continue;
            long long b = a;
            while (b == a)
                b = byclass[kl][below(&rng, (uint32_t)count[kl])];
            int32_t ob = t->rts[b], pb = t->pcs[b];
            int side = adjacent(t, a, b);
            int before = pair_score(t, a, b, side, W);
            t->pcs[a] = pb, t->pcs[b] = pa;
            if (side >= 0) {
                best_pair_turns(t, a, b, side, &rng, W);
            } else {
                best_turn(t, a, &rng, -1, W);
                best_turn(t, b, &rng, -1, W);
            }
            int real, delta = change(before, pair_score(t, a, b, side, W), &real, W);
            if (taken(&rng, delta, accept)) {
                score += real, accepted++;
            } else {
                t->pcs[a] = pa, t->rts[a] = oa, t->pcs[b] = pb, t->rts[b] = ob;
                continue;
            }
        }
        if (score > best) {
            best = score;
            memcpy(t->bpcs, t->pcs, sizeof(int32_t) * t->ncells);
            memcpy(t->brts, t->rts, sizeof(int32_t) * t->ncells);
        }
    }
    t->state[0] = (int64_t)rng, t->state[1] = score, t->state[2] = best;
    return accepted;
}

static PyObject *py_run(PyObject *self, PyObject *args)
{
    PyObject *tuple;
    long long moves;
    double temp, focus, triples = 0.0, blocks = 0.0;
    int unit = 1;
    if (!PyArg_ParseTuple(args, "O!Ldd|ddi", &PyTuple_Type, &tuple, &moves, &temp, &focus,
                          &triples, &blocks, &unit))
        return NULL;
    int narrays = (int)PyTuple_GET_SIZE(tuple);
    if (narrays != NARRAYS && narrays != NARRAYS + 1) {
        PyErr_Format(PyExc_ValueError, "expected %d arrays, or %d with weights", NARRAYS,
                     NARRAYS + 1);
        return NULL;
    }
    if (unit < 1) {
        PyErr_SetString(PyExc_ValueError, "unit must be at least 1");
        return NULL;
    }
    int width[NARRAYS + 1] = {4, 4, 1, 4, 4, 4, 4, 4, 4, 8, 4};
    int writable[NARRAYS + 1];
    for (int k = 0; k <= NARRAYS; k++)
        writable[k] = k >= NFIXED && k < NARRAYS;
    Py_buffer v[NARRAYS + 1];
    if (take_buffers(&PyTuple_GET_ITEM(tuple, 0), narrays, width, writable, v) < 0)
        return NULL;
    Tables t;
    t.col = v[0].buf, t.nb = v[1].buf, t.amask = v[2].buf, t.movable = v[3].buf;
    t.klass = v[4].buf;
    t.pcs = v[5].buf, t.rts = v[6].buf, t.bpcs = v[7].buf, t.brts = v[8].buf;
    t.state = v[9].buf;
    t.ncells = v[4].len / 4, t.nmov = v[3].len / 4;
    int weighted = narrays > NARRAYS;
    t.w = weighted ? v[NARRAYS].buf : NULL;
    t.npieces = v[9].len >= 4 * 8 ? t.state[3] : 0;
    int bad = t.ncells > MAXCELLS || t.nmov < 1 || t.npieces * 16 != v[0].len / 4 ||
              v[1].len / 4 != t.ncells * 4 || v[2].len != t.ncells * t.npieces;
    for (int k = 5; k < 9; k++)
        bad |= v[k].len / 4 != t.ncells;
    bad |= weighted && v[NARRAYS].len / 4 != t.ncells * 4;
    if (bad) {
        PyErr_SetString(PyExc_ValueError, "array sizes do not fit the board");
        release_buffers(v, narrays);
        return NULL;
    }
    long long accepted;
    Py_BEGIN_ALLOW_THREADS
    accepted = weighted ? run(&t, moves, temp, focus, triples, blocks, unit, 1)
                        : run(&t, moves, temp, focus, triples, blocks, unit, 0);
    Py_END_ALLOW_THREADS
    release_buffers(v, narrays);
    return Py_BuildValue("LLL", (long long)t.state[1], (long long)t.state[2], accepted);
}

static PyMethodDef methods[] = {
    {"run", py_run, METH_VARARGS, "Anneal `moves` swaps and turns at one temperature."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_anneal",
                                    "Compiled simulated annealing over swaps and rotations.", -1,
                                    methods};

PyMODINIT_FUNC PyInit__anneal(void) { return PyModule_Create(&module); }
