# All-to-all: dlasim's alltoall plugin (algo=pairwise: in step k rank r
# sends S/N to r+k and receives from r-k) against SimGrid's SMPI running
# MPI_Alltoall with its "ring" algorithm, the same schedule (SMPI's "pair"
# pairs r with r XOR k instead), on the same platform file and the same
# network model: CM02 without TCP corrections, SMPI's bandwidth and
# latency factors 1, no simulated computation.  S = 64 MiB per rank.
# Prints both times and their difference (docs/collectives.md,
# *All-to-all*); not a test.
: "${BUILD:=build}"
DLASIM=$BUILD/dlasim
OUT=$BUILD/bench/smpi
mkdir -p "$OUT"
if ! command -v smpicc > /dev/null || ! command -v smpirun > /dev/null; then
	echo "smpi_alltoall: smpicc/smpirun not found (Debian's libsimgrid-dev has them); skipped"
	exit 0
fi
smpicc -O2 bench/smpi_alltoall.c -o "$OUT/a2a" 2> "$OUT/cc.log" || { cat "$OUT/cc.log"; exit 1; }
S=67108864
printf '%-22s %8s %14s %14s %8s\n' platform devices dlasim_s smpi_s diff
row() {	# NAME GENERATOR-ARGS...
	name=$1; shift
	"$DLASIM" platform "$@" -o "$OUT/$name.xml" || return
	grep -o '<host id="d[0-9]*"' "$OUT/$name.xml" | sed 's/<host id="\(.*\)"/\1/' > "$OUT/$name.hosts"
	n=$(wc -l < "$OUT/$name.hosts")
	d=$("$DLASIM" coll --platform "$OUT/$name.xml" --op alltoall --bytes $S --coll alltoall:algo=pairwise --json |
		sed -n 's/.*"simulated_time_s": *\([-0-9.eE+]*\).*/\1/p')
	m=$(smpirun -np "$n" -platform "$OUT/$name.xml" -hostfile "$OUT/$name.hosts" \
		--cfg=smpi/alltoall:ring --cfg=network/model:CM02 --cfg=network/crosstraffic:0 \
		--cfg=network/TCP-gamma:0 --cfg=smpi/bw-factor:0:1 --cfg=smpi/lat-factor:0:1 \
		--cfg=smpi/simulate-computation:no "$OUT/a2a" $S 2> "$OUT/$name.log" | tail -n 1)
	awk -v p="$name" -v n="$n" -v d="$d" -v m="$m" 'BEGIN {
		if (d == "" || m == "") { printf "%-22s %8d  failed (see %s.log)\n", p, n, p; exit }
		printf "%-22s %8d %14.9g %14.9g %7.2f%%\n", p, n, d, m, 100 * (d - m) / m }' \
		|| true
}
row switch-8 --topology switch --devices 8
row switch-16 --topology switch --devices 16
row switch-32 --topology switch --devices 32
row dc-2-nodes --topology dc --nodes 2
row mc-ring-2-nodes --topology mc-ring --nodes 2
