/* cardbot replay — a replay file read back: the header (when the file has one: files written
 * before headers hold game lines only and still read), then every game line decoded by the
 * same decoder cardbot merge uses (match_replay.c), so a line the renderers would trip on is
 * refused here, once, as FILE:LINE, and never reaches them. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay.h"

void cb_replay_clear(cb_replay *rp)
{
    g_free(rp->path);
    if (rp->header)
        json_node_unref(rp->header);
    if (rp->lines)
        g_ptr_array_free(rp->lines, TRUE);
    if (rp->lineno)
        g_array_free(rp->lineno, TRUE);
    memset(rp, 0, sizeof *rp);
}

/* "what is wrong" into err; returns -1. */
static int fail(char *err, size_t errlen, const char *fmt, ...) G_GNUC_PRINTF(3, 4);
static int fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}

static JsonNode *parse(const char *line, char *err, size_t errlen)
{
    JsonParser *jp = json_parser_new();
    GError *ge = NULL;
    JsonNode *n = NULL;
    if (!json_parser_load_from_data(jp, line, -1, &ge)) {
        snprintf(err, errlen, "not JSON: %s", ge->message);
        g_error_free(ge);
    } else if (!JSON_NODE_HOLDS_OBJECT(json_parser_get_root(jp))) {
        snprintf(err, errlen, "not a JSON object");
    } else {
        n = json_node_copy(json_parser_get_root(jp));
    }
    g_object_unref(jp);
    return n;
}

static const char *str_member(JsonObject *o, const char *name)
{
    JsonNode *n = json_object_get_member(o, name);
    return n && JSON_NODE_HOLDS_VALUE(n) && json_node_get_value_type(n) == G_TYPE_STRING ? json_node_get_string(n)
                                                                                         : NULL;
}

/* The rules of a header: its preset, then every flag through cb_rules_set (as a config's
 * [rules] group would set it), so a header the core would not accept is refused by name. */
static int header_rules(JsonObject *h, cb_rules *r, char *err, size_t errlen)
{
    JsonNode *rn = json_object_get_member(h, "rules");
    JsonObject *ro = rn && JSON_NODE_HOLDS_OBJECT(rn) ? json_node_get_object(rn) : NULL;
    const char *preset = ro ? str_member(ro, "preset") : NULL;
    if (!preset)
        return fail(err, errlen, "header: rules.preset: missing");
    if (cb_rules_preset(preset, r) != 0 || (r->game != CB_GAME_PDK && r->game != CB_GAME_DDZ))
        return fail(err, errlen, "header: rules.preset '%s': unknown to this cardbot", preset);
    JsonNode *fn = json_object_get_member(ro, "flags");
    if (!fn || JSON_NODE_HOLDS_NULL(fn)) /* a merge that could not read the config: the preset's */
        return 0;
    if (!JSON_NODE_HOLDS_OBJECT(fn))
        return fail(err, errlen, "header: rules.flags: not an object");
    JsonObject *fo = json_node_get_object(fn);
    GList *keys = json_object_get_members(fo);
    int rc = 0;
    for (GList *k = keys; k && rc == 0; k = k->next) {
        JsonNode *v = json_object_get_member(fo, k->data);
        char text[64], why[200];
        if (JSON_NODE_HOLDS_NULL(v))
            continue; /* a flag the writer did not know: the preset's value stands */
        if (!JSON_NODE_HOLDS_VALUE(v)) {
            snprintf(err, errlen, "header: rules.flags.%s: not a value", (const char *)k->data);
            rc = -1;
            break;
        }
        GType t = json_node_get_value_type(v);
        if (t == G_TYPE_BOOLEAN)
            snprintf(text, sizeof text, "%s", json_node_get_boolean(v) ? "true" : "false");
        else if (t == G_TYPE_INT64)
            snprintf(text, sizeof text, "%lld", (long long)json_node_get_int(v));
        else if (t == G_TYPE_STRING)
            snprintf(text, sizeof text, "%s", json_node_get_string(v));
        else
            text[0] = 0;
        if (!text[0] || cb_rules_set(r, k->data, text, why, sizeof why) != 0) {
            snprintf(err, errlen, "header: rules.flags.%s: %s", (const char *)k->data, text[0] ? why : "bad value");
            rc = -1;
        }
    }
    g_list_free(keys);
    return rc;
}

