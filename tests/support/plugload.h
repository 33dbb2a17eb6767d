/* Tests: open a built plugin of this build variant ($CB_BUILD, default build/plain). */
#ifndef CBT_PLUGLOAD_H
#define CBT_PLUGLOAD_H

/* dlopen <build>/plugins/<name>.so (RTLD_NOW | RTLD_LOCAL); NULL with the reason on stderr. */
void *cbt_open_plugin(const char *name);

#endif
