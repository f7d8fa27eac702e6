#!/bin/sh
# dlasim llm --emit-et (docs/llm.md, "Chakra traces"): the run of
# megatron-1.7b on 8 A100s (tp 2, pp 2, dp 2, global batch 8: m = 4
# micro-batches), 1F1B and interleaved, written as per-rank Chakra traces
# and run by 'dlasim train'.  The traces' compute against Megatron's FLOP
# count and the stages' closed forms, their collectives and transfers
# against the volumes worked out here by hand, train's iteration against
# llm's; the directory whole or not at all.
. test/lib.sh
SUM=$BUILD/test/chakra_sum
expect_ok "platform" $DLASIM platform --topology nvswitch --generation a100 --devices 8 \
	--device bench/lib/a100-megatron.xml -o $TMP/nv8.xml
L="$DLASIM llm --platform $TMP/nv8.xml --workload megatron-1.7b --global-batch 8 --tp 2 --pp 2 --dp 2"
calc() { awk "BEGIN { l = 24; h = 2304; s = 2048; V = 51200; m = 4; t = 2; printf \"%.17g\", $1 }"; }
# field RANK KEY: a total of rank RANK's trace (test/chakra_sum).
field() { awk -v k="$2" '{ for (i = 2; i < NF; i += 2) if ($i == k) print $(i + 1) }' $TMP/sum.$1; }
# total KEY: over the eight ranks.
total() { s=0; for r in 0 1 2 3 4 5 6 7; do s=$(awk "BEGIN { printf \"%.17g\", $s + $(field $r $1) }"); done; echo $s; }

# One layer's forward, b = 1: 24 s h^2 + 4 s^2 h; the logits 2 s h V.
LAYER='(24 * s * h * h + 4 * s * s * h)'
LOGIT='(2 * s * h * V)'
# Parameters of a stage's device: 12 layers of 12 h^2 + 13 h over t, the
# embedding V h / t (+ s h positions on the first, + 2 h on the last).
P0='(12 * (12 * h * h + 13 * h) / t + V * h / t + s * h)'
P1='(12 * (12 * h * h + 13 * h) / t + V * h / t + 2 * h)'

for sched in 1f1b interleaved; do
	opts=""; v=1
	[ $sched = interleaved ] && opts="--schedule interleaved --virtual-stages 2" && v=2
	rm -rf $TMP/et
	expect_ok "$sched: llm --emit-et" $L $opts --emit-et $TMP/et --json
	cp $TMP/out $TMP/llm.json
	n=$(ls $TMP/et | grep -c '^megatron-1\.7b\.[0-7]\.et$')
	holds "$sched: one trace per device, NAME.RANK.et" "$n == 8 && $(ls $TMP/et | grep -c .) == 8"
	for r in 0 1 2 3 4 5 6 7; do $SUM $TMP/et/megatron-1.7b.$r.et > $TMP/sum.$r; done
	# ---- compute: ranks 0-3 are stage 0, 4-7 stage 1 (Megatron's order) ----
	close "$sched: all ranks' num_ops = 96 B s l h^2 (1 + s/6h + V/16lh), B = 8" "$(total num_ops)" \
		"$(calc '96 * 8 * s * l * h * h * (1 + s / (6 * h) + V / (16 * l * h))')" 1e-12
	close "$sched: the mean rank's = llm's model FLOPs per device" "$(calc "$(total num_ops) / 8")" \
		"$(awk -v f="$(json_num $TMP/llm.json model_flops)" 'BEGIN { printf "%.17g", f / 8 }')" 1e-12
	close "$sched: stage 0 = m (l/p) 4 passes x layer / t" "$(field 0 num_ops)" \
		"$(calc "m * 12 * 4 * $LAYER / t")" 1e-12
	close "$sched: stage 1 adds the logits' 3 passes" "$(field 5 num_ops)" \
		"$(calc "m * 12 * 4 * $LAYER / t + m * 3 * $LOGIT / t")" 1e-12
	holds "$sched: every compute node names its type" "$(field 3 comp_nodes) > 0 && $(field 3 typed) == $(field 3 comp_nodes)"
	grep -q '"dtype": "fp16"' $TMP/llm.json && ok "$sched: megatron-1.7b is fp16" || not_ok "$sched: megatron-1.7b is fp16" "$(grep dtype $TMP/llm.json)"
	# ---- collectives: per layer and micro-batch 6 tensor all-reduces of
	# s h fp16 elements (full recomputation), then the stage's gradients ----
	close "$sched: stage 0 all-reduces = m (l/p) 6 x 2 s h + 2 P0" "$(field 1 allreduce)" \
		"$(calc "m * 12 * 6 * 2 * s * h + 2 * $P0")" 1e-12
	close "$sched: stage 1 all-reduces = m (l/p) 6 x 2 s h + 2 P1" "$(field 6 allreduce)" \
		"$(calc "m * 12 * 6 * 2 * s * h + 2 * $P1")" 1e-12
	# ---- transfers: messages of s h / t fp16 elements; 1F1B m a stage,
	# interleaved m (2 v - 1) (the first chunk receives nothing) ----
	close "$sched: stage 0 sends m (2 v - 1) messages of 2 s h / t bytes" "$(field 2 send)" \
		"$(calc "m * (2 * $v - 1) * 2 * s * h / t")" 1e-12
	close "$sched: every byte sent is received" "$(total send)" "$(total recv)" 1e-12
	# ---- train runs them as llm does: on the NVSwitch node every ring of
	# a group has ports of its own, the collectives are the same plugin's
	# (ring_flow times as ring), compute is num_ops at the fp16 peak
	# (tensor_size is far below the roofline's ridge), so the two agree to
	# rounding (docs/llm.md says what differs elsewhere) ----
	expect_ok "$sched: train runs the traces" $DLASIM train --platform $TMP/nv8.xml --workload $TMP/et --json
	cp $TMP/out $TMP/train.json
	close "$sched: train's iteration = llm's (1e-6)" "$(json_num $TMP/train.json iteration_time_s)" \
		"$(json_num $TMP/llm.json iteration_time_s)" 1e-6
	close "$sched: train's NVLink bytes = llm's" "$(json_num $TMP/train.json nvlink_bytes)" \
		"$(json_num $TMP/llm.json nvlink_bytes)" 1e-9
