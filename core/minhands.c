/* cardbot — min-hands: the exact fewest plays that empty a hand (cb_min_hands).
 *
 * A partition of the hand into plays (as a leader, flow flags ignored) has two kinds of parts:
 *  - chain plays: straights, pair chains, planes (bare or with wings). Only these care which
 *    ranks are next to which;
 *  - everything else (single, pair, triple +- kickers, four +- kickers, bomb, rocket): for those
 *    only the remainder's profile matters — how many ranks hold 1, 2, 3, 4 cards, plus the
 *    jokers — and the fewest plays of every profile is a const table made at build time by
 *    core/minhands_gen.c (see there). The PDK AAA bomb is the one rank-specific non-chain play;
 *    rem() tries it explicitly.
 * So: a depth-first search over multisets of chain cores in a canonical order (by first rank,
 * then kind, then length; repeats allowed), and at each node the table answers for the rest.
 * Plane wings are chosen at the leaf from what the chains left, rank by rank, with ranks that
 * are interchangeable for everything still to come taken in one canonical order only.
 *
 * Exactness: every partition's chain plays form one multiset of chains, visited once by the
 * search unless a rule below drops it; its wings are one of the enumerated kicker choices and
 * its other plays a partition of the rest, which the table bounds from below and attains. What
 * is dropped cannot be needed:
 *  - bounds: a child adds a play; a child that does not take every card left adds two; the
 *    non-chain plays hold at most 8 cards each, so a rest of n cards needs ceil(n / 8) of them;
 *    when only "one chain + one more play" could still improve (last) and the rest cannot be
 *    two chains (no plane with wings can form, and it holds 2s or jokers or its count
 *    changes more than four times along the ranks), the chain must leave <= 8 cards;
 *  - dominance, for chains without wings of one kind (redundant()): end to end they merge into
 *    one play (one play less); crossing with an overlap that is itself a legal chain they
 *    uncross into a longer and a shorter one (same cards, same count, larger sum of squared
 *    lengths); two equal straights are one pair chain. Each rule applies only when the new
 *    play is legal (within the size limit of one play). Among the optimal partitions, one
 *    with the largest sum of squared chain lengths has none of these patterns, and is found.
 *
 * Kicker rules are those of core/classify.c (cb_readings): DDZ plane + singles (outside the
 * chain, <= 3 of a rank, not 3 of the rank right next to the chain within 3..A, not both
 * jokers unless rocket_kickers), plane + pairs (distinct non-joker ranks), PDK full plane (2L
 * any cards outside the chain; plane_pair_wings: L pairs of distinct ranks), PDK full plane +
 * L singles of distinct ranks (plane_single_wings: K_PLANES1, not a short play) and short
 * plane (1..2L-1), NOIP bare planes only. PDK max_pair_chain caps pair chains (the dominance
 * rules below then merge or uncross pair chains only within the cap). No play may hold more
 * cards than a hand (hand_size + bottom).
 */
#include "cardbot/rules.h"
#include "classify_int.h"
#include "minhands_prof.h"

#include <stdint.h>
#include <string.h>

#include "minhands_tab.h"

#define NIB1 0x1111111111111111ull            /* bit 0 of every nibble */
#define CHAIN_NIBS 0x0000111111111111ull      /* bit 0 of the nibbles of ranks 3..A */
#define LOW13 0x000FFFFFFFFFFFFFull           /* nibbles of ranks 3..2 */
#define MAX_WINGS 8

/* K_PLANES1: PDK plane_single_wings' full plane + L distinct singles (K_PLANE1 is DDZ's plane
 * + singles, or PDK's short plane + 1..2L-1 kickers) */
enum { K_STRAIGHT, K_PAIRS, K_PLANE, K_PLANE1, K_PLANE2, K_PLANES1, K_NKINDS };

typedef struct wing {
    int8_t lo, len, kind;
} wing;

typedef struct mh {
    const uint8_t *tab;   /* [jokers or shorts][profile] */
    int game;
    int mpc;              /* min pair chain */
    int maxc;             /* most cards in one play */
    bool rk;              /* DDZ rocket_kickers */
    bool aaa;             /* PDK AAA bomb */
    bool w1, w2;          /* PDK plane_single_wings, plane_pair_wings */
    int mpc_max;          /* most pairs in a pair chain (PDK max_pair_chain; else no cap) */
    int best;
    int nw;
    wing w[MAX_WINGS];
    wing placed[CB_NCARDS / 2]; /* the straights, pair chains and bare planes of the path */
    int np;
} mh;

