/* cardbot match — setup: the config opened, seed, games, deals, shard and progress resolved,
 * the seating checked and the output files opened, all before the first game, so a mistake
 * is one line on stderr (exit 2) and costs no games. */
#include <errno.h>
#include <glib.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "cardbot/game.h"
#include "cli.h"
#include "cmd_match.h"

/* One line on stderr, and the usage status: a bad input costs no games. */
int cb_match_usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    cb_cli_error("match", "%s", msg);
    g_free(msg);
    return CB_CLI_EXIT_USAGE;
}


/* [shim] budget_ms as a number (the shim checked it when it opened the file). */
static int read_budget(cb_match_cmd *m)
{
    const char *s = cb_shim_get(m->shim, "shim", "budget_ms");
    if (!s)
        return 0;
    char *end;
    errno = 0;
    long long x = strtoll(s, &end, 10);
    if (end == s || *end || errno) {
        cb_cli_error("match", "%s: [shim] budget_ms: not a number: '%s'", m->a.config, s);
        return CB_CLI_EXIT_USAGE;
    }
    m->budget = x;
    return 0;
}

/* The SHA-256 of a file's bytes (NULL when it cannot be read). */
static char *file_sha256(const char *path)
{
    char *text = NULL;
    gsize len = 0;
    if (!g_file_get_contents(path, &text, &len, NULL))
        return NULL;
    char *sum = g_compute_checksum_for_data(G_CHECKSUM_SHA256, (const guchar *)text, len);
    g_free(text);
    return sum;
}

/* --seed, else [match] seed, else a secret key from the kernel, printed only once the match
 * is over (so the run can be replayed), never while a plugin could read it. Both numbers were
 * checked already (cmd_match.c, cb_cli_match_conf_read). */
static int resolve_seed(cb_match_cmd *m)
{
    gint64 seed = m->a.seed != G_MININT64 ? m->a.seed : m->conf.seed;
    if (seed != G_MININT64) {
        m->info.seed = (uint64_t)seed;
        return 0;
    }
    uint64_t k = 0;
    if (getrandom(&k, sizeof k, 0) != (ssize_t)sizeof k) {
        cb_cli_error("match", "no --seed and no random key available: give --seed");
        return 1;
    }
    m->info.seed = k >> 1;
    m->info.random_seed = true;
    return 0;
}

/* --games, else every deal of --deals, else [match] games, else 100 (--games and [match]
 * games were checked already); whole rotations with --duplicate; enough deals in --deals (an
 * error before any game, rather than cycling: a run that reuses deals silently would count the
 * same luck twice). */
static int resolve_games(cb_match_cmd *m)
{
    cb_match_args *a = &m->a;
    long long games = a->games;
    if (games == G_MININT64 && m->deals) {
        games = (long long)m->ndeals * (a->duplicate ? 3 : 1);
        if (games > CB_CLI_MAX_GAMES)
            return cb_match_usage_error("--deals %s: %d deals make %lld games; a match plays at most %d (give "
                                        "--games)", a->deals, m->ndeals, games, CB_CLI_MAX_GAMES);
    }
    if (games == G_MININT64)
        games = m->conf.games != G_MININT64 ? m->conf.games : 100;
    if (a->duplicate && games % 3)
        games += 3 - games % 3; /* whole rotations only, so luck cancels */
    long long need = a->duplicate ? games / 3 : games;
    if (m->deals && need > m->ndeals) {
        cb_cli_error("match", "--deals %s has %d deals; %lld games need %lld%s", a->deals, m->ndeals, games, need,
                     a->duplicate ? " (one per 3 games with --duplicate)" : "");
        return CB_CLI_EXIT_USAGE;
    }
    m->info.games = (int)games;
    return 0;
}

/* --shard K/N: this shard's games (whole deals); with --results, needed for cardbot merge. */
static int resolve_shard(cb_match_cmd *m)
{
    cb_match_args *a = &m->a;
    m->info.shard = m->info.nshards = 1;
    if (a->shard) {
        char *end;
        long k = strtol(a->shard, &end, 10), n = *end == '/' ? strtol(end + 1, &end, 10) : 0;
        if (*end || k < 1 || n < 1 || k > n || n > 100000)
            return cb_match_usage_error("--shard %s: expected K/N with 1 <= K <= N (e.g. 2/8)", a->shard);
        if (!a->results)
            return cb_match_usage_error("--shard %s: needs --results FILE (the shard's games, for cardbot merge)", a->shard);
        if (m->info.random_seed)
            return cb_match_usage_error("--shard %s: needs a fixed seed (--seed or [match] seed), the same in every "
                               "shard", a->shard);
        if (a->save_deals)
            return cb_match_usage_error("--shard %s: --save-deals writes a whole match's deals; run it without "
                               "--shard", a->shard);
        m->info.shard = (int)k;
        m->info.nshards = (int)n;
    }
    m->game_list = g_new(int, m->info.games);
    for (int g = 0; g < m->info.games; g++)
        if (cb_match_shard_of(&m->info, g) == m->info.shard)
            m->game_list[m->ngames++] = g;
    return 0;
}

