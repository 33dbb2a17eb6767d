/* Tests: open a built plugin of this build variant ($CB_BUILD, default build/plain). */
#ifndef CBT_PLUGLOAD_H
#define CBT_PLUGLOAD_H

#include <stddef.h>

/* dlopen <build>/plugins/<name>.so (RTLD_NOW | RTLD_LOCAL); NULL with the reason on stderr. */
void *cbt_open_plugin(const char *name);

/* A symbol a test reaches in the plugin: its name, and where its address goes in the test's
 * state (offsetof a function pointer member). */
typedef struct cbt_sym {
    const char *name;
    size_t off;
} cbt_sym;

/* cmocka group setup for a state struct of size bytes whose first member is the plugin's
 * handle (void *so): the struct zeroed, plugin name opened, every one of syms[0..n) resolved
 * into it. Returns 0 with *state set, or -1 (every missing symbol named on stderr, nothing
 * left open or allocated). */
int cbt_plugin_setup(void **state, const char *name, size_t size, const cbt_sym *syms, size_t n);
/* The matching teardown: close the plugin, free the struct. */
int cbt_plugin_teardown(void **state);

#endif
