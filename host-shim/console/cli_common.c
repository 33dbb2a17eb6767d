/* cardbot command — options, rules and card parsing, move text and order, the [match] group
 * and the files a command writes: what the subcommands share. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <glib/gstdio.h>

#include "../conf_value.h"
#include "cli.h"

/* Named in the message for an unknown --rules; only those the core accepts are listed. */
static const char *const preset_names[] = {"pdk16", "pdk15", "guanpai", "ddz", "noip2015", NULL};

void cb_cli_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "cardbot %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

void cb_cli_rules_entries(cb_cli_rules_opt *o, GOptionEntry out[3])
{
    const GOptionEntry entries[3] = {
        {"rules", 'r', 0, G_OPTION_ARG_STRING, &o->rules,
         "Rule preset: pdk16 pdk15 guanpai ddz noip2015", "R"},
        {"flag", 'f', 0, G_OPTION_ARG_STRING_ARRAY, &o->flags,
         "Override one rule flag (repeatable), e.g. must_beat=false", "KEY=VALUE"},
        {NULL, 0, 0, 0, NULL, NULL, NULL},
    };
    memcpy(out, entries, sizeof entries);
}

void cb_cli_add_rules_options(GOptionContext *ctx, cb_cli_rules_opt *o)
{
    GOptionEntry entries[3];
    cb_cli_rules_entries(o, entries);
    g_option_context_add_main_entries(ctx, entries, NULL);

    GString *desc = g_string_new("Flags (--flag KEY=VALUE):");
    for (int i = 0; cb_rules_keys[i]; i++)
        g_string_append_printf(desc, " %s", cb_rules_keys[i]);
    g_string_append(desc, "\n(a flag the preset's game does not use takes only the preset's own value)");
    g_string_append(desc, "\nCards: ranks 3456789TJQKA2XD (T or 10), optional suit s h c d or \xe2\x99\xa0 \xe2\x99\xa5 "
                          "\xe2\x99\xa3 \xe2\x99\xa6, e.g. 33344 or 3s3h4d.");
    g_option_context_set_description(ctx, desc->str);
    g_string_free(desc, TRUE);
}

int cb_cli_rules_resolve(const char *cmd, const cb_cli_rules_opt *o, cb_rules *out)
{
    if (!o->rules) {
        cb_cli_error(cmd, "missing --rules (one of pdk16 pdk15 guanpai ddz noip2015)");
        return CB_CLI_EXIT_USAGE;
    }
    if (cb_rules_preset(o->rules, out) != 0) {
        GString *known = g_string_new("");
        cb_rules tmp;
        for (int i = 0; preset_names[i]; i++)
            if (cb_rules_preset(preset_names[i], &tmp) == 0)
                g_string_append_printf(known, " %s", preset_names[i]);
        cb_cli_error(cmd, "unknown rules '%s' (known:%s)", o->rules, known->str);
        g_string_free(known, TRUE);
        return CB_CLI_EXIT_USAGE;
    }
    for (int i = 0; o->flags && o->flags[i]; i++) {
        const char *kv = o->flags[i];
        const char *eq = strchr(kv, '=');
        if (!eq || eq == kv) {
            cb_cli_error(cmd, "bad --flag '%s': expected KEY=VALUE", kv);
            return CB_CLI_EXIT_USAGE;
        }
        char *key = g_strndup(kv, (size_t)(eq - kv));
        char err[256] = "";
        int rc = cb_rules_set(out, key, eq + 1, err, sizeof err);
        g_free(key);
        if (rc != 0) {
            cb_cli_error(cmd, "bad --flag '%s': %s", kv, err[0] ? err : "rejected");
            return CB_CLI_EXIT_USAGE;
        }
    }
    return 0;
}

void cb_cli_rules_opt_free(cb_cli_rules_opt *o)
{
    g_free(o->rules);
    g_strfreev(o->flags);
    o->rules = NULL;
    o->flags = NULL;
}

