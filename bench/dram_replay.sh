#!/bin/sh
# dlasim dram: requests replayed per second (target >= 5 M/s on the 2-core
# machine) on the Table 5.3 DDR4 device and the NVM preset, against
# bench/plain_trace.c reading the same trace in the same run (the cost of
# merely reading the requests), and peak RSS for two trace lengths (the
# trace is streamed and a full channel holds the replay back: memory must
# not grow with the trace's length, on DDR4 or NVM).  Rates are per CPU
# second (user + system), steadier than wall time on a shared machine.
# Traces: rr64 (the 64 banks in turn, row hits, two requests a cycle
# offered) and random (uniform over the device, one request every 2 cycles);
# and, on DDR4, row128: the NNA's row tasks, whole 1 KB rows (128 blocks of
# 8 B, one request) on the 64 banks in turn, where blocks per second count.
# Last, the stream the target was set for (study3.md S3.6): VGG16 under
# `dlasim nna` (DWS, ROMA), one 8-byte request a block, about 79 M of them,
# the DMA engine and the simulation's actors included (FaceRecognition
# with DLASIM_BENCH_QUICK).
: "${BUILD:=build}"
DLASIM=$BUILD/dlasim
PLAIN=$BUILD/bench/plain_trace
TMP=$(mktemp -d "${TMPDIR:-/tmp}/dlasim-bench.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
short=200000
long=2000000
[ -n "$DLASIM_BENCH_QUICK" ] && long=400000

mkdir -p "$BUILD/bench"
cc -O2 bench/plain_trace.c -o "$PLAIN" || exit 1

# trace KIND N: N requests of the given pattern on stdout.  Address bits,
# least significant first: 3 offset, co 7, ch 1, ra 1, bg 2, ba 2, ro 15.
trace() {
	awk -v kind=$1 -v n=$2 'BEGIN {
		srand(1)
		for (i = 0; i < n; i++) {
			blocks = ""
			if (kind == "row128") {
				ch = i % 2; ra = int(i / 2) % 2; b = int(i / 4) % 16
				bg = b % 4; ba = int(b / 4); co = 0; ro = int(i / 64) % 32768
				c = int(i / 2); blocks = " 128"
			} else if (kind == "rr64") {
				ch = i % 2; ra = int(i / 2) % 2; b = int(i / 4) % 16
				bg = b % 4; ba = int(b / 4); co = int(i / 64) % 128; ro = int(i / 8192) % 32768
				c = int(i / 2)
			} else {
				ch = int(rand() * 2); ra = int(rand() * 2); bg = int(rand() * 4)
				ba = int(rand() * 4); co = int(rand() * 128); ro = int(rand() * 32768)
				c = 2 * i
			}
			a = ((((ro * 4 + ba) * 4 + bg) * 2 + ra) * 2 + ch) * 128 + co
			printf "0x%x %s %d%s\n", a * 8, (i % 4 == 3 ? "WRITE" : "READ"), c, blocks
		}
	}'
}

# measure OUT CMD...: CPU seconds and peak RSS (KiB) of CMD into OUT.time.
measure() {
	out=$1; shift
	/usr/bin/time -f "%U %S %M" -o "$out.time" "$@" > "$out" 2> "$out.err" || { cat "$out.err"; return 1; }
	set -- $(cat "$out.time")
	echo "$(awk -v u=$1 -v s=$2 'BEGIN { print u + s }') $3" > "$out.time"
}

echo "dlasim dram replay (load average $(cut -d' ' -f1 /proc/loadavg))"
printf "%-8s %-6s %9s | %9s %12s | %9s %12s %8s | %9s\n" trace device requests \
	dram_cpu_s req_per_s plain_cpu_s req_per_s ratio rss_MiB
for kind in rr64 random; do
	for n in $short $long; do
		trace $kind $n > "$TMP/t" || exit 1
		measure "$TMP/plain" "$PLAIN" "$TMP/t" || exit 1
		set -- $(cat "$TMP/plain.time"); pw=$1
		for dev in ddr4-2400-x8-2ch2rk nvm; do
			measure "$TMP/dram" "$DLASIM" dram --config $dev --trace "$TMP/t" --json || exit 1
			set -- $(cat "$TMP/dram.time"); dw=$1; rss=$2
			done=$(sed -n 's/.*"requests": \([0-9]*\).*/\1/p' "$TMP/dram")
			[ "$done" = "$n" ] || echo "  ($kind $dev: $done of $n requests completed)"
			echo "$kind $dev $n $dw $pw $rss" >> "$TMP/rows"
			awk -v k=$kind -v dev=$dev -v n=$n -v dw=$dw -v pw=$pw -v rss=$rss 'BEGIN {
				if (dw < 0.01) dw = 0.01
				if (pw < 0.01) pw = 0.01
				printf "%-8s %-6s %9d | %9.2f %12.0f | %9.2f %12.0f %8.1f | %9.1f\n", k, substr(dev, 1, 6), n, dw, n / dw, pw, n / pw, dw / pw, rss / 1024
			}'
		done
	done
done
awk -v short=$short -v long=$long '
	{ key = $1 " " $2; if ($3 == short) rs[key] = $6; else { rl[key] = $6; rate[key] = $3 / ($4 < 0.01 ? 0.01 : $4) } }
	END {
		for (k in rl) {
			split(k, p, " ")
			if (p[2] == "ddr4-2400-x8-2ch2rk")
				printf "  %s on DDR4: %.2f M requests/s (target >= 5: %s)\n", p[1], rate[k] / 1e6, (rate[k] >= 5e6 ? "met" : "MISSED")
			printf "  %s on %s: peak RSS %.1f MiB at %d requests, %.1f MiB at %d (%s)\n", p[1], p[2], rs[k] / 1024, short, rl[k] / 1024, long, (rl[k] <= 1.1 * rs[k] + 1024 ? "flat" : "grows")
		}
	}' "$TMP/rows"

n=100000
trace row128 $n > "$TMP/t" || exit 1
measure "$TMP/dram" "$DLASIM" dram --config ddr4-2400-x8-2ch2rk --trace "$TMP/t" --json || exit 1
set -- $(cat "$TMP/dram.time")
awk -v n=$n -v c=$1 -v rss=$2 'BEGIN {
	if (c < 0.01) c = 0.01
	printf "  row128 on DDR4: %d requests of 128 blocks in %.2f CPU s: %.2f M blocks/s, %.0f requests/s, %.1f MiB\n", n, c, 128 * n / c / 1e6, n / c, rss / 1024
}'

net=vgg16
[ -n "$DLASIM_BENCH_QUICK" ] && net=facerec
measure "$TMP/nna" "$DLASIM" nna --workload workloads/nna/$net.dnn --json || exit 1
set -- $(cat "$TMP/nna.time")
blocks=$(sed -n 's/.*"\(read\|write\)_blocks": \([0-9]*\).*/\2/p' "$TMP/nna" | awk '{ n += $1 } END { print n }')
awk -v net=$net -v n=$blocks -v c=$1 -v rss=$2 'BEGIN {
	if (c < 0.01) c = 0.01
	printf "  nna %s (ws, roma): %d requests of one block in %.2f CPU s: %.2f M requests/s (target >= 5: %s), %.1f MiB\n", net, n, c, n / c / 1e6, (n / c >= 5e6 ? "met" : "MISSED"), rss / 1024
}'
