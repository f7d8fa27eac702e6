#!/bin/sh
# dlasim study mcdla at 1024 devices, data-parallel (the six design points
# x 8 benchmarks on generated 1024-device machines, ring_flow; batch 1024,
# one sample per device, since the paper's 512 does not divide): wall time
# and peak memory against the target of 5 minutes on the 2-core machine,
# with one VGG-E run of the study on its 1024-device MC-DLA(B) machine
# measured in the same run as the reference.
. bench/lib/study_cost.sh
P=$(mktemp "${TMPDIR:-/tmp}/dlasim-bench.XXXXXX")
trap 'rm -f "$P"' EXIT
$D platform --topology mc-ring --devices 1024 -o "$P" || exit 1
study_cost "study mcdla --devices 1024" 300 "VGG-E, MC-DLA(B), 1024 devices" \
	train --platform "$P" --workload workloads/vgg-e.dnn --batch 1024 --parallel data \
	--page-alloc bw_aware -- study mcdla --devices 1024 --batch 1024 --parallel data --csv
