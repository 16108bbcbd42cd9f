/* Line walk for free-shape Tantrix: the compiled core of `linewalk.py`'s search.
 *
 * The same state machine as `PyWalk` in linewalk.py, which documents the method: the walk
 * follows one goal colour tile by tile, then places the tiles without it next to the cluster;
 * after each placement the other goals are tested (cycles, fragments, ends nothing can reach).
 * The Python side owns every array; one call runs at most `budget` placements and returns.
 *
 * step(arrays, budget) -> (code, placements); code 1 a solution (state ready to find the
 * next), 0 budget spent, -1 tree exhausted. `arrays` is the tuple built by WalkCore.arrays():
 *   static:  dirs qc rc ptype pcode pexit gmask xcarry gloop gtotal first exp ord cfg
 *   grid:    occ cv nm vis queue
 *   search:  cnt lv_cell lv_o lv_j lv_nf front state(int64)
 */
#include "../../_buffers.h"
#include <stdint.h>
#include <stdlib.h>

enum { OPEN = 0, SCAN = 1, RESUME = 2 };
enum { NSTATIC = 14, NARR = 26, MAXG = 3, MAXN = 64 };
enum { K, MODE, MAXD };
enum { C_N, C_NW, C_ORIGIN, C_BESIDE, C_CANDS, C_XOFF, C_NG, C_FLOOP, C_SIDE };

typedef struct {
    const int32_t *dirs, *qc, *rc, *ptype, *pcode, *pexit, *gmask, *xcarry, *gloop, *gtotal,
        *first, *exp, *ord, *cfg;
    int32_t *occ, *cv, *nm, *vis, *queue;
    int32_t *cnt, *lv_cell, *lv_o, *lv_j, *lv_nf, *front;
    int64_t *state;
    int32_t n, nw, origin, beside, ncand, xoff, ng, floop, side, ntypes;
} Walk;

static void apply(Walk *s, int32_t c, int32_t o)
{
    s->cnt[s->ptype[o]]--;
    s->occ[c] = o + 1;
    int32_t code = s->pcode[o];
    for (int d = 0; d < 6; d++) {
        int32_t nb = c + s->dirs[d];
        int od = (d + 3) % 6;
        s->cv[nb] |= ((code >> (3 * d)) & 7) << (3 * od);
        s->nm[nb] |= 1 << od;
    }
}

static void undo(Walk *s, int32_t c, int32_t o)
{
    for (int d = 0; d < 6; d++) {
        int32_t nb = c + s->dirs[d];
        int od = (d + 3) % 6;
        s->cv[nb] &= ~(7 << (3 * od));
        s->nm[nb] &= ~(1 << od);
    }
    s->occ[c] = 0;
    s->cnt[s->ptype[o]]++;
}

static int dist(const Walk *s, int32_t a, int32_t b)
{
    int dq = s->qc[a] - s->qc[b], dr = s->rc[a] - s->rc[b];
    return (abs(dq) + abs(dr) + abs(dq + dr)) / 2;
}

static int root(int *parent, int a)
{
    while (parent[a] != a)
        a = parent[a];
    return a;
}

static int goals_ok(const Walk *s, int placed, int32_t nxt, int walk_left)
{
    for (int g = 0; g < s->ng; g++) {
        int parent[MAXN], at_level[MAXN];
        int32_t at_cell[MAXN];
        int mine = 0;
        for (int i = 0; i < placed; i++) {
            if (s->gmask[s->lv_o[i] * MAXG + g]) {
                at_cell[mine] = s->lv_cell[i];
                at_level[mine] = i;
                parent[mine] = mine;
                mine++;
            }
        }
        int links = 0, cycle = 0, nends = 0;
        int32_t end_cell[6 * MAXN];
        int end_count[6 * MAXN];
        for (int a = 0; a < mine; a++) {
            int32_t c = at_cell[a];
            int m = s->gmask[s->lv_o[at_level[a]] * MAXG + g];
            for (int d = 0; d < 6; d++) {
                if (!(m >> d & 1))
                    continue;
                int32_t nb = c + s->dirs[d];
                if (s->occ[nb]) {
                    if (d >= 3)
                        continue; /* each link once */
                    int b = 0;
                    while (at_cell[b] != nb)
                        b++;
                    int ra = root(parent, a), rb = root(parent, b);
                    if (ra == rb)
                        cycle = 1;
                    else {
                        parent[ra] = rb;
                        links++;
                    }
                } else {
                    int e = 0;
                    while (e < nends && end_cell[e] != nb)
                        e++;
                    if (e == nends) {
                        end_cell[nends] = nb;
                        end_count[nends++] = 0;
                    }
                    end_count[e]++;
                }
            }
        }
        int left = s->gtotal[g] - mine, loop = s->gloop[g];
        if (cycle && !(loop && left == 0))
            return 0;
        int parts = mine - links;
        if (parts > left + 1)
            return 0;
        int allowed = loop ? 0 : 2, extra_g = 0, strong = 0, weak = 0, total = 0;
        for (int t = 0; t < s->ntypes; t++)
            if (s->xcarry[t * MAXG + g])
                extra_g += s->cnt[t];
        for (int e = 0; e < nends; e++) {
            total += end_count[e];
            if (end_count[e] >= 3)
                strong += end_count[e];
            else if (walk_left == 0 || dist(s, nxt, end_cell[e]) > walk_left - 1)
                weak += end_count[e];
        }
        int excess = weak - 2 * extra_g;
        if (strong + (excess > 0 ? excess : 0) > allowed)
            return 0;
        if (placed == s->n && (parts != 1 || total != allowed || loop != cycle))
            return 0;
    }
    return 1;
}

