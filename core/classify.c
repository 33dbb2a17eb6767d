/* cardbot — what shape is this play? All readings of a rank multiset, and the canonical one.
 *
 * A multiset of ranks can read several ways (PDK 3334445556 is 444555 + 3336 or 333444 + 5556
 * or the short 333444555 + 6). cb_readings lists every reading; cb_classify picks one by a
 * fixed order (see better() below). Each reading is found by choosing the main part (a rank
 * or a run of ranks) and checking that the remainder is an allowed kicker set, so the work is
 * linear in the number of candidate main parts — never a search over kicker subsets.
 *
 * Where each shape is recognised:
 *   single / pair / bare triple / bomb / rocket / AAA bomb ... read_plain()
 *   straight, pair chain ...................................... read_chains()
 *   triple + kickers .......................................... read_triples()
 *   plane (bare, + singles / short, + pairs / full) ........... read_planes()
 *   four + kickers ............................................ read_fours()
 */
#include "cardbot/rules.h"
#include "msg.h"
#include "classify_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

typedef struct reader {
    const cb_rules *r;
    cb_counts k;
    int c[CB_NRANKS]; /* count per rank */
    int n;            /* cards */
    bool shorts;      /* PDK short plays exist (short_triple != never); always true elsewhere */
    cb_move *out;     /* cb_readings: every reading, up to cap */
    int cap;
    int cnt;
    cb_move *best;    /* cb_classify: only the canonical reading is kept */
} reader;

/* The canonical order: a non-short reading first, then the higher shape enum, then the longer
 * chain, then the higher main rank. Is a better than b? */
static bool better(const cb_rules *r, const cb_move *a, const cb_move *b)
{
    bool la = !cb_move_is_short(r, a), lb = !cb_move_is_short(r, b);
    if (la != lb)
        return la;
    if (a->shape != b->shape)
        return a->shape > b->shape;
    if (a->len != b->len)
        return a->len > b->len;
    return a->main > b->main;
}

static void emit(reader *x, int shape, int main, int len, int kick)
{
    cb_move m;
    memset(&m, 0, sizeof m);
    m.counts = x->k;
    m.shape = (uint8_t)shape;
    m.main = (uint8_t)main;
    m.len = (uint8_t)len;
    m.ncards = (uint8_t)x->n;
    m.kick = (uint8_t)kick;
    if (x->out && x->cnt < x->cap)
        x->out[x->cnt] = m;
    if (x->best && (x->cnt == 0 || better(x->r, &m, x->best)))
        *x->best = m;
    x->cnt++;
}

static void read_plain(reader *x)
{
    const int *c = x->c;
    if (x->n == 1) {
        for (int i = 0; i < CB_NRANKS; i++)
            if (c[i])
                emit(x, CB_SINGLE, i, 1, 0);
        return;
    }
    for (int i = 0; i <= CB_RANK_2; i++) {
        if (c[i] == x->n && x->n == 2)
            emit(x, CB_PAIR, i, 1, 0);
        if (c[i] == x->n && x->n == 4)
            emit(x, CB_BOMB, i, 1, 0);
    }
    if (x->n == 2 && c[CB_RANK_X] && c[CB_RANK_D] && x->r->game != CB_GAME_PDK)
        emit(x, CB_ROCKET, CB_RANK_X, 1, 0);
    if (x->n == 3 && c[CB_RANK_A] == 3 && x->r->game == CB_GAME_PDK && x->r->aaa_bomb)
        emit(x, CB_BOMB, CB_MAIN_AAA, 1, 0);
}

/* Straights and pair chains: every rank present the same number of times, consecutive, 3..A. */
static void read_chains(reader *x)
{
    const int *c = x->c;
    int lo = -1, hi = -1, u = 0, distinct = 0;
    for (int i = 0; i < CB_NRANKS; i++) {
        if (!c[i])
            continue;
        if (u && c[i] != u)
            return;
        u = c[i];
        if (lo < 0)
            lo = i;
        hi = i;
        distinct++;
    }
    if (distinct < 2 || hi > CB_RANK_A || hi - lo + 1 != distinct)
        return;
    int min_pairs = x->r->min_pair_chain < 2 ? 2 : x->r->min_pair_chain;
    /* PDK max_pair_chain: 0 = no cap (the hand size is one already) */
    int max_pairs = x->r->game == CB_GAME_PDK && x->r->max_pair_chain ? x->r->max_pair_chain
                                                                      : CB_NRANKS;
    if (u == 1 && distinct >= 5)
        emit(x, CB_STRAIGHT, lo, distinct, 0);
    else if (u == 2 && distinct >= min_pairs && distinct <= max_pairs)
        emit(x, CB_PAIR_CHAIN, lo, distinct, 0);
    /* u == 3 is a bare plane: read_planes */
}

