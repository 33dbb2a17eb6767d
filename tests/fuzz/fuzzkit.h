/* cardbot fuzz targets — what the libFuzzer targets share: a reader that takes fields off the
 * input (running dry gives zeros, so every input means something and a short one means "the
 * defaults"), a check that aborts with a message (libFuzzer keeps the input that made it),
 * and a few rules helpers.
 *
 * Each target is one tests/fuzz/fuzz_NAME.c built with clang -fsanitize=fuzzer,address,
 * undefined against the V=fuzz build of the libraries (mk/fuzz.mk); its seed corpus is
 * tests/fuzz/corpus/NAME/ (mk/fuzz.mk runs them).
 */
#ifndef CARDBOT_FUZZKIT_H
#define CARDBOT_FUZZKIT_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cardbot/rules.h"

typedef struct fz_in {
    const uint8_t *p;
    size_t n;
} fz_in;

static inline uint8_t fz_u8(fz_in *in)
{
    if (!in->n)
        return 0;
    in->n--;
    return *in->p++;
}

static inline uint16_t fz_u16(fz_in *in)
{
    uint16_t lo = fz_u8(in);
    return (uint16_t)(lo | (uint16_t)fz_u8(in) << 8);
}

static inline uint32_t fz_u32(fz_in *in)
{
    uint32_t lo = fz_u16(in);
    return lo | (uint32_t)fz_u16(in) << 16;
}

static inline uint64_t fz_u64(fz_in *in)
{
    uint64_t lo = fz_u32(in);
    return lo | (uint64_t)fz_u32(in) << 32;
}

/* 0..n-1 (n >= 1) from one or two bytes. */
static inline unsigned fz_below(fz_in *in, unsigned n)
{
    return n <= 256 ? fz_u8(in) % n : fz_u16(in) % n;
}

/* A failed check: say what disagreed, then abort so libFuzzer saves the input. */
__attribute__((noreturn, format(printf, 1, 2)))
static inline void fz_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "\nFUZZ CHECK FAILED: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    abort();
}

#define FZ_CHECK(cond, ...)       \
    do {                          \
        if (!(cond))              \
            fz_fail(__VA_ARGS__); \
    } while (0)

/* Is a a sub-multiset of b (every rank count of a at most b's)? */
static inline bool cbt_le(cb_counts a, cb_counts b)
{
    for (int r = 0; r < CB_NRANKS; r++)
        if (cb_count(a, r) > cb_count(b, r))
            return false;
    return true;
}

static inline const char *fz_counts_text(cb_counts k, char *buf, size_t len)
{
    cb_counts_format(k, buf, len);
    return buf;
}

static inline const char *fz_cards_text(cb_cards c, char *buf, size_t len)
{
    cb_cards_format(c, true, buf, len);
    return buf;
}

#endif
