# collector.mk — the trace collector (docs/collector.md), included by Makefile:
# smait-instrument (LLVM-C), the runtime library libsmait-rt.a, smait-cc.

LLVM_CONFIG ?= $(shell command -v llvm-config 2>/dev/null || command -v llvm-config-14 2>/dev/null || echo llvm-config)
LLVM_BINDIR = $(shell $(LLVM_CONFIG) --bindir)
LLVM_CFLAGS = $(shell $(LLVM_CONFIG) --cflags)
LLVM_LIBS = $(shell $(LLVM_CONFIG) --ldflags --libs core bitreader bitwriter analysis target)
SMAIT_CLANG ?= $(LLVM_BINDIR)/clang

RT_SRCS := $(wildcard collector/rt/*.c)
# The runtime is linked into traced programs: never sanitized, always PIC.
# The compressed sink (rt_sink.c) uses libzstd; traced programs link it (smait-cc).
ZSTD_CFLAGS = $(shell pkg-config --cflags libzstd)
ZSTD_LIBS = $(shell pkg-config --libs libzstd)
# RT_BINDIR: where TRACE_FILE_TYPE=to_ciat/to_cdat looks for the analyser
# first; RT_CONFIGDIRS: where it looks for a CONFIGURATION_FILE_NAME given by
# name (4x4: 4x4.ini), as cdat does. The build tree's runtime names the build
# tree's tools and the source's configs too; the one make install installs
# (libsmait-rt.a built apart in $(BUILD)/lib-install) only the installed
# ones, so an installed program never runs the build tree's analyser.
RT_CFLAGS_COMMON = -std=c11 -O2 -g -Wall -Wextra -Werror -D_GNU_SOURCE -fPIC -fvisibility=hidden $(ZSTD_CFLAGS)
RT_CFLAGS = $(RT_CFLAGS_COMMON) -DRT_BINDIR='"$(abspath $(BIN))"' \
	-DRT_CONFIGDIRS='"$(DATADIR)/configs:$(abspath configs)"'
RT_INSTALL_CFLAGS = $(RT_CFLAGS_COMMON) -DRT_BINDIR='"$(BINDIR)"' -DRT_CONFIGDIRS='"$(DATADIR)/configs"'
RT_OBJS := $(RT_SRCS:%.c=$(BUILD)/obj/rt/%.o)
RT_LIB := $(BUILD)/lib/libsmait-rt.a
RT_INSTALL_OBJS := $(RT_SRCS:%.c=$(BUILD)/obj/rt-install/%.o)
RT_INSTALL_LIB := $(BUILD)/lib-install/libsmait-rt.a
# The part only C++ links take (it wraps functions of the C++ library).
RT_CXX_SRCS := $(wildcard collector/rt/cxx/*.c)
RT_CXX_OBJS := $(RT_CXX_SRCS:%.c=$(BUILD)/obj/rt/%.o)
RT_CXX_LIB := $(BUILD)/lib/libsmait-rt-cxx.a
SMAIT_CC_NAMES := smait-cc smait-c++ smait-cxx
COLLECTOR := $(SMAIT_CC_NAMES:%=$(BIN)/%) $(BIN)/smait-instrument $(RT_LIB) $(RT_CXX_LIB) \
	$(BUILD)/include/smait_marker.h

# operator new's wrappers (rt_new.c) pass its exceptions through.
$(RT_CXX_OBJS): RT_CFLAGS += -fexceptions

$(BUILD)/obj/rt/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(RT_CFLAGS) -MMD -MP -c $< -o $@

$(RT_LIB): $(RT_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@
	ar rcs $@ $^

# The installed runtime: rebuilt when PREFIX changes (install_dirs.h does).
$(BUILD)/obj/rt-install/%.o: %.c $(INSTALL_DIRS_H)
	@mkdir -p $(dir $@)
	$(CC) $(RT_INSTALL_CFLAGS) -MMD -MP -c $< -o $@

$(RT_INSTALL_LIB): $(RT_INSTALL_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@
	ar rcs $@ $^

$(RT_CXX_LIB): $(RT_CXX_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@
	ar rcs $@ $^

$(BIN)/smait-instrument: collector/instrument.c collector/rt/rt.h formats/smait.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(LLVM_CFLAGS) $(CFLAGS) -o $@ $< $(LLVM_LIBS)

DSMTRACE_VERSION := $(shell sed -n 's/^\#define DSMTRACE_VERSION "\(.*\)"/\1/p' common/version.h)
$(BIN)/smait-cc: collector/smait-cc.in common/version.h $(INSTALL_DIRS_H)
	@mkdir -p $(dir $@)
	sed -e 's|@CLANG@|$(SMAIT_CLANG)|' -e 's|@VERSION@|$(DSMTRACE_VERSION)|' -e 's|@ZSTD_LIBS@|$(ZSTD_LIBS)|' \
		-e 's|@DOCDIR@|$(DOCDIR)|' $< > $@.tmp && \
	chmod 755 $@.tmp && mv $@.tmp $@

# smait-c++ and smait-cxx: the same script, every source C++.
$(BIN)/smait-c++ $(BIN)/smait-cxx: $(BIN)/smait-cc
	ln -sf smait-cc $@

$(BUILD)/include/smait_marker.h: collector/smait_marker.h
	@mkdir -p $(dir $@)
	cp $< $@

# The collector is optional: without clang and the LLVM-C headers the
# analysers still build and test (the collector tests skip themselves), and
# the build says what smait-cc needs.
COLLECTOR_MISSING = $(shell scripts/install-deps --check collector >/dev/null 2>&1 || echo yes)

.PHONY: collector
ifeq ($(COLLECTOR_MISSING),yes)
collector:
	@scripts/install-deps --check collector || true
	@echo "dsmtrace: smait-cc (the trace collector) is not built; ciat, cdat, tdat and smait are" >&2
else
collector: $(COLLECTOR)
endif
