#!/bin/sh
# The small rows of Megatron-LM's scaling table (Narayanan et al., SC'21,
# Table 1) on A100 DGX-like nodes with the A100's one efficiency constant
# (docs/validation/llm.md; every row: bench/llm_megatron.sh).
. test/lib.sh
D=$DLASIM
. bench/lib/llm_platform.sh

row() {	# row NAME MODEL TP GPUS BATCH: FLOP/s per device in $TMP/NAME.f
	llm_platform $(($4 / 8)) $TMP/$1.xml
	expect_ok "$1" $DLASIM llm --workload $2 --platform $TMP/$1.xml --global-batch $5 \
		--tp $3 --dp $(($4 / $3)) --json
	json_num $TMP/out model_flops_per_device_s > $TMP/$1.f
}
row 1.7b megatron-1.7b 1 32 512
row 3.6b megatron-3.6b 2 64 512
f17=$(cat $TMP/1.7b.f)
f36=$(cat $TMP/3.6b.f)
# Table 1: 138 TFLOP/s per GPU on the 3.6B row; the issue's bound 15 %.
close "3.6B row within 15 % of 138 TFLOP/s" "$(awk "BEGIN { print $f36 / 1e12 }")" 138 0.15
# The 1.7B row's GEMMs (h = 2304) run below the 530B model's efficiency
# the constant comes from: predicted faster than measured (137).
holds "1.7B row predicted above the paper's 137 TFLOP/s" "$f17 / 1e12 > 137"
