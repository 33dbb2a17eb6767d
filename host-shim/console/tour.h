/* cardbot tournament — a gauntlet or a round robin between a config's strategies, in the
 * spirit of cutechess-cli's -tournament, built from the pieces cardbot match uses.
 *
 * A pairing (A, B) of a three-player game plays two seatings, (A, B, B) and (B, A, A), each
 * on the same duplicate deals: game g of a seating plays deal g / 3 with the hands rotated by
 * g % 3, from the one tournament seed. So A and B meet every hand from both sides, and the
 * paired statistic (cb_pair, match_verdict.h) sees six games per deal. Every pairing plays
 * the same deals too, which makes the cells of the crosstable comparable with each other.
 *
 *   tour_plan.c    which strategies take part and which pairings they play
 *   tour_field.c   each strategy against the rest of the field, game by game (the standings,
 *                  and the report's series)
 *   tour_print.c   the crosstable and the standings, as text and into a cb_report
 *
 * The command itself, cut as cardbot match is: options and cleanup (cmd_tournament.c), setup
 * before the first game (tour_setup.c), the pairings played and the tables (tour_run.c).
 */
#ifndef CARDBOT_TOUR_H
#define CARDBOT_TOUR_H

#include <glib.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "cli.h"
#include "match.h"
#include "match_verdict.h"

/* The opponents of a strategy in its field pair: no strategy can have this name (the shim
 * allows only A-Z a-z 0-9 _ - . in names). */
#define CB_TOUR_FIELD "(field)"

/* ---- tour_plan.c --------------------------------------------------------------------------- */

/* The strategies taking part, newly allocated, NULL-terminated (g_strfreev): the names in
 * list (comma-separated, may be NULL: every [strategy.NAME] of the config, in file order), with
 * gauntlet (may be NULL) added first when list lacks it. NULL with one line in err for a name
 * the config (file, for the message) lacks, a name given twice, an empty name, or fewer than
 * two strategies. */
char **cb_tour_strategies(cb_shim *shim, const char *file, const char *list, const char *gauntlet, char *err,
                          size_t errlen);

typedef struct cb_tour_pairing {
    int a, b; /* indexes into the strategy list; a is the cb_pair's A and sits alone first */
} cb_tour_pairing;

/* The pairings of n strategies: gauntlet >= 0, that strategy against each other one in list
 * order; gauntlet < 0, every unordered pair {i < j} in list order. Newly allocated (g_free);
 * *count gets their number. */
cb_tour_pairing *cb_tour_pairings(int n, int gauntlet, int *count);

/* ---- tour_field.c / tour_print.c ----------------------------------------------------------- */

typedef struct cb_tour_acc {
    cb_pair *field;          /* the strategy as A, every other strategy renamed CB_TOUR_FIELD */
    long games, seats, wins; /* for the report's series, counted as match_stats.c counts */
    double pts, pts2;
    long step;               /* a series point every step games */
} cb_tour_acc;

typedef struct cb_tour {
    const cb_rules *rules;
    int n;                   /* strategies */
    char **name;             /* n names (owned) */
    int npair;
    cb_tour_pairing *pair;   /* npair pairings (owned) */
    cb_pair_result *res;     /* per pairing, A's view; games == 0: not played */
    char **pair_line;        /* per pairing, cb_pair_print's line (owned; NULL: not played) */
    cb_tour_acc *acc;        /* per strategy */
    cb_report *rep;          /* NULL without --report: series points go here as games come */
    cb_match_game *scratch;  /* a game's head with names replaced, for the field pairs */
} cb_tour;

/* names is taken over; pairs is copied. games: games per pairing (to space series points). */
cb_tour *cb_tour_new(const cb_rules *r, char **names, const cb_tour_pairing *pairs, int npair, long games,
                     cb_report *rep);
void cb_tour_free(cb_tour *t);
/* A finished game, in game order: its strategies' field pairs and series. */
void cb_tour_add(cb_tour *t, const cb_match_game *gm);
/* The last series point of every strategy that has played since its last point. */
void cb_tour_series_flush(cb_tour *t);
/* Pairing k is over (or was cut short): keep its result and its line. */
void cb_tour_set_pair(cb_tour *t, int k, const cb_pair *p);

/* Rows and columns the strategies; cell (i, j) i's score against j, Elo +- half its interval,
 * (deals). "-" on the diagonal, "." where the two did not meet. */
void cb_tour_print_crosstable(const cb_tour *t, FILE *f);
/* Each strategy against the field, best first. */
void cb_tour_print_standings(const cb_tour *t, FILE *f);
/* The crosstable cells, the pair lines and the standings lines into t->rep. */
void cb_tour_fill_report(cb_tour *t);

/* ---- cmd_tournament.c / tour_setup.c / tour_run.c ------------------------------------------- */

/* The command line as given (GOption fills it). */
typedef struct cb_tour_args {
    char *config, *gauntlet, *list, *report, *progress;
    gint64 games, seed; /* G_MININT64: not given */
    gint concurrency, landlord;
    gboolean round_robin, quiet;
} cb_tour_args;

/* Everything the run needs, once set up; the caller frees what is set. */
typedef struct cb_tour_cmd {
    cb_tour_args a;     /* games and seed resolved by cb_tour_setup */
    cb_cli_match_conf conf; /* the config's [match] */
    FILE *out;          /* the results: a private copy of stdout */
    cb_shim *shim;
    const cb_rules *rules;
    char **names;       /* the strategies taking part, until cb_tour_run hands them to tour */
    int n, g;           /* strategies; the gauntlet's index among them (-1: a round robin) */
    bool random_seed;   /* the seed is a secret key, printed once every game is over */
    long long budget;   /* [shim] budget_ms */
    long half;          /* games per seating */
    cb_tour_pairing *pairs;
    int npair;
    cb_tour *tour;
    cb_report *rep;     /* NULL without --report */
} cb_tour_cmd;

/* tour_setup.c: the config opened and everything checked before the first game, so a mistake
 * is one line on stderr and costs no games. 0, or the exit status. */
int cb_tour_setup(cb_tour_cmd *c);
/* tour_run.c: the header, every pairing, the tables, the report; the exit status. */
int cb_tour_run(cb_tour_cmd *c);

#endif
