#!/bin/sh
# dlasim nna: bad input (one line, non-zero exit, nothing on stdout), the
# host's check of every plugin answer (a broken plugin per check), and
# properties that follow from the model without reading its output first.
. test/lib.sh
W=workloads/nna
FR=$W/facerec.dnn
TP=$BUILD/test-plugins

# ---- the command line ----
expect_error no_workload "--workload is required" "$DLASIM" nna
expect_error operand "unexpected argument 'extra'" "$DLASIM" nna --workload $FR extra
expect_error sa_not_square "--sa '32x16'.*square" "$DLASIM" nna --workload $FR --sa 32x16
expect_error sa_zero "--sa '0'" "$DLASIM" nna --workload $FR --sa 0
expect_error spm_text "--spm 'lots'" "$DLASIM" nna --workload $FR --spm lots
expect_error elem_three "--elem-bytes '3': must be 1, 2 or 4" "$DLASIM" nna --workload $FR --elem-bytes 3
expect_error burst_zero "--burst '0'" "$DLASIM" nna --workload $FR --burst 0
expect_error unknown_dataflow "--dataflow: dataflow plugin 'nosuch' not found" \
	"$DLASIM" nna --workload $FR --dataflow nosuch
expect_error wrong_kind "is a collective plugin, but --dram-place needs a dram-placement plugin" \
	"$DLASIM" nna --workload $FR --dram-place "$BUILD/plugins/coll-ring.so"
expect_error roma_option "unknown option \(known: banks=bg or banks=ba\)" \
	"$DLASIM" nna --workload $FR --dram-place roma:banks=xy
expect_error missing_workload "$TMP/none.dnn: No such file" "$DLASIM" nna --workload "$TMP/none.dnn"
expect_error missing_dram "$TMP/none.conf" "$DLASIM" nna --workload $FR --dram "$TMP/none.conf"

# ---- DRAM configurations: the device service reads and checks them
# (test/cli/dram.sh); here the one line it gives reaches the user as it is,
# and a device that is not DDR is refused ----
C=platforms/dram/ddr4-2400-x8-2ch2rk.conf
sed 's/^tRCD = .*/tRCD = fast/' $C > "$TMP/num.conf"
expect_error dram_number "num.conf:$(grep -n '^tRCD' $C | cut -d: -f1): tRCD = fast: not a number" \
	"$DLASIM" nna --workload $FR --dram "$TMP/num.conf"
expect_error dram_nvm "nvm.conf: the NNA's DRAM must be a DDR device \(kind nvm\)" \
	"$DLASIM" nna --workload $FR --dram platforms/dram/nvm.conf
# A device too small for the network: the placement plugin's reason ends
# the host's one line.
# (The two keys replaced: a configuration gives a key once.)
grep -v -E '^(rows|channel_size) *=' $C > "$TMP/small.conf"
printf 'rows = 64\nchannel_size = 1\n' >> "$TMP/small.conf"
expect_error dram_full_roma "dram-placement plugin 'roma' \(.*\), DTile [0-9]+: place\(\) failed for [0-9]+ bytes: DRAM full: DTile [0-9]+ needs [0-9]+ blocks, [0-9]+ are left$" \
	"$DLASIM" nna --workload $FR --dram "$TMP/small.conf"
expect_error dram_full_lap "dram-placement plugin 'lap' \(.*\), DTile [0-9]+: place\(\) failed for [0-9]+ bytes: DTile [0-9]+: no bank has a free row left$" \
	"$DLASIM" nna --workload $FR --dram "$TMP/small.conf" --dram-place lap

# ---- workloads the NNA cannot run ----
# A schedule too large to hold: refused before it is built (a 1 x 1 array
# would ask VGG16 for 136 M steps and 14 GB), by one layer or by the sum.
expect_error steps_layer "vgg16.dnn:39: layer 'fc6' alone needs more than 16777216 steps on a 1 x 1 array.*use a larger --sa" \
	"$DLASIM" nna --workload $W/vgg16.dnn --sa 1
printf 'input x channels=4096 height=7 width=7\nconv a out=4096 kernel=3 pad=1\nconv b out=4096 kernel=3 pad=1\n' > "$TMP/wide.dnn"
expect_error steps_total "wide.dnn:3: the network up to layer 'b' needs more than 16777216 steps on a 4 x 4 array" \
	"$DLASIM" nna --workload "$TMP/wide.dnn" --sa 4