static int no_holes(const Walk *s)
{
    int32_t side = s->side, cells = side * side;
    for (int32_t i = 0; i < cells; i++)
        s->vis[i] = 0;
    static const int DQ[6] = {1, 1, 0, -1, -1, 0}, DR[6] = {-1, 0, 1, 1, 0, -1};
    s->vis[0] = 1;
    s->queue[0] = 0;
    int32_t head = 0, tail = 1;
    while (head < tail) {
        int32_t x = s->queue[head++];
        int32_t q = x % side, r = x / side;
        for (int d = 0; d < 6; d++) {
            int32_t nq = q + DQ[d], nr = r + DR[d];
            if (nq < 0 || nr < 0 || nq >= side || nr >= side)
                continue;
            int32_t y = x + s->dirs[d];
            if (!s->vis[y] && !s->occ[y]) {
                s->vis[y] = 1;
                s->queue[tail++] = y;
            }
        }
    }
    return tail == cells - s->n;
}

static void frontier(Walk *s, int k)
{
    int32_t base = k * 6 * s->n, nf = 0;
    for (int i = 0; i < k; i++) {
        int32_t c = s->lv_cell[i];
        for (int d = 0; d < 6; d++) {
            int32_t nb = c + s->dirs[d];
            if (s->occ[nb])
                continue;
            int seen = 0;
            for (int32_t f = 0; f < nf && !seen; f++)
                seen = s->front[base + f] == nb;
            if (!seen)
                s->front[base + nf++] = nb;
        }
    }
    s->lv_nf[k] = nf;
}

static int try_level(Walk *s, int k)
{
    int32_t j = s->lv_j[k];
    if (k < s->nw) {
        int32_t c = s->lv_cell[k], ncand = s->ncand;
        int side = k == 0 ? 3 : (s->pexit[s->lv_o[k - 1]] + 3) % 6;
        int left = s->nw - 1 - k;
        while (j < ncand) {
            int32_t o = k == 0 ? s->first[j] : s->ord[((int64_t)k * 6 + side) * ncand + j];
            j++;
            if (o < 0 || s->cnt[s->ptype[o]] == 0)
                continue;
            if ((s->pcode[o] & s->exp[s->nm[c]]) != s->cv[c])
                continue;
            int32_t nxt = c + s->dirs[s->pexit[o]];
            if (left == 0) {
                if (s->floop ? nxt != s->origin : s->occ[nxt] != 0)
                    continue;
            } else if (s->occ[nxt]) {
                continue;
            } else if (s->floop &&
                       (dist(s, nxt, s->beside) > left - 1 || (nxt == s->beside && left > 1))) {
                continue;
            }
            apply(s, c, o);
            s->lv_o[k] = o;
            if (goals_ok(s, k + 1, nxt, left) && (k + 1 < s->n || no_holes(s))) {
                s->lv_j[k] = j;
                return 1;
            }
            undo(s, c, o);
        }
        s->lv_j[k] = j;
        return 0;
    }
    int32_t nf = s->lv_nf[k], per = 6 * s->ntypes;
    while (j < nf * per) {
        int32_t c = s->front[k * 6 * s->n + j / per];
        int32_t ti = (j % per) / 6, rot = (j % per) % 6;
        j++;
        int32_t o = s->xoff + ti * 6 + rot;
        if (s->ptype[o] < 0 || s->cnt[ti] == 0 || s->occ[c])
            continue;
        if ((s->pcode[o] & s->exp[s->nm[c]]) != s->cv[c])
            continue;
        apply(s, c, o);
        s->lv_cell[k] = c;
        s->lv_o[k] = o;
        if (goals_ok(s, k + 1, -1, 0) && (k + 1 < s->n || no_holes(s))) {
            s->lv_j[k] = j;
            return 1;
        }
        undo(s, c, o);
    }
    s->lv_j[k] = j;
    return 0;
}

