/* Tests: open a built plugin of this build variant (see plugload.h). */
#include "plugload.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

void *cbt_open_plugin(const char *name)
{
    const char *b = getenv("CB_BUILD");
    char path[512];
    snprintf(path, sizeof path, "%s/plugins/%s.so", b && *b ? b : "build/plain", name);
    void *so = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!so)
        fprintf(stderr, "dlopen %s: %s\n", path, dlerror());
    return so;
}
