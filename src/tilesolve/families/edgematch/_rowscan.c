/* Rowscan backtracking for edge matching: the inner loop of the `search` backend.
 *
 * Cells are filled in a fixed order (row-major). A cell's candidates are the (piece, rot)
 * placements whose west and north colours equal its left neighbour's east colour and its
 * upper neighbour's south colour, so each cell looks up one bucket of a precomputed table
 * and only has to skip pieces already used. The Python side builds the tables (frame rule,
 * fixed pieces, symmetry breaking, random order per seed) and keeps the whole search state
 * in its own arrays, so one call runs at most `budget` placements and returns: the caller
 * checks the clock and the stop flag between calls, and can resume or enumerate further.
 *
 * step(start, piece, east, south, left, up, pos, lim, used, place_east, place_south, state,
 *      budget, look) -> (code, placements)
 *   start[b], b = cell * nkeys + key: candidates of bucket b are start[b] .. start[b + 1] - 1
 *   piece/east/south[i]: candidate i's piece (0-based) and the colours it shows east, south
 *   left/up[cell]: the cell whose east (south) colour keys this cell, or -1 (frame: colour 0)
 *   pos/lim[depth]: candidate in use at each depth and the end of its bucket
 *   used[piece]: 1 while the piece is on the board
 *   place_east/place_south[depth]: colours shown by the piece at each depth
 *   state (int64): [depth, mode, max_depth, nkeys, ncol]
 *   code: 1 a full board (state left ready to find the next), 0 budget spent, -1 tree done
 *   look: None, or the lookahead (self, below, ent_start, ent, need, have), int32 arrays.
 *     Counts k = class * ncol + colour: need[k] open cells of that class whose north
 *     colour is already shown, have[k] free pieces with a look that fits the class showing
 *     that colour north; a placement that would make some need exceed its have is skipped.
 *     self[cell] / below[cell]: the class base (class * ncol) of the cell / of the cell below
 *     it when counted, else -1; ent[ent_start[p] .. ent_start[p + 1]): the counts piece p is in.
 *     Off by default: it cuts Brendan's 6x6 tree from 52.9 to 43.1 million nodes (every row
 *     counted) but makes a node about twice as dear, and on the 7x7s it cuts the nodes to the
 *     first board by 0-50% depending on the board (search.py gives the measurements).
 *
 * estimate(start, piece, east, south, left, up, used, probes, seed, exact, look, at_depth)
 *   -> (sum, sum of squares, boards, boards squared, probes that met a board)
 *   Knuth's estimate of the size of the tree step() walks (Knuth 1975, "Estimating the
 *   efficiency of backtrack programs"): each probe walks one random path from the root, a
 *   child drawn uniformly among the candidates the search would place there (free pieces and,
 *   with the lookahead, those that starve no cell); its estimate is d1 + d1 d2 + ..., d_k
 *   the number of candidates at depth k. From depth `exact` on (ncells: never) it walks the
 *   whole subtree there and counts its nodes and boards, each weighing d1 ... d_exact: still
 *   unbiased, and the boards, which a random path almost never reaches, are counted. The
 *   sums over the probes come back, and at_depth[k] (doubles, one per cell) gains each
 *   probe's estimate of the nodes at depth k + 1. used (all 0) and the lookahead's counts
 *   are working space, left as they came.
 *
 * shuffle(start, keep, piece, rot, east, south, seed)
 *   puts each bucket's candidates in a seeded random order (Fisher-Yates, splitmix64), leaving
 *   the leading ones with keep[i] set (hinted placements) first. A restart reorders the whole
 *   table: NumPy's sort took 5 ms of it on the 7x7, more than a short restart's search, and
 *   NumPy's import 0.2 CPU s of every run. search.py repeats the same steps in Python.
 */
#include "../../_buffers.h"
#include <stdint.h>

enum { OPEN = 0, SCAN = 1, BACK = 2 };

/* The lookahead's tables (all int32), or none: see the header. */
typedef struct {
    const int32_t *self, *below, *ent_start, *ent;
    int32_t *need, *have;
} Look;

/* Would placing candidate i at depth d leave some open cell of a counted class and north
 * colour without a piece? Counted after the move: the cell below d opens needing south[i],
 * d itself stops needing its north colour, and the piece leaves every count it was in. */
