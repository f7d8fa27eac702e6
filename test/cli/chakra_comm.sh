# Communication in Chakra traces as ASTRA-sim runs it (docs/chakra.md):
# sends that do not wait for their receives, all-to-all, barriers and
# process groups, against closed forms and dlasim's own collectives.
. test/lib.sh
G=$BUILD/test/chakra_gen
E=$TMP/et
mkdir -p $E
P=platforms
S=1e9
train_time() {	# PLATFORM WORKLOAD
	"$DLASIM" train --platform "$1" --workload "$2" --json > "$TMP/r.json" 2> "$TMP/err" &&
		json_num "$TMP/r.json" iteration_time_s
}
coll_time() {	# PLATFORM OP [PLUGIN]
	"$DLASIM" coll --platform "$1" --op "$2" --bytes 1GB ${3:+--coll "$3"} --json > "$TMP/c.json" &&
		json_num "$TMP/c.json" simulated_time_s
}

# A ring all-reduce written as sends and receives, each receive waiting
# on the rank's own send of the step (ASTRA-sim's custom collective): it
# deadlocked while a send waited for its receive.  Each step is one hop of
# S/N over the route to the next rank; on mc-ring-8 that route is a
# 3-lane hop of 75 GB/s, the three rings' bandwidth, on a switch the
# device's 150 GB/s, so it takes the built-in ring's time.
$G ring $E/ring 8 $S
for p in $P/mc-ring-8.xml $P/switch-8.xml; do
	t=$(train_time $p $E/ring) || not_ok "ring of sends on $p" "$(cat $TMP/err)"
	close "ring all-reduce of sends on $(basename $p) within 5% of the built-in ring" "$t" "$(coll_time $p allreduce ring)" 0.05
done
# The same by hand on mc-ring-8: 14 steps of 2 us + (S/8)/75 GB/s.
close "ring of sends on mc-ring-8 = 14 (a + S/(8 B))" "$(train_time $P/mc-ring-8.xml $E/ring)" \
	"$(awk -v s=$S 'BEGIN { printf "%.12g", 14 * (2e-6 + s/8/75e9) }')" 0.01

# All-to-all (ALL_TO_ALL): the alltoall plugin's ring on mc-ring-8,
# (N-1) a + (N-1)/2 S/B_ring, pairwise on a switch, (N-1)(a + S/(N B)).
$G alltoall $E/a2a.et $S
close "ALL_TO_ALL on mc-ring-8 = 7 a + 3.5 S/75 GB/s" "$(train_time $P/mc-ring-8.xml $E/a2a.et)" \
	"$(awk -v s=$S 'BEGIN { printf "%.12g", 7 * 2e-6 + 3.5 * s/75e9 }')" 0.01
close "ALL_TO_ALL on switch-8 = 7 (a + S/8/150 GB/s)" "$(train_time $P/switch-8.xml $E/a2a.et)" \
	"$(awk -v s=$S 'BEGIN { printf "%.12g", 7 * (2e-6 + s/8/150e9) }')" 0.01
close "ALL_TO_ALL takes what dlasim coll --op alltoall takes" "$(train_time $P/switch-8.xml $E/a2a.et)" \
	"$(coll_time $P/switch-8.xml alltoall)" 0.001
expect_error "--coll ring: all-to-all refused by name" "does not run alltoall" \
	"$DLASIM" coll --platform $P/dc-8.xml --op alltoall --bytes 1MB --coll ring

# Process groups (process_group:init as the PyTorch converter writes it):
# the even and the odd ranks each all-reduce S among 4 on switch-8 (route
# 2 us, 150 GB/s, disjoint devices), then run an all-to-all among 4
# (pairwise: 3 steps of S/4), then a barrier of all 8 (an all-reduce of
# no bytes: 14 hops of 2 us):
# 2 (3/4) S/150 GB/s + 6 x 2 us + 3 (2 us + S/4/150 GB/s) + 14 x 2 us.
$G groups $E/groups $S
close "groups: all-reduce and all-to-all of 4 ranks per group, then a barrier" "$(train_time $P/switch-8.xml $E/groups)" \
	"$(awk -v s=$S 'BEGIN { printf "%.12g", 2 * 3/4 * s/150e9 + 6 * 2e-6 + 3 * (2e-6 + s/4/150e9) + 14 * 2e-6 }')" 0.01
