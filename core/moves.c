/* cardbot — every legal play of a hand, by ranks (cb_legal_moves), and the universe of plays
 * (cb_universe).
 *
 * This is the hot path of every bot: rollouts call it millions of times. Plays are generated
 * directly per shape from the packed rank counts — a loop over ranks or runs for the main part,
 * then an enumeration of kicker multisets — never by classifying subsets. Leading lists every
 * shape; following lists only the table's shape (same length, higher main) plus bombs and the
 * rocket, and in PDK the whole hand when a short play of it may close the game (甩尾).
 *
 * Each multiset is listed once, with the reading cb_classify would give it (leading) or one
 * that beats the table (following). Most shapes are unique by construction: the main part is
 * the only rank (or run) holding that many cards. The exceptions are handled where they arise:
 *  - PDK planes: kickers are any cards outside the chain, so 3334445556 reads as 444555+3336,
 *    333444+5556 or the short 333444555+6. A generated plane is listed only when it is the
 *    first allowed reading of its multiset in the canonical order (pdk_plane_first).
 *    plane_single_wings adds the full plane + L singles of distinct ranks, listed by its own
 *    loop (pdk_plane1), which the short loop of L kickers then skips; plane_pair_wings lists
 *    its planes + L pairs directly (one reading each, like DDZ's).
 *  - NOIP four + two pairs of one rank (33334444): listed once, from the higher four.
 *  - PDK AAA with aaa_bomb: the bomb (canonical), never the bare triple.
 * DDZ needs nothing of the sort: its kicker rules (never three kickers of a rank next to the
 * chain, pairs of distinct ranks, ...) make every reading unique.
 *
 * cb_legal_moves_ex(CB_GEN_KICK_LOWEST) lists one play per kicker class (shape, main, len,
 * kick) instead: the big kicker loops (kick_rec, two_kickers) visit the layouts in increasing
 * order and stop at the first one listed; the small ones list as usual and put() folds each
 * class's layouts into its lowest as they come. Both rely on a class coming from one loop,
 * which holds: besides the loops there is only whole_hand_short, and it lists the hand only
 * when no loop listed a play of the hand's class (such a class, of plays as big as the hand,
 * has the hand as its one layout).
 */
#include "cardbot/rules.h"
#include "classify_int.h"
#include "moves_int.h"

#include <string.h>

#define RANKS_3_TO_A 0x0FFFu /* ranks that may sit in a chain */
#define RANKS_3_TO_2 0x1FFFu /* ranks that may pair, triple or bomb (no jokers) */

enum { SH_NONE, SH_WHOLE, SH_ANY }; /* PDK short plays: never, only the whole hand, always */

typedef struct gen {
    const cb_rules *r;
    const cb_move *table; /* NULL when leading */
    cb_move *out;
    int cap, n;
    cb_counts hand;
    int hand_n;
    int maxn;             /* most cards in one play (a hand's size) */
    int shorts;           /* SH_*: where PDK short plays may appear */
    unsigned m1, m2, m3, m4; /* ranks with at least 1, 2, 3 cards, and with 4 */
    unsigned t3;          /* ranks 3..A holding exactly 3 cards (PDK short planes) */
    bool w1, w2;          /* PDK plane_single_wings, plane_pair_wings */
    int max_pc;           /* most pairs in a pair chain (PDK max_pair_chain; else no cap) */
    bool need3;           /* spade3_first: the play must hold a 3 */
    bool warn;            /* warn_single: a single only of the hand's top rank */
    bool hand_done;       /* the whole hand is already listed */
    bool beat_plain, beat_bomb; /* following: a listed play beats as a non-bomb / bomb */
    /* CB_GEN_KICK_LOWEST: one play per kicker class (shape, main, len, kick). Every producer
     * lists the layouts of one class back to back, so the class's representative is always
     * the last play listed: last_key is its class (0: the last play has no kickers) and
     * last_counts its cards, replaced in place by any lower layout that follows. */
    bool lowest;
    uint32_t last_key;
    cb_counts last_counts;
} gen;

static inline cb_counts one(int r, int n) { return (cb_counts)n << (4 * r); }
static inline int cnt(const gen *g, int r) { return (int)(g->hand >> (4 * r) & 15); }

#define NIB_LOW 0x1111111111111111ull /* bit 0 of every nibble */

/* Bit 4i of x (one per rank nibble) moved to bit i: the per-rank masks of a counts word in a
 * few shifts instead of a loop over the ranks (this runs on every call). */
static inline unsigned nib_compress(uint64_t x)
{
    x = (x | x >> 3) & 0x0303030303030303ull;
    x = (x | x >> 6) & 0x000F000F000F000Full;
    x = (x | x >> 12) & 0x000000FF000000FFull;
    x = (x | x >> 24) & 0xFFFFull;
    return (unsigned)x;
}

/* Ranks 3..A holding exactly 3 cards in k: the only ranks a PDK plane's chain can use. */
static inline unsigned exact3(cb_counts k)
{
    uint64_t b0 = k & NIB_LOW, b1 = k >> 1 & NIB_LOW, b2 = k >> 2 & NIB_LOW, b3 = k >> 3 & NIB_LOW;
    return nib_compress(b0 & b1 & ~b2 & ~b3) & RANKS_3_TO_A;
}
static inline int lowbit(unsigned m) { return __builtin_ctz(m); }
static inline unsigned above(int lo) { return lo >= 32 ? 0 : ~0u << lo; }

