# cardbot — one entry point: make, make check, make bench, make clean, make deps.
# Build outputs go to build/<variant>/ (plain, asan). Files are picked up by wildcard:
#   core/*.c                   -> libcardbot.so.1 (the one rules and game implementation,
#                                 exported to hosts, the shim and plugins alike)
#   tests/test_*.c             -> one cmocka binary each, linked with tests/support/*.c
#   bench/bench_*.c            -> one benchmark binary each, linked with bench/support/*.c
#   host-shim/console/*.c      -> the cardbot command
#   host-shim/*.c              -> libcardbot-shim.so.1 (links libcardbot.so.1)
#   plugin/NAME/*.c            -> plugins/NAME.so (plus plugin/common/*.c; links libcardbot.so.1;
#                                 exports cb_plugin_entry only), and libcbNAME.a / libcbcommon.a
#                                 of the same objects for the plugin tests and benchmarks
#   tests/plugins/NAME.c       -> test plugins (fault injection)

V        ?= plain
B        := build/$(V)
CC       ?= cc
PKGS     := glib-2.0 json-glib-1.0 cmocka libseccomp
DEBPKGS  := libglib2.0-dev libjson-glib-dev libcmocka-dev libseccomp-dev pkg-config gcc make \
            clang libclang-rt-dev libtsan2 parallel chromium valgrind tmux python3-jsonschema
PKG_CFLAGS := $(shell pkg-config --cflags glib-2.0 json-glib-1.0 libseccomp 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs glib-2.0 json-glib-1.0 libseccomp 2>/dev/null)
CORE_PKG_LIBS := $(shell pkg-config --libs glib-2.0 json-glib-1.0 2>/dev/null)
CMOCKA_LIBS := $(shell pkg-config --libs cmocka 2>/dev/null || echo -lcmocka)

OPT_plain := -O2 -g
OPT_asan  := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
SAN_LD_asan := -fsanitize=address,undefined
CFLAGS   := -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -fPIC -Iinclude -Icore $(OPT_$(V)) $(EXTRA_CFLAGS)
LDFLAGS  := $(SAN_LD_$(V)) -pthread
LDLIBS   := -lm -ldl

