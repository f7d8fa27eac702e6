#!/bin/sh
# dlasim study nna: wall and CPU time and peak memory of the whole study
# (7 networks x 2 dataflows x 2 placements on the 32 x 32 array, and the
# 16/32/64 sweep; target: 10 minutes on the 2-core machine), against one
# run of its largest design point (VGG16 under DWS and ROMA) measured in
# the same run as the reference.
: "${BUILD:=build}"
D="$BUILD/dlasim"
OUT=$(mktemp)
trap 'rm -f "$OUT" "$OUT.ref"' EXIT

/usr/bin/time -f "%e %U %S %M" "$D" nna --workload workloads/nna/vgg16.dnn --dataflow ws --dram-place roma \
	> /dev/null 2> "$OUT.ref" || { echo "reference run failed"; exit 1; }
/usr/bin/time -f "%e %U %S %M" "$D" study nna --csv > /dev/null 2> "$OUT" || { echo "study failed"; cat "$OUT"; exit 1; }
ref=$(tail -n 1 "$OUT.ref")
got=$(tail -n 1 "$OUT")
echo "$ref $got" | awk -v cpus="$(nproc)" '{
	printf "one run (vgg16, ws, roma): %.1f s wall, %.1f s CPU, peak RSS %.1f MiB\n", $1, $2 + $3, $4 / 1024
	printf "study nna: %.1f s wall on %d CPUs, %.1f s CPU, peak RSS %.1f MiB (largest process)\n", $5, cpus, $6 + $7, $8 / 1024
	printf "study / one run (CPU): %.1fx\n", ($6 + $7) / ($2 + $3)
	printf "target 600 s: %s\n", $5 <= 600 ? "met" : "MISSED"
}'
