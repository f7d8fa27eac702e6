#!/bin/sh
# dlasim llm at scale: one GPT-3 175B iteration (tp 8, pp 16, dp 128,
# global batch 1536 = GPT-3's 3.2M tokens, micro-batch 1) on 16,384 A100
# devices in 2,048 nodes of 8; wall time and peak RSS against the
# targets (60 s, 4 GiB; docs/llm.md, Speed).
: "${BUILD:=build}"
D=$BUILD/dlasim
TMP=$(mktemp -d "${TMPDIR:-/tmp}/dlasim-bench.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

. bench/lib/llm_platform.sh
echo "GPT-3 175B, one iteration on 16,384 devices (load average $(cut -d' ' -f1 /proc/loadavg))"
llm_platform 2048 "$TMP/p.xml" || exit 1
/usr/bin/time -f "%e %M" -o "$TMP/t" $D llm --workload gpt3-175b --platform "$TMP/p.xml" \
	--global-batch 1536 --tp 8 --pp 16 --dp 128 --json > "$TMP/out" 2> "$TMP/err" ||
	{ cat "$TMP/err"; exit 1; }
set -- $(cat "$TMP/t")
it=$(sed -n 's/.*"iteration_time_s": *\([0-9.e+-]*\).*/\1/p' "$TMP/out")
sim=$(sed -n 's/.*"simulated_devices": *\([0-9]*\).*/\1/p' "$TMP/out")
mfu=$(sed -n 's/.*"mfu": *\([0-9.e+-]*\).*/\1/p' "$TMP/out")
awk -v w=$1 -v m=$2 -v it=$it -v sim=$sim -v mfu=$mfu 'BEGIN {
	printf "  iteration %.3f s simulated, MFU %.3f, %d devices with actors\n", it, mfu, sim
	printf "  %.2f s wall (target <= 60: %s), %.0f MiB peak RSS (target <= 4096: %s)\n",
		w, (w <= 60 ? "met" : "MISSED"), m / 1024, (m <= 4194304 ? "met" : "MISSED")
}'