CORE_SRC := $(wildcard core/*.c)
CORE_OBJ := $(CORE_SRC:%.c=$(B)/%.o)
# The core library: real name, SONAME and the link name, as Debian installs them.
VERSION  := $(shell sed -n 's/^\#define CB_VERSION "\(.*\)"/\1/p' include/cardbot/game.h)
SOMAJOR  := $(firstword $(subst ., ,$(VERSION)))
CORE_LIB := $(B)/libcardbot.so
CORE_SO  := $(B)/libcardbot.so.$(VERSION)
CORE_DEPS := $(CORE_LIB)
# Link against the core library: binaries in $(B) find it next to themselves, plugins in
# $(B)/plugins and tests in $(B)/tests one level up; installed plugins in
# $(libdir)/cardbot/plugins two levels up.
CORE_LINK := -L$(B) -lcardbot

COMMON_SRC := $(wildcard plugin/common/*.c)
COMMON_OBJ := $(COMMON_SRC:%.c=$(B)/%.o)

SHIM_SRC := $(wildcard host-shim/*.c)
SHIM_OBJ := $(SHIM_SRC:%.c=$(B)/%.o)
SHIM_LIB := $(B)/libcardbot-shim.so
SHIM_SO  := $(B)/libcardbot-shim.so.$(VERSION)

CLI_SRC  := $(wildcard host-shim/console/*.c)
CLI_OBJ  := $(CLI_SRC:%.c=$(B)/%.o)
CLI_BIN  := $(B)/cardbot

PLUGINS  := $(notdir $(wildcard plugin/heuristic plugin/ismcts plugin/exec plugin/pimc plugin/rulebot))
PLUGIN_SO := $(PLUGINS:%=$(B)/plugins/%.so)
TPLUG_SRC := $(wildcard tests/plugins/*.c)
TPLUG_SO  := $(TPLUG_SRC:tests/plugins/%.c=$(B)/tests/plugins/%.so)

SUPPORT_SRC := $(wildcard tests/support/*.c)
SUPPORT_OBJ := $(SUPPORT_SRC:%.c=$(B)/%.o)
TEST_SRC := $(wildcard tests/test_*.c)
TEST_BIN := $(TEST_SRC:tests/%.c=$(B)/tests/%)
# Script tests (shell, Python): copied to $(B)/tests/test_NAME and run like the binaries, with
# CB_BUILD set to the build directory (tests/run.sh); they exit 0 when they pass.
SCRIPT_TEST_SRC := $(wildcard tests/test_*.sh tests/test_*.py)
SCRIPT_TEST := $(patsubst tests/%,$(B)/tests/%,$(basename $(SCRIPT_TEST_SRC)))
BENCH_SRC := $(wildcard bench/bench_*.c)
BENCH_BIN := $(BENCH_SRC:bench/%.c=$(B)/bench/%)
BENCH_SUPPORT_SRC := $(wildcard bench/support/*.c)
BENCH_SUPPORT_OBJ := $(BENCH_SUPPORT_SRC:%.c=$(B)/%.o)

.PHONY: all build deps deps-check check test test-build bench bench-run clean match install uninstall
# Top-level targets install what is missing first, then build in a sub-make, so pkg-config is
# asked for flags only after the packages exist.
all: deps-check
	@$(MAKE) --no-print-directory build
build: $(CORE_LIB) $(SHIM_LIB) $(CLI_BIN) $(PLUGIN_SO)

# Install missing Debian packages (apt-get, as root or through sudo when it is needed).
deps:
	@missing=""; for p in $(DEBPKGS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then echo "installing:$$missing"; \
	  SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	  $$SUDO apt-get update -q && $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q $$missing; \
	else echo "deps: all present"; fi
deps-check:
	@pkg-config --exists $(PKGS) || $(MAKE) --no-print-directory deps

$(B)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(PKG_CFLAGS) -MMD -MP -c $< -o $@

# ---- min-hands tables (helper: minhands) --------------------------------------------------
# core/minhands.c includes const tables made at build time: core/minhands_gen.c, built as a
# host program with -DCB_MINHANDS_GEN (in the library that file compiles to nothing), prints
# $(B)/gen/minhands_tab.h. Regenerated whenever the generator changes.
MH_GEN := $(B)/gen/minhands_gen
MH_TAB := $(B)/gen/minhands_tab.h
$(MH_GEN): core/minhands_gen.c core/minhands_prof.h
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -O2 -Wall -Wextra -Werror -Icore -DCB_MINHANDS_GEN $< -o $@
$(MH_TAB): $(MH_GEN)
	$(MH_GEN) > $@.tmp && mv $@.tmp $@
$(B)/core/minhands.o: $(MH_TAB)
$(B)/core/minhands.o: CFLAGS += -I$(B)/gen
# ---- end min-hands tables ------------------------------------------------------------------

# ---- the replay page (cardbot replay --html) ------------------------------------------------
# host-shim/console/replay_page.html, the page's template (CSS and script inline), becomes one C
# string literal that replay_html.c includes: the page stays an ordinary HTML file to edit, and
# the installed cardbot needs no data file. ('?' is escaped so no "??x" trigraph can form.)
$(B)/gen/replay_page.h: host-shim/console/replay_page.html
	@mkdir -p $(dir $@)
	sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/?/\\?/g' -e 's/^/"/' -e 's/$$/\\n"/' $< > $@.tmp && mv $@.tmp $@
$(B)/host-shim/console/replay_html.o: $(B)/gen/replay_page.h
$(B)/host-shim/console/replay_html.o: CFLAGS += -I$(B)/gen
# ---- end replay page ----------------------------------------------------------------------

# libcardbot.so.1: exports the cb_ API of cards.h, rules.h, game.h and nothing else
# (core/libcardbot.map), so host, shim and plugins share one copy of the rules.
$(CORE_SO): $(CORE_OBJ) core/libcardbot.map
	@mkdir -p $(dir $@)
	$(CC) -shared -o $@ $(CORE_OBJ) -Wl,-soname,libcardbot.so.$(SOMAJOR) \
	  -Wl,--version-script,core/libcardbot.map $(LDFLAGS) $(CORE_PKG_LIBS) $(LDLIBS)
$(CORE_LIB): $(CORE_SO)
	ln -sf $(notdir $<) $(B)/libcardbot.so.$(SOMAJOR)
	ln -sf $(notdir $<) $@

# libcardbot-shim.so.1: exports only shim.h's API (host-shim/libcardbot-shim.map).
$(SHIM_SO): $(SHIM_OBJ) $(CORE_LIB) host-shim/libcardbot-shim.map
	$(CC) -shared -o $@ $(SHIM_OBJ) -Wl,-soname,libcardbot-shim.so.$(SOMAJOR) \
	  -Wl,--version-script,host-shim/libcardbot-shim.map $(CORE_LINK) -Wl,-rpath,'$$ORIGIN' \
	  $(LDFLAGS) $(PKG_LIBS) $(LDLIBS)
$(SHIM_LIB): $(SHIM_SO)
	ln -sf $(notdir $<) $(B)/libcardbot-shim.so.$(SOMAJOR)
	ln -sf $(notdir $<) $@

# cardbot match --help-strategy prints the bundled plugins' parameter tables: the binary links
# those table objects (and the table printer) themselves, not the plugins
CLI_TABLE_OBJ := $(addprefix $(B)/plugin/,common/params.o ismcts/params.o heuristic/params.o pimc/params.o \
                   rulebot/params.o)
# It reads its configs' values by the shim's rule (host-shim/conf_value.h): that object is
# linked in too, as the shim library exports only shim.h
CLI_CONF_OBJ := $(B)/host-shim/conf_value.o
$(CLI_BIN): $(CLI_OBJ) $(CLI_TABLE_OBJ) $(CLI_CONF_OBJ) $(SHIM_LIB) $(CORE_LIB)
	$(CC) -o $@ $(CLI_OBJ) $(CLI_TABLE_OBJ) $(CLI_CONF_OBJ) -L$(B) -lcardbot-shim $(CORE_LINK) -Wl,-rpath,'$$ORIGIN:$$ORIGIN/../lib' \
	  $(LDFLAGS) $(PKG_LIBS) $(LDLIBS)

# Keep intermediate objects (plugin and test-support .o) so a rebuild reuses them.
.SECONDARY:
.SECONDEXPANSION:
PLUGIN_RPATH := -Wl,-rpath,'$$ORIGIN/..:$$ORIGIN/../..'
# Plugin code is compiled with hidden visibility: a plugin's .so exports cb_plugin_entry alone
# (marked CB_PLUG_EXPORT, plugin/common/decision.h; tests/test_plugin_exports.sh checks it).
# (Their objects depend on the Makefile so a build from before the flag cannot linger.)
$(B)/plugin/%.o: CFLAGS += -fvisibility=hidden
$(patsubst %.c,$(B)/%.o,$(wildcard plugin/*/*.c)): Makefile
$(B)/plugins/%.so: $$(addprefix $(B)/,$$(subst .c,.o,$$(wildcard plugin/$$*/*.c))) $(COMMON_OBJ) $(CORE_LIB)
	@mkdir -p $(dir $@)
	$(CC) -shared -o $@ $(filter %.o,$^) $(CORE_LINK) $(PLUGIN_RPATH) $(LDFLAGS) $(LDLIBS)

# The same plugin objects as static libraries, for the tests and benchmarks that call plugin
# internals (the search, the solver, plugin/common) directly through the private headers:
# libcb<NAME>.a per plugin, libcbcommon.a for plugin/common. Linked in this order (a plugin's
# code calls plugin/common); an archive member is pulled only when referenced, so the two
# plugins' cb_plugin_entry never meet in one program.
PLUGIN_LIBS := $(PLUGINS:%=$(B)/libcb%.a) $(B)/libcbcommon.a
$(B)/libcbcommon.a: $(COMMON_OBJ)
	rm -f $@ && $(AR) rcs $@ $^
$(B)/libcb%.a: $$(addprefix $(B)/,$$(subst .c,.o,$$(wildcard plugin/$$*/*.c)))
	rm -f $@ && $(AR) rcs $@ $^
