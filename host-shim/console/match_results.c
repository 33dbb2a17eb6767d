/* cardbot match — results files (--results FILE, one per shard of --shard K/N), read back
 * by cardbot merge. JSON lines:
 *
 *   1. a header: everything that identifies the run and that the "Match:" line shows —
 *      {"cardbot_results":1,"version":"1.1.0","config":"c.ini","config_sha256":"...",
 *       "rules":"ddz","games":30,"duplicate":true,"seed":7,"random_seed":false,"landlord":-1,
 *       "table":null,"deals":null,"deals_sha256":null,"shard":2,"shards":4,
 *       "config_abs":"/srv/c.ini"}   (config_abs since 1.4: optional to a reader)
 *   2. one line per game of the shard, in game order: the --replay line plus decision times,
 *      plays made, bomb tricks and the error code (cb_match_game_json_full);
 *   3. an end line, written only when every game of the shard was played:
 *      {"end":"complete","games":8,"seconds":1.5,"concurrency":2}
 *      A file without it belongs to a shard that was interrupted, failed or still runs.
 * "cardbot_results" is the format's version: a reader refuses one it does not know. */
#include <json-glib/json-glib.h>
#include <stdio.h>
#include <string.h>

#include "match.h"
#include "match_json.h"

#define RESULTS_FORMAT 1


char *cb_match_results_header(const cb_match_info *m)
{
    JsonBuilder *b = json_builder_new();
    json_builder_begin_object(b);
    cb_match_json_int(b, "cardbot_results", RESULTS_FORMAT);
    cb_match_json_str(b, "version", m->version);
    cb_match_json_str(b, "config", m->config);
    cb_match_json_str(b, "config_sha256", m->config_sha256);
    cb_match_json_str(b, "rules", m->rules);
    cb_match_json_int(b, "games", m->games);
    cb_match_json_bool(b, "duplicate", m->duplicate);
    cb_match_json_int(b, "seed", (gint64)m->seed); /* a --seed is at most G_MAXINT64 */
    cb_match_json_bool(b, "random_seed", m->random_seed);
    cb_match_info_json_members(b, m);
    if (m->config_abs) /* not in the replay header: the merge's replay is the single run's */
        cb_match_json_str(b, "config_abs", m->config_abs);
    return cb_match_json_finish(b);
}

char *cb_match_results_end(int games, double seconds, int concurrency)
{
    JsonBuilder *b = json_builder_new();
    json_builder_begin_object(b);
    cb_match_json_str(b, "end", "complete");
    cb_match_json_int(b, "games", games);
    json_builder_set_member_name(b, "seconds");
    json_builder_add_double_value(b, seconds);
    cb_match_json_int(b, "concurrency", concurrency);
    return cb_match_json_finish(b);
}

static JsonObject *parse_object(JsonParser *jp, const char *line)
{
    if (!json_parser_load_from_data(jp, line, -1, NULL))
        return NULL;
    JsonNode *root = json_parser_get_root(jp);
    return root && JSON_NODE_HOLDS_OBJECT(root) ? json_node_get_object(root) : NULL;
}

/* A member of the given type (G_TYPE_NONE: a string or null); false when it is not. */
static bool typed(JsonObject *o, const char *name, GType t)
{
    JsonNode *n = json_object_get_member(o, name);
    if (!n)
        return false;
    if (t == G_TYPE_NONE)
        return JSON_NODE_HOLDS_NULL(n) || (JSON_NODE_HOLDS_VALUE(n) && json_node_get_value_type(n) == G_TYPE_STRING);
    return JSON_NODE_HOLDS_VALUE(n) && json_node_get_value_type(n) == t;
}

static char *opt_str(JsonObject *o, const char *name)
{
    JsonNode *n = json_object_get_member(o, name);
    return JSON_NODE_HOLDS_NULL(n) ? NULL : g_strdup(json_node_get_string(n));
}

