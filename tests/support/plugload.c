/* Tests: open a built plugin of this build variant (see plugload.h). */
#include "plugload.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

int cbt_plugin_setup(void **state, const char *name, size_t size, const cbt_sym *syms, size_t n)
{
    void **st = calloc(1, size); /* st[0]: the struct's first member, the handle */
    if (!st)
        return -1;
    st[0] = cbt_open_plugin(name);
    if (!st[0]) {
        free(st);
        return -1;
    }
    int missing = 0;
    for (size_t i = 0; i < n; i++) {
        void *p = dlsym(st[0], syms[i].name);
        if (!p) {
            fprintf(stderr, "%s.so: missing symbol %s\n", name, syms[i].name);
            missing++;
        }
        memcpy((char *)st + syms[i].off, &p, sizeof p);
    }
    if (missing) {
        dlclose(st[0]);
        free(st);
        return -1;
    }
    *state = st;
    return 0;
}

int cbt_plugin_teardown(void **state)
{
    void **st = *state;
    if (st) {
        dlclose(st[0]);
        free(st);
    }
    return 0;
}
