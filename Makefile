# dlasim: build, test, benchmark and install.
#
#   make              build/dlasim and one build/plugins/*.so per plugins/*.c
#   make test         unit, golden-output and command-line tests
#   make test-slurm   a sweep as a Slurm job array on a one-node cluster (root)
#   make check-layout the layers of core/README.md (also part of make test)
#   make sanitize     the test suite built with AddressSanitizer + UBSan
#   make bench        speed, memory and scale benchmarks (figures, not tests)
#   make validate     the full studies and validation runs (docs/validation.md)
#   make fuzz         libFuzzer targets (clang), FUZZ_SECONDS each (docs/fuzzing.md)
#   make install PREFIX=/usr/local
#   make deps         install missing Debian packages (deps.sh)

PREFIX  ?= /usr/local
BUILD   ?= build
CC      ?= cc
OPT     ?= -O2 -g
SAN     ?=

PKGS      := simgrid libxml-2.0 libprotobuf-c

# The one version string (core/lib/version.h): VERSION, plus the commit
# when built from this project's own git checkout (not from a tarball
# unpacked inside some other repository).
DLASIM_VERSION := $(shell v=$$(cat VERSION 2>/dev/null || echo 0); \
	if [ "$$(git rev-parse --show-toplevel 2>/dev/null)" = "$(CURDIR)" ]; then \
		h=$$(git rev-parse --short HEAD); git diff --quiet HEAD 2>/dev/null || h=$$h.dirty; \
		echo "$$v+g$$h"; else echo "$$v"; fi)
PLUGINDIR := $(PREFIX)/lib/dlasim/plugins

WARN     := -Wall -Wextra -Wno-unused-parameter -Wshadow -Wstrict-prototypes
CFLAGS   ?=
CPPFLAGS += -Icore -Icore/include -I$(BUILD)/gen
ALL_CFLAGS = -std=gnu11 $(OPT) $(SAN) $(WARN) $(CFLAGS)
CORE_CFLAGS = $(ALL_CFLAGS) $(shell pkg-config --cflags $(PKGS)) \
	      -DDLASIM_PLUGINDIR='"$(PLUGINDIR)"'
LDLIBS   := $(shell pkg-config --libs $(PKGS)) -lltdl -ldl -lm

# Chakra's execution-trace schema as dlasim reads it (docs/chakra.md),
# compiled by protoc-c into build/gen.
PROTO    := core/mcdla/chakra_et.proto
PB_C     := $(BUILD)/gen/chakra_et.pb-c.c
PB_H     := $(BUILD)/gen/chakra_et.pb-c.h
PB_OBJ   := $(BUILD)/obj/gen/chakra_et.pb-c.o

CORE_SRC := $(wildcard core/*/*.c)
CORE_OBJ := $(CORE_SRC:%.c=$(BUILD)/obj/%.o) $(PB_OBJ)
# Everything but the command line: what unit tests link against.
LIB_OBJ  := $(filter-out $(BUILD)/obj/core/cli/%,$(CORE_OBJ))

# plugins/KIND/NAME.c -> build/plugins/KIND-NAME.so (the name the loader looks for)
PLUGIN_SRC := $(wildcard plugins/*/*.c)
plugin_so = $(BUILD)/plugins/$(subst /,-,$(1)).so
PLUGINS  := $(foreach s,$(PLUGIN_SRC:plugins/%.c=%),$(call plugin_so,$(s)))

