/* cardbot ismcts — exact endgame solver (see solve.h). */
#include "solve.h"

#include <stdlib.h>
#include <string.h>

int is_solver_init(is_solver *s, int log2_tt, int stack_cap)
{
    memset(s, 0, sizeof *s);
    size_t n = (size_t)1 << log2_tt;
    s->tt = calloc(n, sizeof *s->tt);
    s->stack = malloc((size_t)stack_cap * sizeof *s->stack);
    if (!s->tt || !s->stack) {
        is_solver_free(s);
        return -1;
    }
    s->tt_mask = (uint32_t)(n - 1);
    s->stack_cap = stack_cap;
    s->gen = 1;
    return 0;
}

void is_solver_free(is_solver *s)
{
    free(s->tt);
    free(s->stack);
    s->tt = NULL;
    s->stack = NULL;
}

void is_solver_reset(is_solver *s, const cb_rules *r, const uint8_t side[3])
{
    s->rules = r;
    memcpy(s->side, side, sizeof s->side);
    if (++s->gen == 0) {
        /* the generation wrapped: clear for real once in 4 billion decisions */
        memset(s->tt, 0, ((size_t)s->tt_mask + 1) * sizeof *s->tt);
        s->gen = 1;
    }
}

static inline int next_seat(int t) { return t == 2 ? 0 : t + 1; }

void is_pos_ctx(const is_pos *p, cb_ctx *ctx)
{
    ctx->hand = p->h[p->turn];
    ctx->table = p->tseat >= 0 ? &p->table : NULL;
    ctx->next_has_one = cb_counts_total(p->h[next_seat(p->turn)]) == 1;
    ctx->first_play = false; /* an endgame is never the deal's first play */
}

void is_pos_of_deal(const cb_deal *g, const cb_cards hands[3], is_pos *p)
{
    memset(p, 0, sizeof *p);
    for (int s = 0; s < 3; s++)
        p->h[s] = cb_counts_of(hands ? hands[s] : g->hands[s]);
    p->turn = (int8_t)g->turn;
    p->tseat = (int8_t)g->table_seat;
    p->npass = (int8_t)g->npass;
    if (g->table_seat >= 0)
        p->table = g->table;
}

int is_pos_apply(const cb_rules *r, is_pos *p, const cb_move *m)
{
    (void)r;
    int t = p->turn;
    if (m->shape == CB_PASS) {
        if (++p->npass >= 2) {
            p->turn = p->tseat;
            p->tseat = -1;
            p->npass = 0;
            memset(&p->table, 0, sizeof p->table);
        } else {
            p->turn = (int8_t)next_seat(t);
        }
        return -1;
    }
    p->h[t] -= m->counts;
    if (p->h[t] == 0)
        return t;
    p->table = *m;
    p->tseat = (int8_t)t;
    p->npass = 0;
    p->turn = (int8_t)next_seat(t);
    return -1;
}

static inline uint64_t mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static inline uint32_t meta_of(const is_pos *p)
{
    uint32_t m = (uint32_t)p->turn | (uint32_t)(p->tseat + 1) << 2 | (uint32_t)p->npass << 4;
    if (p->tseat >= 0)
        m |= (uint32_t)p->table.shape << 6 | (uint32_t)p->table.main << 11 | (uint32_t)p->table.len << 16;
    return m;
}

/* Plays that shed more cards first (they end games sooner and cut the search), the pass last. */
static void order_moves(cb_move *m, int n)
{
    for (int i = 1; i < n; i++) {
        cb_move x = m[i];
        int kx = x.shape == CB_PASS ? -1 : x.ncards;
        int j = i - 1;
        while (j >= 0 && (m[j].shape == CB_PASS ? -1 : m[j].ncards) < kx) {
            m[j + 1] = m[j];
            j--;
        }
        m[j + 1] = x;
    }
}

static bool rec(is_solver *s, const is_pos *p, int sp)
{
    if (++s->nodes > s->limit) {
        s->aborted = true;
        return false;
    }
    const cb_rules *r = s->rules;
    bool ours = s->side[p->turn] != 0;
    /* the transposition table */
    uint32_t meta = meta_of(p);
    cb_counts tk = p->tseat >= 0 ? p->table.counts : 0;
    uint64_t hsh = mix(p->h[0] ^ mix(p->h[1] ^ mix(p->h[2] ^ mix(tk ^ meta))));
    uint32_t slot = (uint32_t)hsh & s->tt_mask;
    for (int probe = 0; probe < 4; probe++) {
        const is_tt_entry *e = &s->tt[(slot + probe) & s->tt_mask];
        if (e->gen != s->gen)
            break;
        if (e->meta == meta && e->k[0] == p->h[0] && e->k[1] == p->h[1] && e->k[2] == p->h[2] && e->k[3] == tk) {
            s->tt_hits++;
            return e->win;
        }
    }
    cb_ctx ctx;
    is_pos_ctx(p, &ctx);
    bool win;
    if (cb_play_legal(r, &ctx, p->h[p->turn], NULL, NULL, 0)) {
        win = ours; /* the whole hand goes in one play */
    } else {
        int room = s->stack_cap - sp;
        cb_move *mv = s->stack + sp;
        int n = cb_legal_moves(r, &ctx, mv, room);
        if (n > room || n <= 0) {
            s->aborted = true;
            return false;
        }
        order_moves(mv, n);
        win = !ours; /* nothing found yet: the side to move loses unless a play wins for it */
        for (int i = 0; i < n; i++) {
            is_pos c = *p;
            int w = is_pos_apply(r, &c, &mv[i]);
            bool v = w >= 0 ? s->side[w] != 0 : rec(s, &c, sp + n);
            if (s->aborted)
                return false;
            if (v == ours) {
                win = ours;
                break;
            }
        }
    }
    /* store: the first free or stale slot of the probe window, else overwrite the last */
    is_tt_entry *e = NULL;
    for (int probe = 0; probe < 4; probe++) {
        e = &s->tt[(slot + probe) & s->tt_mask];
        if (e->gen != s->gen)
            break;
    }
    e->k[0] = p->h[0];
    e->k[1] = p->h[1];
    e->k[2] = p->h[2];
    e->k[3] = tk;
    e->meta = meta;
    e->gen = s->gen;
    e->win = win;
    return win;
}

int is_solve(is_solver *s, const is_pos *p, uint64_t node_limit)
{
    s->nodes = 0;
    s->limit = node_limit;
    s->aborted = false;
    s->solves++;
    bool v = rec(s, p, 0);
    s->total_nodes += s->nodes;
    if (s->aborted) {
        s->unknown++;
        return -1;
    }
    return v ? 1 : 0;
}
