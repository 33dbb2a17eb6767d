/* cardbot merge — put the shards of a match back together.
 *
 *   cardbot merge [--quiet] [--replay FILE.jsonl] RESULTS...
 *
 * Each RESULTS file is what `cardbot match --shard K/N --results FILE` wrote (format:
 * match_results.c). The files must be one run's — the same header fields but the shard
 * number, every shard 1..N once, every game of each shard present once and each file
 * complete — else one line names the file and what is wrong (exit 2) before anything is
 * printed. The games are then decoded and fed, in game order, to the same sink a match uses
 * (match_sink.c), so stdout is byte for byte what the single run of the whole match prints,
 * "timing" lines aside (with --quiet if the single run had it). --replay writes the replay
 * file the single run would have written. Exit 1 when some games could not be completed,
 * as cardbot match. */
#include <errno.h>
#include <glib.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "match.h"
#include "match_verdict.h"

typedef struct shard {
    const char *path;
    cb_match_info info;
    FILE *f;
    long lineno;       /* of the last line read */
    double seconds;
    int concurrency;
} shard;

typedef struct merge {
    shard *s;          /* given order */
    int n;
    shard **by_k;      /* by shard number - 1 */
    cb_rules rules;
    char *line;
    size_t cap;
} merge;

static int fail(const char *fmt, ...) G_GNUC_PRINTF(1, 2);
static int fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    cb_cli_error("merge", "%s", msg);
    g_free(msg);
    return CB_CLI_EXIT_USAGE;
}

/* The next line that is not blank, in m->line; false at the end of the file. */
static bool next_line(merge *m, shard *s)
{
    while (getline(&m->line, &m->cap, s->f) >= 0) {
        s->lineno++;
        g_strchomp(m->line);
        if (m->line[0])
            return true;
    }
    return false;
}

static int open_shard(merge *m, shard *s)
{
    if (!(s->f = fopen(s->path, "r")))
        return fail("%s: %s%s", s->path, g_strerror(errno),
                    errno == EMFILE ? " (one file per shard is open at once: raise ulimit -n)" : "");
    s->lineno = 0;
    char err[300];
    if (!next_line(m, s) || cb_match_results_read_header(m->line, &s->info, err, sizeof err) != 0)
        return fail("%s: %s", s->path, s->lineno ? err : "empty, not a results file");
    return 0;
}

/* Headers of one run, each shard 1..N once. */
static int check_headers(merge *m)
{
    const shard *a = &m->s[0];
    for (int i = 1; i < m->n; i++) {
        char *d = cb_match_info_differs(&a->info, &m->s[i].info);
        if (d) {
            int rc = fail("%s is not from the run of %s: %s", m->s[i].path, a->path, d);
            g_free(d);
            return rc;
        }
    }
    int nk = a->info.nshards;
    m->by_k = g_new0(shard *, nk);
    for (int i = 0; i < m->n; i++) {
        shard **slot = &m->by_k[m->s[i].info.shard - 1];
        if (*slot)
            return fail("%s and %s are both shard %d/%d", (*slot)->path, m->s[i].path, m->s[i].info.shard, nk);
        *slot = &m->s[i];
    }
    for (int k = 0; k < nk; k++)
        if (!m->by_k[k])
            return fail("shard %d/%d is missing (give the results file of every shard)", k + 1, nk);
    if (cb_rules_preset(a->info.rules, &m->rules) != 0)
        return fail("%s: rules '%s' unknown to this cardbot", a->path, a->info.rules);
    return 0;
}

/* First pass over one shard: every line decodes, each game is this shard's, once, in
 * order, and the end line closes it. */
