#!/bin/sh
# The memory-centric comparison on a workload dlasim never had as a .dnn:
# 24 GPT-2-medium transformer blocks as a Chakra trace
# (workloads/chakra/gpt2-medium.et, data-parallel on 8 devices, every
# layer's activations stored after forward and loaded for backward), on
# the six design points of `dlasim study mcdla`.  Simulated seconds per
# iteration and speed-up over DC-DLA; docs/chakra.md discusses them.
: "${BUILD:=build}"
D=$BUILD/dlasim
W=workloads/chakra/gpt2-medium.et
run() {	# NAME PLATFORM PAGE-ALLOC [MORE...]
	name=$1 plat=$2 pa=$3; shift 3
	$D train --platform platforms/$plat.xml --workload $W --page-alloc "$pa" "$@" --json |
		awk -v n="$name" -F': ' '/"iteration_time_s"/ { t = $2 + 0 } /"virt_exposed_s"/ { v = $2 + 0 }
			/"sync_exposed_s"/ { s = $2 + 0 } /"compute_s"/ { c = $2 + 0 }
			END { printf "%-10s %10.4f %10.4f %10.4f %10.4f\n", n, t, c, v, s }'
}
{
	run DC-DLA dc-8 local
	run HC-DLA hc-8 local
	run "MC-DLA(S)" mc-star-8 local
	run "MC-DLA(L)" mc-ring-8 local
	run "MC-DLA(B)" mc-ring-8 bw_aware
	run "DC-DLA(O)" dc-8 local --device-memory inf
} > "${TMPDIR:-/tmp}/chakra_mcdla.$$" || exit 1
printf "%-10s %10s %10s %10s %10s %8s\n" design iter_s compute_s virt_exp_s sync_exp_s speedup
awk 'NR == 1 { dc = $2 } { printf "%s %8.2f\n", $0, dc / $2 }' "${TMPDIR:-/tmp}/chakra_mcdla.$$"
rm -f "${TMPDIR:-/tmp}/chakra_mcdla.$$"