/* Class of a kicker play for CB_GEN_KICK_LOWEST; never 0 (kick >= 1). */
static inline uint32_t kick_key(int shape, int main, int len, int kick)
{
    return (uint32_t)shape << 24 | (uint32_t)main << 16 | (uint32_t)len << 8 | (uint32_t)kick;
}

/* CB_GEN_KICK_LOWEST: fold a legal play m into the representative of its class when that was
 * the last play listed (keeping the lower layout); true when folded, false when m is to be
 * listed. Out of line: the common (full) generation keeps a small put(). */
static __attribute__((noinline)) bool fold_lowest(gen *g, const cb_move *m)
{
    uint32_t key = m->kick ? kick_key(m->shape, m->main, m->len, m->kick) : 0;
    if (key && key == g->last_key) {
        if (m->counts < g->last_counts) { /* a lower layout of the class just listed */
            g->last_counts = m->counts;
            if (g->n - 1 < g->cap)
                g->out[g->n - 1] = *m;
        }
        return true;
    }
    g->last_key = key;
    g->last_counts = m->counts;
    return false;
}

/* List one play, after the filters that apply to every shape. Returns whether it was listed
 * (under CB_GEN_KICK_LOWEST: whether it is legal here, even when its class's lower layout
 * stays the representative). */
static inline bool put(gen *g, cb_counts k, int shape, int main, int len, int nc, int kick)
{
    if (nc > g->maxn || (g->need3 && !(k & 0xF)))
        return false;
    cb_move m;
    m.counts = k;
    m.shape = (uint8_t)shape;
    m.main = (uint8_t)main;
    m.len = (uint8_t)len;
    m.ncards = (uint8_t)nc;
    m.kick = (uint8_t)kick;
    m.pad[0] = m.pad[1] = m.pad[2] = 0;
    if (g->table) {
        const cb_move *t = g->table;
        /* the table's own shape, length and size: cb_beats' answer is the main rank's order
         * (true of bombs too); answered here because following lists are mostly this case */
        bool same = shape == t->shape && len == t->len && nc == t->ncards &&
                    !(g->w1 && shape == CB_PLANE_1); /* full and short share that shape */
        if (same ? main <= t->main : !cb_beats(g->r, &m, t, k == g->hand))
            return false;
        if (cb_move_is_bomb(&m))
            g->beat_bomb = true;
        else
            g->beat_plain = true;
    }
    if (k == g->hand)
        g->hand_done = true;
    if (g->lowest && fold_lowest(g, &m))
        return true;
    if (g->n < g->cap)
        g->out[g->n] = m;
    g->n++;
    return true;
}

/* May a short reading of k be played here? */
static inline bool short_ok(const gen *g, cb_counts k)
{
    return g->shorts == SH_ANY || (g->shorts == SH_WHOLE && k == g->hand);
}

/* ---- plain shapes ---- */

static void gen_singles(gen *g, int lo)
{
    unsigned m = g->m1 & above(lo);
    if (!m)
        return;
    if (g->warn) /* 报单必顶: only the top rank may go out as a single */
        m &= 1u << cb_counts_top(g->hand);
    for (; m; m &= m - 1) {
        int r = lowbit(m);
        put(g, one(r, 1), CB_SINGLE, r, 1, 1, 0);
    }
}

static void gen_pairs(gen *g, int lo)
{
    for (unsigned m = g->m2 & RANKS_3_TO_2 & above(lo); m; m &= m - 1) {
        int r = lowbit(m);
        put(g, one(r, 2), CB_PAIR, r, 1, 2, 0);
    }
}

static void gen_triples(gen *g, int lo)
{
    unsigned m = g->m3 & RANKS_3_TO_2 & above(lo);
    if (g->r->game == CB_GAME_PDK && g->r->aaa_bomb)
        m &= ~(1u << CB_RANK_A); /* AAA reads first as the bomb: gen_bombs lists it */
    for (; m; m &= m - 1) {
        int t = lowbit(m);
        put(g, one(t, 3), CB_TRIPLE, t, 1, 3, 0);
    }
}

/* Triple + 1: the kicker is any other rank (DDZ / NOIP: a joker too). */
static void gen_triple1(gen *g, int lo)
{
    for (unsigned m = g->m3 & RANKS_3_TO_2 & above(lo); m; m &= m - 1) {
        int t = lowbit(m);
        cb_counts base = one(t, 3);
        for (unsigned y = g->m1 & ~(1u << t); y; y &= y - 1)
            put(g, base + one(lowbit(y), 1), CB_TRIPLE_1, t, 1, 4, 1);
    }
}

/* Two kicker cards from ranks in `avail`: a pair (pair_ok) or two different ranks (never X and
 * D together unless xd_ok). Shared by PDK 三带二 and four + 2. */
