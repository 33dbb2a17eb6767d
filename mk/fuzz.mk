# cardbot — libFuzzer targets (included by the Makefile; uses its $(B), $(CORE_LIB), $(SHIM_LIB),
# $(CFLAGS), $(PKG_*) and $(TPLUG_SO)).
#
#   make fuzz                               every target for FUZZ_TIME seconds (default 60)
#   make fuzz FUZZ_TIME=600 FUZZ_TARGETS="view wire"
#   make fuzz-brief                         every target for FUZZ_BRIEF seconds (default 15):
#                                           what make check runs
#
# Targets: tests/fuzz/fuzz_NAME.c, one binary each, with a committed seed corpus in
# tests/fuzz/corpus/NAME/ (small and reviewable). They are built as the variant V=fuzz
# (build/fuzz): clang, the core library and the shim with -fsanitize=fuzzer-no-link (coverage)
# plus ASan and UBSan, the test plugins with the sanitizers only (below), the targets linked
# with -fsanitize=fuzzer. A run reads the
# seeds and writes what it finds new into build/fuzz/corpus/NAME/ (kept across runs, so a
# longer campaign picks up where the last stopped); a crash or a failed cross-check leaves its
# input in build/fuzz/crash/NAME/ and fails the run. tests/fuzz/run.sh prints the executions
# of each target and the "build/fuzz: N passed, N failed" line tests/tally.sh reads.

FUZZ_TARGETS ?= $(patsubst tests/fuzz/fuzz_%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
FUZZ_TIME    ?= 60
FUZZ_BRIEF   ?= 15
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=undefined
# what the targets load: the shim's test plugins (lowest, viewecho, wirefuzz, ...)
FUZZ_PLUGINS := $(TPLUG_SO)

# clang's -Wextra flags libseccomp's own SCMP_A0()..SCMP_A5() macros (they leave datum_b to
# its zero default), which shim_process.c uses: that one check is off in this variant.
ifeq ($(V),fuzz)
CC      := clang
CFLAGS  += -O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer-no-link $(FUZZ_SAN) \
           -Wno-missing-field-initializers
LDFLAGS += $(FUZZ_SAN)
# The shim dlopen()s and dlclose()s test plugins as configs come and go; libFuzzer keeps
# pointers to every instrumented module's coverage counters, which an unmapped plugin would
# leave dangling. The plugins are not what is fuzzed: they get the sanitizers, no coverage.
$(B)/tests/plugins/%.so: CFLAGS := $(filter-out -fsanitize=fuzzer-no-link,$(CFLAGS))
endif

.PHONY: fuzz fuzz-brief fuzz-build fuzz-deps
fuzz: deps-check fuzz-deps
	@$(MAKE) --no-print-directory V=fuzz fuzz-build
	@sh tests/fuzz/run.sh build/fuzz $(FUZZ_TIME) $(FUZZ_TARGETS)
fuzz-brief: deps-check fuzz-deps
	@rm -f build/fuzz/tests.log
	@$(MAKE) --no-print-directory V=fuzz fuzz-build
	@sh tests/fuzz/run.sh build/fuzz $(FUZZ_BRIEF) $(FUZZ_TARGETS) | tee build/fuzz/tests.log

# clang and its libFuzzer runtime (Debian: clang, libclang-rt-*-dev) come from make deps.
fuzz-deps:
	@printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n){(void)d;(void)n;return 0;}\n' \
	  | clang -fsanitize=fuzzer -x c - -o /dev/null 2>/dev/null || $(MAKE) --no-print-directory deps

fuzz-build: $(CORE_LIB) $(SHIM_LIB) $(FUZZ_PLUGINS) $(FUZZ_TARGETS:%=$(B)/fuzz/fuzz_%)

# A target that fuzzes a private piece of the shim links that object itself (the library
# exports only the cb_ API): wirereq, the worker's request decoder.
FUZZ_OBJ_wirereq := $(B)/host-shim/shim_wire.o
$(B)/fuzz/fuzz_wirereq: $(FUZZ_OBJ_wirereq)

$(B)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzzkit.h $(CORE_LIB) $(SHIM_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(PKG_CFLAGS) -fsanitize=fuzzer -MMD -MP -Itests -o $@ $< $(FUZZ_OBJ_$*) -L$(B) -lcardbot-shim $(CORE_LINK) \
	  -Wl,-rpath,'$$ORIGIN/..' $(LDFLAGS) $(PKG_LIBS) $(LDLIBS)
