#!/bin/sh
# dlasim study nvm: wall time and peak memory of the whole study (target:
# 15 minutes on the 2-core machine), against one run of its largest
# design point (Mix3 under LAD, 5000 transactions per core) measured in
# the same run as the reference.
: "${BUILD:=build}"
D="$BUILD/dlasim"
OUT=$(mktemp)
trap 'rm -f "$OUT" "$OUT.ref"' EXIT

/usr/bin/time -f "%e %M" "$D" nvm --workload mix3 --persist lad --interleave line --tx 5000 \
	> /dev/null 2> "$OUT.ref" || { echo "reference run failed"; exit 1; }
/usr/bin/time -f "%e %M" "$D" study nvm --csv > /dev/null 2> "$OUT" || { echo "study failed"; cat "$OUT"; exit 1; }
ref=$(tail -n 1 "$OUT.ref")
got=$(tail -n 1 "$OUT")
echo "$ref $got" | awk -v cpus="$(nproc)" '{
	printf "one run (mix3, lad, 5000 transactions per core): %.2f s, peak RSS %.1f MiB\n", $1, $2 / 1024
	printf "study nvm: %.1f s wall on %d CPUs, peak RSS %.1f MiB (largest process)\n", $3, cpus, $4 / 1024
	printf "study / one run: %.0fx\n", $3 / $1
	printf "target 900 s: %s\n", $3 <= 900 ? "met" : "MISSED"
}'
