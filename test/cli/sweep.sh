#!/bin/sh
# dlasim sweep and merge: a grid of generated platforms x collectives as a
# run list, run by GNU parallel here and through --sshloginfile (":" is
# this machine), gathered by dlasim merge; every result is the one a
# direct run gives, and the ring's closed form.  (The Slurm path:
# make test-slurm, docs/sweeps.md.)
. test/lib.sh

D=$(cd "$(dirname "$DLASIM")" && pwd)/$(basename "$DLASIM")
cat > $TMP/coll.spec <<SPEC
# generated platforms: 2 topologies x 2 sizes; 2 collectives; 16 MB
command = coll
platform.topology = dc mc-ring
platform.devices = 4 8
op = allreduce allgather
bytes = 16MB
SPEC
expect_ok sweep $D sweep $TMP/coll.spec --out $TMP/sw
S=$TMP/sw
holds "8 runs in the run list" "$(grep -c . $S/runs.txt) == 8"
holds "params.csv: header and 8 rows" "$(grep -c . $S/params.csv) == 9 && \"$(head -n 1 $S/params.csv)\" == \"run,platform.topology,platform.devices,op,bytes\""
holds "4 generated platforms" "$(ls $S/platforms | grep -c '\.xml$') == 4"
holds "each line writes its own result" "$(grep -c "> '$S/runs/000[1-8].json.tmp' && mv" $S/runs.txt) == 8"
holds "sbatch array of 8 tasks" "$(grep -c '^#SBATCH --array=1-8$' $S/sweep.sbatch) == 1"