/* Number of set bits of x when only bit 0 of some nibbles is set (at most 15 of them): the
 * multiply sums the nibbles into the top one. No popcount instruction needed (the baseline
 * x86-64 target has none and the library call is slow). */
static inline int pc(uint64_t x) { return (int)((x * NIB1) >> 60); }

/* Fewest non-chain plays for k. s: PDK short plays left (0, 1, 2 = unlimited); else ignored. */
static inline int rem_plain(const mh *m, cb_counts k, int s)
{
    uint64_t x = k & LOW13;
    uint64_t b0 = x & NIB1, b1 = (x >> 1) & NIB1, b2 = (x >> 2) & NIB1;
    int a4 = pc(b2), a3 = pc(b0 & b1), a2 = pc(b1 & ~b0), a1 = pc(b0 & ~b1 & ~b2);
    int jx = cb_count(k, CB_RANK_X), jd = cb_count(k, CB_RANK_D);
    int row;
    if (m->game == CB_GAME_PDK) {
        row = s;
    } else if (jx && jd) {
        row = 1;
    } else {
        row = 0;
        a1 += jx + jd;
    }
    return m->tab[row * CB_MH_NPROF + cb_mh_base[a4][a3][a2] + a1];
}

static inline int rem(const mh *m, cb_counts k, int s)
{
    int v = rem_plain(m, k, s);
    if (m->aaa && cb_count(k, CB_RANK_A) >= 3) {
        int v2 = 1 + rem_plain(m, k - ((cb_counts)3 << (4 * CB_RANK_A)), s);
        if (v2 < v)
            v = v2;
    }
    return v;
}

/* ---- plane wings, chosen at the leaf ---- */

typedef struct kick {
    const mh *m;
    int i;                 /* the plane whose wings are chosen */
    int n;                 /* candidate ranks */
    int8_t rank[CB_NRANKS];
    int8_t cap[CB_NRANKS]; /* most cards this rank may give */
    int8_t same[CB_NRANKS];/* interchangeable with the previous candidate */
    int step;              /* 1, or 2 for pair wings */
    int lo, hi;            /* how many kicker cards in all */
    bool no_rocket;        /* not both jokers */
    int s;                 /* PDK shorts left */
} kick;

static int wings_from(const mh *m, int i, cb_counts k, int s);

/* Status of rank r seen from plane w: 0 free, 1 in the chain, 2 next to it (DDZ singles). */
static int rank_status(const wing *w, int r)
{
    if (r >= w->lo && r < w->lo + w->len)
        return 1;
    if (w->kind == K_PLANE1 && r <= CB_RANK_A && (r == w->lo - 1 || r == w->lo + w->len))
        return 2;
    return 0;
}

static int kick_rec(const kick *q, int pos, int taken, int prev, cb_counts k, int jokers)
{
    if (pos == q->n || taken == q->hi) {
        if (taken < q->lo)
            return CB_MH_INF;
        if (q->i + 1 < q->m->nw)
            return wings_from(q->m, q->i + 1, k, q->s);
        return rem(q->m, k, q->s);
    }
    int r = q->rank[pos];
    int cap = q->cap[pos];
    if (cap > q->hi - taken)
        cap = q->hi - taken;
    if (q->same[pos] && cap > prev)
        cap = prev;
    bool joker = r >= CB_RANK_X;
    if (joker && q->no_rocket && jokers)
        cap = 0;
    int best = CB_MH_INF;
    for (int t = cap - (cap % q->step); t >= 0; t -= q->step) {
        int v = kick_rec(q, pos + 1, taken + t, t, k - ((cb_counts)t << (4 * r)),
                         jokers + (joker && t));
        if (v < best)
            best = v;
    }
    return best;
}

