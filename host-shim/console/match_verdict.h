/* cardbot match — verdicts: "is strategy B better than A on my rules?"
 *
 * Three pieces, each a function of the finished games alone (same seed, same bytes):
 *   cb_pair    (match_pair.c)   a paired head-to-head comparison of two strategies;
 *   cb_sprt    (match_sprt.c)   a sequential test (GSPRT) on the cb_pair's per-deal scores;
 *   cb_report  (match_report.c) a self-contained HTML page: crosstable, plots, SPRT.
 *
 * THE STATISTIC (cb_pair). In each game, for every pair of seats (i, j) with strategy[i] == A
 * and strategy[j] == B, A scores 1 if delta[i] > delta[j], 0.5 if equal, 0 if less; the game's
 * score is the mean over those pairs (1 pair at an A,B,C table, 2 at A,B,B or B,A,A). A deal's
 * score is the mean of its games' scores. Games are one deal when they share (gm->seed,
 * gm->deal): with --duplicate the 3 rotations of a deal, plus the games of another seating
 * (B,A,A after A,B,B) played on the same seed; without --duplicate each game is its own deal.
 * Deals are the independent, paired units: the hand luck a deal gives is shared by every
 * rotation, so it cancels inside the deal's score instead of widening the interval.
 *
 * Why 0.5 means "equal": the engine assigns roles from the cards, never from seat numbers (PDK:
 * the spade-3 holder leads; DDZ: the first bidder is a hand's seat), so relabelling seats
 * s -> s+1 maps a game to an equally likely game. With one A and two Bs (or one B and two As)
 * that cyclic symmetry alone makes A's expected score, averaged over BOTH of its pairs, exactly
 * 0.5 when A and B are the same program — one pair alone (A against the seat after it) could be
 * off 0.5 through seat order. With --duplicate it holds deal by deal: over a deal's three
 * rotations each hand meets each other hand once from each side, so equal programs score 0.5
 * in expectation on every deal, and the cards' luck leaves the deal score instead of adding
 * noise. Not so at an A,B,C table (A sits after C, B before it: play (A,B,C) and (B,A,C)), nor
 * with `--landlord SEAT` (a seat, not a hand, gets the role): there play both seatings on the
 * same seed, whose deals then average the two positions.
 * Elo = 400 log10(s / (1 - s)) is therefore an honest logistic scale for "A finishes ahead of B
 * at this table", not a two-player chess Elo: DDZ teammates always tie, which pulls s toward 0.5,
 * so the same two programs show smaller Elo gaps in DDZ, and figures from different rules or
 * seatings are not comparable.
 *
 * Intervals: normal intervals (z = 1.96) on the mean of per-deal values, with the sample
 * variance over n deals; the score bounds are clipped to [0, 1] and mapped to Elo (+-inf at
 * the ends). Below 2 deals there is no interval (NaN, printed "n/a").
 *
 * Points: per deal, the mean over its games of (mean delta of A's seats - mean delta of B's
 * seats), averaged over deals, with its interval. Win share: the share of A's (B's) seats that
 * won, as match_stats.c counts a win (PDK: the winner's seat; DDZ: every seat of the winning side).
 */
#ifndef CARDBOT_MATCH_VERDICT_H
#define CARDBOT_MATCH_VERDICT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "match.h"

/* ---- A. paired pairwise comparison (match_pair.c) ---------------------------------------- */

typedef struct cb_pair cb_pair;

typedef struct cb_pair_result {
    long deals, games;            /* counted: games with both A and B seated and no error */
    long skipped;                 /* games added but not counted */
    double score, score_lo, score_hi; /* A's mean per-deal score and its 95% interval */
    double score_var;             /* sample variance of the per-deal scores (NaN below 2 deals) */
    double elo, elo_lo, elo_hi;   /* 400 log10(s / (1 - s)) of score and of its bounds */
    double pts_diff, pts_lo, pts_hi; /* A's points minus B's, per game, and its interval */
    double win_a, win_b;          /* share of A's / B's seats that won (NaN: none seated) */
} cb_pair_result;

/* a and b are copied; they must differ (NULL otherwise). r is kept: it must outlive the pair. */
cb_pair *cb_pair_new(const cb_rules *r, const char *a, const char *b);
/* Games in game order (the sums are kept in the order given, so the same games give the same
 * bytes); a game without both A and B seated, or with gm->error, is skipped. A deal's score
 * is that of the games given so far: evaluate verdicts after a deal's last game. */
