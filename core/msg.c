/* cardbot — core_msg (msg.h). */
#include "msg.h"

#include <stdarg.h>
#include <stdio.h>

void core_msg(char *buf, size_t len, const char *fmt, ...)
{
    if (!buf || !len)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, len, fmt, ap);
    va_end(ap);
}

int core_msg_ret(int ret, char *buf, size_t len, const char *fmt, ...)
{
    if (buf && len) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(buf, len, fmt, ap);
        va_end(ap);
    }
    return ret;
}
