#!/bin/sh
# dlasim llm: one training iteration of a transformer (docs/llm.md).
# Bad configurations are one line each before any simulation; the 1F1B
# schedule, the FLOP count, the data-parallel bytes and ZeRO's against
# closed forms computed here by hand.
. test/lib.sh
# Devices: bench/lib/a100-megatron.xml, an A100 of efficiency 0.542.
expect_ok "platform" $DLASIM platform --topology dc --devices 8 --links-per-device 12 \
	--link-bandwidth 25GBps --device bench/lib/a100-megatron.xml -o $TMP/p8.xml
P=$TMP/p8.xml
L="$DLASIM llm --platform $P"
# calc EXPR: an awk expression, printed to full precision.
calc() { awk "BEGIN { printf \"%.17g\", $1 }"; }

# ---- bad configurations: one line, before the platform is read (the
# device and the device count right after it) ----
expect_error "tp does not divide heads" "--tp 5 does not divide the 24 heads of megatron-1.7b" \
	$DLASIM llm --platform $TMP/none.xml --workload megatron-1.7b --global-batch 8 --tp 5
expect_error "pp does not divide layers" "--pp 5 does not divide the 24 layers" \
	$DLASIM llm --platform $TMP/none.xml --workload megatron-1.7b --global-batch 8 --pp 5
expect_error "batch does not split" "--global-batch 10 does not split into 4 replicas x micro-batch 1" \
	$DLASIM llm --platform $TMP/none.xml --workload megatron-1.7b --global-batch 10 --dp 4
expect_error "does not fit, by how much" "megatron-1t does not fit: stage 0 needs [0-9.]+ GB per device .*a100-80gb-megatron has 80.00 GB: [0-9.]+ GB over" \
	$L --workload megatron-1t --global-batch 1
expect_error "no peak for the data type" "device table2 has no fp16 peak" \
	$DLASIM llm --platform dc-8 --workload megatron-1.7b --global-batch 8
expect_error "--device overrides the platform's" "a100-sxm-40gb has 40.00 GB" \
	$L --workload megatron-18.4b --global-batch 8 --device a100-sxm-40gb
expect_error "more devices than the platform" "tp 1 x pp 1 x dp 16 = 16 devices, .*p8.xml has 8" \
	$L --workload megatron-1.7b --global-batch 16 --dp 16
expect_error "ep does not divide experts" "--ep 3 does not divide the 8 experts" \
	$L --workload mixtral-8x7b --global-batch 6 --dp 6 --ep 3
expect_error "bad zero" "--zero '4'" $L --workload megatron-1.7b --global-batch 8 --zero 4
expect_error "bad recompute" "--recompute 'some'" $L --workload megatron-1.7b --global-batch 8 --recompute some
expect_error "bad device" "device 'tpu': no such description" $L --workload megatron-1.7b --global-batch 8 --device tpu
expect_error "bad workload" "colour" sh -c "printf 'colour red\n' > $TMP/bad.llm; $L --workload $TMP/bad.llm --global-batch 8"

# ---- 1F1B: (m + p - 1)(t_f + t_b), with a negligible output layer ----
cat > $TMP/uniform.llm <<'M'
layers 8
hidden 1024
heads 16
seq 2048
vocab 8
ffn 4096
M
expect_ok "pipeline run" $L --workload $TMP/uniform.llm --global-batch 8 --pp 4 --json
cp $TMP/out $TMP/pipe.json
# One layer's forward: 24 s h^2 + 4 s^2 h FLOPs at 312 TFLOP/s x 0.542;
# a micro-batch on a stage of 2 layers: forward, recomputation, backward
# (x 4).
tmb=$(calc '4 * 2 * (24 * 2048 * 1024 * 1024 + 4 * 2048 * 2048 * 1024) / (312e12 * 0.542)')
close "stage compute = m (t_f + t_b)" "$(json_num $TMP/pipe.json compute_s)" "$(calc "8 * $tmb")" 1e-6
close "1F1B iteration = (m + p - 1)(t_f + t_b)" "$(json_num $TMP/pipe.json iteration_time_s)" "$(calc "11 * $tmb")" 0.02
close "bubble = (p - 1)(t_f + t_b)" "$(json_num $TMP/pipe.json bubble_s)" "$(calc "3 * $tmb")" 1e-6
holds "the breakdown adds up to the iteration" "$(json_num $TMP/pipe.json compute_s) + $(json_num $TMP/pipe.json bubble_s) + $(json_num $TMP/pipe.json pp_exposed_s) + $(json_num $TMP/pipe.json dp_exposed_s) + $(json_num $TMP/pipe.json tp_exposed_s) - $(json_num $TMP/pipe.json iteration_time_s) < 1e-9"

