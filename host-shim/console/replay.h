/* cardbot replay — replay files read back and shown to people (private to the console).
 *
 *   replay_header.c  the header line match and merge write (declared in match.h)
 *   replay_read.c    a replay file read and checked line by line (errors name FILE:LINE)
 *   replay_text.c    one game rendered as plain text for a terminal
 *   replay_html.c    every game in one self-contained HTML page (replay_page.html inside)
 *   cmd_replay.c     the command: cardbot replay [--game N] [--html [-o OUT]] FILE
 *
 * The format is schema/cardbot-replay-1.schema.json. */
#ifndef CARDBOT_REPLAY_H
#define CARDBOT_REPLAY_H

#include <glib.h>
#include <json-glib/json-glib.h>
#include <stdbool.h>
#include <stdio.h>

#include "match.h"

typedef struct cb_replay {
    char *path;
    JsonNode *header;   /* the header line's object; NULL in a file written before headers */
    cb_rules rules;     /* the header's preset and flags (else the first game's preset) */
    GPtrArray *lines;   /* each game line's text (char *), in file order */
    GArray *lineno;     /* int: the file line of each game line */
} cb_replay;

/* Read path: an optional header first, then game lines, each decoded once to check it (blank
 * lines are skipped). 0, or -1 with "FILE:LINE: what is wrong" (or "FILE: ...") in err. */
int cb_replay_read(const char *path, cb_replay *rp, char *err, size_t errlen);
void cb_replay_clear(cb_replay *rp);
/* Game line i into *gm (checked by cb_replay_read, so this only fails if memory does). */
int cb_replay_game(const cb_replay *rp, guint i, cb_match_game *gm, char *err, size_t errlen);
/* The index into rp->lines of the game numbered game (0-based "game" member), or -1. */
int cb_replay_find(const cb_replay *rp, int game);

/* The header as a few lines of text (or a note that the file has none). */
void cb_replay_text_header(FILE *f, const cb_replay *rp, bool unicode);
/* One game, deterministic text: seats, hands as dealt, bids, tricks with every decision's
 * explanation and value, the result and points. */
void cb_replay_text_game(FILE *f, const cb_replay *rp, const cb_match_game *gm, bool unicode);

/* The HTML page holding games [first, first + n) of rp. 0, or -1 (errno set). */
int cb_replay_html(FILE *f, const cb_replay *rp, guint first, guint n);

#endif
