#!/bin/sh
# dlasim merge against hostile sweeps (docs/fuzzing.md, "Hostile inputs"):
# it never writes onto a file it reads, refuses a NUL in a result naming
# the file, and is linear in the keys of a result.
. test/lib.sh

M=$TMP/m
mkdir -p $M/runs
printf 'run,op\n1,allreduce\n2,allgather\n' > $M/params.csv
echo '{"a": 1, "s": "x", "o": {"b": true}}' > $M/runs/0001.json
echo '{"a": 2, "s": "y", "o": {"b": false}}' > $M/runs/0002.json
cp $M/params.csv $TMP/params.orig
cp $M/runs/0001.json $TMP/r1.orig

# -o onto an input: refused, the input untouched.
expect_error onto-result "^dlasim: -o $M/runs/0001.json: this run reads that file" \
	"$DLASIM" merge $M -o $M/runs/0001.json
expect_error onto-params "^dlasim: -o $M/params.csv: this run reads that file" \
	"$DLASIM" merge $M -o $M/params.csv
expect_error onto-params-long "^dlasim: -o $M/params.csv: this run reads that file" \
	"$DLASIM" merge $M --output=$M/params.csv
ln -s runs/0001.json $M/link.json
expect_error onto-result-by-link "this run reads that file" "$DLASIM" merge $M -o $M/link.json
holds "the inputs are untouched" "$(cmp -s $M/params.csv $TMP/params.orig && cmp -s $M/runs/0001.json $TMP/r1.orig && echo 1 || echo 0) == 1"
rm $M/link.json
# An existing output that is no input is replaced, as before.
echo old > $TMP/out.csv
expect_ok onto-other "$DLASIM" merge $M -o $TMP/out.csv
holds "the output replaced" "$(grep -c '^0001.json,allreduce,1,x,true$' $TMP/out.csv) == 1"

# A NUL in a string (\u0000) or in the file: refused, the file named.
printf '{"a": 2, "s": "a\\u0000b"}\n' > $M/runs/0002.json
expect_error nul-escape "^dlasim: $M/runs/0002.json: byte [0-9]+: \\\\u0000: a NUL in a string" "$DLASIM" merge $M
printf '{"a": 2, "s": "ab"}\n\0junk' > $M/runs/0002.json
expect_error nul-byte "^dlasim: $M/runs/0002.json: byte 20: a NUL byte: not a text file" "$DLASIM" merge $M
printf '{"a": 2, "s": "a\\u00zzb"}\n' > $M/runs/0002.json
expect_error bad-escape "0002.json: byte [0-9]+: bad \\\\u escape" "$DLASIM" merge $M

# 200,000 keys in one result (3.6 MB): every key a column, every value in
# its place.  (A search through the list of columns took minutes; the
# timing is bench/merge_keys.sh's, the timeout here only a hang guard.)
mkdir -p $TMP/big
awk 'BEGIN { printf "{"; for (i = 0; i < 200000; i++) printf "%s\"k%d\": %d", i ? ", " : "", i, 3 * i; print "}" }' > $TMP/big/0001.json
expect_ok keys-200k timeout 60 "$DLASIM" merge $TMP/big
holds "200,000 keys: the header's 200,001 fields" "$(head -n 1 $TMP/out | tr ',' '\n' | wc -l) == 200001"
holds "200,000 keys: each value under its key" "$(awk -F, 'NR == 1 { for (i = 2; i <= NF; i++) h[i] = $i } NR == 2 { bad = 0; for (i = 2; i <= NF; i++) if (h[i] != "k" ($i / 3)) bad++; print bad }' $TMP/out) == 0"