# ---- interleaved 1F1B (Section 2.2.2), v = 2 chunks of one layer, on a
# switch (the last stage feeds the first): (m + (p - 1)/v)(t_f + t_b),
# within 2 % as 1F1B (the transfers); the bubble exactly (p - 1)/v of a
# micro-batch; the machine's 2 m (p v - 1) pipeline messages of b s h
# fp16 elements against 1F1B's 2 m (p - 1), each crossing two links ----
expect_ok "switch platform of 8" $DLASIM platform --topology switch --devices 8 \
	--device bench/lib/a100-megatron.xml -o $TMP/sw8.xml
expect_ok "1F1B on the switch" $DLASIM llm --platform $TMP/sw8.xml --workload $TMP/uniform.llm \
	--global-batch 8 --pp 4 --json
cp $TMP/out $TMP/f1b.json
expect_ok "interleaved run" $DLASIM llm --platform $TMP/sw8.xml --workload $TMP/uniform.llm \
	--global-batch 8 --pp 4 --schedule interleaved --virtual-stages 2 --json
cp $TMP/out $TMP/il.json
grep -q '"schedule": *"interleaved"' $TMP/il.json && grep -q '"virtual_stages": *2' $TMP/il.json &&
	grep -q '"schedule": *"1f1b"' $TMP/f1b.json && ok "JSON names the schedule and v" ||
	not_ok "JSON names the schedule and v" "$(grep -E 'schedule|virtual' $TMP/il.json)"
close "interleaved: stage compute = m (t_f + t_b)" "$(json_num $TMP/il.json compute_s)" "$(calc "8 * $tmb")" 1e-6
close "interleaved iteration = (m + (p - 1)/v)(t_f + t_b)" "$(json_num $TMP/il.json iteration_time_s)" "$(calc "9.5 * $tmb")" 0.02
close "interleaved bubble = (p - 1)(t_f + t_b)/v" "$(json_num $TMP/il.json bubble_s)" "$(calc "1.5 * $tmb")" 1e-6
close "1F1B pipeline bytes = 2 m (p - 1) messages" "$(json_num $TMP/f1b.json nvlink_bytes)" "$(calc "2 * 2 * 8 * 3 * 2048 * 1024 * 2")" 1e-9
close "interleaved pipeline bytes = 2 m (p v - 1) messages" "$(json_num $TMP/il.json nvlink_bytes)" "$(calc "2 * 2 * 8 * 7 * 2048 * 1024 * 2")" 1e-9
# Stage 0 holds (p - 1) 2 + (v - 1) p + 1 = 11 one-layer chunks against
# 1F1B's p = 4 micro-batches of two layers (Korthikanti et al., 4.2.3).
close "interleaved activations = 11/8 of 1F1B's" "$(json_num $TMP/il.json activations_bytes)" "$(calc "11 / 8 * $(json_num $TMP/f1b.json activations_bytes)")" 1e-12
expect_error "interleaved needs a route from the last stage to the first" "no route between pipeline neighbours 'd3' and 'd0'" \
	$L --workload $TMP/uniform.llm --global-batch 8 --pp 4 --schedule interleaved --virtual-stages 2
for bad in "--schedule interleaved|needs --virtual-stages of at least 2" \
	"--virtual-stages 2|--virtual-stages 2 needs --schedule interleaved" \
	"--schedule interleaved --virtual-stages 4|--virtual-stages 4 does not divide the 2 layers per stage" \
	"--schedule interleaved --virtual-stages 2 --global-batch 6|the 6 micro-batches per pipeline to be a multiple of --pp 4" \
	"--schedule round-robin|--schedule 'round-robin'"; do
	expect_error "bad schedule: ${bad%%|*}" "${bad#*|}" \
		$DLASIM llm --platform $TMP/none.xml --workload $TMP/uniform.llm --global-batch 8 --pp 4 ${bad%%|*}
done
expect_error "interleaved needs pipeline stages" "needs --pp of at least 2" \
	$DLASIM llm --platform $TMP/none.xml --workload $TMP/uniform.llm --global-batch 8 --schedule interleaved --virtual-stages 2

# ---- Megatron's FLOP count and MFU (Section 5.1) ----
expect_ok "data-parallel run" $L --workload megatron-1.7b --global-batch 16 --dp 8 --json
cp $TMP/out $TMP/dp.json
it=$(json_num $TMP/dp.json iteration_time_s)
F=$(awk 'BEGIN { B = 16; s = 2048; l = 24; h = 2304; V = 51200
	printf "%.17g", 96 * B * s * l * h * h * (1 + s / (6 * h) + V / (16 * l * h)) }')
