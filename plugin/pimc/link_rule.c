/* cardbot pimc — the rule policy of plugin/rulebot, compiled into this plugin too: it is the
 * default play-out policy and the first candidate. The Makefile builds a plugin from its own
 * directory (plus plugin/common), so the source is included rather than linked. */
#include "../rulebot/rule.c"
