# Block zones route exactly like one flat zone (docs/platforms.md, "Zone
# layout"), and routes that do not exist are refused, never simulated or
# handed to SimGrid (which aborts, crashes or drops the missing legs).
. test/lib.sh

gen() {	# TOPOLOGY N BLOCK FILE
	"$DLASIM" platform --topology "$1" --devices "$2" --block "$3" -o "$4"
}
# reverse FILE OUT: every ring declared in the opposite direction.
reverse() {
	awk '/<prop id="dlasim.ring\./ {
		match($0, /value="[^"]*"/)
		n = split(substr($0, RSTART + 7, RLENGTH - 8), m, " ")
		r = m[n]; for (i = n - 1; i >= 1; i--) r = r " " m[i]
		$0 = substr($0, 1, RSTART + 6) r substr($0, RSTART + RLENGTH - 1)
	} { print }' "$1" > "$2"
}
sim() {	# FILE ALGO OP: simulated time, or the error line
	"$DLASIM" coll --platform "$1" --op "$3" --bytes 1GB --coll "$2" --json 2>&1 |
		sed -n 's/.*"simulated_time_s": \([0-9.e+-]*\).*/\1/p; /^dlasim:/p'
}
# same NAME FLAT BLOCKS ALGO OP: identical results (the same number, or
# the same refusal up to the file name).
same() {
	a=$(sim "$2" "$4" "$5" | sed "s|$2|FILE|")
	b=$(sim "$3" "$4" "$5" | sed "s|$3|FILE|")
	if [ -n "$a" ] && [ "$a" = "$b" ]; then ok "$1"
	else not_ok "$1" "flat: '$a', blocks: '$b'"; fi
}

# Every ring in both directions, step by step and as flows, and hd, on
# sizes from just above one block (65: three blocks) to four blocks; the
# blocks are small for hc so that more zone boundaries are crossed.
for spec in "dc 65 64" "dc 128 64" "dc 256 64" "hc 96 32" "mc-ring 130 64" "dc-gen4 200 64"; do
	set -- $spec
	gen "$1" "$2" 0 "$TMP/flat.xml"
	gen "$1" "$2" "$3" "$TMP/blocks.xml"
	reverse "$TMP/flat.xml" "$TMP/flat-r.xml"
	reverse "$TMP/blocks.xml" "$TMP/blocks-r.xml"
	same "$1-$2: ring_flow all-reduce, blocks = flat" "$TMP/flat.xml" "$TMP/blocks.xml" ring_flow allreduce
	same "$1-$2: counter-rotating ring_flow all-reduce, blocks = flat" "$TMP/flat-r.xml" "$TMP/blocks-r.xml" ring_flow allreduce
	same "$1-$2: counter-rotating broadcast, blocks = flat" "$TMP/flat-r.xml" "$TMP/blocks-r.xml" ring_flow broadcast
	same "$1-$2: hd is refused alike (no route between non-neighbours)" "$TMP/flat.xml" "$TMP/blocks.xml" hd allreduce
	if [ "$2" -le 128 ]; then
		same "$1-$2: step-by-step ring, blocks = flat" "$TMP/flat.xml" "$TMP/blocks.xml" ring allgather
		same "$1-$2: counter-rotating step-by-step ring, blocks = flat" "$TMP/flat-r.xml" "$TMP/blocks-r.xml" ring allgather
	fi
done
gen dc 65 64 "$TMP/p.xml"
holds "65 devices make three blocks (a ring never crosses between the same two twice)" \
	"$(grep -c '<zone id="block' "$TMP/p.xml") == 3"

# The counter-rotating ring pays the same as the forward one: the reverse
# routes take the DOWN halves of the same links, never the UP halves the
# other direction uses (1 GB all-reduce, 3 rings of 25 GB/s, 1 us hops:
# 2 (N-1)/N S / 75 GB/s + 2 (N-1) us).
gen dc 128 64 "$TMP/b.xml"
reverse "$TMP/b.xml" "$TMP/br.xml"
want=$(awk 'BEGIN { printf "%.12g", 2*127/128*1e9/75e9 + 2*127*1e-6 }')
close "dc-128 in blocks: counter-rotating ring_flow matches the closed form" "$(sim "$TMP/br.xml" ring_flow allreduce)" "$want" 1e-6

# A ring over a path that is not there (d0 -> d64 needs d0 -> ... -> d63,
# which no single route of the platform is) is refused on both layouts.
interleave() {	# FILE OUT: ring 0 = d0 d64 d1 d65 ...
	awk '/<prop id="dlasim.ring\.0"/ {
		r = ""; for (i = 0; i < 64; i++) r = r (i ? " " : "") "d" i " d" (i + 64)
		sub(/value="[^"]*"/, "value=\"" r "\"")
	} { print }' "$1" > "$2"
}
gen dc 128 0 "$TMP/f.xml"
interleave "$TMP/f.xml" "$TMP/fi.xml"
interleave "$TMP/b.xml" "$TMP/bi.xml"
for f in fi bi; do
	expect_error "ring over a non-existent path is refused ($f)" \
		"$f.xml: ring 0 goes from 'd0' to 'd64' but the platform has no route between them" \
		"$DLASIM" coll --platform "$TMP/$f.xml" --op allreduce --bytes 1GB --coll ring_flow
done

# Platforms SimGrid would crash or abort on.
expect_error "Full zone without routes" "full-zone-no-routes.xml: ring 0 goes from 'd0' to 'd1' but the platform has no route" \
	"$DLASIM" coll --platform test/data/bad/full-zone-no-routes.xml --op allreduce --bytes 1MB
expect_error "ring across zones that are not neighbours" "ring-across-far-zones.xml: ring 0 goes from 'd0' to 'd2' but the platform has no route" \
	"$DLASIM" coll --platform test/data/bad/ring-across-far-zones.xml --op allreduce --bytes 1MB
expect_error "ring over a missing leg inside a zone" "ring-missing-leg.xml: ring 0 goes from 'd0' to 'd3' but the platform has no route" \
	"$DLASIM" coll --platform test/data/bad/ring-missing-leg.xml --op allreduce --bytes 1MB
for t in dc hc mc-ring; do
	gen $t 256 64 "$TMP/p.xml"
	expect_error "hd on $t-256 (blocks): one line, no SimGrid abort" \
		"'hd' .* sends to rank [0-9]+, but platform .* has no route from 'd[0-9]+' to 'd[0-9]+'" \
		"$DLASIM" coll --platform "$TMP/p.xml" --op allreduce --bytes 1MB --coll hd
done