/* Whether the entry takes a value. */
static bool takes_value(const GOptionEntry *e)
{
    return e->arg != G_OPTION_ARG_NONE && !(e->flags & G_OPTION_FLAG_NO_ARG);
}

/* The entry whose short name is c and which takes a value, or NULL. */
static const GOptionEntry *short_with_value(const GOptionEntry *entries, char c)
{
    for (const GOptionEntry *e = entries; e && e->long_name; e++)
        if (e->short_name == c && takes_value(e))
            return e;
    return NULL;
}

/* Whether the argument a leaves its option's value to the next argument: "--name" of an
 * option that takes one (not "--name=value"), or "-X" of one. */
static bool value_follows(const GOptionEntry *entries, const char *a)
{
    if (a[0] != '-' || !a[1])
        return false;
    if (a[1] == '-') {
        if (strchr(a, '='))
            return false;
        for (const GOptionEntry *e = entries; e && e->long_name; e++)
            if (strcmp(e->long_name, a + 2) == 0)
                return takes_value(e);
        return false;
    }
    return !a[2] && short_with_value(entries, a[1]);
}

int cb_cli_parse(const char *cmd, GOptionContext *ctx, const GOptionEntry *entries, int *argc, char ***argv)
{
    /* the arguments with every "-Xvalue" split into "-X" "value" (up to a "--"; never the
     * value of the option before it: --config -cfg.ini names a file); the pieces are ours,
     * the rest the caller's */
    GPtrArray *args = g_ptr_array_new(), *ours = g_ptr_array_new_with_free_func(g_free);
    bool rest = false, is_value = false;
    for (int i = 0; i < *argc; i++) {
        char *a = (*argv)[i];
        bool value = is_value;
        is_value = false;
        rest = rest || (i > 0 && !value && strcmp(a, "--") == 0);
        if (i > 0 && !rest && !value && a[0] == '-' && a[1] && a[1] != '-' && a[2] &&
            short_with_value(entries, a[1])) {
            char *flag = g_strndup(a, 2), *val = g_strdup(a + 2);
            g_ptr_array_add(ours, flag);
            g_ptr_array_add(ours, val);
            g_ptr_array_add(args, flag);
            g_ptr_array_add(args, val);
        } else {
            g_ptr_array_add(args, a);
            is_value = i > 0 && !rest && !value && value_follows(entries, a);
        }
    }
    int n = (int)args->len;
    g_ptr_array_add(args, NULL);
    char **v = (char **)args->pdata;
    GError *error = NULL;
    gboolean ok = g_option_context_parse(ctx, &n, &v, &error);
    g_option_context_free(ctx);
    /* what is left fits where the caller's arguments were: every piece we made was an option or
     * its value, which parsing consumed (GOption keeps copies of the values) */
    int left = 0;
    for (int i = 0; ok && i < n; i++)
        if (!g_ptr_array_find(ours, v[i], NULL))
            (*argv)[left++] = v[i];
    if (ok) {
        (*argv)[left] = NULL;
        *argc = left;
    }
    g_ptr_array_free(args, TRUE);
    g_ptr_array_free(ours, TRUE);
    if (!ok) {
        cb_cli_error(cmd, "%s (try cardbot %s --help)", error->message, cmd);
        g_error_free(error);
        return CB_CLI_EXIT_USAGE;
    }
    return 0;
}

const char *cb_cli_shorten(const char *text, char *buf, size_t len)
{
    size_t n = strlen(text);
    if (n < len) {
        memcpy(buf, text, n + 1);
    } else if (len > 4) {
        /* cut before a whole character: never half of a multi-byte UTF-8 sequence */
        size_t cut = len - 4;
        while (cut > 0 && ((unsigned char)text[cut] & 0xC0) == 0x80)
            cut--;
        memcpy(buf, text, cut);
        memcpy(buf + cut, "...", 4);
    } else if (len) {
        buf[0] = 0;
    }
    return buf;
}

