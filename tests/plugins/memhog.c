/* Test plugin "memhog": at a decision it allocates memory (1 MB blocks mapped with mmap, every
 * page written) without bound — until an allocation fails, when it aborts, as an
 * out-of-memory handler would — and never frees it. mmap rather than malloc: the same
 * failure in every build (under ASan a failing malloc is ASan's report, not the plugin's).
 * For the tests of [shim] worker_memory_mb: under the limit the worker dies at its first
 * decision (counted crashed) and the match goes on. Parameters:
 *   cap_mb = N   stop once the instance holds N MB and answer like "lowest" (default 1024):
 *                without a limit the plugin then costs a bounded amount, not the machine */
#include <stdint.h>
#include <sys/mman.h>

#include "tplug.h"

static void *create(const cb_param *params, int n, char *err, size_t errlen)
{
    tplug t = { 0 };
    t.sleep_ms = 1024; /* reused as cap_mb */
    for (int i = 0; i < n; i++) {
        long x;
        if (strcmp(params[i].key, "cap_mb") == 0) {
            if (tplug_int("memhog", &params[i], 1, 65536, &x, err, errlen) != 0)
                return NULL;
            t.sleep_ms = (unsigned)x;
        } else {
            tplug_unknown("memhog", &params[i], err, errlen);
            return NULL;
        }
    }
    tplug *p = malloc(sizeof *p);
    if (p)
        *p = t;
    return p;
}

static void destroy(void *inst) { free(inst); }

/* The leak: a list of the blocks, never freed (as a leaking plugin's would not be); calls
 * counts the MB the instance holds. */
typedef struct block {
    struct block *next;
} block;

static void hog(tplug *t)
{
    enum { MB = 1 << 20 };
    block *head = (block *)(uintptr_t)t->play;
    for (; t->calls < t->sleep_ms; t->calls++) {
        block *b = mmap(NULL, MB, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (b == MAP_FAILED)
            abort();
        memset(b, 0x5A, MB);
        b->next = head;
        head = b;
    }
    t->play = (cb_cards)(uintptr_t)head; /* keep it */
}

static int decide_bid(void *inst, const cb_view *v, cb_decision *out)
{
    (void)v;
    hog(inst);
    out->bid = 0;
    return 0;
}

static int decide_play(void *inst, const cb_view *v, cb_decision *out)
{
    hog(inst);
    return tplug_lowest(v, &out->cards);
}

static const cb_bot bot = {
    CB_ABI_VERSION, sizeof(cb_bot), "memhog", "1.0", create, destroy, decide_bid, decide_play,
};
TPLUG_ENTRY(bot)
