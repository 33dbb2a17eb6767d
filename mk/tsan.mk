# cardbot — the ThreadSanitizer variant (included by the Makefile).
#
#   make V=tsan [build|test]   everything built with -fsanitize=thread in build/tsan (test: the
#                              whole suite under TSan)
#   make tsan-check            what make check runs: builds what TSAN_TESTS need under TSan and
#                              runs them (tests/run.sh), writing build/tsan/tests.log for the tally
#
# TSAN_TESTS: the threaded tests worth the TSan slowdown — test_tsan_reload (threads play games
# through their tables while the config is reloaded, in-process and under process isolation).

TSAN_TESTS ?= test_tsan_reload

ifeq ($(V),tsan)
CFLAGS  += -O1 -g -fno-omit-frame-pointer -fsanitize=thread
LDFLAGS += -fsanitize=thread
endif

.PHONY: tsan-check tsan-build
tsan-check: deps-check
	@rm -f build/tsan/tests.log
	@$(MAKE) --no-print-directory V=tsan tsan-build
	@sh tests/run.sh build/tsan $(TSAN_TESTS) | tee build/tsan/tests.log

# the heuristic plugin and the test plugins are what the tests seat
tsan-build: $(CORE_LIB) $(SHIM_LIB) $(B)/plugins/heuristic.so $(TPLUG_SO) $(TSAN_TESTS:%=$(B)/tests/%)
