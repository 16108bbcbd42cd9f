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

/* The Blackwood rule's loop (`--break-rule blackwood`): at most one break per placement, no
 * break between two frame pieces, and one list per (cell kind, west colour, north colour),
 * read with one load and one test per candidate, as libblackwood's lists per pair of known
 * colours are. A list holds packed records
 *   bits 0-11 piece, 12-23 E colour times ncol, 24-29 S colour, 30 the placement breaks a
 *   join (E times ncol plus the S colour above is the next list's key, without a multiply),
 * first the candidates matching both joins; where the depth may break a join, after a
 * separator those matching the west colour only (N breaks), after another those matching
 * the north colour only (W breaks), each part in the run's seeded order (breakscan.py
 * FastSearcher builds them). The separator and the end are the pieces npieces and
 * npieces + 1, never in use, so the scan stops on them without a bound test; a list is
 * chosen per depth by the breaks left (head block base1 with breaks, base0 without), and a
 * separator is passed only while a break is left (the cap may have been lowered since).
 * A fixed neighbour's demand (east or south of the cell) is met by the kind's lists, which
 * hold only the candidates meeting it. With no break allowed and lists per cell this walks
 * the general loop's tree entry for entry (tested); its Python twin walks this loop's tree.
 * Measured on Eternity II against libblackwood (lab/scripts/e2_rate.py, lab/pages/hybrid.md
 * "The Blackwood rule").
 *
 * Blackwood's colour-exhaustion rule (`--colour-rule`, colour_rule.py): up to and including
 * depth d the pieces placed must carry at least floor[d] sides of the chosen colours, weight[p]
 * sides on piece p. With the rule on, each part of a list holds its candidates by weight,
 * heaviest first, so the first free candidate that fails the floor ends its part: every later
 * one fails too. Depths from state[4] on have no floor (0 with the rule off).
 *
 * fast_step(arrays, budget) -> (code, placements); arrays (int32 unless said):
 *   0     lists (uint32): every list, each ending in the end sentinel
 *   1     head: the first entry of list base + W * ncol + N
 *   2,3   left, up (per depth): the depth whose E (S) colour keys this depth, n for the border
 *   4     allow (per depth): the breaks allowed up to and including the depth
 *   5,6   base0, base1 (per depth): the depth's block of head without and with a break left
 *   7,8   weight (per piece), floor (per depth): the colour rule
 *   9,10  pos (the entry after the one placed), piece (per depth)   [writable]
 *   11-13 br, pe, ps (n + 1; br before the depth, pe (E times ncol) and ps slot n the
 *         border's 0)   [writable]
 *   14    used (per piece)   [writable]
 *   15    cum (n + 1): the chosen colours' sides on depths 0..d-1 at cum[d]   [writable]
 *   16    deep (n): pos of each depth of the deepest walk so far: copied when the walk first
 *         goes deeper than max_depth, so that the deepest partial board can be completed
 *         when no complete one is found   [writable]
 *   17    state (int64): [depth, mode, max_depth, ncol, floor_end]
 */
enum { FAST_ARRAYS = 18, FAST_FIXED = 9 };
#define PIECE(v) ((v) & 0xfff)
#define BROKE(v) (((v) >> 30) & 1)

/* Each depth in one record of one cache line, copied from and back to the arrays at each
 * step: its walk (the entry after the one placed, the piece, the breaks and the chosen
 * colours' sides before it, its E and S colours), its facts (breaks allowed, its blocks of
 * lists, its colour floor) and where its key's colours lie (the west neighbour's E times
 * ncol, the north neighbour's S, the border's 0 in record n), so that a placement touches
 * one record, and the loop keeps few pointers live (records per depth instead of sixteen
 * arrays took the loop of three phases from 64.3 to 86-88 M placements per CPU s;
 * lab/pages/hybrid.md). */
typedef struct {
    const uint32_t *pos;
    const int32_t *west, *north;
    int32_t piece, br, pe, ps, cum; /* br, cum: before this depth */
    int32_t allow, base0, base1, floor, unused; /* 64 bytes */
} Cell;

