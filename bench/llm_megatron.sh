#!/bin/sh
# Megatron-LM's scaling table (Narayanan et al., SC'21, Table 1): the
# achieved TFLOP/s per A100 of each row beside dlasim's (the full runs of
# docs/validation/llm.md; test/cli/llm_validation.sh runs the small rows).
# The rows from 310B on are listed and skipped unless LLM_ALL_ROWS=1: each
# has 3 to 14 times the 145.6B row's tensor all-reduces, which take 1.5 to
# 7 minutes on the shared 2-core machine.  The machine is Megatron's, DGX
# A100 nodes on NVSwitch and HDR InfiniBand; LLM_MACHINE=dc runs the rows on
# the ring-node stand-in of the table's dc column (bench/lib/llm_platform.sh).
: "${BUILD:=build}"
D=$BUILD/dlasim
TMP=$(mktemp -d "${TMPDIR:-/tmp}/dlasim-bench.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

: "${LLM_MACHINE:=nvswitch}"
. bench/lib/llm_platform.sh
echo "Megatron-LM Table 1 on $LLM_MACHINE A100 nodes (load average $(cut -d' ' -f1 /proc/loadavg))"
printf "%-8s %3s %3s %5s %5s | %7s %7s %7s | %7s\n" model tp pp GPUs batch paper dlasim gap wall_s
# model tp pp GPUs batch TFLOP/s (Table 1)
while read -r m t p n b paper; do
	if [ $p -gt 8 ] && [ -z "$LLM_ALL_ROWS" ]; then
		printf "%-8s %3d %3d %5d %5d | %7.1f skipped (LLM_ALL_ROWS=1 runs it)\n" $m $t $p $n $b $paper
		continue
	fi
	llm_platform $((n / 8)) "$TMP/p.xml" || exit 1
	/usr/bin/time -f "%e" -o "$TMP/t" $D llm --workload megatron-$m --platform "$TMP/p.xml" \
		--global-batch $b --tp $t --pp $p --dp $((n / (t * p))) --json > "$TMP/out" 2> "$TMP/err" ||
		{ cat "$TMP/err"; continue; }
	f=$(sed -n 's/.*"model_flops_per_device_s": *\([0-9.e+-]*\).*/\1/p' "$TMP/out")
	awk -v m=$m -v t=$t -v p=$p -v n=$n -v b=$b -v paper=$paper -v f=$f -v w=$(cat "$TMP/t") 'BEGIN {
		printf "%-8s %3d %3d %5d %5d | %7.1f %7.1f %+6.1f%% | %7.1f\n", m, t, p, n, b, paper, f / 1e12,
			(f / 1e12 / paper - 1) * 100, w }'
done <<'ROWS'
1.7b 1 1 32 512 137
3.6b 2 1 64 512 138
7.5b 4 1 128 512 142
18.4b 8 1 256 1024 135
39.1b 8 2 512 1536 138
76.1b 8 4 1024 1792 140
145.6b 8 8 1536 2304 148
310.1b 8 16 1920 2160 155
529.6b 8 35 2520 2520 163
1t 8 64 3072 3072 163
ROWS
