/* Loop growing for free-shape Tantrix: the inner loop of the tantrix `search` backend.
 *
 * The same state machine as `PyLoop` in search.py (which documents the method). The walk
 * places one tile per level on the cell its predecessor's exit points at; candidates per
 * (level, entry side) come in a seeded order. Every side of a placed tile pushes a 3-bit code
 * (colour, inner-side flag) into the neighbour's context, so a placement fits a cell when
 * (code & mask) == context. The Python side owns every array; one call runs at most `budget`
 * placements and returns, so the caller can watch the clock and resume or enumerate further.
 *
 * step(arrays, budget) -> (code, placements); code 1 a closed loop (state ready to find the
 * next), 0 budget spent, -1 tree exhausted. `arrays` is the tuple built by Core.arrays():
 *   static:  dirs valid d0 dlast qc rc ptype pcode pinner pexit pturn mag runs exp ord cfg
 *   grid:    occ cv nm icnt rpos rlist wit vis tgt queue
 *   search:  cnt lv_cell lv_o lv_j lv_rad state(int64)
 */
#include "../../_buffers.h"
#include <stdint.h>
#include <stdlib.h>

enum { OPEN = 0, SCAN = 1, RESUME = 2 };
enum { NARR = 32 };
enum { K, MODE, MAXD, TURN, MREM, NREQ, STAMP };
enum { C_N, C_ORIGIN, C_LAST, C_CANDS, C_PIN, C_GOAL };

typedef struct {
    const int32_t *dirs, *valid, *d0, *dlast, *qc, *rc, *ptype, *pcode, *pinner, *pexit,
        *pturn, *mag, *runs, *exp, *ord, *cfg;
    int32_t *occ, *cv, *nm, *icnt, *rpos, *rlist, *wit, *vis, *tgt, *queue;
    int32_t *cnt, *lv_cell, *lv_o, *lv_j, *lv_rad;
    int64_t *state;
    int32_t n, origin, last, ncand, npl, goal;
    int64_t turn, mrem, stamp;
    int32_t nreq;
} Loop;

static void req_add(Loop *s, int32_t c)
{
    s->rpos[c] = s->nreq;
    s->rlist[s->nreq++] = c;
}

static void req_remove(Loop *s, int32_t c)
{
    int32_t i = s->rpos[c];
    int32_t moved = s->rlist[--s->nreq];
    s->rlist[i] = moved;
    s->rpos[moved] = i;
    s->rpos[c] = -1;
}

static void apply(Loop *s, int32_t c, int32_t o)
{
    int32_t t = s->ptype[o];
    s->cnt[t]--;
    s->turn += s->pturn[o];
    s->mrem -= s->mag[t];
    s->occ[c] = 1;
    if (s->icnt[c] > 0)
        req_remove(s, c);
    int32_t code = s->pcode[o], inner = s->pinner[o];
    for (int d = 0; d < 6; d++) {
        int32_t nb = c + s->dirs[d];
        int od = (d + 3) % 6;
        s->cv[nb] |= ((code >> (3 * d)) & 7) << (3 * od);
        s->nm[nb] |= 1 << od;
        if ((inner >> d) & 1) {
            if (++s->icnt[nb] == 1 && !s->occ[nb])
                req_add(s, nb);
        }
    }
}

static void undo(Loop *s, int32_t c, int32_t o)
{
    int32_t inner = s->pinner[o];
    for (int d = 5; d >= 0; d--) {
        int32_t nb = c + s->dirs[d];
        int od = (d + 3) % 6;
        if ((inner >> d) & 1) {
            if (s->icnt[nb] == 1 && !s->occ[nb])
                req_remove(s, nb);
            s->icnt[nb]--;
        }
        s->cv[nb] &= ~(7 << (3 * od));
        s->nm[nb] &= ~(1 << od);
    }
    s->occ[c] = 0;
    if (s->icnt[c] > 0)
        req_add(s, c);
    int32_t t = s->ptype[o];
    s->cnt[t]++;
    s->turn -= s->pturn[o];
    s->mrem += s->mag[t];
}

static int fits_somewhere(Loop *s, int32_t r)
{
    int32_t m = s->exp[s->nm[r]], want = s->cv[r];
    int32_t w = s->wit[r];
    if (w >= 0 && s->cnt[s->ptype[w]] > 0 && (s->pcode[w] & m) == want)
        return 1;
    for (int32_t o = 0; o < s->npl; o++) {
        if (s->cnt[s->ptype[o]] > 0 && (s->pcode[o] & m) == want) {
            s->wit[r] = o;
            return 1;
        }
    }
    return 0;
}