static inline int starves(const Look *k, int32_t p, int32_t kd, int32_t kb)
{
    const int32_t *e = k->ent + k->ent_start[p], *stop = k->ent + k->ent_start[p + 1];
    if (kb >= 0) {
        int32_t have = k->have[kb];
        for (const int32_t *x = e; x < stop; x++)
            if (*x == kb)
                have--;
        if (k->need[kb] + 1 - (kb == kd) > have)
            return 1;
    }
    for (; e < stop; e++)
        if (*e != kb && k->need[*e] - (*e == kd) > k->have[*e] - 1)
            return 1;
    return 0;
}

/* The counted (class, colour) of cell d's own need, its north colour, or -1 */
static inline int32_t self_key(const Look *k, const int32_t *ps, const int32_t *up, long long d)
{
    return k->self[d] < 0 ? -1 : k->self[d] + ps[up[d]];
}

/* The counted (class, colour) the cell below d needs when d shows `south`, or -1 */
static inline int32_t below_key(const Look *k, long long d, int32_t south)
{
    return k->below[d] < 0 ? -1 : k->below[d] + south;
}

/* Place (sign -1) or lift (+1) piece p at depth d, showing `south`: the counts follow. */
static inline void count_move(const Look *k, int32_t p, int32_t kd, int32_t kb, int32_t sign)
{
    for (int32_t j = k->ent_start[p]; j < k->ent_start[p + 1]; j++)
        k->have[k->ent[j]] += sign;
    if (kd >= 0)
        k->need[kd] += sign;
    if (kb >= 0)
        k->need[kb] -= sign;
}

/* The search loop; `look` is a constant at each call, so the compiler makes a copy without
 * the lookahead for the default (it costs nothing when off). */
