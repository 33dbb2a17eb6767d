/* cardbot belief benchmark: how much of the hidden hands the weighted pool knows, per CPU.
 *
 * usage: bench_belief [DEALS [SEED [STYLE]]]   (defaults 60, 1, none)
 *        bench_belief --from [--seat NAME] RESULTS.jsonl...
 *
 * DEALS deals per game (pdk16, and DDZ with a random landlord), every seat played by the
 * shared heuristic at level 6 — or, with STYLE, level 6 in a personality (bomber, hoarder,
 * chain, careless: plugin/common/personality.c) or the rule agent ("rule", rule.h): a stranger
 * to the model. At every decision with a real choice (two or more legal plays) after at least
 * one other seat's choice, the deciding seat's view gets the pool ismcts would build (worlds
 * from plugin/common/worlds.h weighed as ismcts's defaults weigh them, read from
 * plugin/ismcts/ismcts.h: PDK level 6 and the rule agent mixed, DDZ level 6 tempered to an
 * effective sample size of 20 — see belief.h)
 * at 300, 1000 and 3000 worlds, each scored against the true hands: for every card the seat
 * cannot see, the log of the pool's weighted probability that it lies where it does, minus the
 * log of the uniform one (the holder's share of the hidden cards). The mean over cards, in nats
 * per card, is what the pool knows beyond uniform worlds (0: nothing; higher is better). Rows:
 * by hidden cards (25+, 15-24, 8-14, under 8: early to late), the mean with its 95% interval
 * over views, the gain of 1000 and 3000 worlds over 300 on the same views (paired), and the
 * pool's CPU time per build (p50).
 *
 * Why: the gap between what ismcts wins and what it would win seeing the hands is large
 * (notes/DESIGN-NOTES.md, "What the hidden cards are worth"), and this figure says how much of
 * it a pool of a given cost closes — a sampler is judged by it before any match.
 * With --from, the deals are recorded games instead (the results files of `cardbot match
 * --results`, every game with its hands and plays): each is replayed through the engine and the
 * decisions of the seats whose strategy is NAME (default ismcts) get the pool ismcts would build
 * there (PDK 300 worlds, DDZ 3000), scored under several weightings of the same worlds —
 * uniform, level 6 fitted alone, level 6 and the rule agent mixed, the mix tempered to an
 * effective size of 10, 20 and 50 (belief.h) — each as its gain over uniform, paired per view.
 * Why: the generated games above hold only the strategies linked here; a results file holds
 * whoever sat there — pimc, a bot over the wire, a person — so the inference is scored against
 * the hands of the opponents it is meant for.
 *
 * Figures only: nothing here asserts.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <json-glib/json-glib.h>

#include "cardbot/bot.h"
#include "cardbot/game.h"
#include "../plugin/common/belief.h"
#include "../plugin/common/rule.h"
#include "../plugin/common/worlds.h"
#include "../host-shim/console/match.h"
#include "../plugin/ismcts/ismcts.h"
#include "support/deals.h"

enum { NSIZES = 3, NBUCKETS = 4, MAX_VIEWS = 20000 };
static const int sizes[NSIZES] = {300, 1000, 3000};
static const char *bucket_names[NBUCKETS] = {"25+", "15-24", "8-14", "<8"};

static int bucket_of(int hidden)
{
    return hidden >= 25 ? 0 : hidden >= 15 ? 1 : hidden >= 8 ? 2 : 3;
}

static double cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

typedef struct seats {
    cb_heur_agent agent[3];
    rb_ws rws[3];
    bool rule;
} seats;

/* The pool's knowledge of the hidden cards beyond uniform, nats per card (see above): each
 * hidden card's weighted share of the worlds that put it where it is, against the holder's
 * share of the hidden cards. */