# exec runs a program: glib for its argv splitting and environment (g_shell_parse_argv).
$(B)/plugins/exec.so: LDLIBS += $(shell pkg-config --libs glib-2.0 2>/dev/null)

$(B)/tests/plugins/%.so: tests/plugins/%.c $(CORE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP -shared -o $@ $< -L$(B) -lcardbot -Wl,-rpath,'$$ORIGIN/../..' $(LDFLAGS) $(LDLIBS)

# Tests of the console's verdict modules link those objects (the cardbot binary exports none).
VERDICT_OBJ := $(addprefix $(B)/host-shim/console/,match_pair.o match_sprt.o match_report.o match_plot.o match_num.o \
               match_stats.o)
$(B)/tests/test_sprt $(B)/tests/test_report: $(VERDICT_OBJ)
$(B)/tests/test_sprt $(B)/tests/test_report: TEST_OBJ := $(VERDICT_OBJ)
$(B)/tests/%: tests/%.c $(SUPPORT_OBJ) $(CORE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(PKG_CFLAGS) -MMD -MP -Itests -o $@ $< $(TEST_OBJ) $(SUPPORT_OBJ) $(CORE_LINK) -Wl,-rpath,'$$ORIGIN/..' $(LDFLAGS) $(PKG_LIBS) $(CMOCKA_LIBS) $(LDLIBS)

# The plugin tests link the plugins' static libraries (above) as well, and the fixtures of
# tests/support/plugin/ that call plugin code.
PLUGIN_SUPPORT_OBJ := $(patsubst %.c,$(B)/%.o,$(wildcard tests/support/plugin/*.c))
PLUGIN_TEST_BIN := $(filter $(addprefix $(B)/tests/,test_belief test_params_table test_rollout test_worlds \
                     test_ismcts% test_pimc test_personality test_candidates),$(TEST_BIN))
$(PLUGIN_TEST_BIN): $(B)/tests/%: tests/%.c $(SUPPORT_OBJ) $(PLUGIN_SUPPORT_OBJ) $(CORE_LIB) $(PLUGIN_LIBS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(PKG_CFLAGS) -MMD -MP -Itests -o $@ $< $(SUPPORT_OBJ) $(PLUGIN_SUPPORT_OBJ) $(PLUGIN_LIBS) $(CORE_LINK) -Wl,-rpath,'$$ORIGIN/..' $(LDFLAGS) $(PKG_LIBS) $(CMOCKA_LIBS) $(LDLIBS)

# bench_seats is a host: it links the shim library as a server would
$(B)/bench/bench_seats: $(SHIM_LIB)
$(B)/bench/bench_seats: LDLIBS += -L$(B) -lcardbot-shim
# bench_belief --from reads results files with the console's decoder of game lines
RESULTS_OBJ := $(addprefix $(B)/host-shim/console/,match_replay.o match_json.o)
$(B)/bench/bench_belief: $(RESULTS_OBJ)
$(B)/bench/bench_belief: BENCH_OBJ := $(RESULTS_OBJ)
$(B)/bench/%: bench/%.c $(BENCH_SUPPORT_OBJ) $(CORE_LIB) $(PLUGIN_LIBS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(PKG_CFLAGS) -MMD -MP -Itests -o $@ $< $(BENCH_OBJ) $(BENCH_SUPPORT_OBJ) $(PLUGIN_LIBS) $(CORE_LINK) -Wl,-rpath,'$$ORIGIN/..' $(LDFLAGS) $(PKG_LIBS) $(LDLIBS)

# Tests: every test binary, plain then ASan+UBSan. tests/run.sh prints the final tally.
check: deps-check
	$(MAKE) --no-print-directory V=plain test
	$(MAKE) --no-print-directory V=asan test
	-$(MAKE) --no-print-directory fuzz-brief
	-$(MAKE) --no-print-directory tsan-check
	@sh tests/tally.sh build/plain/tests.log build/asan/tests.log build/fuzz/tests.log build/tsan/tests.log

$(B)/tests/test_%: tests/test_%.sh
	@mkdir -p $(dir $@)
	cp $< $@ && chmod +x $@
$(B)/tests/test_%: tests/test_%.py
	@mkdir -p $(dir $@)
	cp $< $@ && chmod +x $@

# test-build: everything the tests run, without running them (then: sh tests/run.sh B NAME...)
test-build: build $(TEST_BIN) $(SCRIPT_TEST) $(TPLUG_SO)
test: test-build
	@sh tests/run.sh $(B) | tee $(B)/tests.log

bench: deps-check
	@$(MAKE) --no-print-directory bench-run
bench-run: build $(BENCH_BIN) $(TPLUG_SO)
	@for b in $(BENCH_BIN); do echo "== $$b"; $$b || exit 1; done
	@for s in bench/*.sh; do echo "== $$s"; bash $$s $(B) || exit 1; done

# The README's first command: build everything, then play a real bot match on the bundled
# default config (strategies, seats and rules come from config/pdk16.ini).
match: deps-check
	@$(MAKE) --no-print-directory build
	$(CLI_BIN) match --config config/pdk16.ini --games 300 --seed 1 --duplicate --concurrency 2 --quiet

clean:
	rm -rf build

include mk/install.mk
include mk/fuzz.mk
include mk/tsan.mk

-include $(shell find build -name '*.d' 2>/dev/null)