static inline long long run_loop(const int32_t *start, const int32_t *piece, const int32_t *east,
                                 const int32_t *south, const int32_t *left, const int32_t *up,
                                 int32_t *pos, int32_t *lim, uint8_t *used, int32_t *pe,
                                 int32_t *ps, int64_t *state, Py_ssize_t ncells, long long budget,
                                 int *code, const int look, const Look *k)
{
    long long d = state[0];
    int mode = (int)state[1];
    long long maxd = state[2];
    const long long nkeys = state[3], ncol = state[4];
    long long nodes = 0;
    *code = 0;
    for (;;) {
        if (mode == OPEN) {
            if (d == ncells) {
                mode = BACK;
                *code = 1;
                break;
            }
            int32_t l = left[d] < 0 ? 0 : pe[left[d]];
            int32_t u = up[d] < 0 ? 0 : ps[up[d]];
            long long b = d * nkeys + (long long)l * ncol + u;
            pos[d] = start[b];
            lim[d] = start[b + 1];
            mode = SCAN;
        }
        if (mode == BACK) {
            d--;
            int32_t c = pos[d];
            used[piece[c]] = 0;
            if (look)
                count_move(k, piece[c], self_key(k, ps, up, d), below_key(k, d, south[c]), 1);
            pos[d]++;
            mode = SCAN;
        }
        int32_t kd = look ? self_key(k, ps, up, d) : -1;
        /* SCAN: next candidate at depth d whose piece is free (and, with the lookahead,
         * that starves no open cell) */
        int32_t i = pos[d], end = lim[d];
        for (;; i++) {
            while (i < end && used[piece[i]])
                i++;
            if (!look || i >= end || (kd < 0 && k->below[d] < 0) ||
                !starves(k, piece[i], kd, below_key(k, d, south[i])))
                break;
        }
        if (i < end) {
            pos[d] = i;
            used[piece[i]] = 1;
            if (look)
                count_move(k, piece[i], kd, below_key(k, d, south[i]), -1);
            pe[d] = east[i];
            ps[d] = south[i];
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
    state[0] = d;
    state[1] = mode;
    state[2] = maxd;
    return nodes;
}

static PyObject *step(PyObject *self, PyObject *args)
{
    enum { NARR = 12, NLOOK = 6 };
    PyObject *objs[NARR + NLOOK];
    PyObject *look_obj;
    long long budget;
    if (!PyArg_ParseTuple(args, "OOOOOOOOOOOOLO", &objs[0], &objs[1], &objs[2], &objs[3],
                          &objs[4], &objs[5], &objs[6], &objs[7], &objs[8], &objs[9], &objs[10],
                          &objs[11], &budget, &look_obj))
        return NULL;
    int look = look_obj != Py_None;
    if (look && (!PyTuple_Check(look_obj) || PyTuple_GET_SIZE(look_obj) != NLOOK)) {
        PyErr_SetString(PyExc_TypeError, "the lookahead is None or a tuple of 6 arrays");
        return NULL;
    }
    int n = NARR;
    for (int j = 0; look && j < NLOOK; j++)
        objs[n++] = PyTuple_GET_ITEM(look_obj, j);
    /* sizes in bytes per item: int32 everywhere except used (uint8) and state (int64) */
    static const int width[NARR + NLOOK] = {4, 4, 4, 4, 4, 4, 4, 4, 1, 4, 4, 8, 4, 4, 4, 4, 4, 4};
    static const int writable[NARR + NLOOK] = {0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1,
                                                0, 0, 0, 0, 1, 1};
    Py_buffer v[NARR + NLOOK];
    if (take_buffers(objs, n, width, writable, v) < 0)
        return NULL;
    Py_ssize_t ncells = v[4].len / 4;
    if (v[11].len < 5 * 8 || v[6].len / 4 < ncells || v[7].len / 4 < ncells ||
        v[9].len / 4 < ncells || v[10].len / 4 < ncells ||
        (look && (v[12].len / 4 < ncells || v[13].len / 4 < ncells ||
                  v[14].len / 4 < v[8].len + 1))) {
        PyErr_SetString(PyExc_ValueError, "state arrays too short");
        release_buffers(v, n);
        return NULL;
    }
    Look k = {0};
    if (look)
        k = (Look){v[12].buf, v[13].buf, v[14].buf, v[15].buf, v[16].buf, v[17].buf};
    int code = 0;
    long long nodes;
    budget = budget < 1 ? 1 : budget;
    Py_BEGIN_ALLOW_THREADS
    if (look)
        nodes = run_loop(v[0].buf, v[1].buf, v[2].buf, v[3].buf, v[4].buf, v[5].buf, v[6].buf,
                         v[7].buf, v[8].buf, v[9].buf, v[10].buf, v[11].buf, ncells, budget,
                         &code, 1, &k);
    else
        nodes = run_loop(v[0].buf, v[1].buf, v[2].buf, v[3].buf, v[4].buf, v[5].buf, v[6].buf,
                         v[7].buf, v[8].buf, v[9].buf, v[10].buf, v[11].buf, ncells, budget,
                         &code, 0, &k);
    Py_END_ALLOW_THREADS
    release_buffers(v, n);
    return Py_BuildValue("iL", code, nodes);
}

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static PyObject *shuffle(PyObject *self, PyObject *args)
{
    PyObject *objs[6];
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "OOOOOOK", &objs[0], &objs[1], &objs[2], &objs[3], &objs[4],
                          &objs[5], &seed))
        return NULL;
    static const int width[6] = {4, 1, 4, 4, 4, 4};
    static const int writable[6] = {0, 0, 1, 1, 1, 1};
    Py_buffer v[6];
    if (take_buffers(objs, 6, width, writable, v) < 0)
        return NULL;
    const int32_t *start = v[0].buf;
    const uint8_t *keep = v[1].buf;
    int32_t *cols[4] = {v[2].buf, v[3].buf, v[4].buf, v[5].buf};
    Py_ssize_t nb = v[0].len / 4 - 1, n = v[1].len;
    for (int k = 2; k < 6; k++)
        if (v[k].len != n * 4)
            n = -1;
    if (nb < 0 || n < 0 || (nb > 0 && start[nb] > n)) {
        release_buffers(v, 6);
        PyErr_SetString(PyExc_ValueError, "candidate arrays do not match the buckets");
        return NULL;
    }
    uint64_t x = seed;
    for (Py_ssize_t b = 0; b < nb; b++) {
        int32_t lo = start[b], hi = start[b + 1];
        while (lo < hi && keep[lo])
            lo++;
        for (int32_t j = hi - 1; j > lo; j--) {
            int32_t k = lo + (int32_t)(splitmix64(&x) % (uint64_t)(j - lo + 1));
            for (int c = 0; c < 4; c++) {
                int32_t t = cols[c][j];
                cols[c][j] = cols[c][k];
                cols[c][k] = t;
            }
        }
    }
    release_buffers(v, 6);
    Py_RETURN_NONE;
}

