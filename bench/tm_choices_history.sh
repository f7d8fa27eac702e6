#!/bin/sh
# The effect of the tiered-memory modelling choices that no option undoes
# (docs/tier.md, "Modelling choices and their measured effect"): each was
# made by one commit, so its effect is measured there, against the
# commit's parent, as the study stood then.  Figures 8 and 9 at 25:1 (the
# means bench/tm_choices.sh computes) for every commit below, each built
# from `git archive` in a temporary directory.  Needs the project's git
# history (a clone, not an export); seven builds take about ten minutes
# of `make bench` on two cores.
#
#   2d8321c  before the per-chip slice of Table 3
#   c2d1125  the per-chip slice, gathers on the network, recompute only
#            beyond 32 GiB; run with its HBM static power read per GiB and
#            its idle power 0 W, as its parent had them (those two have
#            options of their own: bench/tm_choices.sh)
#   87d0b96  before the monitor timed each use window
#   e4fe281  the monitor times each use window
#   6a2ee3d  before TM-Training split off only what tier 1 cannot hold
#   5ac7ccd  the split; also before one refill per use
#   96c968b  one refill of tier 1 per use, misses staged through tier 1
: "${JOBS:=2}"
ROOT=$(cd "$(dirname "$0")/.." && pwd)
TMP=$(mktemp -d "${TMPDIR:-/tmp}/dlasim-history.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
COMMITS="2d8321c c2d1125 87d0b96 e4fe281 6a2ee3d 5ac7ccd 96c968b"
WORKLOADS="bert-large t5 gpt3 palm chinchilla"
POLICIES="hbm_only sentinel autotm deeptm tm_training"

for c in $COMMITS; do
	git -C "$ROOT" cat-file -e "$c^{commit}" 2>/dev/null ||
		{ echo "tm_choices_history.sh: commit $c is not in this clone's history" >&2; exit 1; }
done

# build COMMIT: its tree in $TMP/COMMIT, built.
build() {
	mkdir -p "$TMP/$1" && git -C "$ROOT" archive "$1" | tar -x -C "$TMP/$1" &&
		make -C "$TMP/$1" -j"$JOBS" all > "$TMP/$1.log" 2>&1 ||
		{ echo "tm_choices_history.sh: $1 does not build ($TMP/$1.log):" >&2; tail -5 "$TMP/$1.log" >&2; return 1; }
}

# platform COMMIT ARRANGEMENT: its NPU platform with Table 2's HBM static
# power per GiB and no idle power, as before c2d1125.
platform() {
	"$TMP/$1/build/dlasim" tier --print-platform "$2" |
		sed -e 's/"dlasim.idle-power" value="90W"/"dlasim.idle-power" value="0W"/' \
		    -e '/"dlasim.tier" value="1"/,/device-capacity/s/"dlasim.device-capacity" value="32GiB"/"dlasim.device-capacity" value="1GiB"/' \
		> "$TMP/$1.$2.xml"
	grep -q '"dlasim.idle-power" value="0W"' "$TMP/$1.$2.xml" ||
		{ echo "tm_choices_history.sh: $1's $2 platform has no idle power to undo" >&2; return 1; }
}

# run COMMIT WORKLOAD POLICY: "commit workload policy efficiency migration data".
run() {
	args=""
	if [ "$1" = c2d1125 ]; then
		a=horizontal
		[ "$3" = sentinel ] && a=vertical
		args="--platform $TMP/$1.$a.xml"
	fi
	(cd "$TMP/$1" && DLASIM_PLUGIN_PATH="$TMP/$1/build/plugins" build/dlasim tier \
		--workload "workloads/tm/$2.tm" --policy "$3" $args --json 2> /dev/null) > "$TMP/r.json" ||
		{ echo "tm_choices_history.sh: $1: tier --workload $2 --policy $3 failed" >&2; return 1; }
	awk -v v=$1 -v w=$2 -v p=$3 -v keys="throughput_per_watt migration_bytes data_bytes" \
		-f "$ROOT/bench/lib/tm_row.awk" "$TMP/r.json"
}

echo "study tm at 25:1 at the commits that made the choices (load average $(cut -d' ' -f1 /proc/loadavg))"
for c in $COMMITS; do
	build $c || exit 1
	if [ $c = c2d1125 ]; then
		platform $c horizontal && platform $c vertical || exit 1
	fi
	for w in $WORKLOADS; do
		for p in $POLICIES; do
			run $c $w $p >> "$TMP/rows" || exit 1
		done
	done
done
awk -v variants="$COMMITS" -v title=commit -f "$ROOT/bench/lib/tm_figs.awk" "$TMP/rows"