typedef struct {
    const uint32_t *lists;
    const int32_t *head, *weight;
    Cell *c;
    uint8_t *used; /* per piece and the two sentinels, a byte each */
    int32_t *deep;
    long long n, floor_end;
    uint32_t sep; /* the separator; sep + 1 is the end */
} Fast;

/* The walk of depths 0..d (the one just placed included), kept as the deepest. */
static inline void keep_deepest(Fast *t, long long d)
{
    for (long long k = 0; k <= d; k++)
        t->deep[k] = (int32_t)(t->c[k].pos - t->lists);
}

/* The walk, written with gotos as generated code per depth is, but over the depths'
 * records: `here` points at the depth's, so that a placement is a few loads and stores with
 * no index arithmetic (lab/pages/hybrid.md: instructions a placement under callgrind). */
static __attribute__((noinline)) long long fast_run(Fast *t, long long budget, int *code,
                                                    int64_t *state)
{
    const int32_t *head = t->head, *weight = t->weight;
    uint8_t *used = t->used;
    const uint32_t sep = t->sep;
    Cell *const c = t->c, *const end = c + t->n, *const floor_end = c + t->floor_end;
    Cell *here = c + state[0], *deepest = c + state[2];
    long long left = budget;
    const uint32_t *p; /* the next entry of the depth's list */
    uint32_t v;
    *code = 0;
    if (state[1] != OPEN)
        goto back;
open:
    if (here == end) {
        *code = 1;
        state[1] = BACK;
        goto out;
    }
    p = t->lists + head[(here->br < here->allow ? here->base1 : here->base0) + *here->west +
                        *here->north];
scan:
    do
        v = *p++;
    while (used[PIECE(v)]);
    if (PIECE(v) >= sep) { /* a separator goes on to the breaks while one is left */
        if (PIECE(v) > sep || here->br >= here->allow)
            goto back;
        goto scan;
    }
    if (here < floor_end) {
        int32_t sides = here->cum + weight[PIECE(v)];
        if (sides < here->floor) { /* the heaviest free candidate is short: so is its part */
            if (here->br >= here->allow)
                goto back; /* and no break part may follow */
            while (PIECE(*p) < sep)
                p++;
            goto scan;
        }
        here[1].cum = sides;
    }
    here->pos = p;
    here->piece = PIECE(v);
    used[PIECE(v)] = 1;
    here->pe = (v >> 12) & 0xfff;
    here->ps = (v >> 24) & 0x3f;
    here[1].br = here->br + BROKE(v);
    if (here >= deepest) {
        keep_deepest(t, here - c);
        deepest = here + 1;
    }
    here++;
    if (--left > 0)
        goto open;
    state[1] = OPEN;
    goto out;
back:
    if (here == c) { /* the tree is done; a next step walks it again */
        *code = -1;
        state[1] = OPEN;
        goto out;
    }
    here--;
    used[here->piece] = 0;
    p = here->pos;
    goto scan;
out:
    state[0] = here - c;
    state[2] = deepest - c;
    return budget - left;
}

/* Whether the arrays fit: per-depth ones (br, pe, ps, cum hold one more) and per-piece ones
 * long enough; the neighbours' depths, the blocks, the walk's entries and colours and the
 * lists' heads in range; every entry a piece or a sentinel whose colours key a list of the
 * block; an end sentinel last (so that no scan runs past the lists). */