static void two_kickers(gen *g, cb_counts base, unsigned avail, bool pair_ok, bool xd_ok,
                        int shape, int main, int nc)
{
    if (g->lowest) {
        /* one layout wanted: the same candidates in increasing order (by the higher kicker,
         * then the lower; the pair of a rank after every two-rank layout topped by it), so the
         * first one listed is the lowest and the rest need not be looked at */
        unsigned singles = g->m1 & avail;
        unsigned pairs = pair_ok ? g->m2 & RANKS_3_TO_2 & avail : 0;
        for (unsigned bm = singles; bm; bm &= bm - 1) {
            int b = lowbit(bm);
            unsigned below = singles & ((1u << b) - 1);
            if (b == CB_RANK_D && !xd_ok)
                below &= ~(1u << CB_RANK_X);
            for (; below; below &= below - 1)
                if (put(g, base + one(lowbit(below), 1) + one(b, 1), shape, main, 1, nc, 2))
                    return;
            if ((pairs >> b & 1) && put(g, base + one(b, 2), shape, main, 1, nc, 2))
                return;
        }
        return;
    }
    if (pair_ok)
        for (unsigned p = g->m2 & RANKS_3_TO_2 & avail; p; p &= p - 1)
            put(g, base + one(lowbit(p), 2), shape, main, 1, nc, 2);
    for (unsigned a = g->m1 & avail; a; a &= a - 1) {
        int y = lowbit(a);
        unsigned b = a & (a - 1);
        if (y == CB_RANK_X && !xd_ok)
            b &= ~(1u << CB_RANK_D);
        for (; b; b &= b - 1)
            put(g, base + one(y, 1) + one(lowbit(b), 1), shape, main, 1, nc, 2);
    }
}

/* Triple + 2: DDZ / NOIP a pair of another (non-joker) rank; PDK 三带二 any two other cards. */
static void gen_triple2(gen *g, int lo)
{
    bool pdk = g->r->game == CB_GAME_PDK;
    for (unsigned m = g->m3 & RANKS_3_TO_2 & above(lo); m; m &= m - 1) {
        int t = lowbit(m);
        if (pdk) {
            two_kickers(g, one(t, 3), ~(1u << t), true, true, CB_TRIPLE_2, t, 5);
        } else {
            for (unsigned p = g->m2 & RANKS_3_TO_2 & ~(1u << t); p; p &= p - 1)
                put(g, one(t, 3) + one(lowbit(p), 2), CB_TRIPLE_2, t, 1, 5, 2);
        }
    }
}

static void gen_bombs(gen *g, int lo)
{
    for (unsigned m = g->m4 & RANKS_3_TO_2 & above(lo); m; m &= m - 1) {
        int r = lowbit(m);
        put(g, one(r, 4), CB_BOMB, r, 1, 4, 0);
    }
    const cb_rules *r = g->r;
    if (r->game == CB_GAME_PDK && r->aaa_bomb && cnt(g, CB_RANK_A) >= 3 && lo <= CB_MAIN_AAA) {
        cb_counts k = one(CB_RANK_A, 3);
        if (put(g, k, CB_BOMB, CB_MAIN_AAA, 1, 3, 0) && g->table && short_ok(g, k)) {
            /* AAA also reads as a bare triple; if that reading beats too, a non-bomb play
             * beats the table (must_beat counts it as such) */
            cb_move t = {.counts = k, .shape = CB_TRIPLE, .main = CB_RANK_A, .len = 1, .ncards = 3};
            if (cb_beats(r, &t, g->table, k == g->hand))
                g->beat_plain = true;
        }
    }
}

static void gen_rocket(gen *g)
{
    if (g->r->game != CB_GAME_PDK && cnt(g, CB_RANK_X) && cnt(g, CB_RANK_D))
        put(g, one(CB_RANK_X, 1) + one(CB_RANK_D, 1), CB_ROCKET, CB_RANK_X, 1, 2, 0);
}

/* ---- chains: straights, pair chains, bare planes ---- */

/* Every run of `width` cards per rank over consecutive ranks of 3..A with main >= lo and
 * minlen <= length (== fixlen when fixlen > 0). */
static void gen_chains(gen *g, unsigned mask, int width, int minlen, int lo, int fixlen, int shape)
{
    mask &= RANKS_3_TO_A;
    int maxlen = g->maxn / width;
    if (shape == CB_PAIR_CHAIN && maxlen > g->max_pc)
        maxlen = g->max_pc;
    if (fixlen) {
        if (fixlen > maxlen || fixlen < minlen)
            return;
        minlen = maxlen = fixlen;
    }
    for (int s = lo; s <= CB_RANK_A - minlen + 1; s++) {
        if (!(mask >> s & 1))
            continue;
        cb_counts k = 0;
        for (int len = 1; len <= maxlen && s + len - 1 <= CB_RANK_A && (mask >> (s + len - 1) & 1);
             len++) {
            k += one(s + len - 1, width);
            if (len >= minlen)
                put(g, k, shape, s, len, width * len, 0);
        }
    }
}

/* ---- kicker multisets ---- */

/* The kickers of one main part: `need` cards from the listed ranks, at most cap[i] of rank[i]. */
typedef struct kspec {
    cb_counts base;
    int shape, main, len, nbase, need;
    int nr;
    uint8_t rank[CB_NRANKS], cap[CB_NRANKS], rem[CB_NRANKS + 1]; /* rem[i] = sum of cap[i..] */
    bool xd_ok;      /* X and D may both ride */
    bool pdk_plane;  /* list only when this is the multiset's first allowed plane reading */
    bool skip_distinct; /* short planes + L kickers under plane_single_wings: the layouts of L
                         * distinct ranks are full planes, listed by pdk_plane1's own loop */
} kspec;