/* Fewest plays for planes i.. 's wings plus the rest, from k. */
static int wings_from(const mh *m, int i, cb_counts k, int s)
{
    const wing *w = &m->w[i];
    kick q;
    q.m = m;
    q.i = i;
    q.n = 0;
    q.s = s;
    q.step = 1;
    q.no_rocket = false;
    int L = w->len;
    /* pair wings: DDZ plane + pairs, PDK plane_pair_wings */
    bool pairs = w->kind == K_PLANE2 && (m->game == CB_GAME_DDZ || m->w2);
    if (m->game == CB_GAME_DDZ && w->kind == K_PLANE1) {
        q.lo = q.hi = L;
        q.no_rocket = !m->rk;
    } else if (pairs) {
        q.lo = q.hi = 2 * L;
        q.step = 2;
    } else if (w->kind == K_PLANE2) {
        q.lo = q.hi = 2 * L;
    } else if (w->kind == K_PLANES1) {
        q.lo = q.hi = L;
    } else {
        q.lo = 1;
        q.hi = 2 * L - 1;
        if (q.hi > m->maxc - 3 * L)
            q.hi = m->maxc - 3 * L;
    }
    /* candidates with a type signature; sorted by it so interchangeable ranks are adjacent */
    int sig[CB_NRANKS];
    int top = m->game == CB_GAME_DDZ && w->kind == K_PLANE1 ? CB_RANK_D : CB_RANK_2;
    for (int r = 0; r <= top; r++) {
        int a = cb_count(k, r);
        if (!a || rank_status(w, r) == 1)
            continue;
        int cap = a;
        if (m->game == CB_GAME_DDZ && w->kind == K_PLANE1) {
            if (cap > 3)
                cap = 3;
            if (cap > 2 && rank_status(w, r) == 2)
                cap = 2;
        } else if (pairs) {
            if (a < 2)
                continue;
            cap = 2;
        } else if (w->kind == K_PLANES1) {
            cap = 1; /* singles of distinct ranks */
        }
        int sg = a | cap << 3;
        for (int j = i + 1; j < m->nw; j++)
            sg |= rank_status(&m->w[j], r) << (6 + 2 * (j - i));
        if (r >= CB_RANK_X)
            sg |= 1 << 30;
        if (m->aaa && r == CB_RANK_A)
            sg = -1 - r; /* unique */
        int p = q.n++;
        while (p > 0 && sig[p - 1] > sg) {
            sig[p] = sig[p - 1];
            q.rank[p] = q.rank[p - 1];
            q.cap[p] = q.cap[p - 1];
            p--;
        }
        sig[p] = sg;
        q.rank[p] = (int8_t)r;
        q.cap[p] = (int8_t)cap;
    }
    for (int p = 0; p < q.n; p++)
        q.same[p] = (int8_t)(p > 0 && sig[p] == sig[p - 1]);
    return kick_rec(&q, 0, 0, 4, k, 0);
}

/* ---- the chain search ---- */

/* bit 0 of the nibbles of len consecutive ranks starting at r */
static inline uint64_t run(int r, int len) { return (((uint64_t)1 << (4 * len)) - 1) / 15 << (4 * r); }

/* Length of the run of set nibble bits of ge starting at rank r (ranks 3..A only). */
static inline int run_len(uint64_t ge, int r)
{
    uint64_t x = ~(ge >> (4 * r)) & CHAIN_NIBS; /* first clear nibble */
    int n = x ? __builtin_ctzll(x) / 4 : 12;
    return n > 12 - r ? 12 - r : n;
}

/* The node's own answer: no more chains, wings from what is left, the rest by the table.
 * wmax: most wing cards the pending planes can take; the rest then needs at least one
 * non-chain play per 8 cards. */
static void leaf(mh *m, cb_counts k, int total, int nch, int s, int wmax)
{
    if (nch + (total - wmax + 7) / 8 >= m->best)
        return;
    int v = nch + (m->nw ? wings_from(m, 0, k, s) : rem(m, k, s));
    if (v < m->best)
        m->best = v;
}

/* Is k exactly one chain play (straight, pair chain, plane bare or with wings)? Used where only
 * a play that takes every card left could still improve the answer. */
