#!/bin/sh
# --trace FILE: SimGrid's Paje trace, read back with pajeng's pj_dump, holds
# the actors' states and the links' usage it promises (docs/traces.md);
# --cfg passes SimGrid options through, checked first.
. test/lib.sh
P=platforms
W=workloads

# dump TRACE: pj_dump with 12 digits (the trace has 9); fails if unreadable.
dump() { pj_dump -l 12 "$1" > "$1.dump" 2> "$TMP/pj.err"; }
# used DUMP LINK: integral of bandwidth_used over the run, bytes.
used() { awk -F', ' -v l="$2" '$1 == "Variable" && $2 == l && $3 == "bandwidth_used" { b += $6 * $7 } END { printf "%.12g", b }' "$1"; }

# Ring all-reduce of 1.2 GB on dc-8: R = 3 rings of N = 8 over the same
# links, 2 (N-1) steps of S / (R N) = 5e7 bytes each per ring, so every
# ring link carries 3 x 14 x 5e7 = 2.1e9 bytes in its ring direction (the
# UP half of nv-dI-dJ) and nothing in the other: the one-direction ring.
expect_ok coll $DLASIM coll --platform $P/dc-8.xml --op allreduce --bytes 1.2GB --coll ring --trace $TMP/c.trace
if dump $TMP/c.trace; then ok "pj_dump reads the coll trace"; else not_ok "pj_dump reads the coll trace" "$(cat $TMP/pj.err)"; fi
for l in nv-d0-d1 nv-d3-d4 nv-d7-d0; do
	close "$l UP carried 2.1e9 bytes" "$(used $TMP/c.trace.dump ${l}_UP)" 2.1e9 1e-6
	holds "$l DOWN carried nothing" "$(used $TMP/c.trace.dump ${l}_DOWN) == 0"
done
# Both ways (the default on dc-8's full-duplex links, ring:bidir=1): half
# of every chunk goes each way, 1.05e9 bytes in each direction.
expect_ok coll-bidir $DLASIM coll --platform $P/dc-8.xml --op allreduce --bytes 1.2GB --trace $TMP/b.trace
dump $TMP/b.trace
for l in nv-d0-d1 nv-d7-d0; do
	close "bidir: $l UP carried 1.05e9 bytes" "$(used $TMP/b.trace.dump ${l}_UP)" 1.05e9 1e-6
	close "bidir: $l DOWN carried 1.05e9 bytes" "$(used $TMP/b.trace.dump ${l}_DOWN)" 1.05e9 1e-6
done
# One actor per rank and ring channel, each sending and receiving.
holds "24 channel actors" "$(awk -F', ' '$1 == "Container" && $3 == "ACTOR"' $TMP/c.trace.dump | grep -c .) == 24"
holds "send and receive states" "$(grep -c ', send$' $TMP/c.trace.dump) > 0 && $(grep -c ', receive$' $TMP/c.trace.dump) > 0"

