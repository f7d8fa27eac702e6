#!/bin/sh
# 1 GB all-reduce with the O(N) flow model (ring_flow) on generated DC-DLA
# platforms from 1024 to 65,536 devices: wall time (platform reading
# included) and peak RSS against N, with the growth exponent between
# consecutive sizes (log2 of the ratio: 1 is linear; CPU seconds, user +
# system, are steadier than wall time on a shared machine), and the
# targets at 65,536 devices (10 s, 2 GiB).
: "${BUILD:=build}"
D=$BUILD/dlasim
TMP=$(mktemp -d "${TMPDIR:-/tmp}/dlasim-bench.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

echo "ring_flow all-reduce of 1 GB, dc platforms (default blocks; load average $(cut -d' ' -f1 /proc/loadavg))"
printf "%6s | %8s %8s %9s | %8s %8s | %10s\n" N wall_s cpu_s rss_MiB exp_cpu exp_rss sim_s
prev_c= prev_m=
for n in 1024 2048 4096 8192 16384 32768 65536; do
	$D platform --topology dc --devices $n -o "$TMP/p.xml" || exit 1
	/usr/bin/time -f "%e %M %U %S" -o "$TMP/t" $D coll --platform "$TMP/p.xml" --op allreduce \
		--bytes 1GB --coll ring_flow --json > "$TMP/out" 2> "$TMP/err" || { cat "$TMP/err"; exit 1; }
	set -- $(cat "$TMP/t")
	w=$1 m=$2 c=$(awk -v u=$3 -v s=$4 'BEGIN { print u + s }')
	sim=$(sed -n 's/.*"simulated_time_s": *\([0-9.e+-]*\).*/\1/p' "$TMP/out")
	awk -v n=$n -v w=$w -v c=$c -v m=$m -v pc="$prev_c" -v pm="$prev_m" -v s=$sim 'BEGIN {
		ec = pc > 0 && c > 0 ? log(c / pc) / log(2) : 0
		em = pm > 0 ? log(m / pm) / log(2) : 0
		printf "%6d | %8.2f %8.2f %9.1f | %8s %8s | %10.6f\n", n, w, c, m / 1024,
			(pc > 0 ? sprintf("%.2f", ec) : "-"), (pm > 0 ? sprintf("%.2f", em) : "-"), s
		if (n == 65536)
			printf "  N = 65536: %.2f s wall (target <= 10: %s), %.0f MiB peak RSS (target <= 2048: %s)\n",
				w, (w <= 10 ? "met" : "MISSED"), m / 1024, (m <= 2097152 ? "met" : "MISSED")
	}'
	prev_c=$c prev_m=$m
done