static int check_games(merge *m, shard *s, cb_match_game *gm, guint8 *seen)
{
    const cb_match_info *mi = &s->info;
    int last = -1, count = 0;
    char err[300];
    for (;;) {
        if (!next_line(m, s))
            return fail("%s: shard %d/%d is incomplete (no end line: it was interrupted, failed or is still "
                        "running); run it again", s->path, mi->shard, mi->nshards);
        int games;
        if (cb_match_results_read_end(m->line, &games, &s->seconds, &s->concurrency)) {
            if (games != count)
                return fail("%s:%ld: the end line counts %d games, the file has %d", s->path, s->lineno, games,
                            count);
            break;
        }
        if (cb_match_game_from_json(&m->rules, m->line, gm, err, sizeof err) != 0)
            return fail("%s:%ld: %s", s->path, s->lineno, err);
        int g = gm->index;
        if (g >= mi->games)
            return fail("%s:%ld: game %d: the match has %d", s->path, s->lineno, g + 1, mi->games);
        if (cb_match_shard_of(mi, g) != mi->shard)
            return fail("%s:%ld: game %d belongs to shard %d/%d, not %d/%d", s->path, s->lineno, g + 1,
                        cb_match_shard_of(mi, g), mi->nshards, mi->shard, mi->nshards);
        if (seen[g] || g <= last)
            return fail("%s:%ld: game %d %s", s->path, s->lineno, g + 1, seen[g] ? "again" : "out of order");
        seen[g] = 1;
        last = g;
        count++;
    }
    if (next_line(m, s))
        return fail("%s:%ld: a line after the end line", s->path, s->lineno);
    return 0;
}

static int check_all(merge *m, cb_match_game *gm)
{
    int games = m->s[0].info.games, rc = 0;
    guint8 *seen = g_new0(guint8, games);
    for (int i = 0; i < m->n && !rc; i++)
        rc = check_games(m, &m->s[i], gm, seen);
    for (int g = 0; g < games && !rc; g++)
        if (!seen[g]) {
            const shard *s = m->by_k[cb_match_shard_of(&m->s[0].info, g) - 1];
            rc = fail("%s: game %d of shard %d/%d is missing", s->path, g + 1, s->info.shard, s->info.nshards);
        }
    g_free(seen);
    return rc;
}

/* Second pass: the games in game order through the sink, then the summary. */
static int replay_games(merge *m, cb_match_game *gm, bool quiet, FILE *rf, const char *replay, const cb_sprt_opts *sprt)
{
    cb_match_info whole = m->s[0].info; /* shallow: the strings stay the shard's */
    whole.shard = whole.nshards = 1;
    cb_match_print_header(stdout, &whole, whole.games);
    for (int i = 0; i < m->n; i++) { /* back to the first game line */
        rewind(m->s[i].f);
        m->s[i].lineno = 0;
        next_line(m, &m->s[i]);
    }
    cb_match_verdicts *v = cb_match_verdicts_new(&m->rules, whole.duplicate, sprt, NULL, NULL, whole.games);
    cb_match_sink_cfg sc = {.rules = &m->rules, .out = stdout, .quiet = quiet, .replay = rf,
                            .replay_path = replay, .cmd = "merge", .verdicts = v};
    cb_match_sink *k = cb_match_sink_new(&sc);
    char err[300];
    int status = 0;
    for (int g = 0; g < whole.games && !status; g++) {
        shard *s = m->by_k[cb_match_shard_of(&m->s[0].info, g) - 1];
        if (!next_line(m, s) || cb_match_game_from_json(&m->rules, m->line, gm, err, sizeof err) != 0 ||
            gm->index != g) {
            status = fail("%s:%ld: changed while it was being merged", s->path, s->lineno);
            break;
        }
        gm->seed = whole.seed;
        if (cb_match_sink_game(k, gm)) {
            status = cb_match_sink_status(k);
            if (!status) /* the SPRT decided: the single run stopped here too */
                break;
        }
    }
    if (!status) {
        int seen = cb_match_sink_seen(k);
        if (cb_match_verdicts_decided(v))
            fprintf(stdout, "SPRT decided after %d of %d games: the summary covers those %d\n", seen, whole.games,
                    seen);
        double secs = 0;
        int jmax = 0;
        for (int i = 0; i < m->n; i++) {
            secs += m->s[i].seconds;
            jmax = m->s[i].concurrency > jmax ? m->s[i].concurrency : jmax;
        }
        /* timing lines: the shards' own time added up, not a wall time */
        cb_match_stats_print(cb_match_sink_stats(k), stdout, secs);
        cb_match_verdicts_print(v, stdout);
        fprintf(stdout, "timing merged %d shards, concurrency up to %d\n", m->n, jmax);
        if (whole.random_seed)
            fprintf(stdout, "Seed %llu (chosen at random: replay this match with --seed %llu)\n",
                    (unsigned long long)whole.seed, (unsigned long long)whole.seed);
        const char *first_err;
        int errors = cb_match_sink_errors(k, &first_err);
        if (errors) {
            fprintf(stderr, "cardbot merge: %d games could not be completed (first: %s)\n", errors, first_err);
            status = 1;
        }
    }
    cb_match_sink_free(k);
    cb_match_verdicts_free(v);
    return status;
}

