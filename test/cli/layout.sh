#!/bin/sh
# make check-layout: the source tree keeps the layers of core/README.md,
# and the check catches each kind of violation in a copy of the tree.
. test/lib.sh

expect_ok "the tree keeps its layers" sh test/check_layout.sh . "$BUILD/obj"

# violation NAME PATTERN: in a fresh copy, after the edit given on stdin
# (a shell snippet run in the copy), the check fails naming the problem.
violation() {
	name=$1; pattern=$2
	rm -rf "$TMP/tree"; mkdir -p "$TMP/tree"
	cp -R core plugins "$TMP/tree/"
	(cd "$TMP/tree" && sh)
	if sh test/check_layout.sh "$TMP/tree" ${OBJ:-} > "$TMP/layout.out" 2>&1; then
		not_ok "$name" "check passed"
	elif ! grep -Eq -- "$pattern" "$TMP/layout.out"; then
		not_ok "$name" "output '$(head -c 300 "$TMP/layout.out")' does not match '$pattern'"
	else
		ok "$name"
	fi
}

violation "kernel includes a study" 'core/machine/engine.c:[0-9]+: the kernel includes core/mcdla' <<'X'
sed -i 's|#include "engine.h"|#include "engine.h"\n#include "mcdla/train.h"|' core/machine/engine.c
sed -i 's/^Uses: .*/&, mcdla/' core/machine/README.md
X
violation "a helper includes the machine" 'core/lib/units.c:[0-9]+: helper lib includes core/machine' <<'X'
sed -i 's|#include "units.h"|#include "units.h"\n#include "machine/platform.h"|' core/lib/units.c
sed -i 's/^Uses: none/Uses: machine/' core/lib/README.md
X
violation "the plugin host includes a collective's header" 'core/plugin/plugin.c:[0-9]+: the kernel includes core/coll' <<'X'
sed -i 's|#include "plugin.h"|#include "plugin.h"\n#include "coll/coll.h"|' core/plugin/plugin.c
sed -i 's/^Uses: .*/&, coll/' core/plugin/README.md
X
violation "study includes another study" 'core/tier/run.c:[0-9]+: study tier includes study mcdla' <<'X'
sed -i 's|#include "state.h"|#include "state.h"\n#include "mcdla/plan.h"|' core/tier/run.c
sed -i 's/^Uses: .*/&, mcdla/' core/tier/README.md
X
violation "include not in the README" 'core/tier/run.c:[0-9]+: includes core/coll, which core/tier/README.md does not list' <<'X'
sed -i 's|#include "state.h"|#include "state.h"\n#include "coll/coll.h"|' core/tier/run.c
X
violation "service includes a study" 'service coll includes core/mcdla' <<'X'
sed -i 's|#include "coll.h"|#include "coll.h"\n#include "mcdla/train.h"|' core/coll/coll.c
sed -i 's/^Uses: .*/&, mcdla/' core/coll/README.md
X
violation "circle inside a folder" 'core/tier: files include each other in a circle: .*chip.*mem|core/tier: files include each other in a circle: .*mem.*chip' <<'X'
sed -i 's|#include "state.h"|#include "state.h"\n#include "chip.h"|' core/tier/mem.h
X
violation "plugin includes the core" 'plugins/coll/ring.c:[0-9]+: #include "machine/engine.h"' <<'X'
sed -i 's|#include <dlasim/coll.h>|#include <dlasim/coll.h>\n#include "machine/engine.h"|' plugins/coll/ring.c
X
violation "folder without a layer" 'core/newlayer/README.md: no .Layer:. line' <<'X'
mkdir core/newlayer && echo '# newlayer' > core/newlayer/README.md
X

# Files that call each other through a header they all share: the
# includes show no circle, the objects do.
mkdir -p "$TMP/obj/core/demo"
printf 'void b(void);\nvoid a(void) { b(); }\n' > "$TMP/a.c"
printf 'void a(void);\nvoid b(void) { a(); }\nvoid c(void) { b(); }\n' > "$TMP/b.c"
cc -c "$TMP/a.c" -o "$TMP/obj/core/demo/a.o" && cc -c "$TMP/b.c" -o "$TMP/obj/core/demo/b.o"
OBJ="$TMP/obj" violation "files calling each other" 'core/demo: files call each other in a circle: (a b|b a) *$' <<'X'
mkdir core/demo && printf 'Layer: study\nUses: lib\n' > core/demo/README.md
X