printf 'input x channels=8 height=8 width=8\nconv a out=8 kernel=3 groups=2\n' > "$TMP/grouped.dnn"
expect_error grouped "grouped.dnn:2: conv 'a': grouped convolutions are not modelled" \
	"$DLASIM" nna --workload "$TMP/grouped.dnn"
printf 'input x channels=8 height=8 width=8\nrelu r\nconv a out=8 kernel=3\n' > "$TMP/nofuse.dnn"
expect_error nothing_to_fuse "nofuse.dnn:2: relu 'r': nothing to fuse it into" \
	"$DLASIM" nna --workload "$TMP/nofuse.dnn"
printf 'input x channels=8 height=8 width=8\nconv a out=8 kernel=1\nrelu r\npool p kernel=2 from=a\n' > "$TMP/twice.dnn"
expect_error fuse_two_readers "twice.dnn:3: relu 'r': cannot be fused" \
	"$DLASIM" nna --workload "$TMP/twice.dnn"
printf 'input x channels=8 height=8 width=8\nconv a out=8 kernel=1\nconv b out=8 kernel=1 from=x\nconcat c from=a,b\n' > "$TMP/concat.dnn"
expect_error concat "concat.dnn:4: concat 'c': this layer type is not modelled" \
	"$DLASIM" nna --workload "$TMP/concat.dnn"
printf 'input x features=8 steps=4\nlstm l hidden=8\n' > "$TMP/seq.dnn"
expect_error sequence "seq.dnn:1: input 'x': sequences are not modelled" \
	"$DLASIM" nna --workload "$TMP/seq.dnn"
expect_error spm_too_small "layer 'conv1' does not fit the 4096-byte scratchpad" \
	"$DLASIM" nna --workload $FR --spm 4096

# ---- every host check, one broken plugin each ----
expect_error not_permutation "dataflow plugin 'not_perm' .*layer 'conv1': order\(\) is not a permutation" \
	"$DLASIM" nna --workload $FR --dataflow "$TP/df_not_perm.so"
expect_error step_repeated "dataflow plugin 'steps' .*layer 'conv1': given twice: step k=0 f=0 r=0 s=0 y=0" \
	"$DLASIM" nna --workload $FR --dataflow "$TP/df_steps.so:repeat=1"
expect_error step_skipped "dataflow plugin 'steps' .*layer 'conv1': 1 of its 18 steps never given" \
	"$DLASIM" nna --workload $FR --dataflow "$TP/df_steps.so:skip=1"
expect_error partial_sums "dataflow plugin 'psum' .*layer 'conv1_1': the order keeps 4 partial-sum tiles" \
	"$DLASIM" nna --workload $W/vgg16.dnn --dataflow "$TP/df_psum.so"
expect_error outside "dram-placement plugin 'outside' .*DTile 0: extent 0 .* is outside the device" \
	"$DLASIM" nna --workload $FR --dram-place "$TP/dram_outside.so"
expect_error overlap "dram-placement plugin 'overlap' .*overlaps live data or another extent" \
	"$DLASIM" nna --workload $FR --dram-place "$TP/dram_overlap.so"
expect_error blocks "dram-placement plugin 'bad_pick' .*DTile 0: the extents hold 11 blocks, the DTile has 12" \
	"$DLASIM" nna --workload $FR --dram-place "$TP/dram_bad_pick.so:short=1"
expect_error own_rows "dram-placement plugin 'shared_rows' .*is not rowTask 0 in a row of its own" \
	"$DLASIM" nna --workload $FR --dram-place "$TP/dram_shared_rows.so"
expect_error empty_pick "dram-placement plugin 'bad_pick' .*next_bank\(\) picked the empty write list" \
	"$DLASIM" nna --workload $FR --dram-place "$TP/dram_bad_pick.so"