/* The remainder after taking a main part: how many cards, ranks with exactly 1..4 cards. */
typedef struct { int n, with[5]; } rest_shape;

static rest_shape rest_of(const int *kc)
{
    rest_shape s;
    memset(&s, 0, sizeof s);
    for (int i = 0; i < CB_NRANKS; i++) {
        s.n += kc[i];
        if (kc[i] >= 1 && kc[i] <= 4)
            s.with[kc[i]]++;
    }
    return s;
}

static void read_triples(reader *x)
{
    cb_game g = x->r->game;
    /* the triple's rank holds exactly 3: a 4th card of its rank never rides as its kicker */
    for (int t = 0; t <= CB_RANK_2; t++) {
        if (x->c[t] != 3)
            continue;
        int kc[CB_NRANKS];
        memcpy(kc, x->c, sizeof kc);
        kc[t] = 0;
        rest_shape rs = rest_of(kc);
        if (rs.n == 0 && x->shorts)
            emit(x, CB_TRIPLE, t, 1, 0);
        else if (rs.n == 1 && x->shorts)
            emit(x, CB_TRIPLE_1, t, 1, 1);
        else if (rs.n == 2 && (g == CB_GAME_PDK || rs.with[2] == 1))
            emit(x, CB_TRIPLE_2, t, 1, 2); /* DDZ/NOIP: a pair (jokers never pair); PDK: any 2 */
    }
}

/* DDZ plane + one single per triple: kickers outside the chain (given), never both jokers
 * (unless rocket_kickers), never four of a rank, never three of a rank right next to the chain
 * (that would be a longer plane). Repeats are otherwise fine. */
static bool ddz_plane_singles_ok(const cb_rules *r, const int *kc, int s, int len)
{
    for (int i = 0; i < CB_NRANKS; i++)
        if (kc[i] >= 4)
            return false;
    if (kc[CB_RANK_X] && kc[CB_RANK_D] && !r->rocket_kickers)
        return false;
    if (s > 0 && kc[s - 1] == 3)
        return false;
    if (s + len <= CB_RANK_A && kc[s + len] == 3)
        return false;
    return true;
}

static void read_planes(reader *x)
{
    cb_game g = x->r->game;
    for (int s = 0; s < CB_RANK_A; s++) {
        if (x->c[s] != 3)
            continue;
        /* chain s .. s+len-1, each rank exactly 3 (kickers never share a chain rank) */
        for (int len = 2; s + len - 1 <= CB_RANK_A && x->c[s + len - 1] == 3; len++) {
            int kc[CB_NRANKS];
            memcpy(kc, x->c, sizeof kc);
            for (int i = s; i < s + len; i++)
                kc[i] = 0;
            rest_shape rs = rest_of(kc);
            if (rs.n == 0) {
                if (x->shorts)
                    emit(x, CB_PLANE, s, len, 0);
            } else if (g == CB_GAME_DDZ) {
                if (rs.n == len && ddz_plane_singles_ok(x->r, kc, s, len))
                    emit(x, CB_PLANE_1, s, len, rs.n);
                else if (rs.n == 2 * len && rs.with[2] == len)
                    emit(x, CB_PLANE_2, s, len, rs.n); /* distinct pairs, no jokers */
            } else if (g == CB_GAME_PDK) {
                /* plane_single_wings: L singles of distinct ranks make a full plane (its one
                 * reading here: cb_move_is_short tells full from short by the counts) */
                bool singles = x->r->plane_single_wings && rs.n == len && rs.with[1] == len;
                if (rs.n < 2 * len && (x->shorts || singles))
                    emit(x, CB_PLANE_1, s, len, rs.n);
                else if (rs.n == 2 * len && (!x->r->plane_pair_wings || rs.with[2] == len))
                    emit(x, CB_PLANE_2, s, len, rs.n); /* plane_pair_wings: L distinct pairs */
            }
            /* NOIP: planes are bare only */
        }
    }
}

