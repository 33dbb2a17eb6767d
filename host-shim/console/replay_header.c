/* cardbot replay files — the header line that opens every replay (match --replay, merge
 * --replay): which cardbot wrote it and when, the config with every strategy's parameters, the
 * rules with every flag's value, and what identifies the run (seed, games, duplicate, landlord,
 * table, deals, shard). A reader needs nothing else to know what the games below were.
 * Format: schema/cardbot-replay-1.schema.json; README "Replays".
 *
 * Strategy parameters are read from the config file itself (GKeyFile, as the shim reads it):
 * the shim answers keys it is asked for but cannot list a group's keys, and the header wants
 * them all. The file must still be the one the run used (its SHA-256), else they are null. */
#include <errno.h>
#include <json-glib/json-glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../conf_value.h"
#include "cardbot/game.h"
#include "match.h"
#include "match_json.h"

/* A rules flag, typed, read through the core's one reader (cb_rules_get). A key the core lists
 * but cannot read back is written as null, and tests/test_replay_schema.py refuses a null
 * flag, so such a key fails a test instead of vanishing from replays. */
static void add_flag(JsonBuilder *b, const cb_rules *r, const char *key)
{
    json_builder_set_member_name(b, key);
    char text[32];
    cb_flag_kind kind;
    if (cb_rules_get(r, key, text, sizeof text, &kind) != 0)
        json_builder_add_null_value(b);
    else if (kind == CB_FLAG_BOOL)
        json_builder_add_boolean_value(b, strcmp(text, "true") == 0);
    else if (kind == CB_FLAG_NUMBER)
        json_builder_add_int_value(b, strtol(text, NULL, 10));
    else
        json_builder_add_string_value(b, text);
}

/* The config as the run read it: NULL when it is gone or its bytes changed since. Found by
 * the path as given (relative: from here), else by its absolute path when the run was made
 * (a merge in another directory). */
static GKeyFile *same_config_at(const cb_match_info *m, const char *path);
static GKeyFile *same_config(const cb_match_info *m)
{
    GKeyFile *kf = m->config ? same_config_at(m, m->config) : NULL;
    return kf || !m->config_abs ? kf : same_config_at(m, m->config_abs);
}

static GKeyFile *same_config_at(const cb_match_info *m, const char *path)
{
    char *text = NULL;
    gsize len = 0;
    if (!m->config_sha256 || !g_file_get_contents(path, &text, &len, NULL))
        return NULL;
    char *sum = g_compute_checksum_for_data(G_CHECKSUM_SHA256, (const guchar *)text, len);
    GKeyFile *kf = g_key_file_new();
    if (strcmp(sum, m->config_sha256) != 0 || !g_key_file_load_from_data(kf, text, len, CB_CONF_KEYFILE_FLAGS, NULL)) {
        g_key_file_free(kf);
        kf = NULL;
    }
    g_free(sum);
    g_free(text);
    return kf;
}

/* The rules a config sets up, as the shim builds them: [game] rules, then each [rules] key. */
static bool config_rules(GKeyFile *kf, const char *preset, cb_rules *r)
{
    char *name = cb_conf_value(kf, "game", "rules", NULL);
    bool ok = name && !strcmp(name, preset) && cb_rules_preset(name, r) == 0;
    g_free(name);
    gsize n = 0;
    char **keys = ok ? g_key_file_get_keys(kf, "rules", &n, NULL) : NULL;
    for (gsize i = 0; ok && keys && i < n; i++) {
        char *v = cb_conf_value(kf, "rules", keys[i], NULL);
        char err[200];
        ok = v && cb_rules_set(r, keys[i], v, err, sizeof err) == 0;
        g_free(v);
    }
    g_strfreev(keys);
    return ok;
}

/* "strategies": {"NAME": {"plugin": "heuristic", "level": "6", ...}, ...} in the file's order;
 * values are the config's text as the shim reads it (conf_value.h), as the plugin's create()
 * receives them. */