int cb_match_results_read_header(const char *line, cb_match_info *m, char *err, size_t errlen)
{
    memset(m, 0, sizeof *m);
    JsonParser *jp = json_parser_new();
    JsonObject *o = parse_object(jp, line);
    if (!o || !typed(o, "cardbot_results", G_TYPE_INT64)) {
        snprintf(err, errlen, "not a cardbot results file (its first line is no results header)");
        g_object_unref(jp);
        return -1;
    }
    if (json_object_get_int_member(o, "cardbot_results") != RESULTS_FORMAT) {
        snprintf(err, errlen, "results format %lld: this cardbot reads format %d",
                 (long long)json_object_get_int_member(o, "cardbot_results"), RESULTS_FORMAT);
        g_object_unref(jp);
        return -1;
    }
    static const char *const strs[] = {"version", "config", "config_sha256", "rules", "table", "deals",
                                       "deals_sha256"};
    static const char *const ints[] = {"games", "seed", "landlord", "shard", "shards"};
    static const char *const bools[] = {"duplicate", "random_seed"};
    const char *missing = NULL;
    for (size_t i = 0; i < G_N_ELEMENTS(strs) && !missing; i++)
        if (!typed(o, strs[i], G_TYPE_NONE))
            missing = strs[i];
    for (size_t i = 0; i < G_N_ELEMENTS(ints) && !missing; i++)
        if (!typed(o, ints[i], G_TYPE_INT64))
            missing = ints[i];
    for (size_t i = 0; i < G_N_ELEMENTS(bools) && !missing; i++)
        if (!typed(o, bools[i], G_TYPE_BOOLEAN))
            missing = bools[i];
    if (!missing) {
        m->version = opt_str(o, "version");
        m->config = opt_str(o, "config");
        m->config_sha256 = opt_str(o, "config_sha256");
        m->rules = opt_str(o, "rules");
        m->table = opt_str(o, "table");
        m->deals = opt_str(o, "deals");
        m->deals_sha256 = opt_str(o, "deals_sha256");
        if (typed(o, "config_abs", G_TYPE_NONE)) /* optional: files before 1.4 lack it */
            m->config_abs = opt_str(o, "config_abs");
        m->games = (int)json_object_get_int_member(o, "games");
        m->seed = (uint64_t)json_object_get_int_member(o, "seed");
        m->landlord = (int)json_object_get_int_member(o, "landlord");
        m->shard = (int)json_object_get_int_member(o, "shard");
        m->nshards = (int)json_object_get_int_member(o, "shards");
        m->duplicate = json_object_get_boolean_member(o, "duplicate");
        m->random_seed = json_object_get_boolean_member(o, "random_seed");
        if (!m->config || !m->rules || !m->version)
            missing = "config, rules or version";
        else if (m->games < 1 || m->nshards < 1 || m->shard < 1 || m->shard > m->nshards || m->landlord < -1 ||
                 m->landlord > 2)
            missing = "games, shard or landlord (out of range)";
    }
    g_object_unref(jp);
    if (missing) {
        snprintf(err, errlen, "results header: %s missing or wrong", missing);
        cb_match_info_clear(m);
        return -1;
    }
    return 0;
}

int cb_match_results_read_end(const char *line, int *games, double *seconds, int *concurrency)
{
    JsonParser *jp = json_parser_new();
    JsonObject *o = parse_object(jp, line);
    int rc = 0;
    if (o && typed(o, "end", G_TYPE_STRING) && typed(o, "games", G_TYPE_INT64) &&
        typed(o, "concurrency", G_TYPE_INT64)) {
        JsonNode *s = json_object_get_member(o, "seconds");
        *games = (int)json_object_get_int_member(o, "games");
        *seconds = s && JSON_NODE_HOLDS_VALUE(s) ? json_node_get_double(s) : 0;
        *concurrency = (int)json_object_get_int_member(o, "concurrency");
        rc = 1;
    }
    g_object_unref(jp);
    return rc;
}

static char *str_differs(const char *name, const char *a, const char *b)
{
    if (g_strcmp0(a, b) == 0)
        return NULL;
    return g_strdup_printf("%s %s%s%s, not %s%s%s", name, b ? "'" : "", b ? b : "none", b ? "'" : "", a ? "'" : "",
                           a ? a : "none", a ? "'" : "");
}

char *cb_match_info_differs(const cb_match_info *a, const cb_match_info *b)
{
    char *d = NULL;
    if ((d = str_differs("version", a->version, b->version)) || (d = str_differs("config", a->config, b->config)) ||
        (d = str_differs("config contents (sha256)", a->config_sha256, b->config_sha256)) ||
        (d = str_differs("rules", a->rules, b->rules)) || (d = str_differs("table", a->table, b->table)) ||
        (d = str_differs("deals", a->deals, b->deals)) ||
        (d = str_differs("deals contents (sha256)", a->deals_sha256, b->deals_sha256)))
        return d;
    if (a->games != b->games)
        return g_strdup_printf("games %d, not %d", b->games, a->games);
    if (a->duplicate != b->duplicate)
        return g_strdup_printf("%s, not %s", b->duplicate ? "duplicate" : "not duplicate",
                               a->duplicate ? "duplicate" : "not duplicate");
    if (a->seed != b->seed || a->random_seed != b->random_seed)
        return g_strdup_printf("seed %llu%s, not %llu%s", (unsigned long long)b->seed,
                               b->random_seed ? " (random)" : "", (unsigned long long)a->seed,
                               a->random_seed ? " (random)" : "");
    if (a->landlord != b->landlord)
        return g_strdup_printf("landlord %d, not %d", b->landlord, a->landlord);
    if (a->nshards != b->nshards)
        return g_strdup_printf("%d shards, not %d", b->nshards, a->nshards);
    return NULL;
}
