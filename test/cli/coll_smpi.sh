#!/bin/sh
# The ring collectives against SimGrid's SMPI: test/smpi_ring.c, the same
# schedule as an MPI program, run by smpirun on the same platform with the
# network model dlasim configures (CM02 without TCP corrections, SMPI's
# bandwidth and latency factors 1).  ring and ring_flow, one way and both
# ways (bidir=1), must give SMPI's time: on dc-8 (equal hops) and on flat
# rings over scale-out platforms, whose hops between system nodes differ
# from those inside (1 or 2 us at 25 GB/s per ring, 4 us at 50 GB/s).
. test/lib.sh

smpi_ring_build || exit 0
smpi() {	# PLATFORM N BIDIR PHASES: the last rank's time for 1 GB on 3 rings
	smpi_ring_time "$1" 3 1e9 "$3" "$4" $(i=0; while [ $i -lt "$2" ]; do echo "d$i"; i=$((i + 1)); done)
}
coll() {	# PLATFORM OP ALGO
	"$DLASIM" coll --platform "$1" --op "$2" --bytes 1GB --coll "$3" --json > "$TMP/c.json" &&
		json_num "$TMP/c.json" simulated_time_s
}

"$DLASIM" platform --topology dc --devices 8 -o "$TMP/dc8.xml"
"$DLASIM" platform --topology mc-ring --nodes 4 -o "$TMP/mc32.xml"
"$DLASIM" platform --topology dc --nodes 4 -o "$TMP/dc32.xml"
for case in "dc8 8" "mc32 32" "dc32 32"; do
	set -- $case
	for bidir in 0 1; do
		for op in allreduce allgather; do
			phases=1; [ $op = allreduce ] && phases=2
			want=$(smpi "$TMP/$1.xml" "$2" $bidir $phases)
			holds "SMPI ran $1 bidir=$bidir $op" "\"$want\" != \"\" && \"$want\" != \"0\""
			for algo in ring ring_flow; do
				close "$algo:bidir=$bidir $op on $1 = SMPI's" "$(coll "$TMP/$1.xml" $op $algo:bidir=$bidir)" "$want" 1e-3
			done
		done
	done
done