/* --replay names none of the results files. 0 or the usage status. */
static int check_replay_path(const char *replay, char **results, int n)
{
    cb_cli_file *in = g_new(cb_cli_file, n), out = {"--replay", replay};
    for (int i = 0; i < n; i++)
        in[i] = (cb_cli_file){"results", results[i]};
    int rc = cb_cli_check_files("merge", in, n, &out, 1);
    g_free(in);
    return rc;
}

int cb_cmd_merge(int argc, char **argv)
{
    gboolean quiet = FALSE;
    char *replay = NULL, *sprt_spec = NULL;
    GOptionEntry entries[] = {
        {"sprt", 0, 0, G_OPTION_ARG_STRING, &sprt_spec,
         "the sequential test of the whole match, as the single run's --sprt (stops where it would have)",
         "elo0=E0,elo1=E1[,alpha=A,beta=B]"},
        {"quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "no per-game lines (as the single run's --quiet)", NULL},
        {"replay", 'r', 0, G_OPTION_ARG_FILENAME, &replay, "write the whole match's replay JSON lines", "FILE"},
        {NULL, 0, 0, 0, NULL, NULL, NULL}};
    GOptionContext *ctx = g_option_context_new("RESULTS... - merge the results files of a sharded match");
    g_option_context_add_main_entries(ctx, entries, NULL);
    g_option_context_set_description(ctx, "Each RESULTS file comes from cardbot match --shard K/N --results FILE.\n"
                                          "Prints what the single run of the whole match prints (timing lines aside).");
    int status = cb_cli_parse("merge", ctx, entries, &argc, &argv);
    if (status)
        return status;
    cb_sprt_opts sprt;
    char serr[200];
    if (sprt_spec && cb_sprt_parse(sprt_spec, &sprt, serr, sizeof serr) != 0) {
        cb_cli_error("merge", "--sprt %s: %s", sprt_spec, serr);
        g_free(sprt_spec);
        g_free(replay);
        return CB_CLI_EXIT_USAGE;
    }
    merge m;
    memset(&m, 0, sizeof m);
    cb_match_game *gm = g_new(cb_match_game, 1);
    FILE *rf = NULL;
    if (argc < 2)
        status = fail("no results files (cardbot merge RESULTS...)");
    m.n = argc > 1 ? argc - 1 : 0;
    if (!status) /* --replay is opened (truncated) while the results files are still read */
        status = check_replay_path(replay, argv + 1, m.n);
    m.s = g_new0(shard, m.n ? m.n : 1);
    for (int i = 0; i < m.n && !status; i++) {
        m.s[i].path = argv[i + 1];
        status = open_shard(&m, &m.s[i]);
    }
    if (!status)
        status = check_headers(&m);
    if (!status)
        status = check_all(&m, gm);
    if (!status && replay && !(rf = fopen(replay, "w")))
        status = fail("cannot write replay file '%s': %s", replay, g_strerror(errno));
    if (!status && rf) { /* the header the single run's replay opens with */
        cb_match_info whole = m.s[0].info; /* shallow */
        whole.shard = whole.nshards = 1;
        if (cb_replay_header_write(rf, &whole, NULL) != 0) {
            cb_cli_error("merge", "error writing replay file '%s': %s", replay, g_strerror(errno));
            status = 1;
        }
    }
    if (!status)
        status = replay_games(&m, gm, quiet, rf, replay, sprt_spec ? &sprt : NULL);
    if (rf && fclose(rf) && status == 0) {
        cb_cli_error("merge", "error writing replay file '%s'", replay);
        status = 1;
    }
    if (fflush(stdout) != 0 && status == 0) {
        cb_cli_error("merge", "error writing the results");
        status = 1;
    }
    for (int i = 0; i < m.n; i++) {
        if (m.s[i].f)
            fclose(m.s[i].f);
        cb_match_info_clear(&m.s[i].info);
    }
    g_free(m.s);
    g_free(m.by_k);
    free(m.line);
    g_free(gm);
    g_free(replay);
    g_free(sprt_spec);
    return status;
}