static bool pdk_plane_first(gen *g, cb_counts k, int n, int shape, int main, int len);

static void kspec_finish(kspec *ks)
{
    ks->rem[ks->nr] = 0;
    for (int i = ks->nr - 1; i >= 0; i--)
        ks->rem[i] = (uint8_t)(ks->rem[i + 1] + ks->cap[i]);
}

/* One kicker layout found: list it unless a rule of the shape refuses it. Returns whether it
 * was listed. */
static inline __attribute__((always_inline)) bool kick_done(gen *g, const kspec *ks, cb_counts acc)
{
    if (!ks->xd_ok && (acc >> (4 * CB_RANK_X) & 15) && (acc >> (4 * CB_RANK_D) & 15))
        return false;
    if (ks->skip_distinct && cb_counts_distinct(acc))
        return false;
    cb_counts k = ks->base + acc;
    int nc = ks->nbase + ks->need;
    if (ks->pdk_plane && !pdk_plane_first(g, k, nc, ks->shape, ks->main, ks->len))
        return false;
    return put(g, k, ks->shape, ks->main, ks->len, nc, ks->need);
}

/* Every layout: ranks from the lowest up. */
static void kick_rec(gen *g, const kspec *ks, int i, int left, cb_counts acc)
{
    if (left == 0) {
        kick_done(g, ks, acc);
        return;
    }
    if (ks->rem[i] < left)
        return;
    int r = ks->rank[i], cap = ks->cap[i] < left ? ks->cap[i] : left;
    for (int t = 0; t <= cap; t++)
        kick_rec(g, ks, i + 1, left - t, acc + one(r, t));
}

/* The layouts in increasing order of their counts word (ranks from the highest down, fewest
 * cards of each first), stopping at the first one listed: it is the lowest. Returns whether
 * one was listed. */
static bool kick_rec_low(gen *g, const kspec *ks, int i, int left, cb_counts acc)
{
    if (left == 0)
        return kick_done(g, ks, acc);
    if (i < 0)
        return false;
    int below = ks->rem[0] - ks->rem[i]; /* room in the ranks under rank[i] */
    int t = left > below ? left - below : 0;
    int cap = ks->cap[i] < left ? ks->cap[i] : left;
    for (; t <= cap; t++)
        if (kick_rec_low(g, ks, i - 1, left - t, acc + one(ks->rank[i], t)))
            return true;
    return false;
}

/* The layouts of one main part; CB_GEN_KICK_LOWEST stops at the lowest one listed. (That
 * leaves hand_done unset when the hand is a later layout, harmlessly: whole_hand_short lists
 * the hand under a class only when no loop listed a play of that class, since a class of plays
 * as big as the hand has one layout, the hand itself.) */
static void kick_gen(gen *g, const kspec *ks)
{
    if (g->lowest)
        kick_rec_low(g, ks, ks->nr - 1, ks->need, 0);
    else
        kick_rec(g, ks, 0, ks->need, 0);
}

/* Kicker ranks: every held rank in `avail`, up to `most` cards of each. */
static void kspec_ranks(const gen *g, kspec *ks, unsigned avail, int most)
{
    ks->nr = 0;
    for (unsigned m = g->m1 & avail; m; m &= m - 1) {
        int r = lowbit(m);
        ks->rank[ks->nr] = (uint8_t)r;
        int c = cnt(g, r);
        ks->cap[ks->nr] = (uint8_t)(c < most ? c : most);
        ks->nr++;
    }
    kspec_finish(ks);
}

/* ---- planes with kickers ---- */

static inline unsigned run_mask(int s, int len) { return ((1u << len) - 1) << s; }

/* DDZ plane + one single per triple: kickers outside the chain, repeats allowed, never four of
 * a rank, never three of a rank next to the chain (a longer plane), never both jokers unless
 * rocket_kickers. */
static void ddz_plane1(gen *g, int s, int len)
{
    kspec ks;
    ks.base = 0;
    for (int i = s; i < s + len; i++)
        ks.base += one(i, 3);
    ks.shape = CB_PLANE_1;
    ks.main = s;
    ks.len = len;
    ks.nbase = 3 * len;
    ks.need = len;
    ks.xd_ok = g->r->rocket_kickers;
    ks.pdk_plane = false;
    ks.skip_distinct = false;
    kspec_ranks(g, &ks, ~run_mask(s, len), 3);
    for (int i = 0; i < ks.nr; i++) {
        int r = ks.rank[i];
        if ((r == s - 1 || r == s + len) && r <= CB_RANK_A && ks.cap[i] > 2)
            ks.cap[i] = 2;
    }
    kspec_finish(&ks);
    kick_gen(g, &ks);
}

/* Plane + one pair per triple (DDZ; PDK plane_pair_wings): pairs of distinct non-joker ranks
 * outside the chain. Such a multiset has no other reading (its only ranks of exactly 3 cards
 * are the chain's, and no shorter chain leaves fewer than 2L' kickers), so no canonical check. */