static int dist(const Loop *s, int32_t a, int32_t b)
{
    int dq = s->qc[a] - s->qc[b], dr = s->rc[a] - s->rc[b];
    return (abs(dq) + abs(dr) + abs(dq + dr)) / 2;
}

/* Breadth-first over empty cells within rad + 1 of the origin, marking them with the stamp. */
static void flood(Loop *s, int32_t start, int32_t rad, int32_t stop_at, int32_t *found,
                  int *outside, int32_t *size)
{
    int32_t stamp = (int32_t)s->stamp, ring = rad + 1;
    int32_t head = 0, tail = 1;
    *found = 0;
    *outside = 0;
    s->vis[start] = stamp;
    s->queue[0] = start;
    while (head < tail) {
        int32_t x = s->queue[head++];
        if (s->tgt[x] == stamp)
            (*found)++;
        if (s->d0[x] == ring)
            *outside = 1;
        if (*found >= stop_at && *outside)
            break;
        for (int d = 0; d < 6; d++) {
            int32_t y = x + s->dirs[d];
            if (s->vis[y] != stamp && !s->occ[y] && s->d0[y] <= ring) {
                s->vis[y] = stamp;
                s->queue[tail++] = y;
            }
        }
    }
    *size = tail;
}

static int still_open(Loop *s, int32_t c, int32_t nxt, int32_t left, int32_t rad)
{
    int32_t stamp = (int32_t)++s->stamp;
    int32_t targets = 0, found, size;
    int outside;
    for (int32_t i = 0; i < s->nreq; i++) {
        s->tgt[s->rlist[i]] = stamp;
        targets++;
    }
    if (s->tgt[s->last] != stamp) {
        s->tgt[s->last] = stamp;
        targets++;
    }
    for (int d = 0; d < 6; d++) {
        int32_t y = c + s->dirs[d];
        if (!s->occ[y] && s->tgt[y] != stamp) {
            s->tgt[y] = stamp;
            targets++;
        }
    }
    flood(s, nxt, rad, targets, &found, &outside, &size);
    if (outside)
        return found == targets;
    if (size > left || s->vis[s->last] != stamp)
        return 0;
    for (int32_t i = 0; i < s->nreq; i++)
        if (s->vis[s->rlist[i]] != stamp)
            return 0;
    for (int d = 0; d < 6; d++) {
        int32_t y = c + s->dirs[d];
        if (!s->occ[y] && s->vis[y] != stamp) {
            int32_t f2, sz2;
            int out2;
            s->stamp++;
            flood(s, y, rad, 1 << 30, &f2, &out2, &sz2);
            if (!out2)
                return 0;
        }
    }
    return 1;
}

static int no_holes(Loop *s, int32_t rad)
{
    int32_t found, size, ring = rad + 1;
    int outside;
    s->stamp++;
    flood(s, s->origin + ring * s->dirs[4], rad, 1 << 30, &found, &outside, &size);
    return size == 3 * ring * (ring + 1) + 1 - s->n;
}

static int ok(Loop *s, int32_t c, int32_t o, int32_t left, int32_t rad)
{
    int32_t nxt = c + s->dirs[s->pexit[o]];
    if (left == 0)
        return nxt == s->origin && s->turn == s->goal && no_holes(s, rad);
    if (s->occ[nxt] || !s->valid[nxt])
        return 0;
    if (llabs(s->goal - s->turn) > s->mrem)
        return 0;
    int32_t reach = left - 1;
    if (s->dlast[nxt] > reach)
        return 0;
    int32_t need = s->nreq + (s->icnt[nxt] == 0) + (s->last != nxt && s->icnt[s->last] == 0);
    if (need > left)
        return 0;
    for (int32_t i = 0; i < s->nreq; i++) {
        int32_t r = s->rlist[i];
        if (!s->valid[r] || dist(s, nxt, r) + s->dlast[r] > reach)
            return 0;
    }
    for (int32_t i = 0; i < s->nreq; i++)
        if (!fits_somewhere(s, s->rlist[i]))
            return 0;
    if (s->runs[s->nm[c]] >= 2)
        return still_open(s, c, nxt, left, rad);
    return 1;
}