void cb_pair_add(cb_pair *p, const cb_match_game *gm);
void cb_pair_get(const cb_pair *p, cb_pair_result *out);
/* One line:
 *   Pair A vs B: 300 deals (900 games), score 0.563 [0.531, 0.595], Elo +44 [+22, +67],
 *   points +1.23 [+0.40, +2.06] per game, wins A 40.1% B 29.9%
 * Numbers are written with '.' whatever the locale. */
void cb_pair_print(const cb_pair *p, FILE *f);
void cb_pair_free(cb_pair *p);
/* The deal scores so far as a histogram, by increasing score (valid until the next add). */
typedef struct cb_score_count {
    double score;
    long deals;
} cb_score_count;
const cb_score_count *cb_pair_scores(const cb_pair *p, size_t *m);
const char *cb_pair_name_a(const cb_pair *p);
const char *cb_pair_name_b(const cb_pair *p);
/* The logistic scale both ways: score = 1 / (1 + 10^(-elo/400)). */
double cb_elo_of_score(double s);
double cb_score_of_elo(double elo);

/* ---- B. SPRT on the per-deal scores (match_sprt.c) ---------------------------------------- *
 *
 * H0: elo = elo0 against H1: elo = elo1, Elo of the cb_pair score: mu = 1 / (1 + 10^(-elo/400)).
 * The deal is the unit, as the game pair with colours reversed is in fastchess / OpenBench's
 * pentanomial GSPRT. The LLR is the generalized (maximum likelihood) one that fishtest computes
 * on pentanomial counts: the deal scores seen, a histogram x_j with counts n_j, are
 * a discrete distribution; under "mean = mu" the most likely distribution on the same scores is
 * p_j = (n_j / n) / (1 + lambda (x_j - mu)), lambda the root of sum n_j (x_j - mu) / (1 + lambda
 * (x_j - mu)) = 0, and
 *   LLR = sum_j n_j [ln(1 + lambda0 (x_j - mu0)) - ln(1 + lambda1 (x_j - mu1))].
 * CB_SPRT_PRIOR deals are added at scores 0 and 1 (fishtest puts 1e-3 into empty pentanomial
 * cells) so every mu in (0, 1) is reachable from any histogram. Bounds: lower = ln(beta / (1 -
 * alpha)), upper = ln((1 - beta) / alpha).
 *
 * Not the normal approximation LLR ~ n (mu1 - mu0)(2 x - mu0 - mu1) / (2 var): deal scores of
 * a duplicate match pile up at 0.5 (a deal whose cards decide it scores 0.5 whoever plays) and
 * are skewed; the sample variance then moves with the mean and that approximation stops early
 * on the wrong side. Simulated (tests/test_sprt.c, elo0 0, elo1 20, alpha = beta = 0.05): with
 * 80% of deals decided by the cards its type II error was 0.16; this LLR's stays near 0.05. */

typedef struct cb_sprt_opts {
    double elo0, elo1, alpha, beta;
} cb_sprt_opts;

/* "elo0=0,elo1=20,alpha=0.05,beta=0.05": elo0 and elo1 required (-1000..1000, elo0 < elo1),
 * alpha and beta default to 0.05 (each in (0, 0.5]). 0 on success; -1 with a message naming
 * the key in err. */
int cb_sprt_parse(const char *spec, cb_sprt_opts *o, char *err, size_t errlen);

typedef struct cb_sprt_state {
    long deals;
    double llr, lower, upper;
    int verdict; /* 0 continue, 1 H1 accepted, -1 H0 accepted */
} cb_sprt_state;

/* No verdict before this many deals: the likelihood knows only the deal scores already seen,
 * and a handful of deals shows few of the 13 values a duplicate deal can score. In the
 * simulation a guard of 10 or of 30 deals gave the same verdicts (notes/verdicts.md); 30 is a
 * margin, and few matches are shorter. */
#define CB_SPRT_MIN_DEALS 30
/* The pseudo-deals at scores 0 and 1 (see above). */
#define CB_SPRT_PRIOR 1e-3

/* The LLR and verdict of m histogram buckets (cb_pair_scores'). The one implementation:
 * cb_sprt_eval calls it. */
void cb_sprt_llr(const cb_sprt_opts *o, const cb_score_count *h, size_t m, cb_sprt_state *out);
/* The state of the test on p's deals so far. Stateless: the caller stops at the first verdict
 * (looking on after a bound was crossed is another, non-sequential test). */
void cb_sprt_eval(const cb_sprt_opts *o, const cb_pair *p, cb_sprt_state *out);
/* One line:
 *   SPRT elo0=0 elo1=20 alpha=0.05 beta=0.05: 312 deals, LLR +2.97 [-2.94, +2.94]: H1 accepted */
void cb_sprt_print(const cb_sprt_opts *o, const cb_sprt_state *s, FILE *f);