# GNU parallel, two at a time, from another directory.
if (cd $TMP && parallel --will-cite -j2 < $S/runs.txt) > $TMP/par.out 2>&1; then ok "parallel runs the list"; else not_ok "parallel runs the list" "$(head -c 300 $TMP/par.out)"; fi
holds "8 results" "$(ls $S/runs | grep -c '\.json$') == 8 && $(ls $S/runs | grep -c tmp) == 0"
expect_ok merge $D merge $S -o $TMP/m.csv
holds "merged CSV: header and 8 rows" "$(grep -c . $TMP/m.csv) == 9"
col() { awk -F, -v k="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == k) c = i; next } { print $c }' $TMP/m.csv; }
holds "merged CSV names the parameters and the results" "$(head -n 1 $TMP/m.csv | grep -c '^run,sweep.platform.topology,sweep.platform.devices,sweep.op,sweep.bytes,dlasim_version,')== 1"
# Every merged time is a direct run's, and dc's ring all-reduce is the
# closed form of the default rings both ways on its full-duplex links,
# 2(N-1)/N S/(2 x 75 GB/s) + 2(N-1) us (test/cli/coll_closed_form.sh).
i=0
for row in $(tail -n +2 $TMP/m.csv | cut -d, -f1-5); do
	i=$((i + 1))
	t=$(echo "$row" | cut -d, -f2); n=$(echo "$row" | cut -d, -f3); op=$(echo "$row" | cut -d, -f4)
	got=$(col simulated_time_s | sed -n "${i}p")
	$D coll --platform $S/platforms/$t-$n.xml --op $op --bytes 16MB --json > $TMP/direct.json
	close "run $i ($t, $n devices, $op) as a direct run" "$got" "$(json_num $TMP/direct.json simulated_time_s)" 1e-12
	if [ "$t" = dc ] && [ "$op" = allreduce ]; then
		close "run $i: ring closed form" "$got" "$(awk -v n=$n 'BEGIN { printf "%.12g", 2*(n-1)/n * 16e6/150e9 + 2*(n-1)*1e-6 }')" 0.01
	fi
done

# The same list through --sshloginfile (":" runs here, without ssh): the
# line is unchanged, the results the same.
expect_ok sweep-again $D sweep $TMP/coll.spec --out $TMP/sw2
echo ":" > $TMP/hosts
if parallel --will-cite --sshloginfile $TMP/hosts < $TMP/sw2/runs.txt > $TMP/par.out 2>&1; then ok "parallel --sshloginfile runs the list"; else not_ok "parallel --sshloginfile runs the list" "$(head -c 300 $TMP/par.out)"; fi
expect_ok merge-json $D merge $TMP/sw2 --json
holds "merged JSON: 8 objects" "$(grep -c '"run": "000[1-8].json"' $TMP/out) == 8"
grep simulated_time_s $TMP/out | tr -d ' ,' > $TMP/t2
for f in $S/runs/*.json; do grep simulated_time_s $f; done | tr -d ' ,' > $TMP/t1
if cmp -s $TMP/t1 $TMP/t2; then ok "--sshloginfile gives the same times"; else not_ok "--sshloginfile gives the same times" "$(diff $TMP/t1 $TMP/t2 | head -5)"; fi

# A run that fails leaves no result, and merge says so.
sed -i '3s/--bytes .16MB./--bytes '"'"'0'"'"'/' $TMP/sw2/runs.txt
rm -f $TMP/sw2/runs/*.json
if parallel --will-cite < $TMP/sw2/runs.txt > $TMP/par.out 2>&1; then not_ok "a failed run fails the list" "parallel exit 0"; else ok "a failed run fails the list"; fi
holds "the failed run left nothing" "$(ls $TMP/sw2/runs | grep -c '^0003')  == 0 && $(ls $TMP/sw2/runs | grep -c '\.json$') == 7"
expect_error merge-missing "1 of 8 runs have no result \(the first: run 3\)" $D merge $TMP/sw2
expect_ok merge-partial $D merge $TMP/sw2 --partial
holds "--partial merges the 7 others" "$(grep -c . $TMP/out) == 8"

# A value may hold a comma (a platform file's directory here): params.csv
# and the merged CSV quote it (RFC 4180), and merge reads it back.
mkdir -p "$TMP/c,d"
cp platforms/dc-8.xml "$TMP/c,d/dc.xml"
printf 'command = coll\nplatform = %s\nop = allreduce\nbytes = 1MB\n' "$TMP/c,d/dc.xml" > $TMP/comma.spec
expect_ok sweep-comma $D sweep $TMP/comma.spec --out $TMP/swc
holds "params.csv quotes the value" "$(grep -c "^1,\"$TMP/c,d/dc.xml\",allreduce,1MB\$" $TMP/swc/params.csv) == 1"
if sh $TMP/swc/runs.txt > $TMP/par.out 2>&1; then ok "the comma run runs"; else not_ok "the comma run runs" "$(head -c 300 $TMP/par.out)"; fi
expect_ok merge-comma $D merge $TMP/swc
holds "merged CSV: the row has the header's columns, the value one field" \
	"$(csv_fields < $TMP/out | sort -u | wc -l) == 1 && $(grep -c "^0001.json,\"$TMP/c,d/dc.xml\",allreduce,1MB," $TMP/out) == 1"

# Bad specs: one line naming file:line.
printf 'command = train\nplatform = dc-8\nworkload = alexnet\nfrobnicate = 1\n' > $TMP/bad.spec
expect_error spec-key "bad.spec:4: 'frobnicate' is not an option of dlasim train" $D sweep $TMP/bad.spec --out $TMP/b
printf 'command = study\n' > $TMP/bad.spec
expect_error spec-command "bad.spec: command 'study' is not train, coll, tier, nna, nvm, dram or llm" $D sweep $TMP/bad.spec --out $TMP/b
printf 'workload = alexnet\n' > $TMP/bad.spec
expect_error spec-no-command "bad.spec: no 'command = train\|coll\|tier\|nna\|nvm\|dram\|llm' line" $D sweep $TMP/bad.spec --out $TMP/b
printf 'command = train\nbatch = 64\nbatch = 128\n' > $TMP/bad.spec
expect_error spec-twice "bad.spec:3: 'batch' given twice \(first at line 2\)" $D sweep $TMP/bad.spec --out $TMP/b
printf 'command = coll\nplatform.devices = 8\nplatform = dc-8\n' > $TMP/bad.spec
expect_error spec-both "bad.spec:3: platform.\* keys generate the platforms" $D sweep $TMP/bad.spec --out $TMP/b
printf 'command = coll\nplatform.topology = torus\nplatform.devices = 8\nop = allreduce\nbytes = 1MB\n' > $TMP/bad.spec
expect_error spec-generator "--topology 'torus'" $D sweep $TMP/bad.spec --out $TMP/b
# The generated platforms are named by their values: a name past PATH_MAX
# is refused before the generator runs, not cut short.
printf 'command = coll\nplatform.topology = dc\nplatform.devices = %s\nop = allreduce\nbytes = 1MB\n' "$(printf '%04200d' 1)" > $TMP/bad.spec
expect_error spec-long-name "bad.spec: the platform.\* values make a platform file name longer than 4095 bytes" $D sweep $TMP/bad.spec --out $TMP/b
printf 'command = coll\nop =\n' > $TMP/bad.spec
expect_error spec-empty "bad.spec:2: 'op' has no value" $D sweep $TMP/bad.spec --out $TMP/b
touch $TMP/afile
expect_error out-file "afile: not a directory" $D sweep $TMP/coll.spec --out $TMP/afile
expect_error out-unmakable "/proc/nonesuch: cannot create" $D sweep $TMP/coll.spec --out /proc/nonesuch/x
mkdir -p $TMP/empty
expect_error spec-missing "nothere.spec: No such file" $D sweep $TMP/nothere.spec --out $TMP/b
expect_error spec-dir "sweep spec $TMP/empty: is a directory" $D sweep $TMP/empty --out $TMP/b
printf 'command = coll\nop = allreduce\0\n' > $TMP/nul.spec
expect_error spec-nul "nul.spec:2: a NUL byte: not a text file" $D sweep $TMP/nul.spec --out $TMP/b
expect_error merge-empty "no JSON result to merge" $D merge $TMP/empty
echo '{"a": 1, "b": [1, 2' > $TMP/empty/x.json
expect_error merge-bad-json "x.json: byte [0-9]*: " $D merge $TMP/empty
# An endless params.csv (a link to /dev/zero) is refused at its first
# line, not read into memory.
mkdir -p $TMP/zero && ln -s /dev/zero $TMP/zero/params.csv && echo '{"a": 1}' > $TMP/zero/0001.json
expect_error merge-endless-params "params.csv:1: a NUL byte" timeout 20 $D merge $TMP/zero
mkdir -p $TMP/zero2 && ln -s /dev/zero $TMP/zero2/0001.json
expect_error merge-endless-result "0001.json: more than 64 MiB: not a dlasim result" timeout 20 $D merge $TMP/zero2