static double score(const cb_belief *b, const cb_deal *g, int me, int *hidden)
{
    int o1 = (me + 1) % 3, o2 = (me + 2) % 3;
    cb_cards unk = (g->hands[o1] | g->hands[o2]) & ~g->bottom; /* the bottom is public */
    double where[CB_NCARDS] = {0}; /* the pool's weight on the card lying with its true holder */
    for (int i = 0; i < b->n; i++) {
        double w = b->cum[i] - (i ? b->cum[i - 1] : 0);
        cb_cards right = unk & ((b->hands[i][o1] & g->hands[o1]) | (b->hands[i][o2] & g->hands[o2]));
        for (int c = 0; c < CB_NCARDS; c++)
            if (right & cb_card_bit(c))
                where[c] += w;
    }
    int n1 = cb_cards_size(g->hands[o1]), n2 = cb_cards_size(g->hands[o2]);
    double tot = b->cum[b->n - 1], s = 0;
    int nc = 0;
    for (int c = 0; c < CB_NCARDS; c++) {
        if (!(unk & cb_card_bit(c)))
            continue;
        double p = where[c] / tot, u = (double)((g->hands[o1] & cb_card_bit(c)) ? n1 : n2) / (n1 + n2);
        s += log(p > 1e-4 ? p : 1e-4) - log(u);
        nc++;
    }
    *hidden = nc;
    return nc ? s / nc : 0;
}

/* The values of one bucket's views (x[i] - base[i] when base is given) into out; their count */
static int collect(const int *bk, int nv, int bucket, const double *x, const double *base, double *out)
{
    int j = 0;
    for (int i = 0; i < nv; i++)
        if (bk[i] == bucket)
            out[j++] = x[i] - (base ? base[i] : 0);
    return j;
}

static void mean_ci(const double *x, int n, double *m, double *h)
{
    double s = 0, q = 0;
    for (int i = 0; i < n; i++)
        s += x[i];
    *m = n ? s / n : 0;
    for (int i = 0; i < n; i++)
        q += (x[i] - *m) * (x[i] - *m);
    *h = n > 1 ? 1.96 * sqrt(q / (n - 1)) / sqrt(n) : 0;
}

/* A view worth scoring: the seat to act has a real choice (two or more legal plays) and some
 * other seat has acted (moves: scratch for the legal plays). */
static bool scored_view(const cb_deal *g, cb_move *moves)
{
    cb_ctx ctx;
    cb_deal_ctx(g, &ctx);
    int others = 0;
    for (int i = 0; i < g->nhist; i++)
        others += g->hist[i].seat != g->turn;
    return others > 0 && cb_legal_moves(g->rules, &ctx, moves, CB_MOVES_CAP) > 1;
}