/* The lookahead lets candidate i through at depth d (always, without it) */
static inline int passes(const Look *k, const int look, const int32_t *piece,
                         const int32_t *south, long long d, int32_t kd, int32_t i)
{
    return !look || (kd < 0 && k->below[d] < 0) ||
           !starves(k, piece[i], kd, below_key(k, d, south[i]));
}

/* What a probe reads and the board it builds (see estimate) */
typedef struct {
    const int32_t *start, *piece, *east, *south, *left, *up;
    uint8_t *used;
    int32_t *pe, *ps;
    Py_ssize_t ncells;
    long long nkeys, ncol;
    int look;
    const Look *k;
    double *at_depth;
} Probe;

/* Cell d's bucket: its candidates are lo .. hi - 1 */
static inline void bucket(const Probe *q, Py_ssize_t d, int32_t *lo, int32_t *hi)
{
    int32_t l = q->left[d] < 0 ? 0 : q->pe[q->left[d]];
    int32_t u = q->up[d] < 0 ? 0 : q->ps[q->up[d]];
    long long b = d * q->nkeys + (long long)l * q->ncol + u;
    *lo = q->start[b];
    *hi = q->start[b + 1];
}

static inline void place(const Probe *q, Py_ssize_t d, int32_t kd, int32_t i)
{
    q->used[q->piece[i]] = 1;
    if (q->look)
        count_move(q->k, q->piece[i], kd, below_key(q->k, d, q->south[i]), -1);
    q->pe[d] = q->east[i];
    q->ps[d] = q->south[i];
}

static inline void lift(const Probe *q, Py_ssize_t d, int32_t i)
{
    q->used[q->piece[i]] = 0;
    if (q->look)
        count_move(q->k, q->piece[i], self_key(q->k, q->ps, q->up, d),
                   below_key(q->k, d, q->south[i]), 1);
}

/* The whole subtree under cells 0 .. d - 1 as placed, each node weighing `weight`: its nodes
 * (returned, unweighted) and boards (added to *boards) */
static double walk_below(const Probe *q, Py_ssize_t d, double weight, double *boards)
{
    if (d == q->ncells) {
        *boards += 1;
        return 0;
    }
    int32_t lo, hi, kd = q->look ? self_key(q->k, q->ps, q->up, d) : -1;
    bucket(q, d, &lo, &hi);
    double nodes = 0;
    for (int32_t i = lo; i < hi; i++) {
        if (q->used[q->piece[i]] || !passes(q->k, q->look, q->piece, q->south, d, kd, i))
            continue;
        place(q, d, kd, i);
        q->at_depth[d] += weight;
        nodes += 1 + walk_below(q, d + 1, weight, boards);
        lift(q, d, i);
    }
    return nodes;
}

/* One random path from the root to depth `exact` (see the header), then the whole subtree
 * there: the estimate of the nodes, and of the boards in *leaf. Leaves the board empty. */
static double probe(const Probe *q, Py_ssize_t exact, uint64_t *x, int32_t *chosen, double *leaf)
{
    double weight = 1.0, total = 0.0;
    Py_ssize_t d;
    *leaf = 0.0;
    for (d = 0; d < exact; d++) {
        int32_t lo, hi, n = 0, kd = q->look ? self_key(q->k, q->ps, q->up, d) : -1;
        bucket(q, d, &lo, &hi);
        for (int32_t i = lo; i < hi; i++)
            n += !q->used[q->piece[i]] && passes(q->k, q->look, q->piece, q->south, d, kd, i);
        if (n == 0)
            break;
        weight *= n;
        total += weight;
        q->at_depth[d] += weight;
        int32_t pick = (int32_t)(splitmix64(x) % (uint64_t)n), i = lo;
        for (;; i++)
            if (!q->used[q->piece[i]] && passes(q->k, q->look, q->piece, q->south, d, kd, i) &&
                pick-- == 0)
                break;
        place(q, d, kd, i);
        chosen[d] = i;
    }
    if (d == exact) {
        double boards = 0;
        total += weight * walk_below(q, d, weight, &boards);
        *leaf = weight * boards;
    }
    while (d-- > 0)  /* lift the path, so the next probe starts from the empty board */
        lift(q, d, chosen[d]);
    return total;
}

