#!/bin/sh
# Every output option on a full disk (docs/fuzzing.md, "Hostile inputs"):
# /dev/full, and a small tmpfs mounted here (as root) with 4 KB left; the
# run exits non-zero with one line naming the option and "No space left
# on device", and leaves nothing behind.  Then an interrupt while a
# study draws its figures, and outputs onto a file the run reads.
. test/lib.sh
P=platforms/dc-8.xml
S="$PWD"
D=$(cd "$(dirname "$DLASIM")" && pwd)/$(basename "$DLASIM")
mkdir -p "$TMP/cwd" "$TMP/m/runs"
"$D" platform --topology dc --devices 64 -o "$TMP/dc-64.xml"
awk 'BEGIN { printf "{"; for (i = 0; i < 5000; i++) printf "%s\"k%d\": %d", i ? ", " : "", i, i; print "}" }' > "$TMP/m/runs/0001.json"
printf 'command = coll\nplatform = %s\nop = allreduce allgather\nbytes = %s\n' "$S/$P" \
	"$(seq -s ' ' 1 200 | sed 's/[0-9]*/&KB/g')" > "$TMP/s.spec"

# outputs TARGET: each output option writing TARGET (a name in $1's
# directory, one per option), as "NAME|OPTION|COMMAND".
each_output() {
	t=$1
	cat <<LIST
coll-trace|--trace|coll --platform $S/$P --op allreduce --bytes 1MB --trace $t/c.trace
train-trace|--trace|train --platform $S/$P --workload alexnet --trace $t/t.trace
train-link-stats|--link-stats|train --platform $TMP/dc-64.xml --workload alexnet --link-stats $t/l.csv
llm-link-stats|--link-stats|llm --platform $TMP/dc-64.xml --device a100-sxm-80gb --workload megatron-1.7b --global-batch 64 --dp 64 --link-stats $t/llm.csv
tier-trace|--trace|tier --workload $S/workloads/tm/bert-large.tm --policy hbm_only --trace $t/tier.trace
tier-monitor|--monitor|tier --workload $S/workloads/tm/bert-large.tm --policy hbm_only --monitor $t/mon.csv
platform-o|-o|platform --topology dc --devices 64 -o $t/p.xml
merge-o|-o|merge $TMP/m -o $t/m.csv
LIST
}

# /dev/full: every option, in place; nothing left in the working directory
# (SimGrid's trace once landed in a file named "(null)" there).
each_output /dev/full | sed 's|/dev/full/[^ ]*|/dev/full|' | while IFS='|' read -r name opt cmd; do
	(cd "$TMP/cwd" && expect_error "$name /dev/full" "^dlasim: $opt /dev/full: write failed: No space left on device\$" "$D" $cmd)
done
holds "/dev/full: nothing left in the working directory" "$(ls -A "$TMP/cwd" | wc -l) == 0"
full() { "$@" > /dev/full; }
for c in "nvm --workload array --persist lad --tx 10 --csv" "nna --workload $S/workloads/nna/$(ls $S/workloads/nna | head -n 1) --json" "dram --config ddr4-2400-x8-2ch2rk --trace $S/test/fuzz/seeds/memdev_trace/$(ls $S/test/fuzz/seeds/memdev_trace | head -n 1)"; do
	expect_error "${c%% *} > /dev/full: ENOSPC, not EIO" "^dlasim: writing standard output: No space left on device\$" full "$D" $c
done

# A tmpfs of 256 KB with 4 KB left: the outputs fail midway.
F=$TMP/full
mkdir -p "$F"
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=256k,mode=0777 dlasim-test "$F" 2> "$TMP/mount.err"; then
	trap 'umount "$F"; rm -rf "$TMP"' EXIT
	dd if=/dev/zero of="$F/filler" bs=4k count=63 2> /dev/null
	each_output "$F" | while IFS='|' read -r name opt cmd; do
		expect_error "$name on a full disk" "^dlasim: $opt $F/[^ ]*: write failed: No space left on device\$" "$D" $cmd
		holds "$name on a full disk: nothing left behind" "\"$(ls -A "$F" | tr '\n' ' ')\" == \"filler \""
	done
	expect_error "sweep on a full disk" "run list $F/sw/runs.txt: write failed: No space left on device" \
		"$D" sweep "$TMP/s.spec" --out "$F/sw"
	holds "sweep on a full disk: nothing left behind" "\"$(ls -A "$F" | tr '\n' ' ')\" == \"filler \""
	expect_error "study --plot on a full disk" "^dlasim: figure $F/fig/[^ ]*: write failed: No space left on device" \
		sh -c "exec \"$D\" study mcdla --parallel data --designs 'MC-DLA(B)' --batch 256 --plot $F/fig > /dev/null"
	holds "study --plot on a full disk: no figure file, no temporary" "$(ls -A "$F/fig" 2>/dev/null | wc -l) == 0"
