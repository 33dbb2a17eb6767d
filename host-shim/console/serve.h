/* cardbot serve — shared between cmd_serve.c (options, the cardbot-1 protocol) and
 * serve_botzone.c (the Botzone FightTheLandlord2 protocol). */
#ifndef CARDBOT_SERVE_H
#define CARDBOT_SERVE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cardbot/shim.h"

typedef struct cb_serve {
    cb_shim *shim;
    cb_table *table;        /* every seat: the --strategy */
    const char *strategy;
    FILE *out;              /* the protocol's stdout (fd 1 itself now goes to stderr) */
    uint32_t budget_ms;     /* botzone: each view's budget */
    uint64_t seed;          /* botzone: key of the views' seeds */
    bool keep_running;      /* botzone: ask the platform to keep us running */
} cb_serve;

/* One line of input without its newline (NULL at end of input); free with g_free. Lines
 * longer than max are read whole and refused by the caller's parser. */
char *cb_serve_read_line(FILE *in, size_t *len);
/* Write one line (text + '\n') and flush: each answer must leave at once. -1 when stdout is gone. */
int cb_serve_write_line(cb_serve *s, const char *text);

/* Serve the Botzone protocol on stdin until end of input (or one turn without keep-running).
 * Returns the exit status. */
int cb_serve_botzone(cb_serve *s, FILE *in);

#endif
