# dsmtrace — one Makefile, no generated build system.
#
#   make                 build the tools into build/bin
#   make check           unit tests (Check) + CLI golden and bad-input tests
#   make check SANITIZE=1  the same under AddressSanitizer + UBSan (build-san/)
#   make demo            run the tools on the bundled example and traced kernels
#   make bench           throughput benchmarks (records/s, peak memory)
#   make fuzz [FUZZ_SECONDS=N]  libFuzzer harnesses (clang; build-fuzz/), N s each
#   make install PREFIX=/usr/local
#   make clean
#
# The public targets first make sure the dependencies are installed
# (scripts/install-deps), then run the real work in a sub-make so pkg-config
# is asked only once they are there.

PREFIX ?= /usr/local
SANITIZE ?=

ifeq ($(SANITIZE),1)
BUILD := build-san
SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
else
BUILD := build
SANFLAGS :=
endif

CC ?= cc
PKGS := zlib libzstd inih
CFLAGS_BASE := -std=c11 -O2 -g -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L $(SANFLAGS)
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS))
PKG_LIBS = $(shell pkg-config --libs $(PKGS))
CHECK_CFLAGS = $(shell pkg-config --cflags check)
CHECK_LIBS = $(shell pkg-config --libs check)
ALL_CFLAGS = $(CFLAGS_BASE) $(PKG_CFLAGS) $(CFLAGS)
LDLIBS_ALL = $(PKG_LIBS) -lm