static int fast_arrays_bad(const Py_buffer *v, long long n)
{
    const int64_t *state = v[17].buf;
    long long nlists = v[0].len / 4, nhead = v[1].len / 4, pieces = v[14].len / 4;
    const uint32_t *L = v[0].buf;
    const int32_t *head = v[1].buf, *left = v[2].buf, *up = v[3].buf, *b0 = v[5].buf,
                  *b1 = v[6].buf, *pos = v[9].buf, *pe = v[12].buf, *ps = v[13].buf;
    if (v[17].len < 5 * 8 || v[16].len / 4 < n || v[7].len != v[14].len || pieces + 2 > 0x1000)
        return 1;
    for (int k = 2; k < 16; k++)
        if (k != 7 && k != 14 && v[k].len / 4 < n + (k >= 11))
            return 1;
    long long ncol = state[3], keys = ncol * ncol;
    if (state[4] < 0 || state[4] > n || ncol < 1 || ncol > 64 || nlists < 1 ||
        L[nlists - 1] != (uint32_t)pieces + 1)
        return 1;
    for (long long i = 0; i < nlists; i++)
        if (PIECE(L[i]) > pieces + 1 || ((L[i] >> 12) & 0xfff) + ((L[i] >> 24) & 0x3f) >= keys)
            return 1;
    for (long long i = 0; i < nhead; i++)
        if (head[i] < 0 || head[i] >= nlists)
            return 1;
    for (long long d = 0; d <= n; d++)
        if (pe[d] < 0 || pe[d] > keys - ncol || ps[d] < 0 || ps[d] >= ncol)
            return 1;
    for (long long d = 0; d < n; d++)
        if (left[d] < 0 || left[d] > n || up[d] < 0 || up[d] > n || b0[d] < 0 || b1[d] < 0 ||
            b0[d] + keys > nhead || b1[d] + keys > nhead || pos[d] < 0 || pos[d] >= nlists)
            return 1;
    return 0;
}

/* The depths' records from the arrays (n + 1: record n is the border's), or the walk back. */
static void fast_records(const Py_buffer *v, long long n, Cell *c, int out)
{
    const uint32_t *L = v[0].buf;
    int32_t *pos = v[9].buf, *piece = v[10].buf, *a[4] = {v[11].buf, v[12].buf, v[13].buf,
                                                          v[15].buf}; /* br, pe, ps, cum */
    for (long long d = 0; d <= n; d++) {
        int32_t *f[4] = {&c[d].br, &c[d].pe, &c[d].ps, &c[d].cum};
        for (int k = 0; k < 4; k++)
            out ? (a[k][d] = *f[k]) : (*f[k] = a[k][d]);
        if (d == n)
            break;
        if (out) {
            pos[d] = (int32_t)(c[d].pos - L);
            piece[d] = c[d].piece;
        } else {
            c[d].pos = L + pos[d];
            c[d].piece = piece[d];
        }
    }
    if (out)
        return;
    const int32_t *left = v[2].buf, *up = v[3].buf, *allow = v[4].buf, *b0 = v[5].buf,
                  *b1 = v[6].buf, *floor = v[8].buf;
    for (long long d = 0; d < n; d++) {
        c[d].west = &c[left[d]].pe;
        c[d].north = &c[up[d]].ps;
        c[d].allow = allow[d];
        c[d].base0 = b0[d];
        c[d].base1 = b1[d];
        c[d].floor = floor[d];
    }
}

static PyObject *fast_step(PyObject *self, PyObject *args)
{
    long long budget;
    Py_buffer v[FAST_ARRAYS];
    if (take_step_args(args, FAST_ARRAYS, FAST_FIXED, v, &budget) < 0)
        return NULL;
    long long n = v[2].len / 4;
    if (fast_arrays_bad(v, n)) {
        PyErr_SetString(PyExc_ValueError, "the Blackwood rule's arrays do not fit");
        release_buffers(v, FAST_ARRAYS);
        return NULL;
    }
    long long pieces = v[14].len / 4;
    int32_t *used = v[14].buf;
    Cell *c = PyMem_Calloc(n + 1, sizeof(Cell));
    uint8_t *used8 = PyMem_Calloc(pieces + 2, 1);
    if (!c || !used8) {
        PyMem_Free(c);
        PyMem_Free(used8);
        release_buffers(v, FAST_ARRAYS);
        return PyErr_NoMemory();
    }
    fast_records(v, n, c, 0);
    int64_t *state = v[17].buf;
    for (long long p = 0; p < pieces; p++)
        used8[p] = used[p] != 0;
    Fast t = {.lists = v[0].buf, .head = v[1].buf, .weight = v[7].buf, .c = c, .used = used8,
              .deep = v[16].buf, .n = n, .floor_end = state[4], .sep = (uint32_t)pieces};
    int code = 0;
    long long nodes;
    Py_BEGIN_ALLOW_THREADS
    nodes = fast_run(&t, budget < 1 ? 1 : budget, &code, state);
    Py_END_ALLOW_THREADS
    fast_records(v, n, c, 1);
    for (long long p = 0; p < pieces; p++)
        used[p] = used8[p];
    PyMem_Free(c);
    PyMem_Free(used8);
    release_buffers(v, FAST_ARRAYS);
    return Py_BuildValue("iL", code, nodes);
}

