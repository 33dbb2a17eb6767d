/* cardbot pimc — the exact perfect-information solver of plugin/ismcts (solve.h), compiled
 * into this plugin too (a plugin is built from its own directory plus plugin/common). */
#include "../ismcts/solve.c"