static bool one_chain(const mh *m, cb_counts k, int total, int s)
{
    if (total > m->maxc)
        return false;
    uint64_t nz = (k | k >> 1 | k >> 2) & NIB1;
    if (!(nz & ~CHAIN_NIBS)) {
        int lo = __builtin_ctzll(nz) / 4, n = pc(nz);
        if (nz == run(lo, n)) {
            if (k == nz)
                return n >= 5;
            if (k == 2 * nz)
                return n >= m->mpc && n <= m->mpc_max;
            if (k == 3 * nz)
                return n >= 2 && (m->game != CB_GAME_PDK || s > 0);
        }
    }
    if (m->game == CB_GAME_NOIP)
        return false;
    uint64_t eq3 = (k & k >> 1) & ~(k >> 2) & CHAIN_NIBS;
    if (!(eq3 & eq3 >> 4))
        return false; /* no two triples side by side */
    for (int L = 2; 3 * L < total; L++) {
        if (m->game == CB_GAME_PDK) {
            /* + 2L (plane_pair_wings: L distinct pairs), short + 1..2L-1, or + L distinct
             * singles (plane_single_wings) */
            if (total > 5 * L || (total < 5 * L && s == 0 && !(m->w1 && total == 4 * L)))
                continue;
            for (int st = 0; st + L <= 12; st++) {
                uint64_t core = run(st, L);
                if ((eq3 & core) != core)
                    continue;
                cb_counts w = k - 3 * core; /* outside the chain: its ranks hold exactly 3 */
                if (total == 5 * L) {
                    if (!m->w2 || ((w | w >> 2) & NIB1) == 0)
                        return true;
                } else if (s > 0 || ((w >> 1 | w >> 2) & NIB1) == 0) {
                    return true;
                }
            }
            continue;
        }
        /* DDZ: + L singles or + L pairs */
        int kind = total == 4 * L ? K_PLANE1 : total == 5 * L ? K_PLANE2 : -1;
        if (kind < 0)
            continue;
        for (int st = 0; st + L <= 12; st++) {
            uint64_t core = run(st, L);
            if ((eq3 & core) != core)
                continue;
            cb_counts w = k - 3 * core;
            uint64_t wnz = (w | w >> 1 | w >> 2) & NIB1;
            if (kind == K_PLANE2) {
                if (w == 2 * wnz && pc(wnz) == L)
                    return true; /* L distinct pairs (jokers never pair) */
                continue;
            }
            if ((w >> 2) & NIB1 & LOW13)
                continue; /* four of a rank */
            if (cb_count(w, CB_RANK_X) && cb_count(w, CB_RANK_D) && !m->rk)
                continue;
            if (st > 0 && cb_count(w, st - 1) == 3)
                continue;
            if (st + L <= CB_RANK_A && cb_count(w, st + L) == 3)
                continue;
            return true;
        }
    }
    return false;
}

/* Is a chain (kind, first rank r, len) redundant next to one of the same kind already on the
 * path? End to end they are one longer chain (one play less); crossing with an overlap that is
 * itself a legal chain they can be uncrossed into a longer and a shorter one (same plays, same
 * cards), and only the nested form is searched. Both keep an optimum reachable: merging lowers
 * the play count, uncrossing raises the sum of squared lengths at an equal count. */
static bool redundant(const mh *m, int kind, int r, int len, int minlen, int unit)
{
    int hi = r + len - 1;
    int most = m->maxc / unit; /* the longest legal chain of this kind */
    if (kind == K_PAIRS && most > m->mpc_max)
        most = m->mpc_max;
    for (int j = 0; j < m->np; j++) {
        const wing *p = &m->placed[j];
        if (p->kind != kind)
            continue;
        int phi = p->lo + p->len - 1;
        if (phi == r - 1 && p->len + len <= most)
            return true;
        if (p->lo < r && r <= phi && phi < hi && phi - r + 1 >= minlen && hi - p->lo + 1 <= most)
            return true;
    }
    return false;
}

/* The search node. k: cards left (total of them); nch: chain plays so far; from: the smallest
 * chain key allowed next (canonical order of keys (first rank, kind, length), repeats
 * allowed: every multiset of chains is visited once); s: PDK short plays left; wmax: most
 * wing cards the planes placed so far can take. */