int cb_cli_cards(const char *cmd, const char *what, const char *text, const cb_rules *r, cb_counts *out)
{
    return cb_cli_cards_from(cmd, what, text, r, r->deck, NULL, out);
}

int cb_cli_cards_from(const char *cmd, const char *what, const char *text, const cb_rules *r, cb_cards from,
                      cb_cards *cards, cb_counts *out)
{
    char err[256] = "", shown[48];
    cb_cards c;
    if (cb_cards_parse(text, from, &c, err, sizeof err) != 0) {
        cb_cards any;
        if (from != r->deck && cb_cards_parse(text, r->deck, &any, NULL, 0) == 0) {
            char dup[64];
            cb_cards_format(any & ~from, true, dup, sizeof dup);
            cb_cli_error(cmd, "%s '%s': %s already used (one card cannot be in two places)", what,
                         cb_cli_shorten(text, shown, sizeof shown), dup);
            return CB_CLI_EXIT_USAGE;
        }
        cb_cli_error(cmd, "%s '%s': %s", what, cb_cli_shorten(text, shown, sizeof shown),
                     err[0] ? err : "bad cards");
        return CB_CLI_EXIT_USAGE;
    }
    if (cards)
        *cards = c;
    *out = cb_counts_of(c);
    return 0;
}

int cb_cli_hand_size_ok(const char *cmd, const char *what, cb_counts hand, const cb_rules *r)
{
    int n = cb_counts_total(hand), max = r->hand_size + r->bottom;
    if (n > max) {
        cb_cli_error(cmd, "%s holds %d cards; a %s hand holds at most %d", what, n, r->preset, max);
        return CB_CLI_EXIT_USAGE;
    }
    return 0;
}

void cb_cli_move_text(cb_counts k, char *buf, size_t len)
{
    if (k == 0)
        snprintf(buf, len, "pass");
    else
        cb_counts_format(k, buf, len);
}

int cb_cli_move_cmp(const void *a, const void *b)
{
    cb_counts ka = ((const cb_move *)a)->counts, kb = ((const cb_move *)b)->counts;
    int na = cb_counts_total(ka), nb = cb_counts_total(kb);
    if (na != nb)
        return na < nb ? -1 : 1;
    /* Same length: walk both texts (ranks ascending) and compare the first rank that differs.
     * At the first rank whose count differs, the play holding more of it has that (lower)
     * rank where the other already shows a higher one, so it sorts first. */
    for (int rk = 0; rk < CB_NRANKS; rk++) {
        int ca = cb_count(ka, rk), cbn = cb_count(kb, rk);
        if (ca != cbn)
            return ca > cbn ? -1 : 1;
    }
    return 0;
}

cb_counts cb_cli_kickers(const cb_move *m)
{
    int unit;
    switch (m->shape) {
    case CB_TRIPLE_1: case CB_TRIPLE_2: case CB_PLANE_1: case CB_PLANE_2: unit = 3; break;
    case CB_FOUR_2: case CB_FOUR_22: case CB_FOUR_3: unit = 4; break;
    default: return 0;
    }
    cb_counts k = m->counts;
    for (int i = 0; i < m->len; i++) {
        int rk = m->main + i;
        if (rk >= CB_NRANKS || cb_count(k, rk) < unit)
            return 0; /* a layout we do not expect: show the play whole rather than wrong */
        k = cb_count_add(k, rk, -unit);
    }
    return k;
}

int cb_cli_check_games(const char *cmd, gint64 games, gint64 max)
{
    if (games == G_MININT64 || (games >= 1 && games <= max))
        return 0;
    cb_cli_error(cmd, "--games %lld: must be 1..%lld", (long long)games, (long long)max);
    return CB_CLI_EXIT_USAGE;
}

int cb_cli_check_seed(const char *cmd, gint64 seed)
{
    if (seed == G_MININT64 || seed >= 0)
        return 0;
    cb_cli_error(cmd, "--seed %lld: must be 0..%lld", (long long)seed, (long long)G_MAXINT64);
    return CB_CLI_EXIT_USAGE;
}