/* ---- C. HTML report (match_report.c, plots in match_plot.c) ------------------------------- */

#define CB_REPORT_MAX 16 /* strategies in one report */

typedef struct cb_report_point {
    long x;             /* games (or deals, for the LLR) done */
    double y, lo, hi;   /* value and its interval (NaN lo/hi: no band at this point) */
} cb_report_point;

typedef struct cb_report_series {
    cb_report_point *p;
    size_t n, cap;
} cb_report_series;

typedef enum { CB_REPORT_WIN = 0, CB_REPORT_POINTS = 1 } cb_report_kind;

/* What the page shows. Build it with the helpers below (they own every pointer in it); the
 * fields are public so a caller can read or adjust them. */
typedef struct cb_report {
    char *title;                 /* page title and heading */
    char *match_line;            /* e.g. cardbot match's "Match: ..." line */
    int nstrat;
    char *strategy[CB_REPORT_MAX];
    /* cross[i][j]: strategy i against strategy j (i plays the cb_pair's A). games == 0: not
     * played (the diagonal always is). */
    cb_pair_result cross[CB_REPORT_MAX][CB_REPORT_MAX];
    cb_report_series win[CB_REPORT_MAX];    /* x games done, y win share (0..1) */
    cb_report_series points[CB_REPORT_MAX]; /* x games done, y points per game */
    bool has_sprt;
    cb_sprt_opts sprt;
    char *sprt_pair;             /* "A vs B", the pair the SPRT runs on */
    double sprt_lower, sprt_upper;
    int sprt_verdict;            /* the last state's verdict */
    cb_report_series llr;        /* x deals, y LLR */
    char **lines;                /* verdict lines shown as text (NULL-terminated) */
} cb_report;

cb_report *cb_report_new(const char *title, const char *match_line);
void cb_report_free(cb_report *rep);
/* The index of strategy name, added if new; -1 when the report is full. */
int cb_report_strategy(cb_report *rep, const char *name);
/* The crosstable cells of a pair: [a][b] = r, and [b][a] the same games seen from B (score
 * 1 - s, Elo and points negated, bounds swapped, win shares exchanged). -1 when full. */
int cb_report_pair(cb_report *rep, const char *a, const char *b, const cb_pair_result *r);
/* One point of a strategy's win-share or points series. -1 when the report is full. */
int cb_report_series_add(cb_report *rep, const char *name, cb_report_kind kind, long games, double y,
                         double lo, double hi);
/* One SPRT point (s->deals, s->llr); the options, bounds and verdict are taken from the last. */
void cb_report_sprt_add(cb_report *rep, const char *pair, const cb_sprt_opts *o, const cb_sprt_state *s);
/* A line of text shown under the crosstable (e.g. cb_pair_print's or cb_sprt_print's). */
void cb_report_line(cb_report *rep, const char *text);
/* Write the page (one file, inline CSS and SVG, no scripts, nothing fetched). 0 on success;
 * -1 with a message naming the file in err. */
int cb_report_write(const char *path, const cb_report *rep, char *err, size_t errlen);

/* ---- a match's verdicts, game by game (match_verdicts.c) ---- */

/* The pair a seating compares: exactly two strategies, A the one seated alone. 0, or -1
 * (one strategy everywhere, three different ones, or a NULL name). */
int cb_match_pair_names(const char *const seats[3], const char **a, const char **b);
/* sprt NULL: no sequential test; report_title NULL: no HTML report (match_line is shown on
 * it); games: the run's, to space the report's points. */
cb_match_verdicts *cb_match_verdicts_new(const cb_rules *r, bool duplicate, const cb_sprt_opts *sprt,
                                         const char *report_title, const char *match_line, int games);
void cb_match_verdicts_free(cb_match_verdicts *v);
/* Each game in game order, after the summary's statistics took it (st). Nonzero: the SPRT
 * decided (stop the match). The SPRT's state goes to log every 10 deals and at its verdict. */
int cb_match_verdicts_add(cb_match_verdicts *v, const cb_match_game *gm, const cb_match_stats *st, FILE *log);
/* The SPRT's verdict: 1 H1, -1 H0, 0 none (or no SPRT). */
int cb_match_verdicts_decided(const cb_match_verdicts *v);
/* The summary's pair line and SPRT line (nothing without a pair). */
void cb_match_verdicts_print(const cb_match_verdicts *v, FILE *out);
/* Write the --report page: 0, or -1 with err. */
int cb_match_verdicts_write_report(cb_match_verdicts *v, const cb_match_stats *st, const char *path, char *err,
                                   size_t errlen);

#endif
