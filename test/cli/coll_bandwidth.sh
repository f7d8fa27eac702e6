# Bandwidth is neither lost nor invented where rings share links or pass
# through memory-nodes.  All-reduce of S = 1 GB; closed form
#   2(N-1)/N * S/B_ring + 2(N-1) * a
# where B_ring is what the wires can really carry (not the sum over the
# declared rings) and a the per-hop latency.
. test/lib.sh

allreduce() {	# PLATFORM ALGO -> simulated seconds
	"$DLASIM" coll --platform "$1" --op allreduce --bytes 1GB --coll "$2" --json > "$TMP/r.json" 2> "$TMP/err" &&
		json_num "$TMP/r.json" simulated_time_s
}
form() {	# N B_RING A
	awk -v n="$1" -v b="$2" -v a="$3" 'BEGIN { printf "%.12g", 2*(n-1)/n*1e9/b + 2*(n-1)*a }'
}

for algo in ring ring_flow; do
	# Two rings declared over the same single links: one ring's bandwidth.
	close "$algo: two rings on the same links carry one ring's bandwidth" \
		"$(allreduce test/data/ring4-shared.xml $algo)" "$(form 4 25e9 1e-6)" 0.01
	grep -v '<prop id="dlasim.ring.1"' test/data/ring4-shared.xml > "$TMP/one-ring.xml"
	close "$algo: ... exactly as much as the single ring" \
		"$(allreduce test/data/ring4-shared.xml $algo)" "$(allreduce "$TMP/one-ring.xml" $algo)" 0.001
	# Rings in opposite directions use both directions of each link.
	close "$algo: counter-rotating rings add up (B_ring = 2 B)" \
		"$(allreduce test/data/ring4-both-ways.xml $algo)" "$(form 4 50e9 1e-6)" 0.01
	# Same order, separate wires reached through port hosts: they add up.
	close "$algo: rings on separate wires via ports add up (B_ring = 2 B)" \
		"$(allreduce test/data/ring4-ports.xml $algo)" "$(form 4 50e9 1e-6)" 0.01
done

# MC-DLA ring: every device hop passes through a memory-node (two links in
# series), three rings over links of three lanes: full bandwidth, double
# latency.
"$DLASIM" platform --topology mc-ring --devices 8 -o "$TMP/mc.xml"
for algo in ring ring_flow; do
	close "$algo: mc-ring keeps B_ring = 3 B through memory-nodes, a = 2 links" \
		"$(allreduce "$TMP/mc.xml" $algo)" "$(form 8 75e9 2e-6)" 0.01
done

# MC-DLA(S): rings of 1, 1.5 and 3 links per device hop on separate wires;
# each carries S/3 at B, the longest (3 us per hop) finishes last.
"$DLASIM" platform --topology mc-star --devices 8 -o "$TMP/star.xml"
want=$(awk 'BEGIN { c = 1e9/3/8; printf "%.12g", 14 * (3e-6 + c/25e9) }')
for algo in ring ring_flow; do
	close "$algo: mc-star rings add up, the 3-hop ring sets the time" \
		"$(allreduce "$TMP/star.xml" $algo)" "$want" 0.01
done
