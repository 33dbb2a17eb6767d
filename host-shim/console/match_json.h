/* cardbot console — what the JSON-lines writers (replays, results, deals files) share. */
#ifndef CARDBOT_MATCH_JSON_H
#define CARDBOT_MATCH_JSON_H

#include <json-glib/json-glib.h>

/* A member of b's open object: a string (bytes made valid UTF-8, as JSON requires: paths
 * are bytes; NULL writes null), an integer, a boolean. */
void cb_match_json_str(JsonBuilder *b, const char *key, const char *v);
void cb_match_json_int(JsonBuilder *b, const char *key, gint64 v);
void cb_match_json_bool(JsonBuilder *b, const char *key, gboolean v);

/* The members of a run's identity that the results header and the replay header both write
 * the same way, in this order: landlord, table, deals, deals_sha256, shard, shards
 * (match_info.c). One writer, so the two files cannot come to spell them differently; the
 * members before them differ (the replay's seed is a string, its order is its own). */
struct cb_match_info;
void cb_match_info_json_members(JsonBuilder *b, const struct cb_match_info *m);

/* End b's open object and return it as one line of text (g_free); b is released. */
char *cb_match_json_finish(JsonBuilder *b);

#endif
