# study_cost, shared by the study benches (sourced: bench/run.sh runs only
# bench/*.sh).
: "${BUILD:=build}"
D="$BUILD/dlasim"

# study_cost NAME TARGET_S REF_LABEL REF_ARGS... -- STUDY_ARGS...: wall time
# and peak memory of `dlasim STUDY_ARGS` against one `dlasim REF_ARGS`
# (one of its runs) measured in the same run, and whether the study met
# its target of TARGET_S seconds of wall time.
study_cost() {
	name=$1 target=$2 label=$3
	shift 3
	out=$(mktemp)
	ref=""
	while [ $# -gt 0 ] && [ "$1" != -- ]; do ref="$ref $1"; shift; done
	shift
	/usr/bin/time -f "%e %M" "$D" $ref > /dev/null 2> "$out.ref" ||
		{ echo "reference run failed: dlasim$ref"; rm -f "$out" "$out.ref"; return 1; }
	/usr/bin/time -f "%e %U %S %M" "$D" "$@" > /dev/null 2> "$out" ||
		{ echo "study failed"; cat "$out"; rm -f "$out" "$out.ref"; return 1; }
	echo "$(tail -n 1 "$out.ref") $(tail -n 1 "$out")" | awk -v cpus="$(nproc)" -v name="$name" \
		-v label="$label" -v target="$target" '{
		printf "one run (%s): %.2f s, peak RSS %.1f MiB\n", label, $1, $2 / 1024
		printf "%s: %.1f s wall, %.1f CPU s on %d CPUs, peak RSS %.1f MiB (largest process)\n", name, $3, $4 + $5, cpus, $6 / 1024
		printf "%s / one run: %.0fx\n", name, $3 / $1
		printf "target %d s: %s\n", target, $3 <= target ? "met" : "MISSED"
	}'
	rm -f "$out" "$out.ref"
}