static int run_game(const char *preset, int deals, uint64_t seed, const char *style)
{
    cb_rules r;
    if (cb_rules_preset(preset, &r) != 0)
        return -1;
    bool ddz = r.game == CB_GAME_DDZ;
    int inference = is_inference_of(IS_INFER_BY_GAME, ddz), ess = ddz ? IS_BELIEF_ESS_DDZ : IS_BELIEF_ESS_PDK;
    seats S;
    memset(&S, 0, sizeof S);
    S.rule = strcmp(style, "rule") == 0;
    for (int s = 0; s < 3; s++) {
        cb_hcfg_level(&S.agent[s].cfg, 6);
        S.agent[s].cfg.explain = false;
        if (!S.rule && cb_hcfg_personality(&S.agent[s].cfg, style) != 0) {
            fprintf(stderr, "bench_belief: unknown style %s (none, bomber, hoarder, chain, careless, rule)\n", style);
            return -1;
        }
        if (cb_hws_init(&S.agent[s].ws) != 0 || rb_ws_init(&S.rws[s]) != 0)
            return -1;
        cb_rng_seed(&S.agent[s].rng, seed * 3 + (uint64_t)s + 1);
    }
    cb_belief B;
    cb_worlds W;
    memset(&W, 0, sizeof W);
    if (cb_belief_init(&B) != 0)
        return -1;
    double *gain[NSIZES], *ms[NSIZES];
    int *bk = malloc(MAX_VIEWS * sizeof *bk);
    for (int k = 0; k < NSIZES; k++) {
        gain[k] = malloc(MAX_VIEWS * sizeof *gain[k]);
        ms[k] = malloc(MAX_VIEWS * sizeof *ms[k]);
    }
    int nv = 0;
    cb_rng rng;
    cb_rng_seed(&rng, seed ^ 0xBE11EFull);
    static cb_play_rec hist[400];
    cb_move moves[CB_MOVES_CAP];
    for (int d = 0; d < deals && nv < MAX_VIEWS; d++) {
        /* a shuffled deck: the hands, and DDZ's bottom to a random landlord at a random bid */
        cb_cards h[3], bottom;
        cbb_deal_random(&rng, &r, h, &bottom);
        int bids[3] = {0, 0, 0}, ll = -1, bid = 0;
        if (ddz) {
            ll = (int)cb_rng_below(&rng, 3);
            h[ll] |= bottom;
            bid = 1 + (int)cb_rng_below(&rng, 3);
            bids[ll] = bid;
        } else {
            bottom = 0;
        }
        cb_deal g;
        memset(&g, 0, sizeof g);
        g.hist = hist;
        g.hist_cap = 400;
        cb_deal_init(&g, &r, h, -1, ll, bid, bottom);
        while (g.winner < 0 && nv < MAX_VIEWS) {
            if (scored_view(&g, moves)) {
                cb_view v;
                cb_deal_view(&g, bids, seed + (uint64_t)nv, &v);
                char err[160] = "";
                if (cb_worlds_from_view(&W, &v, err, sizeof err) != 0) {
                    fprintf(stderr, "bench_belief: a real record refused: %s\n", err);
                    return -1;
                }
                int hidden = 0;
                for (int k = 0; k < NSIZES; k++) {
                    /* ismcts's pool at its defaults (plugin/ismcts/ismcts.h); any eps < 1 replays
                     * the record, the fitted weights replace it */
                    B.fit = inference == IS_INFER_FIT || inference == IS_INFER_MIX;
                    B.rule_model = inference == IS_INFER_MIX;
                    double t0 = cpu_ms();
                    int got = cb_belief_build(&B, &v, &W, sizes[k], 0.1, v.seed);
                    if (got > 0 && B.fit && B.decisions > 0 && ess > 0)
                        cb_belief_temper(&B, ess);
                    ms[k][nv] = cpu_ms() - t0;
                    gain[k][nv] = got > 0 ? score(&B, &g, g.turn, &hidden) : 0;
                }
                if (hidden > 0)
                    bk[nv++] = bucket_of(hidden);
            }
            cb_move m;
            if (S.rule ? rb_deal_policy(&S.rws[g.turn], &g, &m) != 0 : cb_heur_deal_policy(&S.agent[g.turn], &g, &m) != 0)
                return -1;
            if (cb_deal_step(&g, &m, NULL, 0) < 0)
                return -1;
        }
    }
    printf("%s, %d deals, seed %llu, every seat %s: %d views\n", preset, deals, (unsigned long long)seed,
           S.rule ? "the rule agent" : strcmp(style, "none") ? style : "level 6", nv);
    printf("  %-6s %5s", "hidden", "views");
    for (int k = 0; k < NSIZES; k++)
        printf("  %5d worlds nats/card", sizes[k]);
    printf("  %-17s %-17s %s\n", "1000 - 300", "3000 - 300", "CPU ms p50 300/1000/3000");
    double *x = malloc(MAX_VIEWS * sizeof *x);
    for (int b = 0; b < NBUCKETS; b++) {
        int m = 0;
        for (int i = 0; i < nv; i++)
            m += bk[i] == b;
        printf("  %-6s %5d", bucket_names[b], m);
        if (m < 2) {
            printf("\n");
            continue;
        }
        for (int k = 0; k < NSIZES; k++) {
            double mu, hw;
            mean_ci(x, collect(bk, nv, b, gain[k], NULL, x), &mu, &hw);
            printf("  %+.4f +- %.4f      ", mu, hw);
        }
        for (int k = 1; k < NSIZES; k++) {
            double mu, hw;
            mean_ci(x, collect(bk, nv, b, gain[k], gain[0], x), &mu, &hw);
            printf("  %+.4f +- %.4f", mu, hw);
        }
        printf("  ");
        for (int k = 0; k < NSIZES; k++) {
            int j = collect(bk, nv, b, ms[k], NULL, x);
            qsort(x, (size_t)j, sizeof *x, cmp_double);
            printf("%s%.2f", k ? "/" : " ", x[j / 2]);
        }
        printf("\n");
    }
    free(x);
    for (int k = 0; k < NSIZES; k++) {
        free(gain[k]);
        free(ms[k]);
    }
    free(bk);
    cb_worlds_free(&W);
    cb_belief_free(&B);
    for (int s = 0; s < 3; s++) {
        cb_hws_free(&S.agent[s].ws);
        rb_ws_free(&S.rws[s]);
    }
    return 0;
}

/* ---- recorded games (--from): the pool against the hands of whoever really sat there ---- */

enum { NSCHEMES = 6 };
static const char *scheme_names[NSCHEMES] = {"uniform", "fit", "mix", "mix ess 10", "mix ess 20", "mix ess 50"};
static const double scheme_ess[NSCHEMES] = {0, 0, 0, 10, 20, 50};