static void read_fours(reader *x)
{
    const cb_rules *r = x->r;
    for (int f = 0; f <= CB_RANK_2; f++) {
        if (x->c[f] != 4)
            continue;
        int kc[CB_NRANKS];
        memcpy(kc, x->c, sizeof kc);
        kc[f] = 0;
        rest_shape rs = rest_of(kc);
        bool both_jokers = kc[CB_RANK_X] && kc[CB_RANK_D];
        switch (r->game) {
        case CB_GAME_DDZ:
            if (rs.n == 2 && (!both_jokers || r->rocket_kickers))
                emit(x, CB_FOUR_2, f, 1, 2);       /* the two may be a pair */
            else if (rs.n == 4 && rs.with[2] == 2)
                emit(x, CB_FOUR_22, f, 1, 4);      /* two different ranks */
            break;
        case CB_GAME_NOIP:
            if (rs.n == 2 && (rs.with[2] == 0 || r->four_two_same))
                emit(x, CB_FOUR_2, f, 1, 2);       /* X + D allowed */
            else if (rs.n == 4 && (rs.with[2] == 2 || rs.with[4] == 1))
                emit(x, CB_FOUR_22, f, 1, 4);      /* the two pairs may share a rank */
            break;
        case CB_GAME_PDK:
            if (rs.n == 2 && (r->four_with & CB_FOUR_WITH_2))
                emit(x, CB_FOUR_2, f, 1, 2);
            else if (rs.n == 3 && (r->four_with & CB_FOUR_WITH_3))
                emit(x, CB_FOUR_3, f, 1, 3);
            break;
        }
    }
}

#define say core_msg

/* Can k be a play at all under r (cards the deck has, no more than a hand holds)? */
static bool plausible(const cb_rules *r, cb_counts k, int *c, int *n, char *why, size_t whylen)
{
    cb_counts deck = cb_counts_of(r->deck);
    *n = 0;
    for (int i = 0; i < CB_NRANKS; i++) {
        c[i] = cb_count(k, i);
        *n += c[i];
    }
    if (*n == 0) {
        say(why, whylen, "not a legal play: no cards (a pass is not a play)");
        return false;
    }
    for (int i = 0; i < CB_NRANKS; i++) {
        int have = cb_count(deck, i);
        if (c[i] > have) {
            if (have == 0)
                say(why, whylen, "not a legal play: the %s deck has no %c", r->preset,
                    cb_rank_chars[i]);
            else
                say(why, whylen, "not a legal play: %d of rank %c, the %s deck has only %d",
                    c[i], cb_rank_chars[i], r->preset, have);
            return false;
        }
    }
    int max = cb_max_play_cards(r);
    if (*n > max) {
        say(why, whylen, "not a legal play: %d cards, more than a hand holds (%d)", *n, max);
        return false;
    }
    return true;
}

static int read_all(const cb_rules *r, cb_counts k, cb_move *out, int cap, cb_move *best,
                    char *why, size_t whylen)
{
    reader x;
    memset(&x, 0, sizeof x);
    if (!r || !plausible(r, k, x.c, &x.n, why, whylen))
        return 0;
    x.r = r;
    x.k = k;
    x.shorts = r->game != CB_GAME_PDK || r->short_triple != CB_SHORT_NEVER;
    x.out = out;
    x.cap = out ? cap : 0;
    x.best = best;
    read_plain(&x);
    /* One rank only (the most common play: single, pair, triple, bomb): chains, planes and
     * four + kickers need two ranks, so only the bare triple is left to read. Hosts validate
     * every answer through here, so this path is hot. */
    int distinct = 0;
    for (int i = 0; i < CB_NRANKS; i++)
        distinct += x.c[i] != 0;
    if (distinct == 1) {
        if (x.n == 3)
            read_triples(&x);
        return x.cnt;
    }
    read_chains(&x);
    read_triples(&x);
    read_planes(&x);
    read_fours(&x);
    return x.cnt;
}

int cb_readings(const cb_rules *r, cb_counts k, cb_move *out, int cap)
{
    return read_all(r, k, out, cap, NULL, NULL, 0);
}

/* Why is k (plausible, but no reading) not a play? Names the problem where it is easy to
 * tell: a flag that forbids it, or the chain rule it breaks. */
