/* cardbot command — dispatch to a subcommand by name. Each subcommand lives in its own file and
 * parses its own options; adding one is one line in the table below (and its prototype in
 * cli.h). */
#include <fcntl.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cardbot/game.h"
#include "cli.h"

typedef struct {
    const char *name;
    cb_cli_fn fn;
    const char *summary;
} command;

static const command commands[] = {
    {"match", cb_cmd_match, "play games between strategies through the shim (the console host)"},
    {"tournament", cb_cmd_tournament, "gauntlet or round robin between a config's strategies"},
    {"play", cb_cmd_play, "play a game yourself against the configured bots, in the terminal"},
    {"replay", cb_cmd_replay, "show a replay file's games: as text, or as an HTML page (--html)"},
    {"merge", cb_cmd_merge, "merge the results files of a match run in shards (--shard K/N)"},
    {"classify", cb_cmd_classify, "classify one play: shape, main rank, length, kickers"},
    {"moves", cb_cmd_moves, "every legal play from a hand, leading or following"},
    {"minhands", cb_cmd_minhands, "fewest plays to empty each hand read from stdin"},
    {"universe", cb_cmd_universe, "every distinct play the rules allow (--count: how many)"},
    {"serve", cb_cmd_serve, "answer bot requests on stdin with a strategy (cardbot-1 or Botzone protocol)"},
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static void usage(FILE *f)
{
    fprintf(f, "Usage: cardbot SUBCOMMAND [OPTION...]\n\nSubcommands:\n");
    for (size_t i = 0; i < NCOMMANDS; i++)
        fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(f, "\nRun 'cardbot SUBCOMMAND --help' for its options, 'cardbot --version' for the version.\n");
}

/* A program started with a standard descriptor closed would hand that number to the next
 * file it opens (a replay file on fd 1, say, where a plugin's printf would then land): fill
 * any closed one of 0, 1, 2 with /dev/null first. */
static void standard_fds(void)
{
    for (int fd = 0; fd < 3; fd++)
        if (fcntl(fd, F_GETFD) < 0) {
            int n = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
            if (n >= 0 && n != fd) {
                dup2(n, fd);
                close(n);
            }
        }
}

int main(int argc, char **argv)
{
    standard_fds();
    setlocale(LC_ALL, ""); /* GOption messages and help in the user's locale */
    if (argc < 2) {
        fprintf(stderr, "cardbot: missing subcommand (try cardbot --help)\n");
        return CB_CLI_EXIT_USAGE;
    }
    const char *name = argv[1];
    if (!strcmp(name, "--version") || !strcmp(name, "version")) {
        /* the header this program was built with, and the library it actually runs */
        printf("cardbot %s (libcardbot %s, plugin ABI %d.%d)\n", CB_VERSION, cb_version(), CB_ABI_MAJOR,
               CB_ABI_MINOR);
        return 0;
    }
    if (!strcmp(name, "--help") || !strcmp(name, "-h") || !strcmp(name, "help")) {
        usage(stdout);
        return 0;
    }
    for (size_t i = 0; i < NCOMMANDS; i++) {
        if (strcmp(name, commands[i].name) != 0)
            continue;
        char *prg = g_strdup_printf("cardbot %s", name); /* shown by GOption's --help */
        g_set_prgname(prg);
        g_free(prg);
        return commands[i].fn(argc - 1, argv + 1);
    }
    fprintf(stderr, "cardbot: unknown subcommand '%s' (try cardbot --help)\n", name);
    return CB_CLI_EXIT_USAGE;
}
