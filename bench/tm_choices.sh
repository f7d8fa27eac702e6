#!/bin/sh
# The effect of the tiered-memory study's modelling choices (docs/tier.md,
# "Modelling choices and their measured effect"): Figures 8 and 9 at 25:1
# as `dlasim study tm` computes them, once as shipped and once with each
# choice that a platform property or an option can undo undone:
#   hbm-per-GiB  Table 2's 684 mW of HBM static power read per GiB (the
#                platform's tier-1 device-capacity set to 1 GiB) instead
#                of per 32 GiB device;
#   no-idle      the chip's 90 W idle power set to 0 W.
# (Every policy of Figures 8 and 9 declares itself offline, so running
# without --online-only changes none of them: that variant is gone.)
# The study prints the same two readings from the same runs (its table
# energy_sensitivity); this script re-simulates them as a check.
# Figure 8: TM-Training's efficiency over each system's, the mean over the
# workloads of their ratio (the study's claims fig8.tm_vs_*).  Figure 9:
# the migration TM-Training saves against each, one minus the ratio of the
# means over the workloads of migration / data used (fig9.less_than_*).
: "${BUILD:=build}"
D="$BUILD/dlasim"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/dlasim-bench.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
WORKLOADS="bert-large t5 gpt3 palm chinchilla"
POLICIES="hbm_only sentinel autotm deeptm tm_training"

for a in horizontal vertical; do
	"$D" tier --print-platform $a > "$TMP/$a.xml" || exit 1
	sed '/"dlasim.tier" value="1"/,/device-capacity/s/"dlasim.device-capacity" value="32GiB"/"dlasim.device-capacity" value="1GiB"/' \
		"$TMP/$a.xml" > "$TMP/$a.hbm-per-GiB.xml"
	sed 's/"dlasim.idle-power" value="90W"/"dlasim.idle-power" value="0W"/' \
		"$TMP/$a.xml" > "$TMP/$a.no-idle.xml"
	for v in hbm-per-GiB no-idle; do
		cmp -s "$TMP/$a.xml" "$TMP/$a.$v.xml" &&
			{ echo "tm_choices.sh: the $a platform has no property for $v"; exit 1; }
	done
done

# run VARIANT WORKLOAD POLICY: one JSON line "variant workload policy
# throughput_per_watt migration_bytes data_bytes".
run() {
	args="--online-only"
	case $1 in
	hbm-per-GiB | no-idle)
		a=horizontal
		[ "$3" = sentinel ] && a=vertical
		args="$args --platform $TMP/$a.$1.xml" ;;
	esac
	"$D" tier --workload "$2" --policy "$3" $args --json 2> /dev/null > "$TMP/r.json" ||
		{ echo "tm_choices.sh: failed: $D tier --workload $2 --policy $3 $args" >&2; return 1; }
	awk -v v=$1 -v w=$2 -v p=$3 -v keys="arrangement throughput_per_watt migration_bytes data_bytes" \
		-f bench/lib/tm_row.awk "$TMP/r.json"
}

echo "study tm at 25:1 with one modelling choice undone at a time (load average $(cut -d' ' -f1 /proc/loadavg))"
for v in shipped hbm-per-GiB no-idle; do
	for w in $WORKLOADS; do
		for p in $POLICIES; do
			run $v $w $p >> "$TMP/rows" || exit 1
		done
	done
done
# Sentinel is the one vertical system; the platform of each run must be
# the arrangement its policy declares (checked, not assumed).
awk '$3 == "sentinel" && $4 != "vertical" || $3 != "sentinel" && $3 != "hbm_only" && $4 != "horizontal" {
	print "tm_choices.sh: " $3 " ran on a " $4 " platform"; bad = 1 } END { exit bad }' "$TMP/rows" || exit 1
awk '{ print $1, $2, $3, $5, $6, $7 }' "$TMP/rows" |
	awk -v variants="shipped hbm-per-GiB no-idle" -v title=variant -f bench/lib/tm_figs.awk
