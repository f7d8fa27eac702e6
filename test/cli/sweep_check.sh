#!/bin/sh
# dlasim sweep checks every run of a spec by the command's own option
# checks (DLASIM_CHECK_RUN, lib/checkrun.h) before writing runs.txt: a
# combination that cannot run is one line naming it and its spec lines,
# or, with --skip-invalid, left out and listed; nna, nvm and dram sweep
# like train, coll and tier, their merged results equal direct runs.
. test/lib.sh
D=$DLASIM
SRC=$PWD

# A Chakra trace fixes its own batch: crossed with `batch`, half the grid
# cannot run (the trap docs/sweeps.md used to fall into).
cat > $TMP/mixed.spec <<SPEC
command = train
platform = dc-8
workload = alexnet $SRC/workloads/chakra/chain.et
batch = 64 128
SPEC
expect_error invalid-run "mixed.spec: combination 3 \(line 2 platform=dc-8, line 3 workload=.*chain.et, line 4 batch=64\) cannot run: train: --batch: the Chakra trace .* fixes its own batch" \
	$D sweep $TMP/mixed.spec --out $TMP/m
holds "nothing written for a spec that cannot run" "$(ls -d $TMP/m 2> /dev/null | wc -l) == 0"
if $D sweep $TMP/mixed.spec --out $TMP/m --skip-invalid > $TMP/out 2> $TMP/err; then
	holds "--skip-invalid: the two runs that can run in runs.txt" \
		"$(wc -l < $TMP/m/runs.txt) == 2 && $(grep -c "'alexnet'" $TMP/m/runs.txt) == 2 && $(grep -c chain.et $TMP/m/runs.txt) == 0"
	holds "--skip-invalid: the two left out named on stderr" \
		"$(grep -c 'skipped: train: --batch: the Chakra trace' $TMP/err) == 2 && $(grep -c . $TMP/err) == 2"
	holds "--skip-invalid: and in skipped.csv with their reason" \
		"$(grep -c '^[34],dc-8,.*chain.et,\(64\|128\),\"train: --batch' $TMP/m/skipped.csv) == 2 && $(wc -l < $TMP/m/skipped.csv) == 3"
	holds "--skip-invalid: params.csv numbers the runs kept" \
		"$(grep -c '^[12],dc-8,alexnet,' $TMP/m/params.csv) == 2 && $(wc -l < $TMP/m/params.csv) == 3"
	if grep -q '2 combinations .* skipped' $TMP/out; then ok "--skip-invalid: the summary says how many"
	else not_ok "--skip-invalid: the summary says how many" "$(head -c 300 $TMP/out)"; fi
else
	not_ok "--skip-invalid" "$(head -c 300 $TMP/err)"
fi
printf 'command = train\nplatform = dc-8\nworkload = %s/workloads/chakra/chain.et\nbatch = 64\n' "$SRC" > $TMP/none.spec
if $D sweep $TMP/none.spec --out $TMP/n --skip-invalid > $TMP/out 2> $TMP/err; then
	not_ok "none can run: an error" "exit 0"
else
	holds "none can run: an error after the one skipped, nothing written" \
		"$(tail -1 $TMP/err | grep -c 'none.spec: none of the 1 runs can run') == 1 && $(grep -c . $TMP/err) == 2 && $(ls -d $TMP/n 2> /dev/null | wc -l) == 0"
fi
expect_error skip-and-no-check "--skip-invalid needs the check" $D sweep $TMP/mixed.spec --out $TMP/x --skip-invalid --no-check
# --no-check writes the list as it stands.
expect_ok no-check $D sweep $TMP/mixed.spec --out $TMP/nc --no-check
holds "--no-check: every combination listed, no skipped.csv" "$(wc -l < $TMP/nc/runs.txt) == 4 && $(ls $TMP/nc/skipped.csv 2> /dev/null | wc -l) == 0"
# A check stops where the simulation would start: the run's other
# options are refused as the command refuses them, for every command.
printf 'command = coll\nplatform = dc-8\nop = allreduce\nbytes = 1MB 0B\n' > $TMP/c.spec
expect_error coll-invalid "c.spec: combination 2 \(.*line 4 bytes=0B\) cannot run: coll: --bytes" $D sweep $TMP/c.spec --out $TMP/c
printf 'command = tier\nworkload = bert-large\npolicy = hbm_only nonesuch\n' > $TMP/t.spec
expect_error tier-invalid "t.spec: combination 2 \(.*line 3 policy=nonesuch\) cannot run: " $D sweep $TMP/t.spec --out $TMP/t