# ---- outputs ----
run() { # NAME ARGS...: a JSON result in $TMP/NAME.json
	name=$1
	shift
	if "$DLASIM" nna --json "$@" > "$TMP/$name.json" 2> "$TMP/err"; then ok "$name"
	else not_ok "$name" "$(head -c 300 "$TMP/err")"; fi
}
run fr_dws --workload $FR
run fr_steps --workload $FR --dataflow "$TP/df_steps.so"
run fr_lap --workload $FR --dram-place lap
f=$TMP/fr_dws.json
for k in inference_time_s compute_s stall_s read_bytes write_bytes read_blocks \
	 bandwidth_busy_Bps bandwidth_total_Bps clp blp row_hit_rate channels_used \
	 rowtasks_per_written_dtile rowtasks_per_read rowtasks_per_weight_read load_bytes fmap_bytes \
	 multigroup_layers multigroup_time_s multigroup_ifmap_bytes; do
	holds "key $k" "\"$(json_num $f $k)\" != \"\""
done
# The same order given step by step costs the same, request for request.
holds "next_step plugin reads what ws reads" \
	"$(json_num $TMP/fr_steps.json read_blocks) == $(json_num $f read_blocks)"
# Every block the schedule counts is served: 8 bytes a block.
holds "read bytes are 8 per block" "$(json_num $f read_bytes) == 8 * $(json_num $f read_blocks)"
# FaceRecognition writes its five outputs once: 54*54*64 + 54*54*64 +
# 27*27*128 + 14*14*256 + 7*7*512 bytes (1-byte elements).
holds "written bytes are the five outputs" "$(json_num $f write_bytes) == 54*54*64*2 + 27*27*128 + 14*14*256 + 7*7*512"
# Time is compute plus stall; the layer classes share it out.
close "time is compute plus stall" "$(awk "BEGIN { printf \"%.17g\", $(json_num $f compute_s) + $(json_num $f stall_s) }")" \
	"$(json_num $f inference_time_s)" 1e-9
# The inference ends when its last write is served: no transfer of the
# DRAM completes after it (the DRAM model runs ahead of the clock, and a
# completion it reached early once let the writer end 1.5 us too soon).
run fr_arai_lap --workload $FR --dataflow arai --dram-place lap
for g in fr_dws fr_lap fr_arai_lap; do
	holds "$g: the last transfer ends with the inference" \
		"$(json_num $TMP/$g.json last_transfer_end_s) == $(json_num $TMP/$g.json inference_time_s)"
done
if "$DLASIM" nna --workload $FR --csv > "$TMP/fr.csv" 2> "$TMP/err"; then
	close "classes share the time out" "$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i ~ /^(narrow|medium|wide|wider)_time_s$/) c[i] = 1 }
		NR == 2 { for (i in c) s += $i; printf "%.17g", s }' "$TMP/fr.csv")" "$(json_num $f inference_time_s)" 1e-9
else
	not_ok "csv" "$(head -c 300 "$TMP/err")"
fi
# ROMA's nest keeps less than 512 MiB in channel 0 rank 0; LAP spreads it.
# With one channel in use the CLP is exactly 1 (the channel's busy time is
# the device's).
holds "ROMA uses one channel" "$(json_num $f channels_used) == 1 && $(json_num $f clp) == 1"
holds "LAP uses both channels" "$(json_num $TMP/fr_lap.json channels_used) == 2"
holds "LAP raises channel-level parallelism, at most to 2" \
	"$(json_num $TMP/fr_lap.json clp) > 1 && $(json_num $TMP/fr_lap.json clp) <= 2"