static long long run(Walk *s, long long budget, int *code)
{
    int k = (int)s->state[K], mode = (int)s->state[MODE];
    long long nodes = 0;
    *code = 0;
    for (;;) {
        if (mode == OPEN) {
            if (k == 0)
                s->lv_cell[0] = s->origin;
            else if (k < s->nw)
                s->lv_cell[k] = s->lv_cell[k - 1] + s->dirs[s->pexit[s->lv_o[k - 1]]];
            else
                frontier(s, k);
            s->lv_j[k] = 0;
        } else if (mode == RESUME) {
            undo(s, s->lv_cell[k], s->lv_o[k]);
        }
        mode = SCAN;
        if (try_level(s, k)) {
            nodes++;
            if (k == s->n - 1) {
                mode = RESUME;
                *code = 1;
                break;
            }
            k++;
            if (k > s->state[MAXD])
                s->state[MAXD] = k;
            mode = OPEN;
            if (nodes >= budget)
                break;
        } else if (k == 0) {
            *code = -1;
            break;
        } else {
            k--;
            mode = RESUME;
        }
    }
    s->state[K] = k;
    s->state[MODE] = mode;
    return nodes;
}

static PyObject *step(PyObject *self, PyObject *args)
{
    long long budget;
    Py_buffer v[NARR];
    if (take_step_args(args, NARR, NSTATIC, v, &budget) < 0)
        return NULL;
    if (v[NARR - 1].len < 3 * 8 || v[NSTATIC - 1].len < 9 * 4) {
        PyErr_SetString(PyExc_ValueError, "state or configuration array too short");
        goto fail;
    }
    Walk s;
    const int32_t **in[NSTATIC] = {&s.dirs, &s.qc,    &s.rc,    &s.ptype, &s.pcode,
                                   &s.pexit, &s.gmask, &s.xcarry, &s.gloop, &s.gtotal,
                                   &s.first, &s.exp,   &s.ord,   &s.cfg};
    for (int i = 0; i < NSTATIC; i++)
        *in[i] = v[i].buf;
    int32_t **io[NARR - NSTATIC - 1] = {&s.occ, &s.cv,    &s.nm,  &s.vis,  &s.queue, &s.cnt,
                                        &s.lv_cell, &s.lv_o, &s.lv_j, &s.lv_nf, &s.front};
    for (int i = 0; i < NARR - NSTATIC - 1; i++)
        *io[i] = v[NSTATIC + i].buf;
    s.state = v[NARR - 1].buf;
    s.n = s.cfg[C_N];
    s.nw = s.cfg[C_NW];
    s.origin = s.cfg[C_ORIGIN];
    s.beside = s.cfg[C_BESIDE];
    s.ncand = s.cfg[C_CANDS];
    s.xoff = s.cfg[C_XOFF];
    s.ng = s.cfg[C_NG];
    s.floop = s.cfg[C_FLOOP];
    s.side = s.cfg[C_SIDE];
    s.ntypes = (int32_t)(v[NSTATIC + 5].len / 4);
    if (s.n > MAXN || s.ng > MAXG) {
        PyErr_SetString(PyExc_ValueError, "too many tiles or goals for the compiled walk");
        goto fail;
    }
    int code = 0;
    long long nodes;
    Py_BEGIN_ALLOW_THREADS
    nodes = run(&s, budget < 1 ? 1 : budget, &code);
    Py_END_ALLOW_THREADS
    release_buffers(v, NARR);
    return Py_BuildValue("iL", code, nodes);
fail:
    release_buffers(v, NARR);
    return NULL;
}

static PyMethodDef methods[] = {
    {"step", step, METH_VARARGS, "Walk for at most `budget` placements."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_linewalk", "Compiled line walk for free-shape Tantrix.",
    -1, methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__linewalk(void) { return PyModule_Create(&module); }
