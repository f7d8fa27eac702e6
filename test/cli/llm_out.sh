#!/bin/sh
# dlasim llm's files: --link-stats as 'dlasim train' writes it (its class
# totals against the ring all-reduce's closed form and the JSON's), whole
# or not at all; --trace.
. test/lib.sh
expect_ok "platform" $DLASIM platform --topology dc --devices 8 --links-per-device 12 \
	--link-bandwidth 25GBps --device bench/lib/a100-megatron.xml -o $TMP/p8.xml
L="$DLASIM llm --platform $TMP/p8.xml --workload megatron-1.7b"
calc() { awk "BEGIN { printf \"%.17g\", $1 }"; }
# class_sum FILE CLASS: the bytes column summed over one link class.
class_sum() {
	awk -F, -v c="$2" 'NR > 1 && $2 == c { s += $5 } END { printf "%.17g", s }' "$1"
}

# ---- data parallelism, 8 devices: a ring all-reduce of the 2 P gradient
# bytes moves 2 (n - 1) / n x 2 P per device, one NVLink hop each ----
expect_ok "dp 8 with --link-stats" $L --global-batch 16 --dp 8 --link-stats $TMP/dp.csv --json
cp $TMP/out $TMP/dp.json
[ "$(head -n 1 $TMP/dp.csv)" = "link,class,direction,bandwidth_Bps,bytes,busy_fraction" ] &&
	[ "$(csv_fields < $TMP/dp.csv | sort -u)" = 6 ] &&
	ok "link-stats: train's header, six fields a line" ||
	not_ok "link-stats: train's header, six fields a line" "$(head -3 $TMP/dp.csv)"
holds "link-stats: one line per link and direction" "$(grep -c . $TMP/dp.csv) > 8"
Pm=$(awk 'BEGIN { l = 24; h = 2304; V = 51200; s = 2048
	printf "%.17g", 12 * l * h * h * (1 + 13 / (12 * h) + (V + s) / (12 * l * h)) + 2 * h }')
close "link-stats: nvlink bytes = 8 x 2 (n - 1) / n x 2 P" "$(class_sum $TMP/dp.csv nvlink)" \
	"$(calc "8 * 2 * 7 / 8 * 2 * $Pm")" 0.001
for c in nvlink pcie dram other; do
	close "link-stats: $c total = the JSON's ${c}_bytes" "$(class_sum $TMP/dp.csv $c)" \
		"$(json_num $TMP/dp.json ${c}_bytes)" 1e-9
done
it=$(json_num $TMP/dp.json iteration_time_s)
awk -F, -v t="$it" 'NR > 1 && $5 > 0 { f = $5 / ($4 * t); d = f - $6; if (d < 0) d = -d
	if (d > 1e-6) bad = bad " " $1 } END { exit bad != "" }' $TMP/dp.csv &&
	ok "link-stats: busy fraction = bytes / (bandwidth x iteration)" ||
	not_ok "link-stats: busy fraction = bytes / (bandwidth x iteration)" "$(sed -n 2,4p $TMP/dp.csv)"

# ---- pipeline and data parallelism on a switch, every replica
# simulated: the file holds all the machine's bytes, the JSON's totals ----
expect_ok "switch platform" $DLASIM platform --topology switch --devices 8 \
	--device bench/lib/a100-megatron.xml -o $TMP/sw8.xml
expect_ok "pp 2 dp 4 with --link-stats" $DLASIM llm --platform $TMP/sw8.xml --workload megatron-1.7b \
	--global-batch 16 --pp 2 --dp 4 --all-replicas --link-stats $TMP/pp.csv --json
close "link-stats: pp 2 nvlink total = the JSON's" "$(class_sum $TMP/pp.csv nvlink)" \
	"$(json_num $TMP/out nvlink_bytes)" 1e-9
holds "link-stats: pp 2 dp 4 moved bytes" "$(class_sum $TMP/pp.csv nvlink) > 0"

# ---- whole or nothing ----
printf 'old\n' > $TMP/keep.csv
expect_error "a refused run leaves the file" "device 'tpu': no such description" \
	$L --global-batch 8 --device tpu --link-stats $TMP/keep.csv
[ "$(cat $TMP/keep.csv)" = old ] && ok "the old file is untouched" ||
	not_ok "the old file is untouched" "$(head -2 $TMP/keep.csv)"
expect_error "--link-stats /dev/full" "--link-stats /dev/full: write failed" \
	$L --global-batch 8 --link-stats /dev/full
expect_error "--link-stats in a missing folder" "--link-stats $TMP/no/l.csv" \
	$L --global-batch 8 --link-stats $TMP/no/l.csv
[ -z "$(ls $TMP | grep -v '^\(p8.xml\|sw8.xml\|dp.csv\|dp.json\|pp.csv\|keep.csv\|out\|err\)$')" ] &&
	ok "no temporary file left" || not_ok "no temporary file left" "$(ls $TMP)"

# ---- --trace: SimGrid's Paje trace of the run ----
expect_ok "--trace" $L --global-batch 8 --dp 2 --trace $TMP/run.trace
grep -q '^%EventDef' $TMP/run.trace && grep -q 'llm-stage' $TMP/run.trace &&
	ok "trace: a Paje file with the stage actors" || not_ok "trace: a Paje file with the stage actors" "$(head -3 $TMP/run.trace)"