static void add_strategies(JsonBuilder *b, GKeyFile *kf)
{
    json_builder_set_member_name(b, "strategies");
    if (!kf) {
        json_builder_add_null_value(b);
        return;
    }
    json_builder_begin_object(b);
    char **groups = g_key_file_get_groups(kf, NULL);
    for (char **g = groups; *g; g++) {
        if (strncmp(*g, "strategy.", 9) != 0)
            continue;
        json_builder_set_member_name(b, *g + 9);
        json_builder_begin_object(b);
        char **keys = g_key_file_get_keys(kf, *g, NULL, NULL);
        for (char **k = keys; k && *k; k++) {
            char *v = cb_conf_value(kf, *g, *k, NULL);
            cb_match_json_str(b, *k, v ? v : "");
            g_free(v);
        }
        g_strfreev(keys);
        json_builder_end_object(b);
    }
    g_strfreev(groups);
    json_builder_end_object(b);
}

/* ISO 8601 UTC; SOURCE_DATE_EPOCH (the reproducible-builds convention) fixes it, so a test or
 * a build can write byte-identical replays. */
static void add_date(JsonBuilder *b)
{
    time_t t = time(NULL);
    const char *sde = getenv("SOURCE_DATE_EPOCH");
    if (sde && *sde) {
        char *end;
        long long v = strtoll(sde, &end, 10);
        if (!*end && v >= 0)
            t = (time_t)v;
    }
    struct tm tm;
    char buf[32] = "1970-01-01T00:00:00Z";
    if (gmtime_r(&t, &tm))
        strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    cb_match_json_str(b, "date", buf);
}

char *cb_replay_header_json(const cb_match_info *m, const cb_rules *r)
{
    GKeyFile *kf = same_config(m);
    cb_rules from_config;
    if (!r && kf && m->rules && config_rules(kf, m->rules, &from_config))
        r = &from_config;
    JsonBuilder *b = json_builder_new();
    json_builder_begin_object(b);
    cb_match_json_str(b, "type", "header");
    cb_match_json_str(b, "format", CB_REPLAY_FORMAT);
    cb_match_json_int(b, "version", CB_REPLAY_VERSION);
    cb_match_json_str(b, "cardbot", cb_version());
    add_date(b);
    cb_match_json_str(b, "config", m->config);
    cb_match_json_str(b, "config_sha256", m->config_sha256);
    json_builder_set_member_name(b, "rules");
    json_builder_begin_object(b);
    cb_match_json_str(b, "preset", r ? r->preset : m->rules);
    const char *game = NULL;
    cb_rules base;
    if (r || (m->rules && cb_rules_preset(m->rules, &base) == 0))
        game = (r ? r : &base)->game == CB_GAME_DDZ ? "ddz" : "pdk";
    cb_match_json_str(b, "game", game);
    json_builder_set_member_name(b, "flags");
    if (r) {
        json_builder_begin_object(b);
        for (int i = 0; cb_rules_keys[i]; i++)
            add_flag(b, r, cb_rules_keys[i]);
        json_builder_end_object(b);
    } else {
        json_builder_add_null_value(b);
    }
    json_builder_end_object(b);
    add_strategies(b, kf);
    /* a seed may be any uint64 (a random key is below 2^63, a --seed below 2^63 too): a string,
     * since a JSON reader in doubles would round it above 2^53 */
    json_builder_set_member_name(b, "seed");
    if (m->random_seed) {
        json_builder_add_null_value(b);
    } else {
        char seed[24];
        snprintf(seed, sizeof seed, "%llu", (unsigned long long)m->seed);
        json_builder_add_string_value(b, seed);
    }
    cb_match_json_bool(b, "random_seed", m->random_seed);
    cb_match_json_int(b, "games", m->games);
    cb_match_json_bool(b, "duplicate", m->duplicate);
    cb_match_info_json_members(b, m);
    if (kf)
        g_key_file_free(kf);
    return cb_match_json_finish(b);
}

int cb_replay_header_write(FILE *f, const cb_match_info *m, const cb_rules *r)
{
    char *line = cb_replay_header_json(m, r);
    int rc = fprintf(f, "%s\n", line) < 0 || fflush(f) != 0 ? -1 : 0;
    g_free(line);
    return rc;
}
