/* cardbot play — a person at one seat against the configured bots (private to the console).
 *
 *   cmd_play.c    options, the shim and its tables, the session (games, totals, seed)
 *   play_game.c   one game: the engine runs it, bots answer through the shim, the person types
 *   play_input.c  reading lines (tty or pipe), commands, card text -> the person's cards
 *   play_show.c   what the person sees: hands, plays, the table, seats, results
 *
 * The rules live in the engine only: this code never decides whether a play is legal, it hands
 * the person's cards to cb_engine_play / cb_engine_bid and shows the refusal they give. */
#ifndef CARDBOT_PLAY_H
#define CARDBOT_PLAY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cardbot/game.h"
#include "cardbot/shim.h"

typedef struct cb_play_session {
    FILE *out;              /* what the person reads (a private copy of stdout) */
    FILE *in;               /* what the person types */
    bool echo;              /* input is not a terminal: print each line read, so a piped
                             * session reads like a typed one */
    bool unicode;           /* suits as ♠ ♥ ♣ ♦ instead of s h c d */
    cb_shim *shim;
    cb_table *table;        /* the game's table, seated as the config seats it */
    cb_table *hint_table;   /* who answers "hint": a --hint table, or `table` (the seat's own) */
    const cb_rules *rules;
    int me;                 /* the person's seat */
    uint32_t budget_ms;     /* [shim] budget_ms: each bot decision's time */
    const char *name[3];    /* strategy per seat ("?" when the config seats none) */
    const char *hint_name;
    uint64_t seed;
    long long totals[3];    /* points over the games played so far */
    int played;             /* finished games */
    char *line;             /* getline's buffer */
    size_t line_cap;
} cb_play_session;

/* play_game.c: play game g (deal g of the seed). 0 finished, 1 the person quit (or the input
 * ended), -1 an error the message of which was printed. */
int cb_play_game(cb_play_session *s, int g);

/* play_input.c */
/* Print prompt, read one line (trimmed; echoed when s->echo). NULL at the end of the input. */
const char *cb_play_read(cb_play_session *s, const char *prompt);
/* Is word one of the names in the space-separated list (case-insensitive)? */
bool cb_play_is(const char *word, const char *names);

/* play_show.c */
/* Cards grouped by rank, ascending: "3s3h 4d 7s7h7c" (unicode: "3♠3♥ 4♦ ..."). */
void cb_play_fmt_hand(cb_cards c, bool unicode, char *buf, size_t len);
/* A play as people read it: "777 + 55 (triple_2)", "pass". */
void cb_play_fmt_move(const cb_rules *r, cb_cards c, char *buf, size_t len);
/* A play as the person would type it: "77755", "pass". */
void cb_play_fmt_typed(cb_cards c, char *buf, size_t len);
/* What a seat is called: "seat 1 (heuristic)" or "you (seat 0)". */
const char *cb_play_who(const cb_play_session *s, int seat, char *buf, size_t len);
/* A bid as people read it, for the rules' kind of bidding ("bids 2", "declares 包庄"). */
const char *cb_play_bid_text(const cb_rules *r, int bid);
/* The table before the person's play: seats with cards left and roles, the play to beat,
 * the person's hand. */
void cb_play_show_state(cb_play_session *s, const cb_engine *e);
/* The end of a game: who went out, points per seat, what each seat still held. */
void cb_play_show_result(cb_play_session *s, const cb_engine *e, int g);

#endif
