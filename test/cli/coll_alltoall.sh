# All-to-all (plugin alltoall, docs/collectives.md) against its closed
# forms.  S is each rank's buffer, S/N for each rank.
#   pairwise on a switch (hop: up and down link, a = 2 us; a device sends
#   and receives at L x B = 150 GB/s):  (N-1) (a + S/(N B))
#   ring on R rings of B per hop (B_ring = R B):  (N-1) a + (N-1)/2 S/B_ring
. test/lib.sh

S=1e9
a2a() {	# FILE ALGO
	"$DLASIM" coll --platform "$1" --op alltoall --bytes 1GB --coll "alltoall:algo=$2" --json > "$TMP/r.json" 2> "$TMP/err" &&
		json_num "$TMP/r.json" simulated_time_s
}
for n in 8 16; do
	"$DLASIM" platform --topology switch --devices "$n" -o "$TMP/sw$n.xml"
	want=$(awk -v n=$n -v s=$S 'BEGIN { printf "%.12g", (n-1) * (2e-6 + s/n/150e9) }')
	close "pairwise N=$n on a switch = (N-1)(a + S/(N B))" "$(a2a "$TMP/sw$n.xml" pairwise)" "$want" 0.01
	want=$(awk -v n=$n -v s=$S 'BEGIN { printf "%.12g", (n-1) * 2e-6 + (n-1)/2 * s/150e9 }')
	close "ring N=$n on a switch = (N-1) a + (N-1)/2 S/B_ring" "$(a2a "$TMP/sw$n.xml" ring)" "$want" 0.01
done
# dc: three NVLink rings of 25 GB/s per hop, a = 1 us.
for n in 8 32; do
	"$DLASIM" platform --topology dc --devices "$n" -o "$TMP/dc$n.xml"
	want=$(awk -v n=$n -v s=$S 'BEGIN { printf "%.12g", (n-1) * 1e-6 + (n-1)/2 * s/75e9 }')
	close "ring N=$n on dc = (N-1) a + (N-1)/2 S/B_ring" "$(a2a "$TMP/dc$n.xml" ring)" "$want" 0.01
done
# mc-ring-8: hops through memory-nodes, a = 2 us.
want=$(awk -v s=$S 'BEGIN { printf "%.12g", 7 * 2e-6 + 3.5 * s/75e9 }')
close "auto on mc-ring-8 runs the ring" "$(a2a platforms/mc-ring-8.xml auto)" "$want" 0.01
want=$(awk -v s=$S 'BEGIN { printf "%.12g", 7 * (2e-6 + s/8/150e9) }')
close "auto on a switch runs pairwise" "$(a2a "$TMP/sw8.xml" auto)" "$want" 0.01
# NCCL-tests' bus bandwidth of all-to-all: S/t x (N-1)/N.
"$DLASIM" coll --platform "$TMP/sw8.xml" --op alltoall --bytes 1GB --json > "$TMP/r.json"
t=$(json_num "$TMP/r.json" simulated_time_s)
close "bus bandwidth = S/t x 7/8" "$(json_num "$TMP/r.json" bus_bandwidth_Bps)" \
	"$(awk -v t="$t" 'BEGIN { printf "%.12g", 1e9 / t * 7 / 8 }')" 0.001
if grep -q '"algorithm": "alltoall"' "$TMP/r.json"; then ok "alltoall is the default plugin of --op alltoall"
else not_ok "alltoall is the default plugin of --op alltoall" "$(cat "$TMP/r.json")"; fi

# Hierarchical on a scale-out platform: runs, and no faster than its
# bandwidth bound across nodes (each rank sends (K-1)/K S out of its node
# at the uplink's 150 GB/s).
"$DLASIM" platform --topology dc --nodes 4 -o "$TMP/dc4.xml"
t=$(a2a "$TMP/dc4.xml" hier)
holds "hier on 4 dc nodes runs (t = $t)" "\"$t\" != \"\" && $t >= 3/4 * 1e9 / 150e9"

expect_error "ring refuses alltoall by name" "--coll: collective plugin 'ring' .* does not run alltoall" \
	"$DLASIM" coll --platform platforms/dc-8.xml --op alltoall --bytes 1MB --coll ring
expect_error "pairwise without routes between all ranks" "algo=pairwise needs a route from every rank" \
	"$DLASIM" coll --platform platforms/mc-ring-8.xml --op alltoall --bytes 1MB --coll alltoall:algo=pairwise
expect_error "hier without system nodes" "algo=hier: the platform declares no system nodes" \
	"$DLASIM" coll --platform platforms/dc-8.xml --op alltoall --bytes 1MB --coll alltoall:algo=hier
expect_error "unknown algo" "algo='tree': auto, pairwise, ring or hier" \
	"$DLASIM" coll --platform platforms/dc-8.xml --op alltoall --bytes 1MB --coll alltoall:algo=tree
expect_error "alltoall plugin refuses all-reduce" "does not run allreduce" \
	"$DLASIM" coll --platform platforms/dc-8.xml --op allreduce --bytes 1MB --coll alltoall
