#!/bin/sh
# Workloads of many layers (item: layer lookup and plan building were
# quadratic; 20k layers took 32 s before the first simulated second).
# Chains of N fully connected + ReLU layers, N/2 of each:
#  1. reading the .dnn and building the plan (bench/workload_plan.c, against
#     build/libdlasim.a): seconds, and per layer against the 1000-layer
#     reference of the same run (flat when linear);
#  2. the whole `dlasim train` (dc-8, ring_flow, 16 GB devices): wall time
#     and peak RSS, per layer against the same reference.
: "${BUILD:=build}"
D=$BUILD/dlasim
PLAN=$BUILD/bench/workload_plan
TMP=$(mktemp -d "${TMPDIR:-/tmp}/dlasim-bench.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

mkdir -p "$BUILD/bench"
cc -O2 -Icore -Icore/include $(pkg-config --cflags simgrid libxml-2.0) bench/workload_plan.c \
	"$BUILD/libdlasim.a" -o "$PLAN" $(pkg-config --libs simgrid libxml-2.0) -lltdl -ldl -lm || exit 1

chain() {	# chain N FILE: input and N layers
	awk -v n="$1" 'BEGIN { print "network chain" n; print "input x channels=64 height=1 width=1"
		for (i = 0; i < n / 2; i++) { print "fc f" i " out=64"; print "relu r" i } }' > "$2"
}

printf "%7s | %9s %9s %12s | %9s %8s %12s\n" layers read_s plan_s per_layer train_s rss_MiB per_layer
for n in 1000 5000 20000; do
	chain $n "$TMP/w.dnn"
	set -- $("$PLAN" "$TMP/w.dnn") || exit 1
	read=$3 plan=$4
	/usr/bin/time -f "%e %M" -o "$TMP/t" "$D" train --platform platforms/dc-8.xml \
		--workload "$TMP/w.dnn" --coll ring_flow > /dev/null || exit 1
	set -- $(cat "$TMP/t")
	train=$1 rss=$2
	if [ $n -eq 1000 ]; then ref_plan=$(awk -v a="$read" -v b="$plan" 'BEGIN { print (a + b) / 1000 }'); ref_train=$(awk -v t="$train" 'BEGIN { print t / 1000 }'); fi
	awk -v n=$n -v r="$read" -v p="$plan" -v t="$train" -v m="$rss" -v rp="$ref_plan" -v rt="$ref_train" 'BEGIN {
		printf "%7d | %9.4f %9.4f %11.2fx | %9.2f %8.1f %11.2fx\n", n, r, p, (r + p) / n / (rp > 0 ? rp : 1e-9), t, m / 1024, t / n / rt }'
done
echo "per_layer: seconds per layer over the 1000-layer run's (1.0 = linear)"