static PyObject *estimate(PyObject *self, PyObject *args)
{
    enum { NARR = 7, NLOOK = 6 };
    PyObject *objs[NARR + 1 + NLOOK];
    PyObject *look_obj;
    long long probes;
    Py_ssize_t exact;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "OOOOOOOLKnOO", &objs[0], &objs[1], &objs[2], &objs[3],
                          &objs[4], &objs[5], &objs[6], &probes, &seed, &exact, &look_obj,
                          &objs[7]))
        return NULL;
    int look = look_obj != Py_None;
    if (look && (!PyTuple_Check(look_obj) || PyTuple_GET_SIZE(look_obj) != NLOOK)) {
        PyErr_SetString(PyExc_TypeError, "the lookahead is None or a tuple of 6 arrays");
        return NULL;
    }
    int n = NARR + 1;
    for (int j = 0; look && j < NLOOK; j++)
        objs[n++] = PyTuple_GET_ITEM(look_obj, j);
    static const int width[NARR + 1 + NLOOK] = {4, 4, 4, 4, 4, 4, 1, 8, 4, 4, 4, 4, 4, 4};
    static const int writable[NARR + 1 + NLOOK] = {0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 1, 1};
    Py_buffer v[NARR + 1 + NLOOK];
    if (take_buffers(objs, n, width, writable, v) < 0)
        return NULL;
    Py_ssize_t ncells = v[4].len / 4;
    Py_ssize_t nb = v[0].len / 4 - 1;
    if (ncells == 0 || nb % ncells || v[5].len / 4 < ncells || v[7].len / 8 < ncells ||
        exact < 0 || exact > ncells ||
        (look && (v[8].len / 4 < ncells || v[9].len / 4 < ncells))) {
        PyErr_SetString(PyExc_ValueError, "arrays do not match the cells");
        release_buffers(v, n);
        return NULL;
    }
    int32_t *work = PyMem_RawMalloc(3 * ncells * sizeof(int32_t));
    if (!work) {
        release_buffers(v, n);
        return PyErr_NoMemory();
    }
    Look k = {0};
    if (look)
        k = (Look){v[8].buf, v[9].buf, v[10].buf, v[11].buf, v[12].buf, v[13].buf};
    Probe q = {v[0].buf, v[1].buf, v[2].buf, v[3].buf, v[4].buf, v[5].buf, v[6].buf, work,
               work + ncells, ncells, nb / ncells, 1, look, &k, v[7].buf};
    while (q.ncol * q.ncol < q.nkeys)
        q.ncol++;
    double sum = 0, sumsq = 0, leaves = 0, leavesq = 0;
    long long full = 0;
    uint64_t x = seed;
    Py_BEGIN_ALLOW_THREADS
    for (long long j = 0; j < probes; j++) {
        double leaf;
        double t = probe(&q, exact, &x, work + 2 * ncells, &leaf);
        sum += t;
        sumsq += t * t;
        leaves += leaf;
        leavesq += leaf * leaf;
        full += leaf > 0;
    }
    Py_END_ALLOW_THREADS
    PyMem_RawFree(work);
    release_buffers(v, n);
    return Py_BuildValue("ddddL", sum, sumsq, leaves, leavesq, full);
}

static PyMethodDef methods[] = {
    {"step", step, METH_VARARGS, "Run the rowscan search for at most `budget` placements."},
    {"shuffle", shuffle, METH_VARARGS, "Put each bucket in a seeded random order."},
    {"estimate", estimate, METH_VARARGS, "Knuth's random-probe estimate of the tree's size."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_rowscan",
                                    "Compiled rowscan backtracker for edge matching.", -1,
                                    methods};

PyMODINIT_FUNC PyInit__rowscan(void) { return PyModule_Create(&module); }