/* Weigh the pool b (built with the rule model's replay) by scheme s: equal weights, level 6
 * fitted alone, both models mixed, both tempered to the scheme's effective size (plugin/common/
 * belief.h). */
static void weigh_scheme(cb_belief *b, int s)
{
    if (s == 0) {
        for (int i = 0; i < b->n; i++)
            b->cum[i] = i + 1;
        return;
    }
    b->rule_model = s >= 2;
    cb_belief_weigh_fit(b);
    if (scheme_ess[s] > 0 && b->decisions > 0)
        cb_belief_temper(b, scheme_ess[s]);
    b->rule_model = true;
}

typedef struct rec_stats {
    int nv;
    int *bk;
    double *gain[NSCHEMES];
} rec_stats;

/* One game of a results file (cardbot match --results), decoded by the console's reader of
 * game lines (the replay format's): replayed through the engine, and at every decision of a
 * seat named `who` with a choice after another seat's choice, the pool ismcts would build
 * (PDK 300 worlds, DDZ 3000) scored under each scheme. */
static int rec_game(const cb_rules *rp, const char *line, cb_match_game *gm, const char *who, cb_belief *B,
                    cb_worlds *W, rec_stats *st, char *err, size_t errlen)
{
    if (cb_match_game_from_json(rp, line, gm, err, errlen) != 0)
        return -1;
    const cb_rules r = *rp;
    bool ddz = r.game == CB_GAME_DDZ;
    cb_cards h[3];
    bool mine[3];
    for (int s = 0; s < 3; s++) {
        h[s] = gm->dealt[s];
        mine[s] = strcmp(gm->strategy[s], who) == 0;
    }
    int ll = gm->landlord, bids[3] = {-1, -1, -1};
    for (int i = 0; i < gm->nbids; i++)
        if (gm->bids[i].seat >= 0 && gm->bids[i].seat < 3)
            bids[gm->bids[i].seat] = gm->bids[i].bid;
    if (ddz && ll >= 0)
        h[ll] |= gm->bottom; /* the record's hands are as dealt */
    static cb_play_rec hist[400];
    cb_deal g;
    memset(&g, 0, sizeof g);
    g.hist = hist;
    g.hist_cap = 400;
    g.check = true;
    cb_deal_init(&g, &r, h, gm->first_seat, ll, gm->bid_value, ddz ? gm->bottom : 0);
    cb_move moves[CB_MOVES_CAP];
    for (int p = 0; p < gm->nplays && g.winner < 0; p++) {
        if (gm->plays[p].seat != g.turn) {
            snprintf(err, errlen, "play %d: seat %d out of turn (%d to act)", p, gm->plays[p].seat, g.turn);
            return -1;
        }
        if (mine[g.turn] && st->nv < MAX_VIEWS && scored_view(&g, moves)) {
            cb_view v;
            cb_deal_view(&g, bids, (uint64_t)st->nv * 7919 + 1, &v);
            if (cb_worlds_from_view(W, &v, err, errlen) != 0)
                return -1;
            B->fit = true;
            B->rule_model = true;
            int got = cb_belief_build(B, &v, W, ddz ? IS_BELIEF_WORLDS_DDZ : IS_BELIEF_WORLDS_PDK, 0.1, v.seed);
            int hidden = 0;
            for (int k = 0; k < NSCHEMES && got > 0; k++) {
                weigh_scheme(B, k);
                st->gain[k][st->nv] = score(B, &g, g.turn, &hidden);
            }
            if (got > 0 && hidden > 0)
                st->bk[st->nv++] = bucket_of(hidden);
        }
        if (cb_deal_step_cards(&g, gm->plays[p].cards, NULL, err, errlen) < 0)
            return -1;
    }
    return 0;
}