BIN := $(BUILD)/bin
LIB_SRCS := $(wildcard common/*.c formats/*.c)
LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/obj/%.o)
LIB := $(BUILD)/libdsm.a

TOOLS := smait ciat cdat tdat
SMAIT_SRCS := $(wildcard smait/*.c)
CIAT_SRCS := $(wildcard ciat/*.c)
CDAT_SRCS := $(wildcard cdat/*.c)
TDAT_SRCS := $(wildcard tdat/*.c)
UNIT_SRCS := $(wildcard tests/unit/*.c)
# cdat's simulator pieces (everything but its main) are unit-tested too.
CDAT_LIB_SRCS := $(filter-out cdat/cdat.c,$(wildcard cdat/*.c))
# So are tdat's (record parsing, bins, statistics, SVG).
TDAT_LIB_SRCS := $(filter-out tdat/tdat.c,$(TDAT_SRCS))
# And ciat's (location map, reader sets, usage, statistics).
CIAT_LIB_SRCS := $(filter-out ciat/ciat.c,$(CIAT_SRCS))
BENCH_SRCS := $(wildcard bench/*.c)

.PHONY: all build check check-run demo demo-run bench bench-run fuzz fuzz-build fuzz-run install clean deps

all: deps
	@$(MAKE) --no-print-directory build

deps:
	@scripts/install-deps

build: $(TOOLS:%=$(BIN)/%) collector

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c $< -o $@

$(LIB): $(LIB_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@
	ar rcs $@ $^

$(BIN)/smait: $(SMAIT_SRCS:%.c=$(BUILD)/obj/%.o) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS_ALL)

$(BIN)/ciat: $(CIAT_SRCS:%.c=$(BUILD)/obj/%.o) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS_ALL)

$(BIN)/cdat: $(CDAT_SRCS:%.c=$(BUILD)/obj/%.o) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS_ALL)

$(BIN)/tdat: $(TDAT_SRCS:%.c=$(BUILD)/obj/%.o) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS_ALL)

# The trace collector: smait-cc, smait-instrument, the runtime library.
include collector/collector.mk

# ---- tests -------------------------------------------------------------------
$(BUILD)/obj/tests/unit/%.o: tests/unit/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(CHECK_CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/tests/unit_tests: $(UNIT_SRCS:%.c=$(BUILD)/obj/%.o) $(CDAT_LIB_SRCS:%.c=$(BUILD)/obj/%.o) \
		$(TDAT_LIB_SRCS:%.c=$(BUILD)/obj/%.o) $(CIAT_LIB_SRCS:%.c=$(BUILD)/obj/%.o) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(CHECK_LIBS) $(LDLIBS_ALL)

check: deps
	@$(MAKE) --no-print-directory check-run

# The protocol checker of the CLI tests (tests/tools/): not an installed tool.
$(BUILD)/tests/cdat_check: tests/tools/cdat_check.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS_ALL)

# The fault-injection test's input mutator (tests/tools/mutate.c).
$(BUILD)/tests/mutate: tests/tools/mutate.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $<

check-run: build $(BUILD)/tests/unit_tests $(BUILD)/tests/cdat_check $(BUILD)/tests/mutate
	$(BUILD)/tests/unit_tests
	BIN=$(abspath $(BIN)) CDAT_CHECK=$(abspath $(BUILD)/tests/cdat_check) MUTATE=$(abspath $(BUILD)/tests/mutate) \
		tests/run-cli-tests.sh

# ---- demo and benchmarks -----------------------------------------------------
demo: deps
	@$(MAKE) --no-print-directory demo-run

demo-run: build
	BIN=$(abspath $(BIN)) scripts/demo.sh

$(BUILD)/bench/%: bench/%.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS_ALL)

bench: deps
	@$(MAKE) --no-print-directory bench-run

bench-run: build $(BENCH_SRCS:bench/%.c=$(BUILD)/bench/%)
	BIN=$(abspath $(BIN)) BENCH=$(abspath $(BUILD)/bench) bench/run-bench.sh

# ---- fuzzing (fuzz/README.md) -----------------------------------------------
# libFuzzer harnesses, built with clang under ASan + UBSan (objects in
# build-fuzz/), each run FUZZ_SECONDS from seeds made from the test inputs.
FUZZ_SECONDS ?= 60
FUZZ_CC ?= clang
FZ := build-fuzz
FUZZERS := trace_reader smait_asm cdat_config memusage tdat ciat_sched
FZ_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FZ_CFLAGS = -std=c11 -O1 -g -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L $(FZ_FLAGS) $(PKG_CFLAGS)
FZ_LIB_OBJS := $(LIB_SRCS:%.c=$(FZ)/obj/%.o)

# Coverage-instrumented for libFuzzer; a tool's main() becomes <dir>_main
# (ciat/ciat.c: ciat_main) for its harness to call.
$(FZ)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FZ_CFLAGS) -fsanitize=fuzzer-no-link -Dmain=$(firstword $(subst /, ,$*))_main -MMD -MP -c $< -o $@

$(FZ)/libdsm.a: $(FZ_LIB_OBJS)
	rm -f $@
	ar rcs $@ $^

# What each harness links beside the library.
$(FZ)/fuzz_smait_asm: $(FZ)/obj/smait/asm.o
$(FZ)/fuzz_cdat_config: $(FZ)/obj/cdat/config.o $(FZ)/obj/cdat/cache.o
$(FZ)/fuzz_tdat: $(TDAT_SRCS:%.c=$(FZ)/obj/%.o)
$(FZ)/fuzz_ciat_sched: $(CIAT_SRCS:%.c=$(FZ)/obj/%.o)
# fuzz_support.c closes the streams a failed run left open; the ciat
# harness puts its checking hooks between ciat and the scheduler.
FZ_LDFLAGS := -Wl,--wrap=fopen,--wrap=fdopen,--wrap=tmpfile,--wrap=fclose
FZ_LDFLAGS_ciat_sched := -Wl,--wrap=sched_create

$(FZ)/fuzz_%: $(FZ)/obj/fuzz/fuzz_%.o $(FZ)/obj/fuzz/fuzz_support.o $(FZ)/libdsm.a
	$(FUZZ_CC) $(FZ_CFLAGS) -fsanitize=fuzzer -o $@ $(filter %.o,$^) $(FZ)/libdsm.a $(FZ_LDFLAGS) $(FZ_LDFLAGS_$*) $(LDLIBS_ALL)

.SECONDARY: $(FUZZERS:%=$(FZ)/obj/fuzz/fuzz_%.o) $(FZ)/obj/fuzz/fuzz_support.o

fuzz: deps
	@$(MAKE) --no-print-directory fuzz-run

fuzz-build: $(FUZZERS:%=$(FZ)/fuzz_%)

fuzz-run: build fuzz-build
	BIN=$(abspath $(BIN)) FZ=$(abspath $(FZ)) FUZZ_SECONDS=$(FUZZ_SECONDS) fuzz/run-fuzzers.sh $(FUZZERS)

# ---- install / clean ---------------------------------------------------------
install: all
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 755 $(TOOLS:%=$(BIN)/%) $(DESTDIR)$(PREFIX)/bin/
	install -m 755 $(BIN)/smait-cc $(BIN)/smait-instrument $(DESTDIR)$(PREFIX)/bin/
	ln -sf smait-cc $(DESTDIR)$(PREFIX)/bin/smait-c++
	ln -sf smait-cc $(DESTDIR)$(PREFIX)/bin/smait-cxx
	install -d $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include
	install -m 644 $(RT_LIB) $(RT_CXX_LIB) $(DESTDIR)$(PREFIX)/lib/
	install -m 644 collector/smait_marker.h $(DESTDIR)$(PREFIX)/include/

clean:
	rm -rf build build-san build-fuzz

-include $(shell find build build-san build-fuzz -name '*.d' 2>/dev/null)
