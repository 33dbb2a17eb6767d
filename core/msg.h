/* cardbot — private to core/: writing a message into a caller's optional buffer. Every
 * function that explains a refusal (a bad key, an illegal play, an impossible view) takes
 * `char *err, size_t errlen`, either of which may be empty. */
#ifndef CARDBOT_CORE_MSG_H
#define CARDBOT_CORE_MSG_H

#include <stddef.h>

#pragma GCC visibility push(hidden)

/* printf into buf when buf and len are given; nothing otherwise. */
__attribute__((format(printf, 3, 4)))
void core_msg(char *buf, size_t len, const char *fmt, ...);
/* The same, returning ret: `return core_msg_ret(-1, err, errlen, "...")`. */
__attribute__((format(printf, 4, 5)))
int core_msg_ret(int ret, char *buf, size_t len, const char *fmt, ...);

#pragma GCC visibility pop

#endif