close "model FLOP/s per device = 96 B s l h^2 (...) / N / T" "$(json_num $TMP/dp.json model_flops_per_device_s)" "$(calc "$F / 8 / $it")" 1e-9
close "MFU = FLOP/s / 312 TFLOP/s" "$(json_num $TMP/dp.json mfu)" "$(calc "$F / 8 / $it / 312e12")" 1e-9
close "tokens/s = B s / T" "$(json_num $TMP/dp.json tokens_per_s)" "$(calc "16 * 2048 / $it")" 1e-9

# ---- data parallelism on the links: a ring all-reduce sends 2 (n - 1) S ----
Pm=$(awk 'BEGIN { l = 24; h = 2304; V = 51200; s = 2048
	printf "%.17g", 12 * l * h * h * (1 + 13 / (12 * h) + (V + s) / (12 * l * h)) + 2 * h }')
close "ZeRO-0 gradients on NVLink = 2 (n - 1) x 2 P bytes" "$(json_num $TMP/dp.json nvlink_bytes)" "$(calc "2 * 7 * 2 * $Pm")" 0.001
expect_ok "ZeRO-1 run" $L --workload megatron-1.7b --global-batch 16 --dp 8 --zero 1 --json
cp $TMP/out $TMP/z1.json
expect_ok "ZeRO-3 run" $L --workload megatron-1.7b --global-batch 16 --dp 8 --zero 3 --json
cp $TMP/out $TMP/z3.json
close "ZeRO-1 moves an all-reduce's bytes" "$(json_num $TMP/z1.json nvlink_bytes)" "$(json_num $TMP/dp.json nvlink_bytes)" 0.001
close "ZeRO-3 moves 1.5 x ZeRO-1's bytes" "$(json_num $TMP/z3.json nvlink_bytes)" "$(calc "1.5 * $(json_num $TMP/z1.json nvlink_bytes)")" 0.001
close "ZeRO-1 optimizer states = 12 P / n" "$(json_num $TMP/z1.json optimizer_bytes)" "$(calc "12 * $Pm / 8")" 1e-6
close "ZeRO-3 parameters = 2 P / n" "$(json_num $TMP/z3.json params_bytes)" "$(calc "2 * $Pm / 8")" 1e-6

# ---- expert and tensor parallelism run through their plugins ----
expect_ok "mixture of experts" $L --workload mixtral-8x7b --global-batch 8 --dp 8 --ep 8 --zero 3 --recompute full --json
holds "expert all-to-alls take time" "$(json_num $TMP/out ep_exposed_s) > 0"
expect_ok "tensor parallel" $L --workload megatron-18.4b --global-batch 2 --tp 8 --json
holds "tensor all-reduces take time" "$(json_num $TMP/out tp_exposed_s) > 0"

# ---- outputs ----
expect_ok "csv" $L --workload megatron-1.7b --global-batch 8 --csv
[ "$(head -n 1 $TMP/out)" = "metric,value" ] && [ "$(csv_fields < $TMP/out | sort -u)" = 2 ] &&
	grep -q '^mfu,' $TMP/out && ok "csv: metric,value lines" || not_ok "csv: metric,value lines" "$(head -3 $TMP/out)"
expect_ok "table" $L --workload megatron-1.7b --global-batch 8
grep -q "model FLOPs utilization" $TMP/out && ok "table: MFU line" || not_ok "table: MFU line" "$(cat $TMP/out)"

# ---- representatives (docs/llm.md): on a switch, where the copies share
# no link with the simulated devices, simulating every replica gives the
# same iteration and the same bytes ----
expect_ok "switch platform" $DLASIM platform --topology switch --devices 16 --block 8 \
	--device bench/lib/a100-megatron.xml -o $TMP/sw16.xml
for w in "megatron-3.6b --tp 2 --pp 2 --dp 4" "test/data/llm/moe.llm --pp 2 --dp 8 --ep 2"; do
	what=$(echo "$w" | cut -d' ' -f1 | sed 's|.*/||')
	expect_ok "$what: representatives" $DLASIM llm --platform $TMP/sw16.xml --global-batch 16 --workload $w --json
	cp $TMP/out $TMP/rep.json
	expect_ok "$what: every replica" $DLASIM llm --platform $TMP/sw16.xml --global-batch 16 --workload $w --all-replicas --json
	close "$what: the same iteration" "$(json_num $TMP/rep.json iteration_time_s)" "$(json_num $TMP/out iteration_time_s)" 1e-9
	close "$what: the same bytes" "$(json_num $TMP/rep.json nvlink_bytes)" "$(json_num $TMP/out nvlink_bytes)" 1e-9
	if [ $what = megatron-3.6b ]; then
		holds "$what: fewer devices simulated" \
			"$(json_num $TMP/rep.json simulated_devices) < $(json_num $TMP/out simulated_devices)"
	fi
done
