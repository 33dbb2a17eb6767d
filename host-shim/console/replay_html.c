/* cardbot replay --html — one self-contained page (no network: inline CSS and script) to step
 * through games with cards. The page is replay_page.html, compiled in as a string (Makefile:
 * $(B)/gen/replay_page.h); this file fills its two markers: the title (g_markup_escape_text)
 * and the data, a JSON object json-glib writes:
 *
 *   {"file": FILE, "header": the header line's object or null,
 *    "rules": {"preset","game":"pdk"|"ddz","rob","bao","bao_points"},
 *    "games": [each game line's object, each play given "shape": "333 + 6J (triple_2)"]}
 *
 * The data sits in <script type="application/json">: JSON text may hold "</script>" inside a
 * string (an explanation, a strategy name), which would end the element early, so every "<"
 * is written as \u003c (only strings can hold one, where that escape means the same). */
#include <errno.h>
#include <string.h>

#include "play.h"
#include "replay.h"

static const char page[] =
#include "replay_page.h"
    ;

/* A game line's object, each play given its shape as the text renderer names it. */
static JsonNode *game_node(const cb_replay *rp, guint i, cb_match_game *gm)
{
    JsonParser *jp = json_parser_new();
    JsonNode *n = NULL;
    char err[300];
    if (json_parser_load_from_data(jp, g_ptr_array_index(rp->lines, i), -1, NULL) &&
        cb_replay_game(rp, i, gm, err, sizeof err) == 0) {
        n = json_node_copy(json_parser_get_root(jp));
        JsonArray *plays = json_object_get_array_member(json_node_get_object(n), "plays");
        for (guint k = 0; plays && k < json_array_get_length(plays) && k < (guint)gm->nplays; k++) {
            char shape[200] = "";
            if (gm->plays[k].cards)
                cb_play_fmt_move(&rp->rules, gm->plays[k].cards, shape, sizeof shape);
            json_object_set_string_member(json_array_get_object_element(plays, k), "shape", shape);
        }
    }
    g_object_unref(jp);
    return n;
}

static char *data_json(const cb_replay *rp, guint first, guint n)
{
    cb_match_game *gm = g_new(cb_match_game, 1);
    JsonObject *root = json_object_new();
    json_object_set_string_member(root, "file", rp->path);
    json_object_set_member(root, "header", rp->header ? json_node_copy(rp->header) : json_node_new(JSON_NODE_NULL));
    JsonObject *rules = json_object_new();
    json_object_set_string_member(rules, "preset", rp->rules.preset);
    json_object_set_string_member(rules, "game", rp->rules.game == CB_GAME_DDZ ? "ddz" : "pdk");
    json_object_set_boolean_member(rules, "rob", rp->rules.rob);
    json_object_set_boolean_member(rules, "bao", rp->rules.bao);
    json_object_set_int_member(rules, "bao_points", rp->rules.bao_points);
    json_object_set_object_member(root, "rules", rules);
    JsonArray *games = json_array_new();
    for (guint i = first; i < first + n && i < rp->lines->len; i++) {
        JsonNode *g = game_node(rp, i, gm);
        if (g)
            json_array_add_element(games, g);
    }
    json_object_set_array_member(root, "games", games);
    JsonNode *node = json_node_new(JSON_NODE_OBJECT);
    json_node_take_object(node, root);
    JsonGenerator *gen = json_generator_new();
    json_generator_set_root(gen, node);
    char *text = json_generator_to_data(gen, NULL);
    g_object_unref(gen);
    json_node_unref(node);
    g_free(gm);
    return text;
}

/* JSON text into the script element: "<" as \u003c, the rest as it is. */
static int put_data(FILE *f, const char *json)
{
    for (const char *p = json; *p; p++) {
        size_t run = strcspn(p, "<");
        if (run && fwrite(p, 1, run, f) != run)
            return -1;
        p += run;
        if (!*p)
            break;
        if (fputs("\\u003c", f) < 0)
            return -1;
    }
    return 0;
}

int cb_replay_html(FILE *f, const cb_replay *rp, guint first, guint n)
{
    char *base = g_path_get_basename(rp->path);
    char *title = g_markup_escape_text(base, -1);
    char *json = data_json(rp, first, n);
    int rc = 0;
    const char *p = page;
    while (rc == 0 && *p) {
        const char *t = strstr(p, "<!--CB_TITLE-->"), *d = strstr(p, "<!--CB_DATA-->");
        const char *m = t && (!d || t < d) ? t : d;
        size_t len = m ? (size_t)(m - p) : strlen(p);
        if (len && fwrite(p, 1, len, f) != len)
            rc = -1;
        if (!m)
            break;
        if (rc == 0 && m == t)
            rc = fputs(title, f) < 0 ? -1 : 0;
        else if (rc == 0)
            rc = put_data(f, json);
        p = m + (m == t ? strlen("<!--CB_TITLE-->") : strlen("<!--CB_DATA-->"));
    }
    if (rc == 0 && ferror(f))
        rc = -1;
    g_free(json);
    g_free(title);
    g_free(base);
    return rc;
}