static void dfs(mh *m, cb_counts k, int total, int nch, uint32_t from, int s, int wmax)
{
    leaf(m, k, total, nch, s, wmax);
    if (nch + 1 >= m->best || total == 0)
        return;
    if (nch + 2 >= m->best && m->nw == 0) {
        /* only a chain taking every card left can help */
        if (one_chain(m, k, total, s))
            m->best = nch + 1;
        return;
    }
    uint64_t ge1 = (k | k >> 1 | k >> 2) & CHAIN_NIBS;
    uint64_t ge2 = (k >> 1 | k >> 2) & CHAIN_NIBS;
    uint64_t ge3 = ((k & k >> 1) | k >> 2) & CHAIN_NIBS;
    /* Children with no wings pending can only gain by ending with one more play (last). When
     * k cannot be two chains either (no plane with wings can form, and 2s / jokers or more
     * than four count changes along the ranks rule out two runs), that play is a non-chain
     * one of at most 8 cards, so the child's chain must take all but 8 cards (small_rest). */
    bool last = nch + 3 >= m->best && m->nw == 0;
    int small_rest = CB_NCARDS;
    if (last && (m->game == CB_GAME_NOIP || !(ge3 & ge3 >> 4))) {
        uint64_t x = k ^ (k << 4);
        uint64_t changes = (x | x >> 1 | x >> 2 | x >> 3) & NIB1 & LOW13;
        if ((k >> (4 * CB_RANK_2)) != 0 || pc(changes) > 4)
            small_rest = 8;
    }
    int r0 = (int)(from >> 8), kind0 = (int)(from >> 5 & 7), len0 = (int)(from & 31);
    for (int kind = 0; kind < K_NKINDS; kind++) {
        int unit, minlen;
        uint64_t ge;
        switch (kind) {
        case K_STRAIGHT: unit = 1; minlen = 5; ge = ge1; break;
        case K_PAIRS: unit = 2; minlen = m->mpc; ge = ge2; break;
        default: unit = 3; minlen = 2; ge = ge3; break;
        }
        if (kind == K_PLANE && m->game == CB_GAME_PDK && s == 0)
            continue; /* bare plane: short */
        if (kind == K_PLANE1 && (m->game == CB_GAME_NOIP || (m->game == CB_GAME_PDK && s == 0)))
            continue;
        if (kind == K_PLANE2 && m->game == CB_GAME_NOIP)
            continue;
        if (kind == K_PLANES1 && !m->w1)
            continue;
        if ((kind == K_PLANE1 || kind == K_PLANE2 || kind == K_PLANES1) && m->nw == MAX_WINGS)
            continue;
        if (minlen > 12 || (kind == K_PAIRS && minlen > m->mpc_max))
            continue;
        /* first ranks of runs of at least minlen, from r0 on (at r0 only kinds >= kind0) */
        uint64_t starts = ge;
        for (int i = 1; i < minlen; i++)
            starts &= ge >> (4 * i);
        starts &= ~(((uint64_t)1 << (4 * r0)) - 1);
        if (kind < kind0)
            starts &= ~((uint64_t)1 << (4 * r0));
        int lowmin = minlen;
        if (kind <= K_PLANE && total - small_rest > unit * lowmin)
            lowmin = (total - small_rest + unit - 1) / unit;
        while (starts) {
            int r = __builtin_ctzll(starts) / 4;
            starts &= starts - 1;
            int maxlen = run_len(ge, r);
            if (kind == K_PAIRS && maxlen > m->mpc_max)
                maxlen = m->mpc_max;
            int lowlen = lowmin;
            if (r == r0 && kind == kind0 && len0 > lowlen)
                lowlen = len0;
            /* longest first: good answers early make the bound bite sooner */
            for (int len = maxlen; len >= lowlen; len--) {
                uint32_t key = (uint32_t)(r << 8 | kind << 5 | len);
                int core = unit * len;
                /* fewest and most wing cards this play can take */
                int need = 0, most = 0;
                if ((kind == K_PLANE1 && m->game == CB_GAME_DDZ) || kind == K_PLANES1)
                    need = most = len;
                else if (kind == K_PLANE1)
                    need = 1, most = 2 * len - 1;
                else if (kind == K_PLANE2)
                    need = most = 2 * len;
                if (core + need > m->maxc || core + need > total)
                    continue;
                if (core + most > m->maxc)
                    most = m->maxc - core;
                /* a child has nch + 1 plays, + 1 more unless this play and the wings of the
                 * planes before it can take every card left */
                if (nch + 2 >= m->best && core + most + wmax < total)
                    continue;
                if (kind <= K_PLANE && m->np && redundant(m, kind, r, len, minlen, unit))
                    continue;
                /* two equal straights are one pair chain */
                if (kind == K_STRAIGHT && key == from && len >= m->mpc && len <= m->mpc_max &&
                    2 * len <= m->maxc)
                    continue;
                cb_counts nk = k - run(r, len) * (uint64_t)unit;
                int ns = s;
                if (m->game == CB_GAME_PDK && (kind == K_PLANE || kind == K_PLANE1) && s == 1)
                    ns = 0;
                if (last && kind <= K_PLANE) {
                    /* the child, inlined: it can only gain by ending with one more play,
                     * which is a non-chain play (<= 8 cards) or a chain */
                    int rest = total - core;
                    if (rest <= 8) {
                        int v = nch + 1 + rem(m, nk, ns);
                        if (v < m->best)
                            m->best = v;
                    }
                    if (nch + 2 < m->best && one_chain(m, nk, rest, ns))
                        m->best = nch + 2;
                    if (nch + 1 >= m->best)
                        return;
                    continue;
                }
                if (kind == K_PLANE1 || kind == K_PLANE2 || kind == K_PLANES1) {
                    m->w[m->nw].lo = (int8_t)r;
                    m->w[m->nw].len = (int8_t)len;
                    m->w[m->nw].kind = (int8_t)kind;
                    m->nw++;
                    dfs(m, nk, total - core, nch + 1, key, ns, wmax + most);
                    m->nw--;
                } else {
                    m->placed[m->np].lo = (int8_t)r;
                    m->placed[m->np].len = (int8_t)len;
                    m->placed[m->np].kind = (int8_t)kind;
                    m->np++;
                    dfs(m, nk, total - core, nch + 1, key, ns, wmax);
                    m->np--;
                }
                if (nch + 1 >= m->best)
                    return;
            }
        }
    }
}