static int run_records(int nfiles, char **files, const char *who)
{
    rec_stats st = {0};
    st.bk = malloc(MAX_VIEWS * sizeof *st.bk);
    for (int k = 0; k < NSCHEMES; k++)
        st.gain[k] = malloc(MAX_VIEWS * sizeof *st.gain[k]);
    cb_belief B;
    cb_worlds W;
    memset(&W, 0, sizeof W);
    if (cb_belief_init(&B) != 0)
        return -1;
    int games = 0, rc = 0;
    char err[400] = "";
    cb_match_game *gm = g_new(cb_match_game, 1); /* 47 KB of plays */
    for (int f = 0; f < nfiles && rc == 0; f++) {
        FILE *in = fopen(files[f], "r");
        if (!in) {
            fprintf(stderr, "bench_belief: %s: cannot open\n", files[f]);
            rc = -1;
            break;
        }
        char *line = NULL;
        size_t cap = 0;
        int ln = 0;
        while (rc == 0 && getline(&line, &cap, in) > 0) {
            ln++;
            JsonParser *jp = json_parser_new();
            GError *ge = NULL;
            if (!json_parser_load_from_data(jp, line, -1, &ge)) {
                fprintf(stderr, "bench_belief: %s:%d: %s\n", files[f], ln, ge->message);
                g_error_free(ge);
                rc = -1;
            } else {
                JsonNode *root = json_parser_get_root(jp);
                JsonObject *o = root && JSON_NODE_HOLDS_OBJECT(root) ? json_node_get_object(root) : NULL;
                cb_rules r;
                err[0] = '\0';
                if (o && strcmp(json_object_get_string_member_with_default(o, "type", ""), "game") == 0) {
                    const char *preset = json_object_get_string_member_with_default(o, "rules", "");
                    if (cb_rules_preset(preset, &r) != 0)
                        snprintf(err, sizeof err, "rules \"%s\" is not a preset", preset);
                    if (err[0] || rec_game(&r, line, gm, who, &B, &W, &st, err, sizeof err) != 0) {
                        fprintf(stderr, "bench_belief: %s:%d: %s\n", files[f], ln, err);
                        rc = -1;
                    }
                    games++;
                }
            }
            g_object_unref(jp);
        }
        free(line);
        fclose(in);
    }
    if (rc == 0) {
        printf("%d recorded games, the decisions of %s: %d views; gain of each weighting over uniform worlds, "
               "nats per hidden card (paired per view, 95%%)\n",
               games, who, st.nv);
        printf("  %-6s %5s  %-17s", "hidden", "views", "uniform");
        for (int k = 1; k < NSCHEMES; k++)
            printf("  %-17s", scheme_names[k]);
        printf("\n");
        double *x = malloc(MAX_VIEWS * sizeof *x);
        for (int b = 0; b <= NBUCKETS; b++) {
            int m = 0;
            for (int i = 0; i < st.nv; i++)
                m += b == NBUCKETS || st.bk[i] == b;
            printf("  %-6s %5d", b == NBUCKETS ? "all" : bucket_names[b], m);
            for (int k = 0; k < NSCHEMES && m > 1; k++) {
                double mu, hw;
                int j = 0;
                for (int i = 0; i < st.nv; i++)
                    if (b == NBUCKETS || st.bk[i] == b)
                        x[j++] = st.gain[k][i] - (k ? st.gain[0][i] : 0);
                mean_ci(x, j, &mu, &hw);
                printf("  %+.4f +- %.4f", mu, hw);
            }
            printf("\n");
        }
        free(x);
    }
    for (int k = 0; k < NSCHEMES; k++)
        free(st.gain[k]);
    free(st.bk);
    g_free(gm);
    cb_worlds_free(&W);
    cb_belief_free(&B);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--from") == 0) {
        int first = 2;
        const char *who = "ismcts";
        if (argc > 3 && strcmp(argv[2], "--seat") == 0) {
            who = argv[3];
            first = 4;
        }
        if (argc <= first) {
            fprintf(stderr, "usage: bench_belief --from [--seat NAME] RESULTS.jsonl...\n");
            return 2;
        }
        printf("bench_belief: what the weighted pool knows of the hidden hands beyond uniform worlds\n");
        return run_records(argc - first, argv + first, who) == 0 ? 0 : 1;
    }
    int deals = argc > 1 ? atoi(argv[1]) : 60;
    uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
    const char *style = argc > 3 ? argv[3] : "none";
    if (deals < 1) {
        fprintf(stderr, "usage: bench_belief [DEALS [SEED [STYLE]]]\n");
        return 2;
    }
    printf("bench_belief: what the weighted pool knows of the hidden hands beyond uniform worlds\n");
    if (run_game("pdk16", deals, seed, style) != 0 || run_game("ddz", deals, seed, style) != 0) {
        fprintf(stderr, "bench_belief: failed\n");
        return 1;
    }
    return 0;
}