# ---- nna, nvm, dram: sweepable, checked, merged equal to direct runs ----
FR=$SRC/workloads/nna/facerec.dnn
printf 'command = nna\nworkload = %s\ndram-place = roma lap\nsa = 16\n' "$FR" > $TMP/nna.spec
awk 'BEGIN { for (i = 0; i < 256; i++) printf "0x%x %s 0\n", i * 64, i % 3 ? "READ" : "WRITE" }' > $TMP/r.trace
printf 'command = dram\nconfig = ddr4-2400-x8-2ch2rk %s/platforms/dram/nvm.conf\ntrace = %s\n' "$SRC" "$TMP/r.trace" > $TMP/dram.spec
printf 'command = nvm\nworkload = btree\npersist = lad redu\ntx = 20\n' > $TMP/nvm.spec
# direct CMD ARGS...: the value of KEY in the direct run's JSON.
for s in nna dram nvm; do
	if $D sweep $TMP/$s.spec --out $TMP/sw-$s > /dev/null 2> $TMP/err &&
	   sh $TMP/sw-$s/runs.txt 2> $TMP/err && $D merge $TMP/sw-$s > $TMP/$s.csv 2> $TMP/err; then
		holds "$s: a sweep of 2 runs merged" "$(wc -l < $TMP/$s.csv) == 3"
	else
		not_ok "$s: a sweep of 2 runs merged" "$(head -c 300 $TMP/err)"
	fi
done
# col FILE KEY ROW: the merged value of KEY in data row ROW.
col() {
	awk -F, -v k="$2" -v r="$3" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == k) c = i } NR == r + 1 { print $c }' "$1"
}
$D nna --workload $FR --dram-place lap --sa 16 --json > $TMP/nna-lap.json
holds "nna: the merged LAP run is the direct run" \
	"$(col $TMP/nna.csv inference_time_s 2) == $(json_num $TMP/nna-lap.json inference_time_s) && $(col $TMP/nna.csv sa 2) == 16"
$D dram --config platforms/dram/nvm.conf --trace $TMP/r.trace --json > $TMP/dram-nvm.json
holds "dram: the merged NVM run is the direct run" \
	"$(col $TMP/dram.csv requests 2) == 256 && $(col $TMP/dram.csv cycles 2) == $(json_num $TMP/dram-nvm.json cycles)"
$D nvm --workload btree --persist redu --tx 20 --json > $TMP/nvm-redu.json
holds "nvm: the merged REDU run is the direct run" \
	"$(col $TMP/nvm.csv committed_tx 2) == $(json_num $TMP/nvm-redu.json committed_tx) && $(col $TMP/nvm.csv throughput_tx_per_s 2) == $(json_num $TMP/nvm-redu.json throughput_tx_per_s)"
# Their runs checked too: a bad value of each is its command's one line.
printf 'command = nna\nworkload = %s\nsa = 16 0\n' "$FR" > $TMP/bn.spec
expect_error nna-invalid "bn.spec: combination 2 \(.*line 3 sa=0\) cannot run: nna: --sa" $D sweep $TMP/bn.spec --out $TMP/bn
printf 'command = nvm\nworkload = btree\npersist = lad nonesuch\ntx = 20\n' > $TMP/bv.spec
expect_error nvm-invalid "bv.spec: combination 2 \(.*line 3 persist=nonesuch, .*\) cannot run: --persist: persistence-logging plugin 'nonesuch' not found" $D sweep $TMP/bv.spec --out $TMP/bv
printf 'command = dram\nconfig = ddr4-2400-x8-2ch2rk\ntrace = %s %s/nonesuch.trace\n' "$TMP/r.trace" "$TMP" > $TMP/bd.spec
expect_error dram-invalid "bd.spec: combination 2 \(.*nonesuch.trace\) cannot run: " $D sweep $TMP/bd.spec --out $TMP/bd
# llm: a sweep over ZeRO stages, merged, each run the direct run; a
# tensor-parallel degree that does not divide the heads is its one line.
printf 'command = llm\nworkload = megatron-1.7b\nplatform = dc-8\ndevice = a100-sxm-80gb\nglobal-batch = 64\ndp = 8\nzero = 0 3\n' > $TMP/llm.spec
if $D sweep $TMP/llm.spec --out $TMP/sw-llm > /dev/null 2> $TMP/err &&
   sh $TMP/sw-llm/runs.txt 2> $TMP/err && $D merge $TMP/sw-llm > $TMP/llm.csv 2> $TMP/err; then
	$D llm --workload megatron-1.7b --platform dc-8 --device a100-sxm-80gb --global-batch 64 --dp 8 --zero 3 --json > $TMP/llm-z3.json
	holds "llm: the merged ZeRO-3 run is the direct run" \
		"$(wc -l < $TMP/llm.csv) == 3 && $(col $TMP/llm.csv zero 2) == 3 && $(col $TMP/llm.csv iteration_time_s 2) == $(json_num $TMP/llm-z3.json iteration_time_s)"
else
	not_ok "llm: a sweep of 2 runs merged" "$(head -c 300 $TMP/err)"
fi
printf 'command = llm\nworkload = megatron-1.7b\nplatform = dc-8\ndevice = a100-sxm-80gb\nglobal-batch = 64\ntp = 1 5\n' > $TMP/bl.spec
expect_error llm-invalid "bl.spec: combination 2 \\(.*tp=5\\) cannot run: .*--tp 5 does not divide the 24 heads" $D sweep $TMP/bl.spec --out $TMP/bl