int cb_min_hands(const cb_rules *r, cb_counts hand)
{
    if (!r)
        return -1;
    if (hand == 0)
        return 0;
    /* every rank within the deck (so no nibble above 4): else no partition into plays */
    cb_counts deck = cb_counts_of(r->deck);
    if ((hand >> 60) != 0)
        return -1;
    for (int i = 0; i < CB_NRANKS; i++)
        if (cb_count(hand, i) > cb_count(deck, i))
            return -1;
    mh m;
    memset(&m, 0, sizeof m);
    m.game = r->game;
    m.mpc = r->min_pair_chain < 2 ? 2 : r->min_pair_chain;
    m.mpc_max = r->game == CB_GAME_PDK && r->max_pair_chain ? r->max_pair_chain : 12;
    m.w1 = r->game == CB_GAME_PDK && r->plane_single_wings;
    m.w2 = r->game == CB_GAME_PDK && r->plane_pair_wings;
    m.maxc = cb_max_play_cards(r);
    if (m.maxc < 8)
        return -1; /* not a real rule set: some non-chain plays would be too big */
    int s = 0;
    switch (r->game) {
    case CB_GAME_DDZ:
        m.tab = &cb_mh_ddz_tab[r->rocket_kickers ? 1 : 0][0][0];
        m.rk = r->rocket_kickers;
        break;
    case CB_GAME_NOIP:
        m.tab = &cb_mh_noip_tab[r->four_two_same ? 1 : 0][0][0];
        break;
    case CB_GAME_PDK:
        m.tab = &cb_mh_pdk_tab[r->four_with & 3][0][0];
        m.aaa = r->aaa_bomb;
        s = r->short_triple == CB_SHORT_ALWAYS ? 2 : r->short_triple == CB_SHORT_NEVER ? 0 : 1;
        break;
    default:
        return -1;
    }
    int total = cb_counts_total(hand);
    m.best = CB_MH_INF;
    dfs(&m, hand, total, 0, 0, s, 0);
    return m.best >= CB_MH_INF ? -1 : m.best;
}