done
expect_ok "fp32 override" $DLASIM train --platform $TMP/nv8.xml --workload $TMP/et --dtype fp32 --json
holds "train --dtype fp32 computes 312/19.5 = 16 x longer" \
	"$(json_num $TMP/out compute_s) > 15.9 * $(json_num $TMP/train.json compute_s) && $(json_num $TMP/out compute_s) < 16.1 * $(json_num $TMP/train.json compute_s)"

# ---- a mixture of experts, E 2 of D 4, P 2 (b s h = 1024 x 1024, top-2,
# fp16): per layer and micro-batch 6 all-to-alls of 2 b s h top-k bytes
# (dispatch and combine in forward, recomputation and backward) ----
rm -rf $TMP/et
expect_ok "moe: llm --emit-et" $DLASIM llm --platform $TMP/nv8.xml --workload test/data/llm/moe.llm \
	--global-batch 16 --pp 2 --dp 4 --ep 2 --emit-et $TMP/et --json
cp $TMP/out $TMP/llm.json
$SUM $TMP/et/moe.5.et > $TMP/sum.5
close "moe: all-to-alls = m (l/p) 6 x 2 b s h k bytes" "$(field 5 alltoall)" \
	"$(calc '4 * 2 * 6 * 2 * 1024 * 1024 * 2')" 1e-12
expect_ok "moe: train runs the traces" $DLASIM train --platform $TMP/nv8.xml --workload $TMP/et --json
close "moe: train's iteration = llm's (1e-6)" "$(json_num $TMP/out iteration_time_s)" \
	"$(json_num $TMP/llm.json iteration_time_s)" 1e-6

# ---- a bad DIR: one line before any simulation, nothing written ----
expect_error "DIR is a device" "--emit-et /dev/full: exists and is no directory" $L --emit-et /dev/full
expect_error "DIR in a missing directory" "--emit-et $TMP/no/et: no directory $TMP/no to create it in" \
	$L --emit-et $TMP/no/et
mkdir $TMP/full && : > $TMP/full/x
expect_error "DIR not empty" "--emit-et $TMP/full: not empty" $L --emit-et $TMP/full
expect_error "a refused run writes nothing" "--pp 5 does not divide" $L --pp 5 --emit-et $TMP/none
[ ! -e $TMP/none ] && ok "no DIR after a refused run" || not_ok "no DIR after a refused run" "$(ls $TMP/none)"
# A write that fails half-way (files limited to 8 KiB, each trace is
# larger): one line, no DIR, no half-written directory beside it.
expect_error "a failed write" "--emit-et $TMP/small: megatron-1.7b.0.et: write failed: File too large" \
	sh -c "ulimit -f 16; trap '' XFSZ; exec $L --emit-et $TMP/small"
[ ! -e $TMP/small ] && [ -z "$(ls $TMP | grep tmp-)" ] && ok "nothing left of the failed write" ||
	not_ok "nothing left of the failed write" "$(ls $TMP)"
# A full disk (as test/cli/hostile_outputs.sh): a 64 KB tmpfs holds two of
# the eight 32 KB traces.
F=$TMP/disk
mkdir -p $F
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=64k,mode=0777 dlasim-emit $F 2> $TMP/mount.err; then
	trap 'umount "$F"; rm -rf "$TMP"' EXIT
	expect_error "a full disk" "--emit-et $F/et: megatron-1.7b.[0-9].et: write failed: No space left on device" \
		$L --emit-et $F/et
	holds "a full disk: nothing left behind" "$(ls -A $F | wc -l) == 0"
else
	ok "full-disk check skipped: cannot mount a tmpfs here ($(head -c 100 $TMP/mount.err))"
fi
mkdir $TMP/empty
expect_ok "an empty DIR takes the traces" $L --emit-et $TMP/empty
holds "the empty DIR now holds 8 traces" "$(ls $TMP/empty | grep -c '\.et$') == 8"
