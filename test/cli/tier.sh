#!/bin/sh
# dlasim tier: bad input (one line, non-zero exit, nothing on stdout) and
# properties that follow from the model without reading its output first.
. test/lib.sh
W=workloads/tm
TP=$BUILD/test-plugins

expect_error ratio_zero "--tier1-ratio '0'.*> 0" \
	"$DLASIM" tier --workload $W/bert-large.tm --policy hbm_only --tier1-ratio 0
expect_error ratio_negative "--tier1-ratio '-3'" \
	"$DLASIM" tier --workload $W/bert-large.tm --policy hbm_only --tier1-ratio -3
expect_error ratio_text "--tier1-ratio '25:2'" \
	"$DLASIM" tier --workload $W/bert-large.tm --policy hbm_only --tier1-ratio 25:2
expect_error tier1_too_big "tier 1 would be 48 GiB, larger than the 32 GiB address space" \
	"$DLASIM" tier --workload $W/bert-large.tm --policy tm_training --tier1-ratio 300
expect_error unknown_policy "--policy: tier-placement plugin 'nosuch' not found" \
	"$DLASIM" tier --workload $W/bert-large.tm --policy nosuch
expect_error wrong_kind "is a collective plugin" \
	"$DLASIM" tier --workload $W/bert-large.tm --policy "$BUILD/plugins/coll-ring.so"
expect_error missing_workload "workload $TMP/none.tm: No such file" \
	"$DLASIM" tier --workload "$TMP/none.tm" --policy hbm_only
expect_error bad_batch_scale "--batch-scale '0'" \
	"$DLASIM" tier --workload $W/bert-large.tm --policy hbm_only --batch-scale 0

# BERT-Large with 64x the batch on one chip needs ~100 GiB.
sed 's/^data_parallel.*/data_parallel 1/; s/^batch .*/batch 1024/' $W/bert-large.tm > "$TMP/huge.tm"
expect_error fits_in_neither "workload $TMP/huge.tm fits in neither tier" \
	"$DLASIM" tier --workload "$TMP/huge.tm" --policy tm_training
printf 'layers 2\nd_model x\n' > "$TMP/bad.tm"
expect_error bad_workload_line "$TMP/bad.tm:2: d_model 'x'" \
	"$DLASIM" tier --workload "$TMP/bad.tm" --policy hbm_only
expect_error plugin_bad_ratio "plugin 'bad_ratio' .*returned 1.5, not a split ratio in \[0, 1\]" \
	"$DLASIM" tier --workload $W/bert-large.tm --policy "$TP/tier_bad_ratio.so"
expect_error plugin_evicts_in_use "plugin 'bad_victim' .*victim\(\) chose .* in use" \
	"$DLASIM" tier --workload $W/bert-large.tm --policy "$TP/tier_bad_victim.so" --tier1-ratio 1

# The shipped platforms are the built-in ones.
for a in horizontal vertical; do
	if "$DLASIM" tier --print-platform $a | cmp -s - platforms/npu-$a.xml; then ok "platform_$a"
	else not_ok "platform_$a" "platforms/npu-$a.xml differs from --print-platform $a"; fi
done

run() { # NAME WORKLOAD POLICY RATIO
	"$DLASIM" tier --workload $W/$2.tm --policy $3 --tier1-ratio $4 --json > "$TMP/$1.json" 2> "$TMP/err" ||
		not_ok "$1" "$(head -c 300 "$TMP/err")"
}
run hbm bert-large hbm_only 25
mig=$(json_num "$TMP/hbm.json" migration_bytes)
holds hbm_only_migrates_nothing "$mig == 0"
# Table 2: 684 mW per GiB of HBM over the iteration.
t=$(json_num "$TMP/hbm.json" iteration_time_s)
close hbm_only_static_energy "$(json_num "$TMP/hbm.json" energy_static_j)" \
	"$(awk -v t="$t" 'BEGIN { print 0.684 * 32 * t }')" 1e-5
# The parts of the energy add up; throughput per watt is samples per joule.
e=$(json_num "$TMP/hbm.json" energy_j)
parts=$(awk -v f="$TMP/hbm.json" 'BEGIN { while ((getline l < f) > 0) if (l ~ /"energy_[a-z]+_j"/) { sub(/.*: */, "", l); sub(/,/, "", l); s += l } print s }')
close energy_parts_add_up "$parts" "$e" 1e-5
close throughput_per_watt "$(json_num "$TMP/hbm.json" throughput_per_watt)" \
	"$(awk -v e="$e" 'BEGIN { print 64 / e }')" 1e-5

# At a small tier 1 a cache of tier 2 moves more than tiers side by side.
run hor bert-large hor_off 5
run ver bert-large ver_off 5
holds vertical_migrates_more "$(json_num "$TMP/ver.json" migration_bytes) > $(json_num "$TMP/hor.json" migration_bytes)"

# GPT-3 at 25:1 (docs/validation/tm.md: BERT-Large is the exception): the
# ideal case migrates least, a tier 1 reading only itself (Sentinel) most.
for p in ideal tm_training autotm deeptm sentinel; do run "g_$p" gpt3 $p 25; done
m() { json_num "$TMP/g_$1.json" migration_bytes; }
holds ideal_migrates_least "$(m ideal) <= $(m tm_training) && $(m ideal) <= $(m autotm) && $(m ideal) <= $(m deeptm)"
holds sentinel_migrates_most "$(m sentinel) > $(m autotm) && $(m sentinel) > $(m tm_training)"

expect_error study_bad_option "study tm: unknown option '--bogus'" "$DLASIM" study tm --bogus
expect_error study_no_workloads "cannot find|No such file|palm.tm" "$DLASIM" study tm --workloads "$TMP/nowhere" --csv
