/* cardbot console — what the JSON-lines writers (replays, results, deals files) share. */
#ifndef CARDBOT_MATCH_JSON_H
#define CARDBOT_MATCH_JSON_H

#include <json-glib/json-glib.h>

/* End b's open object and return it as one line of text (g_free); b is released. */
char *cb_match_json_finish(JsonBuilder *b);

#endif
