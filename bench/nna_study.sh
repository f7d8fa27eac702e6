#!/bin/sh
# dlasim study nna: wall time and peak memory of the whole study (7
# networks x 4 designs and the array sweep; target: 10 minutes on the
# 2-core machine), against one VGG16 run (the longest network) measured in
# the same run as the reference.
. bench/lib/study_cost.sh
study_cost "study nna" 600 "VGG16, ws, roma" \
	nna --workload workloads/nna/vgg16.dnn -- study nna --csv
