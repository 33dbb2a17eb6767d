/* cardbot command — shared pieces of the subcommands (dispatch table lives in main.c).
 *
 * Conventions every subcommand follows: options through GOptionContext; a problem with the
 * input (unknown rules, bad flag, bad cards, missing or extra argument) is ONE line on stderr,
 * "cardbot SUB: what is wrong", and exit status CB_CLI_EXIT_USAGE; never a crash.
 */
#ifndef CARDBOT_CLI_H
#define CARDBOT_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <glib.h>

#include "cardbot/rules.h"
#include "cardbot/shim.h"

#define CB_CLI_EXIT_USAGE 2
/* cardbot match (and merge): 1 = games could not be completed or a result could not be written;
 * 3 = a plugin ended the process in the middle of a decision (in-process isolation);
 * 128 + signal = interrupted by SIGINT / SIGTERM (the finished games are summarised). */
#define CB_CLI_EXIT_PLUGIN 3

/* A subcommand: argv[0] is the subcommand's name. Returns the exit status. */
typedef int (*cb_cli_fn)(int argc, char **argv);

int cb_cmd_classify(int argc, char **argv);
int cb_cmd_moves(int argc, char **argv);
int cb_cmd_minhands(int argc, char **argv);
int cb_cmd_universe(int argc, char **argv);
int cb_cmd_match(int argc, char **argv); /* cmd_match.c: the reference console host */
int cb_cmd_tournament(int argc, char **argv); /* cmd_tournament.c: gauntlet, round robin */
int cb_cmd_play(int argc, char **argv);  /* cmd_play.c: a person against the bots */
int cb_cmd_serve(int argc, char **argv); /* cmd_serve.c: a strategy behind a line protocol */
int cb_cmd_merge(int argc, char **argv); /* cmd_merge.c: a sharded match's results as one */
int cb_cmd_replay(int argc, char **argv); /* cmd_replay.c: replay files as text or a page */

