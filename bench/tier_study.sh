#!/bin/sh
# dlasim study tm: wall time and peak memory of the whole study (target:
# 60 s on the 2-core machine), against one PaLM iteration measured in the
# same run as the reference.
: "${BUILD:=build}"
D="$BUILD/dlasim"
OUT=$(mktemp)
trap 'rm -f "$OUT" "$OUT.ref"' EXIT

/usr/bin/time -f "%e %M" "$D" tier --workload workloads/tm/palm.tm --policy tm_training \
	--online-only > /dev/null 2> "$OUT.ref" || { echo "reference run failed"; exit 1; }
/usr/bin/time -f "%e %M" "$D" study tm --csv > /dev/null 2> "$OUT" || { echo "study failed"; cat "$OUT"; exit 1; }
ref=$(tail -n 1 "$OUT.ref")
got=$(tail -n 1 "$OUT")
echo "$ref $got" | awk -v cpus="$(nproc)" '{
	printf "one PaLM iteration (tm_training): %.2f s, peak RSS %.1f MiB\n", $1, $2 / 1024
	printf "study tm: %.1f s wall on %d CPUs, peak RSS %.1f MiB (largest process)\n", $3, cpus, $4 / 1024
	printf "study / one PaLM iteration: %.0fx\n", $3 / $1
	printf "target 60 s: %s\n", $3 <= 60 ? "met" : "MISSED"
}'
