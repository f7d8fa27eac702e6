#!/bin/sh
# dlasim study llm: wall time and peak memory of the default study (the
# four models at 64 and 1,024 devices on DC, HC, MC_LOCAL, MC_BW_AWARE,
# CXL and the oracle; target: 5 minutes on the 2-core machine,
# docs/llm.md "study llm"), against one of its runs (GPT-3 175B on 64
# devices of DC, with offload) measured in the same run as the reference.
. bench/lib/study_cost.sh
P=$(mktemp "${TMPDIR:-/tmp}/dlasim-bench.XXXXXX")
trap 'rm -f "$P"' EXIT
echo "study llm, the default set (load average $(cut -d' ' -f1 /proc/loadavg))"
$D platform --topology nvswitch --generation h100 --node-devices 8 --devices 64 -o "$P" 2> /dev/null ||
	{ echo "platform failed"; exit 1; }
study_cost "study llm" 300 "gpt3-175b, 64 devices, DC" \
	llm --workload gpt3-175b --platform "$P" --device h100-sxm --tp 8 --pp 4 --dp 2 --zero 0 \
	--global-batch 16 --offload -- study llm --csv
