#!/bin/sh
# dlasim study nvm: wall time and peak memory of the whole study (target:
# 15 minutes on the 2-core machine), against one run of its largest
# design point (Mix3 under LAD, 5000 transactions per core) measured in
# the same run as the reference.
. bench/lib/study_cost.sh
study_cost "study nvm" 900 "mix3, lad, 5000 transactions per core" \
	nvm --workload mix3 --persist lad --interleave line --tx 5000 -- study nvm --csv
