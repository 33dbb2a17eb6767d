/* cardbot tests — the min-hands oracle (see oracle.h).
 *
 * Exhaustive and written apart from core/minhands.c: the valid plays inside the hand are found
 * by reading every sub-multiset with the classifier; then f(rest) = 1 + min f(rest - p) over
 * the valid plays p that fit in rest and contain its lowest rank (some play of any partition
 * must cover that rank, so nothing is missed). Results are memoised in a hash map keyed by the
 * remaining counts (plus one bit: has the one allowed short play been used). No budget, no
 * pruning.
 */
#include "oracle.h"

#include <stdlib.h>
#include <string.h>

enum { NO_ANSWER = 127 };

typedef struct vplay {
    cb_counts counts;
    bool shortonly; /* every reading is short: limited by short_triple */
} vplay;

typedef struct solver {
    vplay *byrank[CB_NRANKS]; /* valid plays grouped by their lowest rank */
    int nby[CB_NRANKS];
    uint64_t *keys;           /* open addressing; 0 = empty slot (state keys are never 0) */
    int8_t *vals;
    size_t cap, used;
    bool oom;
} solver;

/* The nibble high bits of ranks 0..14. Rank counts are <= 4, so per nibble
 * (k | 8) - p = k + 8 - p lies in 4..12: no borrow crosses a nibble, and the high bit stays
 * set exactly when k >= p. */
#define NIBBLE_HI 0x0888888888888888ull
static inline bool fits(cb_counts p, cb_counts k) { return (((k | NIBBLE_HI) - p) & NIBBLE_HI) == NIBBLE_HI; }

static inline size_t hash_key(uint64_t key)
{
    key ^= key >> 33;
    key *= 0xff51afd7ed558ccdull;
    key ^= key >> 33;
    return (size_t)key;
}

static int8_t *slot(solver *s, uint64_t key, bool *found)
{
    size_t mask = s->cap - 1, i = hash_key(key) & mask;
    while (s->keys[i] != 0 && s->keys[i] != key)
        i = (i + 1) & mask;
    *found = s->keys[i] == key;
    if (!*found)
        s->keys[i] = key; /* claimed; the caller stores the value */
    return &s->vals[i];
}

static bool grow(solver *s)
{
    size_t ncap = s->cap ? s->cap * 2 : 4096;
    uint64_t *ok = s->keys;
    int8_t *ov = s->vals;
    size_t ocap = s->cap;
    s->keys = calloc(ncap, sizeof *s->keys);
    s->vals = malloc(ncap);
    if (!s->keys || !s->vals) {
        free(s->keys);
        free(s->vals);
        s->keys = ok;
        s->vals = ov;
        return false;
    }
    s->cap = ncap;
    for (size_t i = 0; i < ocap; i++) {
        if (ok[i] == 0)
            continue;
        bool found;
        *slot(s, ok[i], &found) = ov[i];
    }
    free(ok);
    free(ov);
    return true;
}

static int lowest_rank(cb_counts k)
{
    for (int r = 0; r < CB_NRANKS; r++)
        if (cb_count(k, r) > 0)
            return r;
    return -1;
}

static int solve(solver *s, cb_counts k, int short_used)
{
    if (k == 0)
        return 0;
    uint64_t key = k | ((uint64_t)short_used << 63);
    if ((s->used + 1) * 2 > s->cap && !grow(s)) {
        s->oom = true;
        return NO_ANSWER;
    }
    bool found;
    int8_t *v = slot(s, key, &found);
    if (found)
        return *v;
    s->used++;
    *v = NO_ANSWER; /* placeholder; recursion only visits strictly smaller states */
    int best = NO_ANSWER;
    int r = lowest_rank(k);
    for (int i = 0; i < s->nby[r]; i++) {
        const vplay *p = &s->byrank[r][i];
        if (!fits(p->counts, k))
            continue;
        if (p->shortonly && short_used)
            continue;
        int sub = solve(s, k - p->counts, short_used || p->shortonly);
        if (sub != NO_ANSWER && sub + 1 < best)
            best = sub + 1;
    }
    /* the table may have grown (moved) while recursing: look the slot up again */
    v = slot(s, key, &found);
    *v = (int8_t)best;
    return best;
}

int cbt_oracle_min_hands(const cb_rules *r, cb_counts hand, cbt_mh_stats *st)
{
    if (st)
        memset(st, 0, sizeof *st);
    if (hand == 0)
        return 0;
    solver s;
    memset(&s, 0, sizeof s);
    int ret = -1;
    vplay *sorted = NULL;
    long total = cbt_submultisets(hand, NULL, 0);
    cb_counts *subs = malloc((size_t)total * sizeof *subs);
    vplay *plays = malloc((size_t)total * sizeof *plays);
    if (!subs || !plays || !grow(&s))
        goto out;
    cbt_submultisets(hand, subs, total);

    /* the valid plays, then grouped by lowest rank (one pass per rank) */
    long nplays = 0;
    cb_move rd[CBT_READINGS_CAP];
    for (long i = 1; i < total; i++) { /* subs[0] is empty */
        int n = cbt_readings(r, subs[i], rd);
        if (n < 0)
            goto out; /* more readings than we can look at: refuse to answer */
        if (n == 0)
            continue;
        bool shortonly = true;
        for (int j = 0; j < n; j++)
            if (!cbt_is_short(r, &rd[j]))
                shortonly = false;
        if (shortonly && r->short_triple == CB_SHORT_NEVER)
            continue;
        if (r->short_triple == CB_SHORT_ALWAYS)
            shortonly = false; /* no limit on how many */
        plays[nplays].counts = subs[i];
        plays[nplays].shortonly = shortonly;
        nplays++;
    }
    sorted = malloc((size_t)(nplays ? nplays : 1) * sizeof *sorted);
    if (!sorted)
        goto out;
    long start = 0;
    for (int rk = 0; rk < CB_NRANKS; rk++) {
        s.byrank[rk] = sorted + start;
        for (long i = 0; i < nplays; i++)
            if (lowest_rank(plays[i].counts) == rk)
                sorted[start + s.nby[rk]++] = plays[i];
        start += s.nby[rk];
    }
    int best = solve(&s, hand, 0);
    ret = (s.oom || best == NO_ANSWER) ? -1 : best;
    if (st) {
        st->states = (long)s.used;
        st->plays = nplays;
    }
out:
    free(sorted);
    free(subs);
    free(plays);
    free(s.keys);
    free(s.vals);
    return ret;
}