static int read_header(cb_replay *rp, JsonNode *n, char *err, size_t errlen)
{
    JsonObject *h = json_node_get_object(n);
    const char *format = str_member(h, "format");
    JsonNode *v = json_object_get_member(h, "version");
    if (!format || strcmp(format, CB_REPLAY_FORMAT) != 0)
        return fail(err, errlen, "header: format is not \"%s\"", CB_REPLAY_FORMAT);
    if (!v || !JSON_NODE_HOLDS_VALUE(v) || json_node_get_value_type(v) != G_TYPE_INT64)
        return fail(err, errlen, "header: version: not an integer");
    if (json_node_get_int(v) != CB_REPLAY_VERSION) /* a later version may mean other things */
        return fail(err, errlen, "header: version %lld: this cardbot reads version %d",
                        (long long)json_node_get_int(v), CB_REPLAY_VERSION);
    if (header_rules(h, &rp->rules, err, errlen) != 0)
        return -1;
    rp->header = json_node_ref(n);
    return 0;
}

/* One line: the header (first line only), or a game. */
static int read_line(cb_replay *rp, char *line, int lineno, cb_match_game *gm, char *err, size_t errlen)
{
    JsonNode *n = parse(line, err, errlen);
    if (!n)
        return -1;
    JsonObject *o = json_node_get_object(n);
    const char *type = str_member(o, "type");
    int rc = 0;
    if (!rp->header && !rp->lines->len && json_object_has_member(o, "cardbot_results")) {
        /* a results file's header (--results): its games hold no plays to show */
        rc = fail(err, errlen, "a results file (cardbot match --results), not a replay: `cardbot merge "
                                "--replay OUT RESULTS...` writes the replay of its games");
    } else if (type && !strcmp(type, "header")) {
        if (rp->lines->len || rp->header)
            rc = fail(err, errlen, "a header line after the first line");
        else
            rc = read_header(rp, n, err, errlen);
    } else {
        if (!rp->header && !rp->lines->len) { /* no header: the first game names the preset */
            const char *preset = str_member(o, "rules");
            if (!preset || cb_rules_preset(preset, &rp->rules) != 0)
                rc = fail(err, errlen, "rules: missing or unknown (and no header line)");
        }
        if (rc == 0 && cb_match_game_from_json(&rp->rules, line, gm, err, errlen) == 0) {
            g_ptr_array_add(rp->lines, g_strdup(line));
            g_array_append_val(rp->lineno, lineno);
        } else {
            rc = -1;
        }
    }
    json_node_unref(n);
    return rc;
}

int cb_replay_read(const char *path, cb_replay *rp, char *err, size_t errlen)
{
    memset(rp, 0, sizeof *rp);
    rp->path = g_strdup(path);
    rp->lines = g_ptr_array_new_with_free_func(g_free);
    rp->lineno = g_array_new(FALSE, FALSE, sizeof(int));
    FILE *f = fopen(path, "r");
    if (!f)
        return fail(err, errlen, "%s: %s", path, g_strerror(errno));
    cb_match_game *gm = g_new(cb_match_game, 1);
    char *line = NULL, why[400];
    size_t cap = 0;
    int lineno = 0, rc = 0;
    while (rc == 0 && getline(&line, &cap, f) >= 0) {
        lineno++;
        g_strchomp(line);
        if (!line[0])
            continue;
        if (!g_utf8_validate(line, -1, NULL))
            rc = fail(why, sizeof why, "not UTF-8");
        else
            rc = read_line(rp, line, lineno, gm, why, sizeof why);
        if (rc)
            snprintf(err, errlen, "%s:%d: %s", path, lineno, why);
    }
    if (rc == 0 && ferror(f))
        rc = fail(err, errlen, "%s: %s", path, g_strerror(errno));
    if (rc == 0 && !rp->lines->len)
        rc = fail(err, errlen, "%s: no games in the file", path);
    fclose(f);
    free(line);
    g_free(gm);
    return rc;
}

int cb_replay_game(const cb_replay *rp, guint i, cb_match_game *gm, char *err, size_t errlen)
{
    if (i >= rp->lines->len)
        return fail(err, errlen, "no game line %u", i);
    return cb_match_game_from_json(&rp->rules, g_ptr_array_index(rp->lines, i), gm, err, errlen);
}

int cb_replay_find(const cb_replay *rp, int game)
{
    /* lines are few enough (and a shard's replay need not start at game 0) to look */
    cb_match_game *gm = g_new(cb_match_game, 1);
    char err[200];
    int at = -1;
    for (guint i = 0; i < rp->lines->len && at < 0; i++)
        if (cb_replay_game(rp, i, gm, err, sizeof err) == 0 && gm->index == game)
            at = (int)i;
    g_free(gm);
    return at;
}