# Table 5.2's read statistic counts feature-map DTiles ("LAP for feature
# maps"), weight tiles apart.  Under LAP each rowTask has a row of its own:
# the 8 x 8 x 32 input is one 2048-byte DTile read whole, 2 rowTasks; each
# of the nine 32 x 32 weight tiles is 1024 bytes, 1 rowTask.  Counted
# together they would give (2 + 9) / 10 = 1.1.
printf 'input x channels=32 height=8 width=8\nconv a out=32 kernel=3 pad=1\n' > "$TMP/rt.dnn"
run rt_lap --workload "$TMP/rt.dnn" --dram-place lap
holds "rowTasks per feature-map read: 2 (one 2 KiB DTile)" "$(json_num $TMP/rt_lap.json rowtasks_per_read) == 2"
holds "rowTasks per weight-tile read: 1 (1 KiB tiles)" "$(json_num $TMP/rt_lap.json rowtasks_per_weight_read) == 1"
# The layers ARAI reorders are those whose input spans more than one
# channel group, C > T (Section 5.5.5: the array's size decides them).  A
# 64-channel 8 x 8 input, then a 32-channel one, 3 x 3 filters, one band:
# on the 32 x 32 array only the first layer has two groups, and DWS reads
# its input Kb R S H W C = 1 x 9 x 8 x 8 x 64 bytes, ARAI Kb H W C; on
# 16 x 16 both layers have several groups (their times add up to the
# inference); on 64 x 64 none has.
printf 'input x channels=64 height=8 width=8\nconv a out=32 kernel=3 pad=1\nconv b out=32 kernel=3 pad=1\n' > "$TMP/mg.dnn"
run mg_ws --workload "$TMP/mg.dnn"
run mg_arai --workload "$TMP/mg.dnn" --dataflow arai
run mg_16 --workload "$TMP/mg.dnn" --sa 16
run mg_64 --workload "$TMP/mg.dnn" --sa 64
holds "multi-group layers on 32 x 32: one" "$(json_num $TMP/mg_ws.json multigroup_layers) == 1"
holds "its IFMAP reads, DWS: 9 x 8 x 8 x 64 bytes" "$(json_num $TMP/mg_ws.json multigroup_ifmap_bytes) == 9 * 8 * 8 * 64"
holds "its IFMAP reads, ARAI: 8 x 8 x 64 bytes" "$(json_num $TMP/mg_arai.json multigroup_ifmap_bytes) == 8 * 8 * 64"
holds "its time is part of the inference" \
	"$(json_num $TMP/mg_ws.json multigroup_time_s) > 0 && $(json_num $TMP/mg_ws.json multigroup_time_s) < $(json_num $TMP/mg_ws.json inference_time_s)"
holds "multi-group layers on 16 x 16: both" "$(json_num $TMP/mg_16.json multigroup_layers) == 2"
close "on 16 x 16 they take the whole inference" "$(json_num $TMP/mg_16.json multigroup_time_s)" \
	"$(json_num $TMP/mg_16.json inference_time_s)" 1e-9
holds "multi-group layers on 64 x 64: none" \
	"$(json_num $TMP/mg_64.json multigroup_layers) == 0 && $(json_num $TMP/mg_64.json multigroup_time_s) == 0 && $(json_num $TMP/mg_64.json multigroup_ifmap_bytes) == 0"
# Outside the multi-group layers ARAI runs DWS's steps in DWS's order, so
# the time they take is the same to the rounding: ARAI's time cut is
# entirely the multi-group layers' (Figure 5.15's cause, measured per
# network in docs/validation/nna.md).
run fr_arai --workload $FR --dataflow arai
close "FR: the single-group layers take the same time under ARAI" \
	"$(awk "BEGIN { printf \"%.17g\", $(json_num $TMP/fr_arai.json inference_time_s) - $(json_num $TMP/fr_arai.json multigroup_time_s) }")" \
	"$(awk "BEGIN { printf \"%.17g\", $(json_num $f inference_time_s) - $(json_num $f multigroup_time_s) }")" 1e-9
holds "FR: ARAI cuts the multi-group layers' time" \
	"$(json_num $TMP/fr_arai.json multigroup_time_s) < $(json_num $f multigroup_time_s)"
# The table prints counts whole: a block is 8 bytes, so read_blocks x 8 is
# read_bytes to the byte, and no count is in exponent form (8.34179e+06).
if "$DLASIM" nna --workload $FR > "$TMP/fr.txt" 2> "$TMP/err"; then
	rb=$(awk '$1 == "read_blocks" { print $2 }' "$TMP/fr.txt")
	rB=$(awk '$1 == "read_bytes" { print $2 }' "$TMP/fr.txt")
	holds "table: counts are whole numbers" \
		"$(awk '$1 ~ /_(bytes|blocks)$/ && $2 !~ /^[0-9]+$/ { n++ } END { print n + 0 }' "$TMP/fr.txt") == 0 && $(grep -c '_blocks\|_bytes' "$TMP/fr.txt") >= 4"
	holds "table: read_blocks x 8 = read_bytes ($rb, $rB)" "\"$rb\" != \"\" && $rb * 8 == $rB && $rb > 1e6"
else
	not_ok "table" "$(head -c 300 "$TMP/err")"
fi