static void ddz_pairs_rec(gen *g, cb_counts k, unsigned avail, int left, int s, int len)
{
    if (!left) {
        put(g, k, CB_PLANE_2, s, len, 5 * len, 2 * len);
        return;
    }
    for (; avail && __builtin_popcount(avail) >= left; avail &= avail - 1)
        ddz_pairs_rec(g, k + one(lowbit(avail), 2), avail & (avail - 1), left - 1, s, len);
}

/* PDK plane (any shape of the family) from chain s..s+len-1 with `need` kickers: any cards of
 * ranks outside the chain, at most `most` of a rank (4: any; 1: plane_single_wings).
 * skip_distinct: see kspec. */
static void pdk_plane_ex(gen *g, int shape, int s, int len, int need, int most, bool skip_distinct)
{
    kspec ks;
    ks.base = 0;
    for (int i = s; i < s + len; i++)
        ks.base += one(i, 3);
    ks.shape = shape;
    ks.main = s;
    ks.len = len;
    ks.nbase = 3 * len;
    ks.need = need;
    ks.xd_ok = true;
    ks.pdk_plane = true;
    ks.skip_distinct = skip_distinct;
    if (ks.nbase + need > g->maxn)
        return;
    kspec_ranks(g, &ks, ~run_mask(s, len), most);
    kick_gen(g, &ks);
}

static void pdk_plane(gen *g, int shape, int s, int len, int need)
{
    pdk_plane_ex(g, shape, s, len, need, 4, false);
}

/* PDK plane of kickers `need` = 1..2L-1 (need_fixed: that one): plane_single_wings' full
 * plane + L distinct singles, and (short plays allowed anywhere) the short planes. Listed
 * back to back for one chain and kicker count: CB_GEN_KICK_LOWEST folds the two into one
 * class (CB_PLANE_1, main, len, L). */
static void pdk_plane1(gen *g, int s, int len, int need_fixed)
{
    int n0 = need_fixed ? need_fixed : 1, n1 = need_fixed ? need_fixed : 2 * len - 1;
    for (int need = n0; need <= n1; need++) {
        bool singles = g->w1 && need == len;
        if (singles)
            pdk_plane_ex(g, CB_PLANE_1, s, len, need, 1, false);
        if (g->shorts == SH_ANY)
            pdk_plane_ex(g, CB_PLANE_1, s, len, need, 4, singles);
    }
}

/* Every chain of triples s..s+len-1 (main >= lo, len == fixlen when fixlen > 0) and the plane
 * shape `shape` on it. need_fixed: PDK plane_1 following a table of that many kickers. */
static void gen_planes(gen *g, int shape, int lo, int fixlen, int need_fixed)
{
    const cb_rules *r = g->r;
    unsigned m = g->m3 & RANKS_3_TO_A;
    for (int s = lo; s < CB_RANK_A; s++) {
        if (!(m >> s & 1))
            continue;
        for (int len = 2; s + len - 1 <= CB_RANK_A && (m >> (s + len - 1) & 1); len++) {
            if (fixlen && len != fixlen)
                continue;
            if (r->game == CB_GAME_PDK) {
                if (shape == CB_PLANE_2 && g->w2) {
                    if (5 * len > g->maxn)
                        break;
                    ddz_pairs_rec(g, cb_plane_body(s, len),
                                  g->m2 & RANKS_3_TO_2 & ~run_mask(s, len), len, s, len);
                } else if (shape == CB_PLANE_2) {
                    pdk_plane(g, CB_PLANE_2, s, len, 2 * len);
                } else if (shape == CB_PLANE) {
                    pdk_plane(g, CB_PLANE, s, len, 0);
                } else {
                    pdk_plane1(g, s, len, need_fixed);
                }
            } else if (shape == CB_PLANE_1) {
                if (4 * len <= g->maxn)
                    ddz_plane1(g, s, len);
            } else if (shape == CB_PLANE_2) {
                if (5 * len > g->maxn)
                    break;
                cb_counts base = 0;
                for (int i = s; i < s + len; i++)
                    base += one(i, 3);
                ddz_pairs_rec(g, base, g->m2 & RANKS_3_TO_2 & ~run_mask(s, len), len, s, len);
            }
        }
    }
}

/* The PDK plane readings in the canonical order, as classes: a full plane + 2L kickers, a full
 * plane + L single kickers (plane_single_wings), a short plane + kickers, a bare plane. */
enum { PC_FULL2, PC_SINGLES, PC_SHORT1, PC_BARE, PC_NONE };
static const uint8_t pc_shape[PC_NONE] = { CB_PLANE_2, CB_PLANE_1, CB_PLANE_1, CB_PLANE };

/* The class of the PDK plane reading of k (n cards) on the chain s..s+L-1 (ranks holding
 * exactly 3), or PC_NONE: the reading rules of classify.c's read_planes, by kicker count. */
static int pdk_plane_class(const gen *g, cb_counts k, int n, int s, int L)
{
    int kick = n - 3 * L;
    if (kick == 0)
        return PC_BARE;
    if (kick == 2 * L)
        return !g->w2 || cb_counts_pairs(k - cb_plane_body(s, L)) ? PC_FULL2 : PC_NONE;
    if (kick > 2 * L)
        return PC_NONE;
    if (g->w1 && kick == L && cb_counts_distinct(k - cb_plane_body(s, L)))
        return PC_SINGLES;
    return PC_SHORT1;
}