/* fast_fill(lists, rows, order, offsets, targets, start, body, base_rows, broke): one phase's
 * entries into the lists of a run (breakscan.fast_lists, whose numpy twin sorts instead):
 * the rows in the run's order `order`, each into the lists targets[offsets[r]..offsets[r+1]),
 * each list's part filled from start[list] on, so that within a part the rows keep the run's
 * order; the entry's record body[r] | broke, its table row base_rows[r]. A counting scatter,
 * with no sort: 0.1 ms a phase on Eternity II against the sort's 0.4-0.7 ms. */
static PyObject *fast_fill(PyObject *self, PyObject *args)
{
    PyObject *objs[8];
    unsigned int broke;
    if (!PyArg_ParseTuple(args, "OOOOOOOOI", &objs[0], &objs[1], &objs[2], &objs[3], &objs[4],
                          &objs[5], &objs[6], &objs[7], &broke))
        return NULL;
    int width[8] = {4, 4, 4, 4, 4, 4, 4, 4}, writable[8] = {1, 1, 0, 0, 0, 0, 0, 0};
    Py_buffer v[8];
    if (take_buffers(objs, 8, width, writable, v) < 0)
        return NULL;
    uint32_t *lists = v[0].buf;
    int32_t *rows = v[1].buf;
    const int32_t *order = v[2].buf, *offsets = v[3].buf, *targets = v[4].buf,
                  *start = v[5].buf, *base_rows = v[7].buf;
    const uint32_t *body = v[6].buf;
    long long nlists = v[0].len / 4, norder = v[2].len / 4, nrows = v[3].len / 4 - 1,
              ntargets = v[4].len / 4, nstart = v[5].len / 4;
    int32_t *cursor = PyMem_Malloc(sizeof(int32_t) * (nstart + 1));
    if (!cursor) {
        release_buffers(v, 8);
        return PyErr_NoMemory();
    }
    int bad = nrows < 0 || v[1].len != v[0].len || v[6].len / 4 < nrows || v[7].len / 4 < nrows;
    for (long long k = 0; !bad && k < nstart; k++)
        cursor[k] = start[k];
    for (long long i = 0; !bad && i < norder; i++) {
        int32_t r = order[i];
        if (r < 0 || r >= nrows || offsets[r] < 0 || offsets[r] > offsets[r + 1] ||
            offsets[r + 1] > ntargets) {
            bad = 1;
            break;
        }
        for (int32_t k = offsets[r]; k < offsets[r + 1]; k++) {
            int32_t list = targets[k];
            if (list < 0 || list >= nstart || cursor[list] < 0 || cursor[list] >= nlists) {
                bad = 1;
                break;
            }
            int32_t at = cursor[list]++;
            lists[at] = body[r] | broke;
            rows[at] = base_rows[r];
        }
    }
    PyMem_Free(cursor);
    release_buffers(v, 8);
    if (bad) {
        PyErr_SetString(PyExc_ValueError, "the lists' entries do not fit");
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"fast_fill", fast_fill, METH_VARARGS, "One phase's entries into a run's lists."},
    {"step", step, METH_VARARGS, "Run the break search for at most `budget` placements."},
    {"fast_step", fast_step, METH_VARARGS, "The Blackwood rule's loop, at most `budget` placements."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_breakscan",
                                    "Compiled rowscan search with bounded breaks.", -1, methods};

PyMODINIT_FUNC PyInit__breakscan(void) { return PyModule_Create(&module); }
