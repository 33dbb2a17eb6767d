/* cardbot — the version of the library actually loaded (game.h: cb_version). */
#include "cardbot/game.h"

const char *cb_version(void)
{
    return CB_VERSION;
}