/* PDK: is (shape, main, len) the first reading of the plane-family multiset k (n cards) that is
 * allowed here, in the canonical order (full planes: + 2L, then + L singles; then short: plane +
 * fewer kickers, then bare; longer chains first; higher main first)? A chain's ranks hold
 * exactly 3 cards (kickers never share a chain rank), so the candidate chains are the runs of
 * ranks holding exactly 3. One chain has one reading (its class follows from k), so (shape,
 * main, len) names it. */
static bool pdk_plane_first(gen *g, cb_counts k, int n, int shape, int main, int len)
{
    unsigned t3 = exact3(k);
    /* The common case, answered without the search: a full plane whose kickers hold no third
     * card of any rank. Its chain is then the only run of triples in k, and a full reading of
     * n = 5L cards needs a run of exactly L (a single-wings one would need 5L/4 > L triples),
     * so it is the first reading there is; whether it beats the table is put()'s check, the
     * same one the search would make. Likewise a single-wings plane of n = 4L cards with L <= 4
     * (any PDK hand): a shorter chain L' of its run leaves 4L - 3L' kickers, a reading only
     * when that is 2L' or less than 2L', i.e. 0.8 L <= L' < L: none below L = 5. */
    if (t3 == run_mask(main, len)) {
        if (shape == CB_PLANE_2 && n == 5 * len && !g->w2)
            return true;
        if (shape == CB_PLANE_1 && n == 4 * len && len <= 4 &&
            pdk_plane_class(g, k, n, main, len) == PC_SINGLES)
            return true;
    }
    bool whole = k == g->hand, shorts = short_ok(g, k);
    for (int cls = PC_FULL2; cls < PC_NONE; cls++) {
        if (cls >= PC_SHORT1 && !shorts)
            break;
        if (cls == PC_SINGLES && !g->w1)
            continue;
        for (int L = n / 3; L >= 2; L--) {
            int kick = n - 3 * L;
            bool fits = cls == PC_FULL2 ? kick == 2 * L
                      : cls == PC_SINGLES ? kick == L
                      : cls == PC_SHORT1 ? kick >= 1 && kick < 2 * L : kick == 0;
            if (!fits)
                continue;
            for (int s = CB_RANK_A - L + 1; s >= 0; s--) {
                if ((t3 & run_mask(s, L)) != run_mask(s, L) ||
                    pdk_plane_class(g, k, n, s, L) != cls)
                    continue;
                int sh = pc_shape[cls];
                if (g->table) {
                    cb_move m = {.counts = k, .shape = (uint8_t)sh, .main = (uint8_t)s,
                                 .len = (uint8_t)L, .ncards = (uint8_t)n, .kick = (uint8_t)kick};
                    if (!cb_beats(g->r, &m, g->table, whole))
                        continue;
                }
                return sh == shape && s == main && L == len;
            }
        }
    }
    return false;
}

/* ---- four + kickers ---- */

static void gen_four2(gen *g, int lo)
{
    const cb_rules *r = g->r;
    bool pair_ok = r->game != CB_GAME_NOIP || r->four_two_same;
    bool xd_ok = r->game != CB_GAME_DDZ || r->rocket_kickers;
    for (unsigned m = g->m4 & RANKS_3_TO_2 & above(lo); m; m &= m - 1) {
        int f = lowbit(m);
        two_kickers(g, one(f, 4), ~(1u << f), pair_ok, xd_ok, CB_FOUR_2, f, 6);
    }
}

/* Four + two pairs: of two different non-joker ranks; NOIP also two pairs of one rank, listed
 * from the higher four (33334444 reads with main 3 or 4: canonical is 4). */
static void gen_four22(gen *g, int lo)
{
    for (unsigned m = g->m4 & RANKS_3_TO_2 & above(lo); m; m &= m - 1) {
        int f = lowbit(m);
        cb_counts base = one(f, 4);
        unsigned avail = g->m2 & RANKS_3_TO_2 & ~(1u << f);
        for (unsigned a = avail; a; a &= a - 1)
            for (unsigned b = a & (a - 1); b; b &= b - 1)
                put(g, base + one(lowbit(a), 2) + one(lowbit(b), 2), CB_FOUR_22, f, 1, 8, 4);
        if (g->r->game == CB_GAME_NOIP)
            for (unsigned q = g->m4 & RANKS_3_TO_2 & ((1u << f) - 1); q; q &= q - 1)
                put(g, base + one(lowbit(q), 4), CB_FOUR_22, f, 1, 8, 4);
    }
}

/* PDK four + 3: any three cards of other ranks. */
static void gen_four3(gen *g, int lo)
{
    for (unsigned m = g->m4 & RANKS_3_TO_2 & above(lo); m; m &= m - 1) {
        int f = lowbit(m);
        kspec ks;
        ks.base = one(f, 4);
        ks.shape = CB_FOUR_3;
        ks.main = f;
        ks.len = 1;
        ks.nbase = 4;
        ks.need = 3;
        ks.xd_ok = true;
        ks.pdk_plane = false;
        ks.skip_distinct = false;
        kspec_ranks(g, &ks, ~(1u << f), 4);
        kick_gen(g, &ks);
    }
}

