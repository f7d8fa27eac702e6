#!/bin/sh
# A study survives a failed run (results/jobs.c): every finished run keeps
# its result, each failed one is named with the command line that repeats
# it and why it failed, shown as n/a, and the study exits 1.  A plugin put
# first on DLASIM_PLUGIN_PATH under a shipped policy's name makes exactly
# that policy's runs fail.
. test/lib.sh
TP=$BUILD/test-plugins
mkdir -p "$TMP/plugins"
export DLASIM_PLUGIN_PATH="$TMP/plugins"

# study CMD...: run it, stdout in $TMP/out, stderr in $TMP/err, status in $rc.
study() { "$@" > "$TMP/out" 2> "$TMP/err"; rc=$?; }
count() { grep -c -- "$1" "$2"; }

# The reference: the data-parallel half of the study, every run well.
study "$DLASIM" study mcdla --parallel data --csv
cp "$TMP/out" "$TMP/clean.csv"
holds "clean study exits 0" "$rc == 0"

# MC-DLA(B) uses bw_aware: its 8 runs (one per benchmark) fail.
cp "$TP/page_bad_node.so" "$TMP/plugins/page-bw_aware.so"
study "$DLASIM" study mcdla --parallel data --csv
holds "failed runs: exit status 1" "$rc == 1"
holds "failed runs: 8 named, each with its commands and reason" \
	"$(count "study mcdla: run [0-9]* failed: dlasim platform --topology mc-ring --devices 8 -o mc-ring-8.xml && dlasim train --platform mc-ring-8.xml --workload .*\.dnn --batch 512 --parallel data --page-alloc bw_aware --coll ring --device-memory 16GB: page-allocation plugin 'bad_node'" "$TMP/err") == 8"
holds "failed runs: one summary line" \
	"$(count 'study mcdla: 8 of 48 runs failed' "$TMP/err") == 1 && $(grep -c . "$TMP/err") == 9"
# A failed run's result fields are empty; its batch is still given.
holds "failed runs: 48 rows, the 8 failed ones with empty fields" \
	"$(grep -c '^data,' "$TMP/out") == 48 && $(grep -c '^data,MC-DLA(B),[a-z0-9-]*,,,,,,,,,,,,,512$' "$TMP/out") == 8"
# The runs that did not fail are the same runs as in the clean study.
grep -v 'MC-DLA(B)' "$TMP/clean.csv" > "$TMP/clean-others.csv"
grep -v 'MC-DLA(B)' "$TMP/out" > "$TMP/others.csv"
if cmp -s "$TMP/clean-others.csv" "$TMP/others.csv"; then ok "failed runs: every other result kept"
else not_ok "failed runs: every other result kept" "$(diff "$TMP/clean-others.csv" "$TMP/others.csv" | head -n 4)"; fi

study "$DLASIM" study mcdla --parallel data
holds "table: MC-DLA(B) column n/a, harmonic mean too" \
	"$rc == 1 && $(grep -c '^  HarMean .* n/a ' "$TMP/out") == 1 && $(grep -c '^  alexnet .* n/a ' "$TMP/out") == 1"
study "$DLASIM" study mcdla --parallel data --json
holds "json: failed runs null with their error, their mean null" \
	"$rc == 1 && $(count '"error": "page-allocation plugin' "$TMP/out") == 8 && $(count '"iteration_time_s": null' "$TMP/out") == 8 && $(count '"speedup": null' "$TMP/out") == 1"

# A run that never ends is stopped by --timeout.  The hung runs sleep;
# the others are DC-DLA's 8 (--designs) on tiny workloads, four at a
# time, far below the limit even built with the sanitizers.
mkdir -p "$TMP/tiny"
for w in alexnet googlenet vgg-e resnet-34 rnn-gemv rnn-lstm-1 rnn-lstm-2 rnn-gru; do
	printf 'network %s
input data channels=3 height=8 width=8
conv c out=8 kernel=3
fc f out=10
' $w > "$TMP/tiny/$w.dnn"
done
cp "$TP/page_hang.so" "$TMP/plugins/page-bw_aware.so"
study "$DLASIM" study mcdla --parallel data --designs 'MC-DLA(B)' --csv --timeout 5s --jobs 4 --workloads "$TMP/tiny"
holds "timeout: 8 runs stopped and named" \
	"$rc == 1 && $(count 'run [0-9]* failed: .*--page-alloc bw_aware.*: timed out after 5s' "$TMP/err") == 8"
holds "timeout: the others finished" "$(grep -c '^data,MC-DLA(B),[a-z0-9-]*,,,,,,,,,,,,,512$' "$TMP/out") == 8 && $(grep -c '^data,DC-DLA,[^,]*,[0-9]' "$TMP/out") == 8"
expect_error "timeout without a unit" "study mcdla: --timeout '10': missing unit" \
	"$DLASIM" study mcdla --timeout 10
expect_error "timeout zero" "study mcdla: --timeout '0s': must be greater than zero" \
	"$DLASIM" study mcdla --timeout 0s
expect_error "jobs zero" "study tm: --jobs '0': out of range" "$DLASIM" study tm --jobs 0

# Runs in parallel print long warnings: each reaches stderr whole.
cp "$TP/page_chatty.so" "$TMP/plugins/page-bw_aware.so"
study "$DLASIM" study mcdla --parallel data --csv --jobs 4
holds "parallel messages: many lines, exit 0" "$rc == 0 && $(grep -c . "$TMP/err") > 1000"
holds "parallel messages: no line mixed with another" \
	"$(grep -vc '^dlasim: chatty: warning: device [0-9] <x\{3000\}> end$' "$TMP/err") == 0"
rm -f "$TMP/plugins/page-bw_aware.so"

# study tm on small workloads (2 layers each): autotm's runs fail.
mkdir -p "$TMP/tm"
for w in bert-large t5 chinchilla gpt3 palm; do
	sed 's/^layers .*/layers 2/' "workloads/tm/$w.tm" > "$TMP/tm/$w.tm"
done
cp "$TP/tier_bad_ratio.so" "$TMP/plugins/tier-autotm.so"
study "$DLASIM" study tm --workloads "$TMP/tm" --csv
holds "study tm: exit 1, autotm's runs named" \
	"$rc == 1 && $(count 'study tm: run [0-9]* failed: dlasim tier --workload .*/tm/[a-z0-9-]*\.tm --policy autotm --tier1-ratio [0-9.]* --batch-scale [0-9.]* --tier2-bw-scale [0-9.]* --online-only: tier-placement plugin .bad_ratio.' "$TMP/err") > 0"
holds "study tm: autotm cells empty, the other policies' filled" \
	"$(grep -c ',autotm,[a-z_]*,$' "$TMP/out") > 0 && $(grep -c ',autotm,[a-z_]*,[0-9]' "$TMP/out") == 0 && $(grep -c ',sentinel,[a-z_]*,[0-9]' "$TMP/out") > 0"