/* One-line error on stderr: "cardbot CMD: message". */
void cb_cli_error(const char *cmd, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

/* The --games and --seed checks of the subcommands that play games (G_MININT64: not given, no
 * error): 0, or CB_CLI_EXIT_USAGE with the error printed. */
int cb_cli_check_games(const char *cmd, gint64 games, gint64 max);
int cb_cli_check_seed(const char *cmd, gint64 seed);
/* The most games a match (or a tournament's pairing) may be asked for, and the most threads it
 * plays on. The bound is on what is asked: whole rotations (--duplicate, 3) and whole deals of a
 * pairing (6) round it up afterwards, so a run plays at most 5 more, and its header says how
 * many (a sanity bound on an int count, not a budget). */
#define CB_CLI_MAX_GAMES 10000000
#define CB_CLI_MAX_CONCURRENCY 256
/* --concurrency 1..CB_CLI_MAX_CONCURRENCY: 0, or CB_CLI_EXIT_USAGE with the error printed. */
int cb_cli_check_concurrency(const char *cmd, int concurrency);
/* --landlord: -1 (not given) or a seat 0..2, and a seat only when the config's rules (config
 * names the file in the message; r may be NULL: the range alone) are ddz's. 0, or
 * CB_CLI_EXIT_USAGE with the error printed. */
int cb_cli_check_landlord(const char *cmd, int landlord, const char *config, const cb_rules *r);

/* The console's own group of a config, [match]: games (1..CB_CLI_MAX_GAMES) and seed (0 or
 * more); G_MININT64 where the file has no such key. */
typedef struct cb_cli_match_conf {
    gint64 games, seed;
} cb_cli_match_conf;
/* Read config's [match] with GKeyFile (the shim keeps the group free for the host and has no
 * call listing a group's keys): any other key is refused — a typo or an option written as a
 * key (duplicate = true) would otherwise be ignored for a whole match — and so is a value that
 * is not a number or out of range, each as "FILE: [match] KEY: ...". Call it once the shim has
 * opened config. 0, or CB_CLI_EXIT_USAGE with the error printed. */
int cb_cli_match_conf_read(const char *cmd, const char *config, cb_cli_match_conf *out);

/* A file a command reads or writes: the option that names it ("--replay") and the path (NULL:
 * not given). */
typedef struct cb_cli_file {
    const char *opt;
    const char *path;
} cb_cli_file;
/* Before any output is opened: refuse two outputs that name the same file (one would corrupt
 * the other) and an output that names an input (it would be truncated while, or before, it is
 * read). The same file: the same text, the same device and inode when both exist, or the same
 * canonical directory and name; a character device (/dev/null, a terminal) may take any number
 * of writers. inputs[i].opt is how the message names that input ("--config", "results"):
 * "that is the --config file". 0, or CB_CLI_EXIT_USAGE with the error printed. */
int cb_cli_check_files(const char *cmd, const cb_cli_file *inputs, int nin, const cb_cli_file *outputs, int nout);

/* The [strategy.NAME] names of a config just opened (no reload, no decision yet), in file
 * order, NULL-terminated (g_strfreev). */
char **cb_cli_strategies(cb_shim *shim);

/* The --rules / --flag options every rules-aware subcommand shares. */
typedef struct cb_cli_rules_opt {
    char *rules;  /* preset name */
    char **flags; /* "key=value" strings */
} cb_cli_rules_opt;
/* Add --rules and --flag to ctx's main group, storing into o. */
void cb_cli_add_rules_options(GOptionContext *ctx, cb_cli_rules_opt *o);
/* The entries cb_cli_add_rules_options adds (--rules, --flag, then the terminator), bound to
 * o: cb_cli_parse must see them too for their short forms to take attached values. */
void cb_cli_rules_entries(cb_cli_rules_opt *o, GOptionEntry out[3]);
/* Resolve o into *out. Returns 0, or prints the problem and returns CB_CLI_EXIT_USAGE. */
int cb_cli_rules_resolve(const char *cmd, const cb_cli_rules_opt *o, cb_rules *out);
void cb_cli_rules_opt_free(cb_cli_rules_opt *o);

/* Parse a GOptionContext whose main entries are entries (NULL-terminated); on failure prints
 * the glib message and returns CB_CLI_EXIT_USAGE. The context is freed in both cases. A short
 * option that takes a value may have it attached, as getopt allows (-j2 is -j 2; GOption alone
 * would take -j2 as -j followed by the next argument). What remains in *argv after parsing (the
 * non-option arguments) is the caller's own strings. */
int cb_cli_parse(const char *cmd, GOptionContext *ctx, const GOptionEntry *entries, int *argc, char ***argv);

/* Parse card text into rank counts against the rules' deck (duplicates, unknown characters
 * and cards not in the deck are errors). what names the argument in the message. */
int cb_cli_cards(const char *cmd, const char *what, const char *text, const cb_rules *r, cb_counts *out);
/* The same, parsing from the cards `from` only (the deck less cards used elsewhere): a card
 * named twice is refused as such. cards (may be NULL) gets the actual cards. */
int cb_cli_cards_from(const char *cmd, const char *what, const char *text, const cb_rules *r, cb_cards from,
                      cb_cards *cards, cb_counts *out);

/* Reject a hand larger than any seat holds (hand_size + bottom cards): the rules functions are
 * specified for real hands. Returns 0, or prints the problem and returns CB_CLI_EXIT_USAGE. */
int cb_cli_hand_size_ok(const char *cmd, const char *what, cb_counts hand, const cb_rules *r);

/* Text echoed in a message, cut to fit buf ("..." marks a cut). Returns buf. */
const char *cb_cli_shorten(const char *text, char *buf, size_t len);

/* Print a bundled plugin's parameter table (strategy_help.c) to f: 0, or the usage status
 * (the message printed) for an unknown plugin. */
int cb_cli_strategy_help(FILE *f, const char *plugin);

/* The kickers of a classified play: its cards less the main part (the unit cards at each chain
 * rank of a triple / plane / four-with); 0 for shapes without kickers. */
cb_counts cb_cli_kickers(const cb_move *m);

/* "pass" or the ranks ascending ("33344"). */
void cb_cli_move_text(cb_counts k, char *buf, size_t len);
/* Sort order of listings: pass first, then fewer cards, then rank order of the text. */
int cb_cli_move_cmp(const void *a, const void *b);

#endif
