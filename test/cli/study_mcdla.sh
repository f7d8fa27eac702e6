#!/bin/sh
# dlasim study mcdla: the default study (8 devices, batch 512, both modes).
# Checks the Section V claims the model reproduces; docs/validation/mcdla.md
# puts every figure beside the paper's.
. test/lib.sh

expect_ok study $DLASIM study mcdla --json
cp $TMP/out $TMP/s.json
hm() {
	python3 -c "
import json, sys
d = json.load(open('$TMP/s.json'))
print([h['speedup'] for h in d['harmonic_mean_speedup_over_dc'] if h['parallel'] == '$1' and h['design'] == '$2'][0])"
}
runs() {
	python3 -c "
import json
d = json.load(open('$TMP/s.json'))
print(len(d['runs']), sum(1 for r in d['runs'] if r['design'].startswith('MC') and r['cpu_mem_bw_avg_Bps'] == 0 and r['cpu_mem_bw_max_Bps'] == 0))"
}
set -- $(runs)
holds "96 runs" "$1 == 96"
holds "MC-DLA runs use no CPU memory bandwidth" "$2 == 48"
# Data-parallel ordering of Figure 13 (harmonic means).
holds "data: DC < HC < MC(S) < MC(L) <= MC(B) <= DC(O)" \
	"1 < $(hm data HC-DLA) && $(hm data HC-DLA) < $(hm data 'MC-DLA(S)') && $(hm data 'MC-DLA(S)') < $(hm data 'MC-DLA(L)') && $(hm data 'MC-DLA(L)') <= $(hm data 'MC-DLA(B)') && $(hm data 'MC-DLA(B)') <= $(hm data 'DC-DLA(O)')"
holds "model: DC < MC(S) < MC(L) <= MC(B) <= DC(O)" \
	"1 < $(hm model 'MC-DLA(S)') && $(hm model 'MC-DLA(S)') < $(hm model 'MC-DLA(L)') && $(hm model 'MC-DLA(L)') <= $(hm model 'MC-DLA(B)') && $(hm model 'MC-DLA(B)') <= $(hm model 'DC-DLA(O)')"
holds "MC-DLA(B) >= 84% of DC-DLA(O), both modes" \
	"$(hm data 'MC-DLA(B)') >= 0.84 * $(hm data 'DC-DLA(O)') && $(hm model 'MC-DLA(B)') >= 0.84 * $(hm model 'DC-DLA(O)')"

expect_ok csv $DLASIM study mcdla --parallel data --csv
holds "csv: header and 48 rows" "$(grep -c . $TMP/out) == 49 && $(head -n 1 $TMP/out | grep -c iteration_time_s) == 1"

expect_error bad-parallel "--parallel 'all': not data, model or both" $DLASIM study mcdla --parallel all
expect_error bad-devices "--devices '1'" $DLASIM study mcdla --devices 1
expect_error bad-batch "--batch 100 does not divide across 8 devices" $DLASIM study mcdla --batch 100 --parallel data
