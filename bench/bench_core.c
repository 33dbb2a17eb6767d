/* cardbot core micro-benchmark: cb_min_hands and cb_legal_moves, nanoseconds per call.
 *
 * usage: bench_core [SAMPLES [SEED]]   (defaults 20000 and 1)
 * Every call is timed on its own with clock_gettime(CLOCK_MONOTONIC) (its own overhead, a few
 * tens of ns, is included). A row stops early after ROW_BUDGET_S seconds and prints the sample
 * size it reached. Prints figures only: nothing here asserts on time.
 *
 * Besides random deals, fixed worst cases of cb_legal_moves: the pdk16 hands of 16 with the
 * most plays, found by listing the plays of every one of the 8,466,942 pdk16 hands of 16 (by
 * ranks), leading (most plays of all; most kicker layouts, PDK's "any two cards per triple")
 * and following a plane and a 三带二. Each is timed in full and with CB_GEN_KICK_LOWEST (one
 * layout per kicker class: what a rollout policy needs).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cardbot/rules.h"
#include "util_int.h" /* core/: cb_splitmix64, cb_now_ns */

#define ROW_BUDGET_S 10.0

static int rand_below(uint64_t *s, int n) { return (int)(cb_splitmix64(s) % (uint64_t)n); }

static double now_ns(void) { return (double)cb_now_ns(); }

/* k cards drawn uniformly from `from`. */
static cb_cards deal_uniform(uint64_t *rng, cb_cards from, int k)
{
    int ids[CB_NCARDS], n = 0;
    for (int id = 0; id < CB_NCARDS; id++)
        if (from & cb_card_bit(id))
            ids[n++] = id;
    cb_cards hand = 0;
    for (int i = 0; i < k && i < n; i++) {
        int j = i + rand_below(rng, n - i);
        int t = ids[i]; ids[i] = ids[j]; ids[j] = t;
        hand |= cb_card_bit(ids[i]);
    }
    return hand;
}

/* k cards drawn rank by rank, three or four of a rank at a time where the deck allows: many
 * bombs and triples, the hard case for an exact min-hands search. */
static cb_cards deal_bomb_heavy(uint64_t *rng, cb_cards from, int k)
{
    cb_cards hand = 0;
    int need = k;
    while (need > 0) {
        cb_cards left = from & ~hand;
        if (!left)
            break;
        int r = cb_card_rank(__builtin_ctzll(left)); /* fallback: the lowest rank left */
        for (int tries = 0; tries < 32; tries++) {
            int c = rand_below(rng, CB_NRANKS);
            if (cb_cards_of_rank(left, c)) { r = c; break; }
        }
        cb_cards avail = cb_cards_of_rank(left, r);
        int take = 3 + rand_below(rng, 2);
        while (take-- > 0 && need > 0 && avail) {
            cb_cards low = avail & (~avail + 1);
            hand |= low;
            avail &= ~low;
            need--;
        }
    }
    return hand;
}

typedef struct {
    double *ns;
    int n;
    double result_sum; /* sum of the answers (min hands, or number of plays), shown as avg */
} row;

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void print_header(void)
{
    printf("%-17s %-9s %-40s %6s %11s %11s %11s %10s\n", "function", "rules", "input", "n",
           "median ns", "p99 ns", "max ns", "avg answer");
}

static void print_row(const char *fn, const char *rules, const char *input, row *w)
{
    if (w->n == 0)
        return;
    qsort(w->ns, (size_t)w->n, sizeof w->ns[0], cmp_double);
    int p99 = (int)((double)(w->n - 1) * 0.99 + 0.5);
    printf("%-17s %-9s %-40s %6d %11.0f %11.0f %11.0f %10.2f\n", fn, rules, input, w->n,
           w->ns[w->n / 2], w->ns[p99], w->ns[w->n - 1], w->result_sum / w->n);
    fflush(stdout);
}

static void bench_min_hands(const char *preset, int size, bool bomb_heavy, int samples, uint64_t seed)
{
    cb_rules r;
    if (cb_rules_preset(preset, &r) != 0) {
        printf("%-15s %-9s (unknown preset)\n", "cb_min_hands", preset);
        return;
    }
    uint64_t rng = seed;
    row w = {.ns = malloc(sizeof(double) * (size_t)samples)};
    double start = now_ns();
    for (int i = 0; i < samples && now_ns() - start < ROW_BUDGET_S * 1e9; i++) {
        cb_cards c = bomb_heavy ? deal_bomb_heavy(&rng, r.deck, size) : deal_uniform(&rng, r.deck, size);
        cb_counts k = cb_counts_of(c);
        double t0 = now_ns();
        int m = cb_min_hands(&r, k);
        double t1 = now_ns();
        w.ns[w.n++] = t1 - t0;
        w.result_sum += m;
    }
    char input[64];
    snprintf(input, sizeof input, "%d cards %s", size, bomb_heavy ? "bomb-heavy" : "uniform");
    print_row("cb_min_hands", preset, input, &w);
    free(w.ns);
}

/* Leading: a random hand of `size`. Following: the same, against a random lead of another
 * random hand (of `other` cards from the rest of the deck). */
