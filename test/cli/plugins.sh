# Listing plugins, the search path, and a plugin built outside the tree
# against the installed header (pkg-config) and loaded by path and by name.
. test/lib.sh

"$DLASIM" plugins --json > "$TMP/list.json" 2> "$TMP/err"
for name in ring ring_flow hd; do
	if grep -A3 "\"name\": \"$name\"" "$TMP/list.json" | grep -q "\"path\": \".*/coll-$name.so\"" &&
	   grep -B2 "\"name\": \"$name\"" "$TMP/list.json" | grep -q '"kind": "collective"'; then
		ok "plugins --json lists $name with kind and path"
	else
		not_ok "plugins --json lists $name with kind and path" "$(head -c 300 "$TMP/list.json")"
	fi
done
holds "every listed plugin has a description" \
	"$(grep -c '"description": "..*"' "$TMP/list.json") == $(grep -c '"name":' "$TMP/list.json")"
"$DLASIM" plugins > "$TMP/list.txt"
if grep -q "^collective  *ring_flow " "$TMP/list.txt"; then ok "plugins prints a table"; else not_ok "plugins prints a table" "$(head -5 "$TMP/list.txt")"; fi
# Every row's name and description start in the header's columns, whatever
# the length of its kind (persistence-logging is the longest).
bad=$(awk 'NR == 1 { n = index($0, "NAME"); d = index($0, "DESCRIPTION"); next }
	   NR % 2 == 0 && (substr($0, n - 1, 2) !~ /^ [^ ]$/ || substr($0, d - 1, 2) !~ /^ [^ ]$/) { print }' "$TMP/list.txt")
if [ -z "$bad" ] && grep -q "^persistence-logging " "$TMP/list.txt"; then ok "plugins: columns aligned for every kind"
else not_ok "plugins: columns aligned" "$(echo "$bad" | head -2)"; fi

# Install, build the example plugin against the installed tree, load it.
if ! make -s install-only PREFIX="$TMP/inst" BUILD="$BUILD" > "$TMP/install.log" 2>&1; then
	not_ok "make install" "$(tail -5 "$TMP/install.log")"
	exit 0
fi
ok "make install"
for f in bin/dlasim include/dlasim/plugin.h include/dlasim/coll.h lib/pkgconfig/dlasim.pc \
	 lib/dlasim/plugins/coll-ring.so share/dlasim/workloads/vgg-e.dnn share/dlasim/platforms/dc-8.xml \
	 share/dlasim/workloads/chakra/gpt2-medium.et share/man/man1/dlasim.1 share/doc/dlasim/README.md \
	 share/doc/dlasim/chakra.md share/doc/dlasim/img/trace-alexnet-mc-ring-8.png; do
	if [ -e "$TMP/inst/$f" ]; then ok "installed $f"; else not_ok "installed $f" "missing"; fi
done
cflags=$(PKG_CONFIG_PATH="$TMP/inst/lib/pkgconfig" pkg-config --cflags dlasim)
if cc -shared -fPIC $cflags -o "$TMP/one_ring.so" test/data/external_coll.c 2> "$TMP/cc.err"; then
	ok "an out-of-tree plugin builds with pkg-config --cflags dlasim"
else
	not_ok "an out-of-tree plugin builds with pkg-config --cflags dlasim" "$(head -c 300 "$TMP/cc.err")"
fi
# One ring with the whole buffer over a link of 3 lanes (75 GB/s):
#   2(N-1)/N * S / 75 GB/s + 2(N-1) * 1 us, N = 8.
want=$(awk 'BEGIN { printf "%.12g", 2*7/8*1e9/75e9 + 14e-6 }')
"$TMP/inst/bin/dlasim" coll --platform platforms/dc-8.xml --op allreduce --bytes 1GB \
	--coll "$TMP/one_ring.so" --json > "$TMP/r.json" 2> "$TMP/err"
close "the installed dlasim runs it by path" "$(json_num "$TMP/r.json" simulated_time_s)" "$want" 0.01
mkdir -p "$TMP/extra"
cp "$TMP/one_ring.so" "$TMP/extra/coll-one_ring.so"
DLASIM_PLUGIN_PATH="$TMP/extra" "$TMP/inst/bin/dlasim" coll --platform platforms/dc-8.xml \
	--op allreduce --bytes 1GB --coll one_ring --json > "$TMP/r.json" 2> "$TMP/err"
close "... and by name from DLASIM_PLUGIN_PATH" "$(json_num "$TMP/r.json" simulated_time_s)" "$want" 0.01
"$TMP/inst/bin/dlasim" plugins --json > "$TMP/inst.json"
if grep -q "\"path\": \"$TMP/inst/lib/dlasim/plugins/coll-ring.so\"" "$TMP/inst.json"; then
	ok "the installed dlasim finds its plugins in the install tree"
else
	not_ok "the installed dlasim finds its plugins in the install tree" "$(grep path "$TMP/inst.json" | head -3)"
fi
# The manual page renders, and the package's version is the program's.
if man -l "$TMP/inst/share/man/man1/dlasim.1" 2> /dev/null | grep -q "^NAME"; then ok "man dlasim renders"; else not_ok "man dlasim renders" "man -l failed"; fi
holds "pkg-config's version is dlasim --version's" "\"dlasim $(PKG_CONFIG_PATH="$TMP/inst/lib/pkgconfig" pkg-config --modversion dlasim)\" == \"$("$TMP/inst/bin/dlasim" --version | cut -d' ' -f1-2)\""
# Shipped platforms and workloads by bare name, from elsewhere, named in
# results by a path without "..".
(cd "$TMP" && "$TMP/inst/bin/dlasim" train --platform mc-ring-8 --workload alexnet --json > bare.json 2> bare.err)
holds "the installed dlasim finds --platform mc-ring-8 and --workload alexnet" \
	"$(grep -c "\"platform\": \"$(cd "$TMP" && pwd -P)/inst/share/dlasim/platforms/mc-ring-8.xml\"" "$TMP/bare.json") == 1"
(cd "$TMP" && "$TMP/inst/bin/dlasim" train --platform dc-8 --workload gpt2-medium --device-memory inf --json > bare.json 2> bare.err)
holds "... and a Chakra trace by name" "$(grep -c '"workload_format": "chakra"' "$TMP/bare.json") == 1"
(cd "$TMP" && "$TMP/inst/bin/dlasim" study mcdla --parallel data --csv > study.csv 2> study.err)
holds "the installed dlasim finds its workloads (study mcdla runs from elsewhere)" \
	"$(grep -c '^data,' "$TMP/study.csv") == 48"
# In the build tree too: a bare name is the shipped file's plain path.
"$DLASIM" coll --platform dc-8 --op allreduce --bytes 1MB --json > "$TMP/b.json" 2> /dev/null
holds "a bare platform name is shown as the file's path without '..'" \
	"$(grep -c "\"platform\": \"$(pwd -P)/platforms/dc-8.xml\"" "$TMP/b.json") == 1"
