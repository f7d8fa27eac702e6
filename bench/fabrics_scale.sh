#!/bin/sh
# The fabrics of today at 1024 and 8192 devices, loaded by SimGrid: the
# generator's time and file size, then one 1 MB halving-doubling
# all-reduce (every exchange distance, inside domains, across domains and
# across scalable units): wall time and peak RSS.  The route check of the
# same platforms without SimGrid is a test (test/unit/platgen_routes.c).
: "${BUILD:=build}"
D=$BUILD/dlasim
TMP=$(mktemp -d "${TMPDIR:-/tmp}/dlasim-bench.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

echo "fabrics of today: generate, load and run hd (load average $(cut -d' ' -f1 /proc/loadavg))"
printf "%-12s %6s | %7s %8s | %8s %9s | %12s\n" fabric N gen_s MB wall_s rss_MiB allreduce_s
for t in nvswitch nvl72 gh200 cxl mc-nvswitch; do
	for n in 1024 8192; do
		/usr/bin/time -f "%e" -o "$TMP/g" $D platform --topology $t --devices $n -o "$TMP/p.xml" 2> /dev/null ||
			{ echo "$t $n: generator failed"; continue; }
		/usr/bin/time -f "%e %M" -o "$TMP/t" $D coll --platform "$TMP/p.xml" --op allreduce \
			--bytes 1MB --coll hd --json > "$TMP/out" 2> "$TMP/err" || { echo "$t $n: $(cat "$TMP/err")"; continue; }
		set -- $(cat "$TMP/g") $(cat "$TMP/t")
		printf "%-12s %6d | %7.2f %8.1f | %8.2f %9.1f | %12s\n" $t $n $1 \
			"$(awk -v b="$(wc -c < "$TMP/p.xml")" 'BEGIN { print b / 1e6 }')" $2 \
			"$(awk -v m=$3 'BEGIN { print m / 1024 }')" \
			"$(sed -n 's/.*"simulated_time_s": *\([0-9.e+-]*\).*/\1/p' "$TMP/out")"
	done
done