/* ---- PDK: the whole hand as a short play ---- */

/* Under short_triple = last a short play must empty the hand: the only candidate is the hand
 * itself. Listed (with its first allowed reading) unless a full reading already listed it. */
static void whole_hand_short(gen *g)
{
    if (g->hand_done || g->hand_n > g->maxn || g->hand_n < 3)
        return;
    cb_counts k = g->hand;
    int n = g->hand_n;
    if (n >= 6) {
        /* a plane needs two adjacent ranks of exactly 3 cards: most hands have none */
        unsigned t3 = g->t3;
        if (!(t3 & t3 >> 1))
            return;
        /* the first allowed reading: pdk_plane_first answers yes for exactly that one */
        for (int sh = CB_PLANE_1; sh >= CB_PLANE; sh--)
            for (int L = n / 3; L >= 2; L--)
                for (int s = CB_RANK_A - L + 1; s >= 0; s--)
                    if ((t3 & run_mask(s, L)) == run_mask(s, L) &&
                        pdk_plane_first(g, k, n, sh, s, L)) {
                        put(g, k, sh, s, L, n, n - 3 * L);
                        return;
                    }
        return;
    }
    if (n > 4)
        return;
    for (unsigned m = g->m3 & RANKS_3_TO_2; m; m &= m - 1) {
        int t = lowbit(m);
        if (cnt(g, t) != 3)
            continue;
        put(g, k, n == 3 ? CB_TRIPLE : CB_TRIPLE_1, t, 1, n, n - 3);
        return;
    }
}

/* ---- driver ---- */

static void gen_init(gen *g, const cb_rules *r, const cb_ctx *ctx, const cb_move *table,
                     cb_move *out, int cap)
{
    g->r = r;
    g->table = table;
    g->out = out;
    g->cap = out ? cap : 0;
    g->n = 0;
    g->hand = ctx->hand & 0x0FFFFFFFFFFFFFFFull;
    g->maxn = cb_max_play_cards(r);
    /* rank masks from the bits of each count (a count >= 4 has bit 2 or bit 3 set, ...) */
    uint64_t h = g->hand;
    uint64_t b0 = h & NIB_LOW, b1 = h >> 1 & NIB_LOW, b2 = h >> 2 & NIB_LOW, b3 = h >> 3 & NIB_LOW;
    g->m1 = nib_compress(b0 | b1 | b2 | b3);
    g->m2 = nib_compress(b1 | b2 | b3);
    g->m3 = nib_compress((b0 & b1) | b2 | b3);
    g->m4 = nib_compress(b2 | b3);
    g->t3 = exact3(h);
    g->hand_n = cb_counts_total(h);
    if (r->game != CB_GAME_PDK)
        g->shorts = SH_ANY; /* no short plays there: bare triples and planes are ordinary */
    else
        g->shorts = r->short_triple == CB_SHORT_ALWAYS ? SH_ANY
                  : r->short_triple == CB_SHORT_NEVER ? SH_NONE : SH_WHOLE;
    bool pdk = r->game == CB_GAME_PDK;
    g->w1 = pdk && r->plane_single_wings;
    g->w2 = pdk && r->plane_pair_wings;
    g->max_pc = pdk && r->max_pair_chain ? r->max_pair_chain : CB_NRANKS;
    g->need3 = cb_need_spade3(r, ctx, table != NULL);
    g->warn = r->warn_single && ctx->next_has_one;
    g->hand_done = false;
    g->beat_plain = g->beat_bomb = false;
    g->lowest = false;
    g->last_key = 0;
    g->last_counts = 0;
}

static int min_pairs(const cb_rules *r) { return r->min_pair_chain < 2 ? 2 : r->min_pair_chain; }

static void lead(gen *g)
{
    const cb_rules *r = g->r;
    gen_singles(g, 0);
    gen_pairs(g, 0);
    gen_chains(g, g->m1, 1, 5, 0, 0, CB_STRAIGHT);
    gen_chains(g, g->m2, 2, min_pairs(r), 0, 0, CB_PAIR_CHAIN);
    gen_triple2(g, 0);
    gen_bombs(g, 0);
    switch (r->game) {
    case CB_GAME_DDZ:
    case CB_GAME_NOIP:
        gen_triples(g, 0);
        gen_triple1(g, 0);
        gen_chains(g, g->m3, 3, 2, 0, 0, CB_PLANE);
        if (r->game == CB_GAME_DDZ) {
            gen_planes(g, CB_PLANE_1, 0, 0, 0);
            gen_planes(g, CB_PLANE_2, 0, 0, 0);
        }
        gen_four2(g, 0);
        gen_four22(g, 0);
        gen_rocket(g);
        break;
    case CB_GAME_PDK:
        gen_planes(g, CB_PLANE_2, 0, 0, 0);
        if (r->four_with & CB_FOUR_WITH_2)
            gen_four2(g, 0);
        if (r->four_with & CB_FOUR_WITH_3)
            gen_four3(g, 0);
        if (g->shorts == SH_ANY) {
            gen_triples(g, 0);
            gen_triple1(g, 0);
            gen_planes(g, CB_PLANE, 0, 0, 0);
            gen_planes(g, CB_PLANE_1, 0, 0, 0); /* with the single-wings planes, if any */
        } else {
            if (g->w1)
                gen_planes(g, CB_PLANE_1, 0, 0, 0); /* the full single-wings planes only */
            if (g->shorts == SH_WHOLE)
                whole_hand_short(g);
        }
        break;
    }
}