static void bench_legal_moves(const char *preset, int size, int other, bool follow, int samples, uint64_t seed)
{
    cb_rules r;
    if (cb_rules_preset(preset, &r) != 0) {
        printf("%-15s %-9s (unknown preset)\n", "cb_legal_moves", preset);
        return;
    }
    uint64_t rng = seed;
    cb_move *buf = malloc(sizeof(cb_move) * CB_MOVES_CAP);
    row w = {.ns = malloc(sizeof(double) * (size_t)samples)};
    double start = now_ns();
    for (int i = 0; i < samples && now_ns() - start < ROW_BUDGET_S * 1e9; i++) {
        cb_cards hand = deal_uniform(&rng, r.deck, size);
        cb_move table;
        cb_ctx ctx = {.hand = cb_counts_of(hand)};
        if (follow) {
            cb_cards opp = deal_uniform(&rng, r.deck & ~hand, other);
            cb_ctx lead = {.hand = cb_counts_of(opp)};
            int n = cb_legal_moves(&r, &lead, buf, CB_MOVES_CAP);
            if (n <= 0)
                continue;
            table = buf[rand_below(&rng, n < CB_MOVES_CAP ? n : CB_MOVES_CAP)];
            if (table.shape == CB_PASS)
                continue;
            ctx.table = &table;
        }
        double t0 = now_ns();
        int n = cb_legal_moves(&r, &ctx, buf, CB_MOVES_CAP);
        double t1 = now_ns();
        w.ns[w.n++] = t1 - t0;
        w.result_sum += n;
    }
    char input[64];
    snprintf(input, sizeof input, "%d cards, %s", size, follow ? "follow random play" : "leading");
    print_row("cb_legal_moves", preset, input, &w);
    free(w.ns);
    free(buf);
}

/* One fixed position, `samples` calls: cb_legal_moves, or cb_legal_moves_ex with `flags`. */
static void bench_legal_fixed(const char *preset, const char *hand, const char *beat, unsigned flags,
                              int samples)
{
    const char *fn = flags ? "cb_legal_moves_ex" : "cb_legal_moves";
    cb_rules r;
    cb_ctx ctx = {0};
    cb_move table;
    char err[160] = "";
    if (cb_rules_preset(preset, &r) != 0 || cb_counts_parse(hand, r.deck, &ctx.hand, err, sizeof err) != 0) {
        printf("%-17s %-9s (bad position %s: %s)\n", fn, preset, hand, err);
        return;
    }
    if (beat) {
        cb_counts b;
        if (cb_counts_parse(beat, r.deck, &b, err, sizeof err) != 0 || !cb_classify(&r, b, &table, err, sizeof err)) {
            printf("%-17s %-9s (bad table %s: %s)\n", fn, preset, beat, err);
            return;
        }
        ctx.table = &table;
    }
    cb_move *buf = malloc(sizeof(cb_move) * CB_MOVES_CAP);
    row w = {.ns = malloc(sizeof(double) * (size_t)samples)};
    if (!buf || !w.ns) {
        printf("%-17s %-9s (out of memory)\n", fn, preset);
        free(buf);
        free(w.ns);
        return;
    }
    double start = now_ns();
    for (int i = 0; i < samples && now_ns() - start < ROW_BUDGET_S * 1e9; i++) {
        double t0 = now_ns();
        int n = cb_legal_moves_ex(&r, &ctx, buf, CB_MOVES_CAP, flags);
        double t1 = now_ns();
        w.ns[w.n++] = t1 - t0;
        w.result_sum += n;
    }
    char input[64];
    snprintf(input, sizeof input, "%s %s%s%s", hand, beat ? "on " : "lead", beat ? beat : "",
             flags ? " lowest" : "");
    print_row(fn, preset, input, &w);
    free(w.ns);
    free(buf);
}

int main(int argc, char **argv)
{
    int samples = argc > 1 ? atoi(argv[1]) : 20000;
    uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 0) : 1;
    if (samples < 1) {
        fprintf(stderr, "usage: bench_core [SAMPLES [SEED]]\n");
        return 2;
    }
    printf("cardbot core benchmark: seed %llu, up to %d samples per row (a row stops after %.0f s),\n"
           "ns per call timed with clock_gettime(CLOCK_MONOTONIC); avg answer = mean min hands or plays;\n"
           "max also catches any preemption by other processes on a busy machine.\n\n",
           (unsigned long long)seed, samples, ROW_BUDGET_S);
    print_header();
    bench_min_hands("ddz", 17, false, samples, seed);
    bench_min_hands("ddz", 20, false, samples, seed);
    bench_min_hands("ddz", 20, true, samples, seed);
    bench_min_hands("pdk16", 16, false, samples, seed);
    bench_min_hands("pdk16", 16, true, samples, seed);
    bench_min_hands("noip2015", 23, false, samples, seed);
    bench_min_hands("noip2015", 23, true, samples, seed);
    bench_legal_moves("ddz", 20, 17, false, samples, seed);
    bench_legal_moves("ddz", 20, 17, true, samples, seed);
    bench_legal_moves("pdk16", 16, 16, false, samples, seed);
    bench_legal_moves("pdk16", 16, 16, true, samples, seed);
    /* the worst pdk16 hands of 16: most plays of all (372), most kicker layouts (322 of 364),
     * most plays following a plane (210) and a 三带二 (114) */
    static const struct { const char *hand, *beat; } worst[] = {
        {"3456789TJQKKKAAA", NULL},
        {"456789TJQKKKAAA2", NULL},
        {"456789TJQKKKAAA2", "3334445678"},
        {"6789TJQQQKKKAAA2", "33356"},
    };
    for (unsigned f = 0; f <= CB_GEN_KICK_LOWEST; f += CB_GEN_KICK_LOWEST)
        for (size_t i = 0; i < sizeof worst / sizeof worst[0]; i++)
            bench_legal_fixed("pdk16", worst[i].hand, worst[i].beat, f, samples);
    return 0;
}