HEADERS  := $(wildcard core/include/dlasim/*.h)

# Tests: test/unit/NAME.c -> build/test/unit_NAME; test/plugins/NAME.c ->
# build/test-plugins/NAME.so (plugins that are broken on purpose).
UNIT_SRC  := $(wildcard test/unit/*.c)
UNIT_BINS := $(UNIT_SRC:test/unit/%.c=$(BUILD)/test/unit_%)
TPLUG_SRC := $(wildcard test/plugins/*.c)
TPLUGS    := $(TPLUG_SRC:test/plugins/%.c=$(BUILD)/test-plugins/%.so)
# The generator of the Chakra traces in workloads/chakra and the tests.
CHAKRA_GEN := $(BUILD)/test/chakra_gen $(BUILD)/test/chakra_sum

# Fuzzing: test/fuzz/NAME.c -> build-fuzz/fuzz/NAME, a libFuzzer target
# built with clang, ASan and UBSan over build-fuzz/libdlasim.a (the core
# built the same way, with coverage); corpora in build-fuzz/corpus/NAME,
# never committed, seeded from the shipped files.
FUZZ_CC      ?= clang-14
FUZZ_DIR     := build-fuzz
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
FUZZ_SRC     := $(wildcard test/fuzz/*.c)
FUZZ_SECONDS ?= 60

.PHONY: FORCE test-slurm all test sanitize bench validate install install-only uninstall clean deps run check-layout \
	fuzz fuzz-build fuzz-targets
all: $(BUILD)/dlasim $(PLUGINS) $(BUILD)/dlasim.1

$(BUILD)/obj/%.o: %.c | $(PB_H)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CORE_CFLAGS) -MMD -MP -c $< -o $@

$(PB_H): $(PB_C)
$(PB_C): $(PROTO)
	@mkdir -p $(dir $@)
	protoc-c --c_out=$(dir $@) --proto_path=$(dir $(PROTO)) $(PROTO)

# Generated code: built without dlasim's warnings.
$(PB_OBJ): $(PB_C)
	@mkdir -p $(dir $@)
	$(CC) -I$(BUILD)/gen -std=gnu11 $(OPT) $(SAN) $(CFLAGS) -c $< -o $@

# Rebuild version.o only when the version string changes.
$(BUILD)/version.stamp: FORCE
	@mkdir -p $(dir $@)
	@echo '$(DLASIM_VERSION)' > $@.new; cmp -s $@.new $@ && rm -f $@.new || mv $@.new $@
$(BUILD)/obj/core/lib/version.o: $(BUILD)/version.stamp
$(BUILD)/obj/core/lib/version.o: CPPFLAGS += -DDLASIM_VERSION='"$(DLASIM_VERSION)"'
FORCE:

$(BUILD)/libdlasim.a: $(LIB_OBJ)
	$(AR) rcs $@ $^

# The simulator's allocator is jemalloc (docs/dependencies.md): SimGrid's
# many short-lived objects fragment glibc's heap and a large run spends a
# third of its time in it.  `make MALLOC=` builds with glibc's; a sanitizer
# build brings its own.
MALLOC ?= $(if $(SAN),,-ljemalloc)

$(BUILD)/dlasim: $(CORE_OBJ)
	$(CC) $(OPT) $(SAN) $^ -o $@ $(MALLOC) $(LDLIBS)

# Plugins see only the public headers and link against nothing of dlasim.
define plugin_rule
$(call plugin_so,$(1)): plugins/$(1).c $(HEADERS)
	@mkdir -p $$(dir $$@)
	$$(CC) -Icore/include $$(ALL_CFLAGS) -fPIC -fvisibility=hidden -shared \
		-Wl,-z,defs $$< -o $$@
endef
$(foreach s,$(PLUGIN_SRC:plugins/%.c=%),$(eval $(call plugin_rule,$(s))))

$(BUILD)/test/unit_%: test/unit/%.c $(BUILD)/libdlasim.a test/unit/check.h
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CORE_CFLAGS) $< $(BUILD)/libdlasim.a -o $@ $(LDLIBS)

$(BUILD)/test/chakra_%: test/chakra_%.c $(PB_OBJ)
	@mkdir -p $(dir $@)
	$(CC) -I$(BUILD)/gen $(ALL_CFLAGS) $< $(PB_OBJ) -o $@ -lprotobuf-c

# Broken plugins for the loader's tests are built without -z defs on
# purpose where they must fail to load.
$(BUILD)/test-plugins/%.so: test/plugins/%.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) -Icore/include $(ALL_CFLAGS) -fPIC -shared $< -o $@

# The manual page, written in scdoc (docs/man/dlasim.1.scd).
$(BUILD)/dlasim.1: docs/man/dlasim.1.scd
	@mkdir -p $(dir $@)
	scdoc < $< > $@.tmp && mv $@.tmp $@

deps:
	sh ./deps.sh

# The README's main job; its table is kept in results/ too.
run: all
	@mkdir -p results
	$(BUILD)/dlasim study mcdla > results/mcdla.txt && cat results/mcdla.txt

check-layout: all
	sh test/check_layout.sh . $(BUILD)/obj

# docs/platforms.md's drawings of the fabrics of today, from the generator.
.PHONY: fabric-figures
fabric-figures: all
	for t in nvswitch nvl72 gh200 cxl mc-nvswitch; do \
		$(BUILD)/dlasim platform --topology $$t --devices 16 --node-devices 4 --switch-radix 4 \
			-o $(BUILD)/fabric-$$t.xml && \
		sh scripts/fabric-figure.sh $(BUILD)/fabric-$$t.xml docs/img/fabric-$$t.png $$t || exit 1; \
	done

test: all $(UNIT_BINS) $(TPLUGS) $(CHAKRA_GEN) fuzz-build
	BUILD=$(BUILD) sh test/run.sh

# Sanitizers need SimGrid's thread contexts (raw context switches confuse
# AddressSanitizer); leaks inside libsimgrid's own start-up are not ours.
sanitize:
	$(MAKE) BUILD=build-san OPT="-O1 -g" \
		SAN="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" \
		all $(UNIT_BINS:$(BUILD)/%=build-san/%) $(TPLUGS:$(BUILD)/%=build-san/%) \
		build-san/test/chakra_gen build-san/test/chakra_sum
	$(MAKE) fuzz-build
	BUILD=build-san DLASIM_CONTEXTS=thread DLASIM_SANITIZE=1 \
		ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
		LSAN_OPTIONS=suppressions=$(CURDIR)/test/lsan.supp:print_suppressions=0 \
		UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 sh test/run.sh

# The Slurm path of `dlasim sweep` on a one-node cluster started for the
# test (root; munge and slurm-wlm): docs/sweeps.md.
test-slurm: all
	sh ./deps.sh slurm
	BUILD=$(BUILD) sh test/slurm.sh

bench: all
	BUILD=$(BUILD) sh bench/run.sh

validate: all
	BUILD=$(BUILD) sh bench/validate.sh

# The fuzz targets load the plain build's plugins (build/plugins): plugins
# instrumented by another compiler's sanitizer cannot share the process.
fuzz-build:
	$(MAKE) BUILD=build $(PLUGINS:$(BUILD)/%=build/%)
	$(MAKE) BUILD=$(FUZZ_DIR) CC=$(FUZZ_CC) OPT="-O1 -g" \
		SAN="-fsanitize=fuzzer-no-link $(FUZZ_SAN)" fuzz-targets

fuzz-targets: $(FUZZ_SRC:test/fuzz/%.c=$(BUILD)/fuzz/%)

$(BUILD)/fuzz/%: test/fuzz/%.c test/fuzz/fuzz.h $(BUILD)/libdlasim.a
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(subst fuzzer-no-link,fuzzer,$(CORE_CFLAGS)) $< \
		$(BUILD)/libdlasim.a -o $@ $(LDLIBS)

fuzz: fuzz-build
	FUZZ_SECONDS=$(FUZZ_SECONDS) sh test/fuzz/run.sh

install: all
	$(MAKE) install-only

# Copies what is built, without building (the test suite installs the tree
# it tests, whatever flags built it).
install-only:
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PLUGINDIR) \
		$(DESTDIR)$(PREFIX)/include/dlasim $(DESTDIR)$(PREFIX)/lib/pkgconfig
	install -m 755 $(BUILD)/dlasim $(DESTDIR)$(PREFIX)/bin/dlasim
	install -m 644 $(PLUGINS) $(DESTDIR)$(PLUGINDIR)
	install -m 644 $(HEADERS) $(DESTDIR)$(PREFIX)/include/dlasim
	install -d $(DESTDIR)$(PREFIX)/share/dlasim $(DESTDIR)$(PREFIX)/share/man/man1 \
		$(DESTDIR)$(PREFIX)/share/doc/dlasim
	cp -R workloads platforms $(DESTDIR)$(PREFIX)/share/dlasim/
	install -m 644 $(BUILD)/dlasim.1 $(DESTDIR)$(PREFIX)/share/man/man1/dlasim.1
	cp -R README.md docs/. $(DESTDIR)$(PREFIX)/share/doc/dlasim/
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@PLUGINDIR@|$(PLUGINDIR)|g' \
		-e "s|@VERSION@|$$(cat $(BUILD)/version.stamp)|g" core/include/dlasim.pc.in \
		> $(DESTDIR)$(PREFIX)/lib/pkgconfig/dlasim.pc

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/dlasim $(DESTDIR)$(PREFIX)/lib/pkgconfig/dlasim.pc \
		$(DESTDIR)$(PREFIX)/share/man/man1/dlasim.1
	rm -rf $(DESTDIR)$(PLUGINDIR) $(DESTDIR)$(PREFIX)/include/dlasim $(DESTDIR)$(PREFIX)/share/dlasim \
		$(DESTDIR)$(PREFIX)/share/doc/dlasim

clean:
	rm -rf build build-san $(FUZZ_DIR)

-include $(CORE_OBJ:.o=.d)