static void follow(gen *g)
{
    const cb_rules *r = g->r;
    const cb_move *t = g->table;
    bool pdk = r->game == CB_GAME_PDK;
    bool shorts = g->shorts == SH_ANY; /* short tables: any short of that shape may follow */
    int lo = t->main + 1;
    switch (t->shape) {
    case CB_SINGLE: gen_singles(g, lo); break;
    case CB_PAIR: gen_pairs(g, lo); break;
    case CB_TRIPLE: if (shorts) gen_triples(g, lo); break;
    case CB_TRIPLE_1: if (shorts) gen_triple1(g, lo); break;
    case CB_TRIPLE_2: gen_triple2(g, lo); break;
    case CB_STRAIGHT: gen_chains(g, g->m1, 1, 5, lo, t->len, CB_STRAIGHT); break;
    case CB_PAIR_CHAIN: gen_chains(g, g->m2, 2, min_pairs(r), lo, t->len, CB_PAIR_CHAIN); break;
    case CB_PLANE:
        if (!shorts)
            break;
        if (pdk)
            gen_planes(g, CB_PLANE, lo, t->len, 0);
        else
            gen_chains(g, g->m3, 3, 2, lo, t->len, CB_PLANE);
        break;
    case CB_PLANE_1:
        /* PDK: planes + as many kickers; short ones only where short plays may go anywhere,
         * full single-wings ones (of a full or a short table) under plane_single_wings */
        if (r->game == CB_GAME_DDZ ||
            (pdk && t->ncards > 3 * t->len && (shorts || (g->w1 && t->ncards == 4 * t->len))))
            gen_planes(g, CB_PLANE_1, lo, t->len, pdk ? t->ncards - 3 * t->len : 0);
        break;
    case CB_PLANE_2:
        if (r->game != CB_GAME_NOIP)
            gen_planes(g, CB_PLANE_2, lo, t->len, 0);
        break;
    case CB_FOUR_2:
        if (!pdk || (r->four_with & CB_FOUR_WITH_2))
            gen_four2(g, lo);
        break;
    case CB_FOUR_22: if (!pdk) gen_four22(g, lo); break;
    case CB_FOUR_3: if (pdk && (r->four_with & CB_FOUR_WITH_3)) gen_four3(g, lo); break;
    default: break;
    }
    if (t->shape != CB_ROCKET) {
        gen_bombs(g, t->shape == CB_BOMB ? lo : 0);
        gen_rocket(g);
    }
    if (pdk && g->shorts != SH_NONE)
        whole_hand_short(g); /* 甩尾: the last cards as a short play over the full shape */
}

int cb_legal_moves(const cb_rules *r, const cb_ctx *ctx, cb_move *out, int cap)
{
    return cb_legal_moves_ex(r, ctx, out, cap, 0);
}

int cb_legal_moves_ex(const cb_rules *r, const cb_ctx *ctx, cb_move *out, int cap, unsigned flags)
{
    if (!r || !ctx)
        return 0;
    if (!out || cap < 0)
        cap = 0;
    const cb_move *table = ctx->table && ctx->table->shape != CB_PASS ? ctx->table : NULL;
    bool lowest = (flags & CB_GEN_KICK_LOWEST) != 0;
    gen g;
    if (!table) {
        gen_init(&g, r, ctx, NULL, out, cap);
        g.lowest = lowest;
        lead(&g);
        return g.n;
    }
    static const cb_move pass; /* all zero: shape CB_PASS, no cards */
    if (!r->must_beat) {
        /* the pass is always allowed: it takes slot 0, the plays follow */
        if (cap > 0)
            out[0] = pass;
        gen_init(&g, r, ctx, table, cap > 0 ? out + 1 : NULL, cap - 1);
        g.lowest = lowest;
        follow(&g);
        return g.n + 1;
    }
    gen_init(&g, r, ctx, table, out, cap);
    g.lowest = lowest;
    follow(&g);
    if (g.beat_plain || (r->must_beat_bomb && g.beat_bomb))
        return g.n; /* must beat: no pass */
    int kept = g.n < cap ? g.n : cap - 1; /* make room for the pass in front */
    if (kept > 0)
        memmove(out + 1, out, (size_t)kept * sizeof *out);
    if (cap > 0)
        out[0] = pass;
    return g.n + 1;
}

int cb_universe(const cb_rules *r, cb_move *out, int cap)
{
    if (!r)
        return 0;
    /* leading from the whole deck, flow rules off; a short play is in the universe whenever
     * the rules have short plays at all (under `last` it is legal as a hand's last play) */
    cb_rules u = *r;
    u.must_beat = u.must_beat_bomb = u.spade3_first = u.warn_single = false;
    if (u.game == CB_GAME_PDK && u.short_triple == CB_SHORT_LAST)
        u.short_triple = CB_SHORT_ALWAYS;
    cb_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.hand = cb_counts_of(r->deck);
    return cb_legal_moves(&u, &ctx, out, cap);
}
