# Figure 9's shape: the ring-based MC-DLA (16 nodes in each ring, memory-
# nodes forwarding) against DC-DLA (8 nodes).  From the closed forms with
# the generated links (a = 1 us per link, B = 25 GB/s per ring):
#   large messages (256 MB) are bandwidth-bound and MC-DLA adds only
#   2(N-1) extra link latencies: MC/DC <= 1.01;
#   small messages (4 KB) are latency-bound and MC-DLA pays two links per
#   hop: MC/DC = 1.9 to 2.0, asserted in [1.8, 2.05].
. test/lib.sh

"$DLASIM" platform --topology dc --devices 8 -o "$TMP/dc.xml"
"$DLASIM" platform --topology mc-ring --devices 8 -o "$TMP/mc.xml"
t() {	# PLATFORM OP BYTES
	"$DLASIM" coll --platform "$1" --op "$2" --bytes "$3" --json > "$TMP/r.json" && json_num "$TMP/r.json" simulated_time_s
}
for op in allreduce allgather broadcast; do
	big=$(awk -v m="$(t "$TMP/mc.xml" $op 256MB)" -v d="$(t "$TMP/dc.xml" $op 256MB)" 'BEGIN { print m / d }')
	small=$(awk -v m="$(t "$TMP/mc.xml" $op 4KB)" -v d="$(t "$TMP/dc.xml" $op 4KB)" 'BEGIN { print m / d }')
	holds "$op 256MB: MC-DLA within 1% of DC-DLA (ratio $big)" "$big >= 1 && $big <= 1.01"
	holds "$op 4KB: MC-DLA 1.8-2.05x slower than DC-DLA (ratio $small)" "$small >= 1.8 && $small <= 2.05"
done
