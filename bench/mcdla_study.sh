#!/bin/sh
# The default memory-centric study (8 devices, batch 512, both modes, six
# design points x 8 benchmarks = 96 runs, one process each): wall time
# against the 10 s target, and against one single run measured here (the
# reference: what 96 runs would cost one after the other on one core).
: "${BUILD:=build}"
D=$BUILD/dlasim
now() { date +%s.%N; }

t0=$(now)
$D train --platform platforms/dc-8.xml --workload workloads/vgg-e.dnn > /dev/null || exit 1
t1=$(now)
$D study mcdla > /dev/null || exit 1
t2=$(now)
awk -v t0="$t0" -v t1="$t1" -v t2="$t2" -v cpus="$(nproc)" 'BEGIN {
	one = t1 - t0; all = t2 - t1
	printf "one run (DC-DLA, VGG-E, data-parallel): %.3f s\n", one
	printf "default study, 96 runs on %d CPUs:       %.3f s wall (target <= 10 s: %s)\n", cpus, all, all <= 10 ? "met" : "MISSED"
	printf "study / (96 x one run):                   %.2f\n", all / (96 * one)
}'
