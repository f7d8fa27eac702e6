#!/bin/sh
# Run every libFuzzer target (build-fuzz/fuzz/NAME, `make fuzz-build`) for
# FUZZ_SECONDS seconds on its corpus build-fuzz/corpus/NAME (kept between
# runs, never committed), seeded with the shipped files.  Prints "ok - ..."
# or "FAIL - ..." per target, as test/run.sh counts them; a crash leaves
# its input in build-fuzz/artifacts/.
: "${FUZZ_SECONDS:=60}"
F=build-fuzz
cd "$(dirname "$0")/../.." || exit 1
mkdir -p "$F/artifacts"
export DLASIM_PLUGIN_PATH="$PWD/build/plugins"

# seeds NAME: the shipped files a target starts from.
seeds() {
	case $1 in
	platform) echo platforms test/data test/data/bad ;;
	dnn) echo workloads test/data/bad test/data/scalesim ;;
	nna) echo workloads/nna test/data/scalesim ;;
	tm) echo workloads/tm test/data/bad ;;
	units | options) echo test/fuzz/seeds/$1 ;;
	memdev_config) echo platforms/dram ;;
	memdev_trace) echo test/fuzz/seeds/memdev_trace ;;
	chakra) echo workloads/chakra workloads/chakra/pipeline-8 test/data/chakra/generator-8npus/ALL_TO_ALL \
		test/data/chakra/generator-8npus/BARRIER test/data/chakra/generator-8npus/one_metadata_node_all_types \
		test/fuzz/seeds/chakra ;;
	esac
}
# args NAME: libFuzzer options of a target.
args() {
	case $1 in
	platform) echo -max_len=65536 -dict=test/fuzz/xml.dict ;;
	dnn | nna | tm | memdev_config | memdev_trace) echo -max_len=8192 ;;
	chakra) echo -max_len=16384 ;;
	*) echo -max_len=256 ;;
	esac
}

status=0
for bin in "$F"/fuzz/*; do
	[ -x "$bin" ] || continue
	name=$(basename "$bin")
	mkdir -p "$F/corpus/$name"
	log="$F/$name.log"
	# shellcheck disable=SC2046
	"$bin" -max_total_time="$FUZZ_SECONDS" -timeout=10 -rss_limit_mb=4096 -close_fd_mask=3 \
		-artifact_prefix="$F/artifacts/$name-" -print_final_stats=1 $(args "$name") \
		"$F/corpus/$name" $(seeds "$name") > "$log" 2>&1
	rc=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	if [ $rc -eq 0 ]; then
		echo "ok - fuzz: $name: ${runs:-?} inputs in ${FUZZ_SECONDS} s, $(ls "$F/corpus/$name" | wc -l) in the corpus, no finding"
	else
		echo "FAIL - fuzz: $name: exit $rc: $(grep -m 1 -E 'ERROR|runtime error|deadly signal|timeout' "$log") (log $log, input in $F/artifacts/)"
		status=1
	fi
done
exit $status
