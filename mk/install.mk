# cardbot — make install / make uninstall (included by the Makefile; uses its $(B), $(VERSION),
# $(SOMAJOR), $(CORE_SO), $(SHIM_SO), $(CLI_BIN), $(PLUGIN_SO)).
#
#   make install                       # into /usr/local
#   make install PREFIX=/usr DESTDIR=/tmp/stage    # a staged install, as packagers do
#   make uninstall PREFIX=/usr DESTDIR=/tmp/stage
#
# GNU directory variables, each overridable on the command line (libdir=/usr/lib/x86_64-linux-gnu):
#   bindir       $(PREFIX)/bin                 the cardbot command
#   libdir       $(PREFIX)/lib                 libcardbot.so.1, libcardbot-shim.so.1 (+ links)
#   plugindir    $(libdir)/cardbot/plugins     heuristic.so, ismcts.so: the shim's default search
#                                              directory (found from the library's own place)
#   includedir   $(PREFIX)/include             cardbot/*.h
#   pkgconfigdir $(libdir)/pkgconfig           cardbot.pc (hosts), cardbot-plugin.pc (plugins)
#   configdir    $(datadir)/cardbot/config     the bundled configs (datadir = $(PREFIX)/share)
#   exampledir   $(datadir)/cardbot/examples   python-bot/: the bot config/exec-python.ini runs
# The installed binaries find their libraries through the RUNPATHs they were linked with
# ($ORIGIN/../lib for cardbot, $ORIGIN/../.. for plugins) when the default layout is kept;
# otherwise through ldconfig (run it after a system install into a non-default libdir).
# The build variant installed is V's (make install V=asan installs build/asan).

PREFIX       ?= /usr/local
prefix       ?= $(PREFIX)
exec_prefix  ?= $(prefix)
bindir       ?= $(exec_prefix)/bin
libdir       ?= $(exec_prefix)/lib
includedir   ?= $(prefix)/include
datarootdir  ?= $(prefix)/share
datadir      ?= $(datarootdir)
pkgconfigdir ?= $(libdir)/pkgconfig
plugindir    ?= $(libdir)/cardbot/plugins
configdir    ?= $(datadir)/cardbot/config
exampledir   ?= $(datadir)/cardbot/examples

INSTALL         ?= install
INSTALL_PROGRAM ?= $(INSTALL) -m 0755
INSTALL_DATA    ?= $(INSTALL) -m 0644

