/* cardbot console — what the JSON-lines writers (replays, results, deals files) share. */
#ifndef CARDBOT_MATCH_JSON_H
#define CARDBOT_MATCH_JSON_H

#include <json-glib/json-glib.h>

/* A member of b's open object: a string (bytes made valid UTF-8, as JSON requires: paths
 * are bytes; NULL writes null), an integer, a boolean. */
void cb_match_json_str(JsonBuilder *b, const char *key, const char *v);
void cb_match_json_int(JsonBuilder *b, const char *key, gint64 v);
void cb_match_json_bool(JsonBuilder *b, const char *key, gboolean v);

/* End b's open object and return it as one line of text (g_free); b is released. */
char *cb_match_json_finish(JsonBuilder *b);

#endif