int cb_cli_check_concurrency(const char *cmd, int concurrency)
{
    if (concurrency >= 1 && concurrency <= CB_CLI_MAX_CONCURRENCY)
        return 0;
    cb_cli_error(cmd, "--concurrency %d: must be 1..%d", concurrency, CB_CLI_MAX_CONCURRENCY);
    return CB_CLI_EXIT_USAGE;
}

int cb_cli_check_landlord(const char *cmd, int landlord, const char *config, const cb_rules *r)
{
    if (landlord < -1 || landlord > 2) {
        cb_cli_error(cmd, "--landlord %d: must be a seat 0..2", landlord);
        return CB_CLI_EXIT_USAGE;
    }
    if (landlord >= 0 && r && r->game != CB_GAME_DDZ) {
        cb_cli_error(cmd, "--landlord %d: only ddz has a landlord; %s plays %s", landlord, config, r->preset);
        return CB_CLI_EXIT_USAGE;
    }
    return 0;
}

/* One [match] value as a number in lo..hi (hi < 0: no upper bound). 0, or the usage status
 * with "FILE: [match] KEY: ..." printed. */
static int match_number(const char *cmd, const char *config, GKeyFile *kf, const char *key, gint64 lo, gint64 hi,
                        gint64 *out)
{
    GError *e = NULL;
    char *s = cb_conf_value(kf, "match", key, &e); /* as the shim reads values: conf_value.h */
    if (!s) {
        cb_cli_error(cmd, "%s: [match] %s: %s", config, key, e ? e->message : "unreadable value");
        g_clear_error(&e);
        return CB_CLI_EXIT_USAGE;
    }
    char *end, shown[48];
    errno = 0;
    long long v = strtoll(s, &end, 10);
    int rc = 0;
    cb_cli_shorten(s, shown, sizeof shown);
    if (end == s || *end) {
        cb_cli_error(cmd, "%s: [match] %s: not a number: '%s'", config, key, shown);
        rc = CB_CLI_EXIT_USAGE;
    } else if (errno == ERANGE || v < lo || (hi >= 0 && v > hi)) { /* ERANGE: a number, far out */
        /* without an upper bound the largest is strtoll's: say so when that is what was passed */
        long long top = hi >= 0 ? (long long)hi : LLONG_MAX;
        cb_cli_error(cmd, "%s: [match] %s: %s: must be %lld..%lld", config, key, shown, (long long)lo, top);
        rc = CB_CLI_EXIT_USAGE;
    } else {
        *out = v;
    }
    g_free(s);
    return rc;
}

int cb_cli_match_conf_read(const char *cmd, const char *config, cb_cli_match_conf *out)
{
    out->games = out->seed = G_MININT64;
    GKeyFile *kf = g_key_file_new();
    GError *e = NULL;
    /* as the shim loads it (translations kept: games[zh] is never read either, so it is
     * refused like any other key) */
    if (!g_key_file_load_from_file(kf, config, CB_CONF_KEYFILE_FLAGS, &e)) {
        cb_cli_error(cmd, "%s: %s", config, e->message); /* only when it changed since the shim read it */
        g_error_free(e);
        g_key_file_free(kf);
        return CB_CLI_EXIT_USAGE;
    }
    /* NULL without the group: nothing to check */
    char **keys = g_key_file_get_keys(kf, "match", NULL, NULL);
    int rc = 0;
    for (char **k = keys; k && *k && !rc; k++) {
        if (!strcmp(*k, "games"))
            rc = match_number(cmd, config, kf, *k, 1, CB_CLI_MAX_GAMES, &out->games);
        else if (!strcmp(*k, "seed"))
            rc = match_number(cmd, config, kf, *k, 0, -1, &out->seed);
        else {
            char shown[48];
            cb_cli_error(cmd, "%s: [match] %s: unknown key (games, seed)", config,
                         cb_cli_shorten(*k, shown, sizeof shown));
            rc = CB_CLI_EXIT_USAGE;
        }
    }
    g_strfreev(keys);
    g_key_file_free(kf);
    return rc;
}

