#!/bin/sh
# dlasim study tm: wall time and peak memory of the whole study (target:
# 60 s on the 2-core machine), against one PaLM iteration measured in the
# same run as the reference.
. bench/lib/study_cost.sh
study_cost "study tm" 60 "PaLM, tm_training" \
	tier --workload workloads/tm/palm.tm --policy tm_training --online-only -- study tm --csv