INST_HEADERS := $(wildcard include/cardbot/*.h)
INST_CONFIGS := $(wildcard config/*.ini)
# What config/exec-python.ini runs: `command = python3 ../examples/python-bot/bot.py`, a path
# the exec plugin takes from the config file's own directory. Installed to
# $(exampledir)/python-bot, and the installed config's command rewritten to the path from
# $(configdir) to there (../examples with the default directories: the text is unchanged), so
# the pair works wherever the two directories are put, and a staged or moved tree too.
INST_PYBOT   := examples/python-bot/bot.py examples/python-bot/README.md
INST_PC      := cardbot cardbot-plugin

# A directory under the prefix goes into a .pc file as ${prefix}/..., so that
# `pkg-config --define-prefix` (and relocated trees) can move it; others stay absolute.
pc_dir = $(patsubst $(prefix)/%,$${prefix}/%,$(1))
PC_SED = -e 's|@prefix@|$(prefix)|g' \
         -e 's|@libdir@|$(call pc_dir,$(libdir))|g' \
         -e 's|@includedir@|$(call pc_dir,$(includedir))|g' \
         -e 's|@plugindir@|$(call pc_dir,$(plugindir))|g' \
         -e 's|@configdir@|$(call pc_dir,$(configdir))|g' \
         -e 's|@VERSION@|$(VERSION)|g'

install: build
	$(INSTALL) -d "$(DESTDIR)$(bindir)" "$(DESTDIR)$(libdir)" "$(DESTDIR)$(plugindir)" \
	  "$(DESTDIR)$(includedir)/cardbot" "$(DESTDIR)$(pkgconfigdir)" "$(DESTDIR)$(configdir)" \
	  "$(DESTDIR)$(exampledir)/python-bot"
	$(INSTALL_PROGRAM) $(CORE_SO) $(SHIM_SO) "$(DESTDIR)$(libdir)/"
	@# the SONAME links the loader wants and the development links the linker wants, as in
	@# the build tree (and as Debian's packages lay them out)
	ln -sf libcardbot.so.$(VERSION) "$(DESTDIR)$(libdir)/libcardbot.so.$(SOMAJOR)"
	ln -sf libcardbot.so.$(VERSION) "$(DESTDIR)$(libdir)/libcardbot.so"
	ln -sf libcardbot-shim.so.$(VERSION) "$(DESTDIR)$(libdir)/libcardbot-shim.so.$(SOMAJOR)"
	ln -sf libcardbot-shim.so.$(VERSION) "$(DESTDIR)$(libdir)/libcardbot-shim.so"
	$(INSTALL_PROGRAM) $(PLUGIN_SO) "$(DESTDIR)$(plugindir)/"
	$(INSTALL_PROGRAM) $(CLI_BIN) "$(DESTDIR)$(bindir)/"
	$(INSTALL_DATA) $(INST_HEADERS) "$(DESTDIR)$(includedir)/cardbot/"
	$(INSTALL_DATA) $(INST_CONFIGS) "$(DESTDIR)$(configdir)/"
	$(INSTALL_DATA) $(INST_PYBOT) "$(DESTDIR)$(exampledir)/python-bot/"
	rel=$$(realpath -s -m --relative-to="$(configdir)" "$(exampledir)") && \
	  sed "s|^command = python3 \.\./examples/python-bot/|command = python3 $$rel/python-bot/|" \
	    config/exec-python.ini > "$(DESTDIR)$(configdir)/exec-python.ini.tmp" && \
	  chmod 0644 "$(DESTDIR)$(configdir)/exec-python.ini.tmp" && \
	  mv "$(DESTDIR)$(configdir)/exec-python.ini.tmp" "$(DESTDIR)$(configdir)/exec-python.ini"
	for p in $(INST_PC); do \
	  sed $(PC_SED) pkgconfig/$$p.pc.in > "$(DESTDIR)$(pkgconfigdir)/$$p.pc.tmp" && \
	  chmod 0644 "$(DESTDIR)$(pkgconfigdir)/$$p.pc.tmp" && \
	  mv "$(DESTDIR)$(pkgconfigdir)/$$p.pc.tmp" "$(DESTDIR)$(pkgconfigdir)/$$p.pc" || exit 1; \
	done

# Removes exactly what install put there, then the cardbot-only directories if empty.
uninstall:
	rm -f "$(DESTDIR)$(libdir)/libcardbot.so.$(VERSION)" "$(DESTDIR)$(libdir)/libcardbot.so.$(SOMAJOR)" \
	  "$(DESTDIR)$(libdir)/libcardbot.so" "$(DESTDIR)$(libdir)/libcardbot-shim.so.$(VERSION)" \
	  "$(DESTDIR)$(libdir)/libcardbot-shim.so.$(SOMAJOR)" "$(DESTDIR)$(libdir)/libcardbot-shim.so" \
	  "$(DESTDIR)$(bindir)/$(notdir $(CLI_BIN))"
	rm -f $(foreach f,$(notdir $(PLUGIN_SO)),"$(DESTDIR)$(plugindir)/$(f)") \
	  $(foreach f,$(notdir $(INST_HEADERS)),"$(DESTDIR)$(includedir)/cardbot/$(f)") \
	  $(foreach f,$(notdir $(INST_CONFIGS)),"$(DESTDIR)$(configdir)/$(f)") \
	  $(foreach f,$(notdir $(INST_PYBOT)),"$(DESTDIR)$(exampledir)/python-bot/$(f)") \
	  $(foreach p,$(INST_PC),"$(DESTDIR)$(pkgconfigdir)/$(p).pc")
	-rmdir "$(DESTDIR)$(plugindir)" "$(DESTDIR)$(libdir)/cardbot" "$(DESTDIR)$(includedir)/cardbot" \
	  "$(DESTDIR)$(configdir)" "$(DESTDIR)$(exampledir)/python-bot" "$(DESTDIR)$(exampledir)" \
	  "$(DESTDIR)$(datadir)/cardbot" 2>/dev/null || true
