#!/bin/sh
# Every shipped sweep spec (examples/sweeps) runs as docs/sweeps.md says:
# sweep writes the list, GNU parallel runs it with no run failing, merge
# gathers one row per combination of the grid.
. "$(dirname "$0")/../lib.sh"

# runs SPEC: the size of its grid, the product of the value counts of every
# key but command and name (counted here, not by dlasim).
runs() {
	sed 's/#.*//' "$1" | awk -F= 'NF >= 2 {
		key = $1; gsub(/[ \t]/, "", key)
		if (key == "command" || key == "name") next
		n *= split($2, v, " ")
	} BEGIN { n = 1 } END { print n }'
}

for spec in examples/sweeps/*.spec; do
	name=$(basename "$spec" .spec)
	out=$TMP/sweep-$name
	if ! $DLASIM sweep "$spec" --out "$out" > "$TMP/sweep.out" 2> "$TMP/sweep.err"; then
		not_ok "$name.spec" "sweep: $(head -c 300 "$TMP/sweep.err")"
		continue
	fi
	want=$(runs "$spec")
	lines=$(wc -l < "$out/runs.txt")
	if [ "$lines" -ne "$want" ]; then
		not_ok "$name.spec" "$lines runs listed, the grid has $want"
		continue
	fi
	if ! parallel --will-cite -j2 < "$out/runs.txt" > "$TMP/par.out" 2>&1; then
		not_ok "$name.spec" "a run failed: $(grep -v warning "$TMP/par.out" | head -c 300)"
		continue
	fi
	if ! $DLASIM merge "$out" > "$TMP/$name.csv" 2> "$TMP/merge.err"; then
		not_ok "$name.spec" "merge: $(head -c 300 "$TMP/merge.err")"
		continue
	fi
	rows=$(($(wc -l < "$TMP/$name.csv") - 1))
	if [ "$rows" -eq "$want" ]; then ok "$name.spec: $want runs, none failed, merged"
	else not_ok "$name.spec" "merged $rows rows of $want runs"; fi
done
