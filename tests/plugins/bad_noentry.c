/* Test plugin "bad_noentry": a shared object without the cb_plugin_entry symbol (its entry
 * is misspelt), which the shim must refuse at load with "no entry point". */
#include "tplug.h"

__attribute__((visibility("default"))) int cb_plugin_entri(void);
int cb_plugin_entri(void) { return 1; }