else
	ok "full-disk checks skipped: cannot mount a tmpfs here ($(head -c 100 "$TMP/mount.err")); /dev/full only"
fi

# SIGINT while `study mcdla --plot DIR` draws: gnuplot (a stand-in that
# ignores SIGINT, as gnuplot does, and writes its images late) is
# stopped, and DIR holds no temporary and no .dat or .gp without its
# images.
mkdir -p "$TMP/bin"
cat > "$TMP/bin/gnuplot" <<'FAKE'
#!/bin/sh
trap '' INT
png=$(printf '%s' "$2" | sed -n "s/.*png='\([^']*\)'.*/\1/p")
svg=$(printf '%s' "$2" | sed -n "s/.*svg='\([^']*\)'.*/\1/p")
: > "$READY"
sleep 3
echo late > "$png"
echo late > "$svg"
FAKE
chmod +x "$TMP/bin/gnuplot"
unignore='$SIG{INT} = "DEFAULT"; exec @ARGV or die'
READY=$TMP/ready PATH="$TMP/bin:$PATH" perl -e "$unignore" -- \
	"$D" study mcdla --parallel data --designs 'MC-DLA(B)' --batch 256 --plot "$TMP/fig" > /dev/null 2>&1 &
pid=$!
i=0
while [ ! -e "$TMP/ready" ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
kill -INT $pid
wait $pid
rc=$?
sleep 4	# a gnuplot still running would write its images now
holds "SIGINT while drawing: dlasim dies of it" "$rc > 128"
holds "SIGINT while drawing: no temporary left" "$(ls -A "$TMP/fig" | grep -c '^\.') == 0"
orphans=0
for f in "$TMP"/fig/*.dat "$TMP"/fig/*.gp; do
	[ -e "$f" ] || continue
	b=${f%.*}
	[ -s "$b.png" ] && [ -s "$b.svg" ] || orphans=$((orphans + 1))
done
holds "SIGINT while drawing: no .dat or .gp without its images" "$orphans == 0"

# No output onto a file the run reads.
cp $P "$TMP/p.xml"
cp "$TMP/p.xml" "$TMP/p.orig"
expect_error "--trace onto --platform" "^dlasim: --trace $TMP/p.xml: the same file as" \
	"$D" coll --platform "$TMP/p.xml" --op allreduce --bytes 1MB --trace "$TMP/p.xml"
expect_error "--link-stats onto --workload" "^dlasim: --link-stats $TMP/a.dnn: the same file as" \
	sh -c "cp $S/workloads/alexnet.dnn $TMP/a.dnn && exec \"$D\" train --platform $S/$P --workload $TMP/a.dnn --link-stats $TMP/a.dnn"
expect_error "--monitor onto --workload" "^dlasim: --monitor $TMP/b.tm: the same file as" \
	sh -c "cp $S/workloads/tm/bert-large.tm $TMP/b.tm && exec \"$D\" tier --workload $TMP/b.tm --policy hbm_only --monitor=$TMP/b.tm"
expect_error "sweep's run list onto its spec" "^dlasim: run list $TMP/sw/runs.txt: this run reads that file" \
	sh -c "mkdir -p $TMP/sw && cp $TMP/s.spec $TMP/sw/runs.txt && exec \"$D\" sweep $TMP/sw/runs.txt --out $TMP/sw"
holds "the inputs are untouched" "$(cmp -s "$TMP/p.xml" "$TMP/p.orig" && cmp -s "$TMP/a.dnn" $S/workloads/alexnet.dnn && cmp -s "$TMP/sw/runs.txt" "$TMP/s.spec" && echo 1 || echo 0) == 1"
