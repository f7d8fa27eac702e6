#!/bin/sh
# A short file-based fuzz of coll, train, tier, dram and nna (test/fuzz/commands.sh,
# docs/fuzzing.md): 60 mutated inputs (seed FUZZ_SEED, default 1), no
# signal, no sanitizer report, no hang, one line on every failure.
. test/lib.sh
seed=${FUZZ_SEED:-1}
if FUZZ_OUT="$TMP/findings" sh test/fuzz/commands.sh 60 "$seed" > "$TMP/fuzz.log" 2>&1; then
	ok "60 mutated inputs, seed $seed: $(tail -n 1 "$TMP/fuzz.log")"
else
	not_ok "60 mutated inputs, seed $seed" "$(grep -m 3 -E '^finding|commands.sh' "$TMP/fuzz.log" | tr '\n' ' ')"
fi