static void explain(const cb_rules *r, cb_counts k, char *why, size_t whylen)
{
    char txt[64];
    cb_counts_format(k, txt, sizeof txt);
    cb_rules alt = *r;
    if (r->game == CB_GAME_PDK && r->short_triple == CB_SHORT_NEVER) {
        alt.short_triple = CB_SHORT_ALWAYS;
        if (cb_readings(&alt, k, NULL, 0) > 0) {
            say(why, whylen, "not a legal play: %s is a bare triple, triple + 1 or a plane with "
                "too few kickers (short_triple = never)", txt);
            return;
        }
        alt = *r;
    }
    if (r->game == CB_GAME_PDK && r->four_with != (CB_FOUR_WITH_2 | CB_FOUR_WITH_3)) {
        alt.four_with = CB_FOUR_WITH_2 | CB_FOUR_WITH_3;
        if (cb_readings(&alt, k, NULL, 0) > 0) {
            say(why, whylen, "not a legal play: %s is four with %s kickers, not allowed here "
                "(four_with = %s)", txt, cb_counts_total(k) == 6 ? "2" : "3",
                r->four_with == 0 ? "none" : r->four_with == CB_FOUR_WITH_2 ? "2" : "3");
            return;
        }
        alt = *r;
    }
    if (r->game == CB_GAME_PDK && (r->plane_pair_wings || r->max_pair_chain)) {
        alt.plane_pair_wings = false;
        alt.max_pair_chain = 0;
        if (cb_readings(&alt, k, NULL, 0) > 0) {
            if (r->plane_pair_wings && !(r->max_pair_chain && cb_counts_pairs(k)))
                say(why, whylen, "not a legal play: %s: a plane's wings must be one pair per "
                    "triple, of distinct ranks (plane_pair_wings = on)", txt);
            else
                say(why, whylen, "not a legal play: %s: a pair chain of at most %d pairs "
                    "(max_pair_chain = %d)", txt, r->max_pair_chain, r->max_pair_chain);
            return;
        }
        alt = *r;
    }
    if (r->game == CB_GAME_DDZ && !r->rocket_kickers) {
        alt.rocket_kickers = true;
        if (cb_readings(&alt, k, NULL, 0) > 0) {
            say(why, whylen, "not a legal play: %s: both jokers may not ride as kickers "
                "(rocket_kickers = off)", txt);
            return;
        }
        alt = *r;
    }
    if (r->game == CB_GAME_NOIP && !r->four_two_same) {
        alt.four_two_same = true;
        if (cb_readings(&alt, k, NULL, 0) > 0) {
            say(why, whylen, "not a legal play: %s: four + 2 may not take two singles of one rank "
                "(four_two_same = off)", txt);
            return;
        }
    }
    /* every rank the same count: a chain that breaks a chain rule */
    int lo = -1, hi = -1, u = 0, distinct = 0;
    bool uniform = true;
    for (int i = 0; i < CB_NRANKS; i++) {
        int n = cb_count(k, i);
        if (!n)
            continue;
        if (u && n != u)
            uniform = false;
        u = n;
        if (lo < 0)
            lo = i;
        hi = i;
        distinct++;
    }
    if (uniform && distinct >= 2 && u <= 3) {
        static const char *const unit[] = { "", "straight", "pair chain", "plane" };
        int need = u == 1 ? 5 : u == 2 ? (r->min_pair_chain < 2 ? 2 : r->min_pair_chain) : 2;
        if (distinct < need) {
            say(why, whylen, "not a legal play: %s: a %s needs at least %d %s", txt, unit[u], need,
                u == 1 ? "cards" : u == 2 ? "pairs" : "triples");
        } else if (hi > CB_RANK_A) {
            say(why, whylen, "not a legal play: %s: 2s and jokers never go in a %s", txt, unit[u]);
        } else if (hi - lo + 1 != distinct) {
            say(why, whylen, "not a legal play: %s: ranks not consecutive for a %s", txt, unit[u]);
        } else {
            say(why, whylen, "not a legal play: %s matches no shape", txt);
        }
        return;
    }
    say(why, whylen, "not a legal play: %s matches no shape", txt);
}

bool cb_classify(const cb_rules *r, cb_counts k, cb_move *m, char *why, size_t whylen)
{
    cb_move best;
    memset(&best, 0, sizeof best);
    if (!r) {
        say(why, whylen, "not a legal play: no rules");
        return false;
    }
    if (read_all(r, k, NULL, 0, &best, NULL, 0) == 0) {
        int c[CB_NRANKS], total;
        if (why && whylen && plausible(r, k, c, &total, why, whylen))
            explain(r, k, why, whylen);
        return false;
    }
    if (m)
        *m = best;
    if (why && whylen)
        why[0] = '\0';
    return true;
}