static int resolve_progress(cb_match_cmd *m)
{
    cb_match_progress_cfg pc = {.total = m->ngames};
    if (cb_match_progress_option(m->a.progress, &pc, &m->progress_off) != 0)
        return cb_match_usage_error("--progress %s: give games (10), seconds (30s) or 0 (none)", m->a.progress);
    m->progress_games = pc.every_games;
    m->progress_s = pc.every_s;
    return 0;
}

/* A seating the config does not have is a mistake, not [seats]. */
static int check_table(cb_match_cmd *m)
{
    const char *id = m->a.table_id;
    if (!id)
        return 0;
    char *group = g_strdup_printf("table.%s", id);
    bool seated = false;
    for (int seatno = 0; seatno < 3 && !seated; seatno++) {
        char key[12];
        snprintf(key, sizeof key, "%d", seatno);
        seated = cb_shim_get(m->shim, group, key) != NULL;
    }
    g_free(group);
    if (!seated) {
        cb_cli_error("match", "--table %s: %s has no [table.%s] seating", id, m->a.config, id);
        return CB_CLI_EXIT_USAGE;
    }
    return 0;
}

static int open_output(FILE **f, const char *path, const char *what)
{
    if (path && !(*f = fopen(path, "w"))) {
        cb_cli_error("match", "cannot write %s file '%s': %s", what, path, g_strerror(errno));
        return CB_CLI_EXIT_USAGE;
    }
    return 0;
}

bool cb_match_bidding(const cb_match_cmd *m)
{
    return m->rules->game == CB_GAME_DDZ && m->a.landlord < 0;
}

int cb_match_setup(cb_match_cmd *m)
{
    cb_match_args *a = &m->a;
    /* Results go to a private copy of stdout; fd 1 itself goes to stderr, so whatever a plugin
     * prints cannot pass for a result line (main() made sure fds 0-2 are open, so nothing of
     * ours lands on a closed fd 1 either). */
    int out_fd = dup(1);
    if (out_fd < 0 || !(m->out = fdopen(out_fd, "w")) || dup2(2, 1) < 0) {
        cb_cli_error("match", "cannot set up the result stream");
        if (out_fd >= 0 && !m->out)
            close(out_fd);
        return 1;
    }
    char err[512];
    if (!(m->shim = cb_shim_open(a->config, err, sizeof err)))
        return cb_match_usage_error("%s", err);
    m->rules = cb_shim_rules(m->shim);
    cb_match_info *i = &m->info;
    i->config = g_strdup(a->config);
    i->config_abs = g_canonicalize_filename(a->config, NULL);
    i->config_sha256 = file_sha256(a->config);
    i->rules = g_strdup(m->rules->preset);
    i->duplicate = a->duplicate;
    i->landlord = a->landlord;
    i->table = g_strdup(a->table_id);
    i->deals = g_strdup(a->deals);
    i->deals_sha256 = a->deals ? file_sha256(a->deals) : NULL;
    i->version = g_strdup(CB_VERSION);
    int rc;
    if ((rc = cb_cli_match_conf_read("match", a->config, &m->conf)) || (rc = resolve_seed(m)) ||
        (rc = read_budget(m)) || (rc = cb_cli_check_landlord("match", a->landlord, a->config, m->rules)))
        return rc;
    if (a->deals && cb_match_deals_read(a->deals, m->rules, cb_match_bidding(m), &m->deals, &m->ndeals, err, sizeof err))
        return cb_match_usage_error("--deals: %s", err);
    if ((rc = resolve_games(m)) || (rc = resolve_shard(m)) || (rc = resolve_progress(m)) || (rc = check_table(m)))
        return rc;
    if ((rc = open_output(&m->rf, a->replay, "replay")) || (rc = open_output(&m->resf, a->results, "results")) ||
        (rc = open_output(&m->df, a->save_deals, "deals")))
        return rc;
    if (m->rf && cb_replay_header_write(m->rf, &m->info, m->rules) != 0) {
        cb_cli_error("match", "error writing replay file '%s': %s", a->replay, g_strerror(errno));
        return 1;
    }
    return 0;
}