/* The path with its directory resolved (symlinks, "..", relative to the working directory)
 * and its last component as written: a file that does not exist yet has one name too. A
 * symlink to a file not there yet (stat fails, so no inode to compare) is its target: writing
 * through it creates the target. */
static char *canonical_path(const char *path)
{
    char *target = NULL;
    GStatBuf st;
    if (g_lstat(path, &st) == 0 && S_ISLNK(st.st_mode) && g_stat(path, &st) != 0) {
        char *link = g_file_read_link(path, NULL);
        if (link && !g_path_is_absolute(link)) {
            char *d = g_path_get_dirname(path);
            target = g_build_filename(d, link, NULL);
            g_free(d);
            g_free(link);
        } else {
            target = link;
        }
        if (target)
            path = target;
    }
    char *dir = g_path_get_dirname(path), *base = g_path_get_basename(path);
    char *real = realpath(dir, NULL);
    char *full = real ? g_build_filename(real, base, NULL) : g_canonicalize_filename(path, NULL);
    free(real);
    g_free(dir);
    g_free(base);
    g_free(target);
    return full;
}

/* Would writing a clobber b (or b be read from what a is writing)? */
static bool same_file(const char *a, const char *b)
{
    GStatBuf sa, sb;
    bool ea = g_stat(a, &sa) == 0, eb = g_stat(b, &sb) == 0;
    if (ea && S_ISCHR(sa.st_mode))
        return false; /* /dev/null, a terminal: nothing there to overwrite */
    if (!strcmp(a, b))
        return true;
    if (ea && eb) /* hard links and symlinks too */
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    char *ca = canonical_path(a), *cb = canonical_path(b);
    bool same = !strcmp(ca, cb);
    g_free(ca);
    g_free(cb);
    return same;
}

int cb_cli_check_files(const char *cmd, const cb_cli_file *inputs, int nin, const cb_cli_file *outputs, int nout)
{
    for (int j = 0; j < nout; j++) {
        const cb_cli_file *o = &outputs[j];
        if (!o->path)
            continue;
        for (int i = 0; i < nin; i++)
            if (inputs[i].path && same_file(o->path, inputs[i].path)) {
                cb_cli_error(cmd, "%s %s: that is the %s file (refusing to overwrite an input)", o->opt, o->path,
                             inputs[i].opt);
                return CB_CLI_EXIT_USAGE;
            }
        for (int i = 0; i < j; i++)
            if (outputs[i].path && same_file(o->path, outputs[i].path)) {
                bool spelled = strcmp(o->path, outputs[i].path) != 0;
                cb_cli_error(cmd, "%s %s: the same file as %s%s%s", o->opt, o->path, outputs[i].opt,
                             spelled ? " " : "", spelled ? outputs[i].path : "");
                return CB_CLI_EXIT_USAGE;
            }
    }
    return 0;
}

char **cb_cli_strategies(cb_shim *shim)
{
    /* The shim has no list call, but cb_shim_stats lists "every strategy configured since
     * open, in the order first seen": right after cb_shim_open that is exactly the config's
     * [strategy.NAME] groups as the shim loaded them, with no second reading of the file that
     * could disagree with the shim's. */
    int n = cb_shim_stats(shim, NULL, 0);
    cb_strategy_stats *st = g_new0(cb_strategy_stats, n > 0 ? n : 1);
    int m = cb_shim_stats(shim, st, n);
    if (m > n)
        m = n;
    GPtrArray *names = g_ptr_array_new();
    for (int i = 0; i < m; i++)
        if (st[i].name[0] != '(') /* "(none)": seats without a strategy, not a strategy */
            g_ptr_array_add(names, g_strdup(st[i].name));
    g_ptr_array_add(names, NULL);
    g_free(st);
    return (char **)g_ptr_array_free(names, FALSE);
}
