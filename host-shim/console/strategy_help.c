/* cardbot match --help-strategy NAME — a bundled plugin's parameters, printed from the same
 * tables its parser reads (plugin/<NAME>/params.c; README's tables come from them too, checked
 * by tests/test_params_table.c). The cardbot binary links those table objects alone: the
 * plugins themselves export nothing but their entry point. exec has no table: it is pointed
 * to its README section. */
#include <stdio.h>
#include <string.h>

#include "../../plugin/common/params.h"
#include "cli.h"

extern const cb_pdef is_param_table[], heur_param_table[], pm_param_table[], rb_param_table[];
extern const int is_param_count, heur_param_count, pm_param_count, rb_param_count;

/* exec has no parameter table to print: its keys are strings it reads itself (a command line,
 * an environment), so this says what it is and where they are written down; the names listed
 * here are checked against that README block by tests/test_match_cli.c. */
static int exec_help(FILE *f)
{
    fprintf(f, "plugin = exec: a bot in any language, a program the plugin starts and talks to over its stdin and\n"
               "stdout, one JSON line each way (the cardbot-1 protocol). Keys of a [strategy.NAME] group with this\n"
               "plugin: command (required: the program and its arguments), cwd, env, stderr, start_ms, log.\n"
               "Each key, the protocol and an example bot: README, section \"Bots in any language\".\n");
    return 0;
}

int cb_cli_strategy_help(FILE *f, const char *plugin)
{
    static const struct {
        const char *name;
        const cb_pdef *t;
        const int *n;
        const char *what;
    } tabs[] = {
        {"ismcts", is_param_table, &is_param_count, "information-set Monte Carlo tree search (the default)"},
        {"heuristic", heur_param_table, &heur_param_count, "no search: scored plays, six levels"},
        {"pimc", pm_param_table, &pm_param_count, "evaluation opponent: perfect-information Monte Carlo"},
        {"rulebot", rb_param_table, &rb_param_count, "evaluation opponent: a rule agent (or random)"},
    };
    for (size_t i = 0; i < sizeof tabs / sizeof tabs[0]; i++)
        if (!strcmp(plugin, tabs[i].name)) {
            fprintf(f, "plugin = %s: %s. Keys of a [strategy.NAME] group with this plugin:\n\n", plugin,
                    tabs[i].what);
            cb_params_markdown(f, tabs[i].t, *tabs[i].n);
            return 0;
        }
    if (!strcmp(plugin, "exec"))
        return exec_help(f);
    cb_cli_error("match", "--help-strategy %s: no such bundled plugin (ismcts, heuristic, pimc, rulebot, exec)",
                 plugin);
    return CB_CLI_EXIT_USAGE;
}
