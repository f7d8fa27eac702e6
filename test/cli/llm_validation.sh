#!/bin/sh
# The small rows of Megatron-LM's scaling table (Narayanan et al., SC'21,
# Table 1) on the machine it was measured on, DGX A100 nodes (8 devices on
# NVSwitch, a 200 Gb/s NIC each), with the A100's one efficiency constant
# (docs/validation/llm.md; every row: bench/llm_megatron.sh).
. test/lib.sh
D=$DLASIM
LLM_MACHINE=nvswitch
. bench/lib/llm_platform.sh

row() {	# row NAME MODEL TP GPUS BATCH: FLOP/s per device in $TMP/NAME.f
	llm_platform $(($4 / 8)) $TMP/$1.xml
	expect_ok "$1" $DLASIM llm --workload $2 --platform $TMP/$1.xml --global-batch $5 \
		--tp $3 --dp $(($4 / $3)) --json
	json_num $TMP/out model_flops_per_device_s > $TMP/$1.f
	json_num $TMP/out tp_exposed_s > $TMP/$1.tp
}
row 1.7b megatron-1.7b 1 32 512
row 3.6b megatron-3.6b 2 64 512
row 7.5b megatron-7.5b 4 128 512
row 18.4b megatron-18.4b 8 256 1024
tflops() { awk "BEGIN { print $(cat $TMP/$1.f) / 1e12 }"; }
# Table 1's TFLOP/s per GPU of each row; the issue's bound 15 %.
close "3.6B row within 15 % of 138 TFLOP/s" "$(tflops 3.6b)" 138 0.15
close "7.5B row within 15 % of 142 TFLOP/s" "$(tflops 7.5b)" 142 0.15
close "18.4B row within 15 % of 135 TFLOP/s" "$(tflops 18.4b)" 135 0.15
# The 1.7B row's GEMMs (h = 2304) run below the 530B model's efficiency
# the constant comes from: predicted faster than measured (137).
holds "1.7B row predicted above the paper's 137 TFLOP/s" "$(tflops 1.7b) > 137"
# The tensor group of 4 on the switch: every device its 12 x 25 GB/s to
# any other, so each all-reduce of S = s h 2 bytes (s 2048, h 4096) is the
# ring's 2 (n - 1)/n S / 300 GB/s plus 2 (n - 1) steps of two 1 us links
# (device to switch, switch to device); 6 per layer and micro-batch
# (forward, recomputed forward, backward: 2 each), 36 layers, 512 / 32 = 16
# micro-batches.
want=$(awk 'BEGIN { n = 4; S = 2048 * 4096 * 2; print 6 * 36 * 16 * (2 * (n - 1) / n * S / 300e9 + 2 * (n - 1) * 2e-6) }')
close "7.5B row: tensor all-reduces take the switch's ring time" "$(cat $TMP/7.5b.tp)" "$want" 0.02