static long long run(Loop *s, long long budget, int *code)
{
    int64_t *st = s->state;
    int32_t k = (int32_t)st[K];
    int mode = (int)st[MODE];
    int64_t maxd = st[MAXD];
    long long nodes = 0;
    *code = 0;
    for (;;) {
        if (mode == OPEN) {
            int32_t c = s->lv_cell[k - 1] + s->dirs[s->pexit[s->lv_o[k - 1]]];
            s->lv_cell[k] = c;
            s->lv_j[k] = 0;
            s->lv_rad[k] = s->lv_rad[k - 1] > s->d0[c] ? s->lv_rad[k - 1] : s->d0[c];
        } else if (mode == RESUME) {
            undo(s, s->lv_cell[k], s->lv_o[k]);
            s->lv_j[k]++;
        }
        mode = SCAN;
        int32_t c = s->lv_cell[k];
        int32_t side = (s->pexit[s->lv_o[k - 1]] + 3) % 6;
        const int32_t *cand = s->ord + ((int64_t)k * 6 + side) * s->ncand;
        int32_t m = s->exp[s->nm[c]], want = s->cv[c];
        int32_t j = s->lv_j[k], o = -1;
        int placed = 0;
        for (; j < s->ncand; j++) {
            o = cand[j];
            if (s->cnt[s->ptype[o]] > 0 && (s->pcode[o] & m) == want) {
                apply(s, c, o);
                if (ok(s, c, o, s->n - 1 - k, s->lv_rad[k])) {
                    placed = 1;
                    break;
                }
                undo(s, c, o);
            }
        }
        s->lv_j[k] = j;
        if (placed) {
            s->lv_o[k] = o;
            nodes++;
            if (k == s->n - 1) {
                mode = RESUME;
                *code = 1;
                break;
            }
            k++;
            if (k > maxd)
                maxd = k;
            mode = OPEN;
            if (nodes >= budget)
                break;
        } else if (k == 1) {
            *code = -1;
            break;
        } else {
            k--;
            mode = RESUME;
        }
    }
    st[K] = k;
    st[MODE] = mode;
    st[MAXD] = maxd;
    return nodes;
}

static PyObject *step(PyObject *self, PyObject *args)
{
    (void)self;
    long long budget;
    Py_buffer v[NARR];
    if (take_step_args(args, NARR, 16, v, &budget) < 0)
        return NULL;
    if (v[NARR - 1].len < 7 * 8 || v[15].len < 6 * 4) {
        PyErr_SetString(PyExc_ValueError, "state or configuration array too short");
        goto fail;
    }
    Loop s;
    const int32_t **in[16] = {&s.dirs, &s.valid, &s.d0, &s.dlast, &s.qc, &s.rc, &s.ptype,
                              &s.pcode, &s.pinner, &s.pexit, &s.pturn, &s.mag, &s.runs,
                              &s.exp, &s.ord, &s.cfg};
    for (int i = 0; i < 16; i++)
        *in[i] = v[i].buf;
    int32_t **io[15] = {&s.occ, &s.cv,  &s.nm,  &s.icnt,    &s.rpos, &s.rlist, &s.wit,
                        &s.vis, &s.tgt, &s.queue, &s.cnt, &s.lv_cell, &s.lv_o, &s.lv_j,
                        &s.lv_rad};
    for (int i = 0; i < 15; i++)
        *io[i] = v[16 + i].buf;
    s.state = v[NARR - 1].buf;
    s.n = s.cfg[C_N];
    s.origin = s.cfg[C_ORIGIN];
    s.last = s.cfg[C_LAST];
    s.ncand = s.cfg[C_CANDS];
    s.npl = s.cfg[C_PIN];
    s.goal = s.cfg[C_GOAL];
    s.turn = s.state[TURN];
    s.mrem = s.state[MREM];
    s.nreq = (int32_t)s.state[NREQ];
    s.stamp = s.state[STAMP];
    int code = 0;
    long long nodes;
    Py_BEGIN_ALLOW_THREADS
    nodes = run(&s, budget < 1 ? 1 : budget, &code);
    Py_END_ALLOW_THREADS
    s.state[TURN] = s.turn;
    s.state[MREM] = s.mrem;
    s.state[NREQ] = s.nreq;
    s.state[STAMP] = s.stamp;
    release_buffers(v, NARR);
    return Py_BuildValue("iL", code, nodes);
fail:
    release_buffers(v, NARR);
    return NULL;
}

static PyMethodDef methods[] = {
    {"step", step, METH_VARARGS, "Grow the loop for at most `budget` placements."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_loopscan", "Compiled loop-growing search for free-shape Tantrix.",
    -1, methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__loopscan(void) { return PyModule_Create(&module); }