# A training iteration: each device actor's "sleep" states are its
# compute time (dlasim computes by sleeping), so their sum over the 8
# devices is 8 x the mean compute time of the JSON result; tracing does
# not change the run.  One-direction rings (--coll ring) leave the
# prefetch direction to the overlay reads (below).
expect_ok train $DLASIM train --platform $P/mc-ring-8.xml --workload $W/alexnet.dnn --coll ring --json --trace $TMP/t.trace
cp $TMP/out $TMP/t.json
expect_ok train-untraced $DLASIM train --platform $P/mc-ring-8.xml --workload $W/alexnet.dnn --coll ring --json
holds "tracing changes no result" "$(json_num $TMP/out iteration_time_s) == $(json_num $TMP/t.json iteration_time_s)"
if dump $TMP/t.trace; then ok "pj_dump reads the train trace"; else not_ok "pj_dump reads the train trace" "$(cat $TMP/pj.err)"; fi
sleep_s=$(awk -F', ' '$1 == "Container" && $3 == "ACTOR" && $7 ~ /^device-/ { dev[$7] = 1 }
	$1 == "State" && ($2 in dev) && $8 == "sleep" { s += $6 } END { printf "%.12g", s }' $TMP/t.trace.dump)
close "device sleep states = 8 x compute_s" "$sleep_s" "$(awk "BEGIN { printf \"%.12g\", 8 * $(json_num $TMP/t.json compute_s) }")" 1e-6
holds "device actors sit on the device hosts" "$(awk -F', ' '$1 == "Container" && $3 == "ACTOR" && $7 ~ /^device-/ && $2 ~ /^d[0-7]$/' $TMP/t.trace.dump | grep -c .) == 8"
# Both directions of the split-duplex links are traced.
holds "nv-m7-d0 both directions in the trace" "$(grep -c 'LINK, .*nv-m7-d0_UP$' $TMP/t.trace.dump) == 1 && $(grep -c 'LINK, .*nv-m7-d0_DOWN$' $TMP/t.trace.dump) == 1"
# The prefetch direction carries only overlay reads here, one flow at a
# time: the trace's integral is the ledger's byte count (--link-stats).
expect_ok link-stats $DLASIM train --platform $P/mc-ring-8.xml --workload $W/alexnet.dnn --coll ring --link-stats $TMP/l.csv
close "nv-m7-d0 DOWN bytes as the ledger counts them" "$(used $TMP/t.trace.dump nv-m7-d0_DOWN)" "$(awk -F, '$1 == "nv-m7-d0" && $3 == "down" { print $5 }' $TMP/l.csv)" 1e-6

# tier: the NPU's actors and its HBM and flash links.
expect_ok tier $DLASIM tier --workload $W/tm/bert-large.tm --policy tm_training --trace $TMP/r.trace
if dump $TMP/r.trace; then ok "pj_dump reads the tier trace"; else not_ok "pj_dump reads the tier trace" "$(cat $TMP/pj.err)"; fi
holds "tier trace has actor states and link usage" "$(grep -c '^State, ' $TMP/r.trace.dump) > 0 && $(grep -c 'bandwidth_used' $TMP/r.trace.dump) > 0"

# The picture of docs/traces.md is drawn from a trace like this one.
if PAJE_TIMELINE_AXES=$TMP/axes sh scripts/paje-timeline.sh $TMP/t.trace $TMP/t.png nv-m7-d0_UP > $TMP/err 2>&1 && [ "$(head -c 8 $TMP/t.png | od -An -c | tr -d ' ')" = '211PNG\r\n032\n' ]; then
	ok "scripts/paje-timeline.sh draws a PNG"
else
	not_ok "scripts/paje-timeline.sh draws a PNG" "$(cat $TMP/err)"
fi
# Its two panels share the time axis: the same left and right edges.
if [ "$(grep -c . $TMP/axes)" -eq 2 ] && [ "$(sort -u $TMP/axes | grep -c .)" -eq 1 ]; then
	ok "paje-timeline: both panels' time axes line up"
else
	not_ok "paje-timeline: time axes" "$(cat $TMP/axes)"
fi

# Bad --trace and --cfg: one line, nothing left behind.
expect_error trace-dir "--trace $TMP/no/such/dir/x.trace: cannot create" $DLASIM coll --platform $P/dc-8.xml --op allreduce --bytes 1MB --trace $TMP/no/such/dir/x.trace
expect_error trace-empty "--trace '': an empty file name" $DLASIM coll --platform $P/dc-8.xml --op allreduce --bytes 1MB --trace ''
expect_error trace-failed-run "page-allocation plugin 'overlap'" $DLASIM train --platform $P/mc-ring-8.xml --workload $W/alexnet.dnn --page-alloc $BUILD/test-plugins/page_overlap.so --trace $TMP/f.trace
holds "no trace left by a failed run" "$(ls $TMP | grep -c '^f.trace')  == 0"
expect_error trace-bad-workload "nothere.dnn" $DLASIM train --platform $P/mc-ring-8.xml --workload $TMP/nothere.dnn --trace $TMP/g.trace
holds "no trace left by a run that never started" "$(ls $TMP | grep -c '^g.trace') == 0"
expect_error cfg-unknown "--cfg 'network/frobnicate:1': not a SimGrid option dlasim passes through" $DLASIM coll --platform $P/dc-8.xml --op allreduce --bytes 1MB --cfg network/frobnicate:1
expect_error cfg-no-colon "--cfg 'tracing': not NAME:VALUE" $DLASIM tier --workload $W/tm/bert-large.tm --policy hbm_only --cfg tracing
expect_error cfg-model "--cfg 'network/model:ns-3': not one of the values" $DLASIM train --platform $P/dc-8.xml --workload $W/alexnet.dnn --cfg network/model:ns-3
expect_error cfg-bool "--cfg 'network/crosstraffic:maybe': not yes or no" $DLASIM coll --platform $P/dc-8.xml --op allreduce --bytes 1MB --cfg network/crosstraffic:maybe
expect_error cfg-int "--cfg 'tracing/precision:99'" $DLASIM coll --platform $P/dc-8.xml --op allreduce --bytes 1MB --cfg tracing/precision:99
expect_error cfg-alone "--cfg 'tracing:yes': not a SimGrid option" $DLASIM coll --platform $P/dc-8.xml --op allreduce --bytes 1MB --cfg tracing:yes
expect_ok cfg-help $DLASIM coll --cfg help
holds "--cfg help lists network/model" "$(grep -c '^  network/model  *CM02|LV08' $TMP/out) == 1"

# Every option on that list, with a value of its type, runs to the end
# and leaves a readable trace (SimGrid aborts on no combination of them).
awk 'NR > 1 { print $1, $2 }' $TMP/out > $TMP/list
while read -r name type; do
	case $type in
	yes*) v=yes ;;
	integer) case $name in *stack-size) v=512 ;; *) v=3 ;; esac ;;
	number) case $name in *precision) v=1e-9 ;; *) v=1 ;; esac ;;
	text) v=dlasim ;;
	*) v=${type%%|*} ;;
	esac
	if $DLASIM coll --platform $P/dc-8.xml --op allreduce --bytes 1MB --cfg "$name:$v" --trace $TMP/o.trace > /dev/null 2> $TMP/err && pj_dump $TMP/o.trace > /dev/null 2>&1; then
		ok "--cfg $name:$v runs and traces"
	else
		not_ok "--cfg $name:$v runs and traces" "$(head -c 300 $TMP/err)"
	fi
done < $TMP/list
