# Ring collectives on generated dc platforms against the alpha-beta closed
# form (docs/collectives.md): with R rings of per-hop bandwidth B (one
# direction) and per-hop latency a, B_ring = R * B and
#   all-reduce:                  2(N-1)/N * S/B_ring + 2(N-1) * a
#   all-gather, reduce-scatter:   (N-1)/N * S/B_ring +  (N-1) * a
#   broadcast (k pieces of c = S/(R k) bytes per ring): (N-2+k) * (a + c/B)
# The generator's defaults give R = 3, B = 25 GB/s, a = 1 us.
. test/lib.sh

S=1e9
for n in 2 8 64 256; do
	"$DLASIM" platform --topology dc --devices "$n" -o "$TMP/dc$n.xml" || not_ok "platform dc $n" "generator failed"
	for op in allreduce allgather reducescatter; do
		case $op in allreduce) f=2 ;; *) f=1 ;; esac
		want=$(awk -v n="$n" -v s="$S" -v f="$f" 'BEGIN { printf "%.12g", f * ((n-1)/n * s/75e9 + (n-1) * 1e-6) }')
		for algo in ring ring_flow; do
			if "$DLASIM" coll --platform "$TMP/dc$n.xml" --op "$op" --bytes 1GB --coll "$algo" --json > "$TMP/out.json" 2> "$TMP/err"; then
				close "$algo $op N=$n within 1% of the closed form" "$(json_num "$TMP/out.json" simulated_time_s)" "$want" 0.01
				# NCCL-tests' bus bandwidth of a ring collective is the
				# ring bandwidth R * B = 75 GB/s, less the latency's share.
				busbw=$(awk -v n="$n" -v s="$S" -v f="$f" -v t="$want" 'BEGIN { printf "%.12g", s / t * f * (n-1)/n }')
				close "$algo $op N=$n bus bandwidth" "$(json_num "$TMP/out.json" bus_bandwidth_Bps)" "$busbw" 0.01
			else
				not_ok "$algo $op N=$n" "$(cat "$TMP/err")"
			fi
		done
	done
done

# Both ways (bidir=1, the default on full-duplex links): half of every
# chunk goes each way over the other direction of the same links, so the
# bandwidth term halves: B_ring = 2 R B = 150 GB/s, the latency term
# stays.  On 2 devices the ring's two hops are two links, each used one
# way by either direction: no gain, the one-way time.
for n in 2 8 64; do
	for op in allreduce allgather reducescatter; do
		case $op in allreduce) f=2 ;; *) f=1 ;; esac
		bw=150e9; [ "$n" = 2 ] && bw=75e9
		want=$(awk -v n="$n" -v s="$S" -v f="$f" -v b="$bw" 'BEGIN { printf "%.12g", f * ((n-1)/n * s/b + (n-1) * 1e-6) }')
		for algo in ring:bidir=1 ring_flow:bidir=1; do
			"$DLASIM" coll --platform "$TMP/dc$n.xml" --op "$op" --bytes 1GB --coll "$algo" --json > "$TMP/out.json"
			close "$algo $op N=$n within 1% of the closed form" "$(json_num "$TMP/out.json" simulated_time_s)" "$want" 0.01
		done
	done
done

# Broadcast: 1 GB in pieces of at most 4 MiB per ring.
k=$(awk 'BEGIN { k = int(1e9/3 / 4194304); if (k * 4194304 < 1e9/3) k++; print k }')
want=$(awk -v k="$k" 'BEGIN { c = 1e9/3/k; printf "%.12g", (8-2+k) * (1e-6 + c/25e9) }')
for algo in ring ring_flow; do
	"$DLASIM" coll --platform "$TMP/dc8.xml" --op broadcast --bytes 1GB --coll "$algo" --json > "$TMP/out.json"
	close "$algo broadcast N=8 within 1% of the pipeline closed form" "$(json_num "$TMP/out.json" simulated_time_s)" "$want" 0.01
done

# The JSON object names what was run.
"$DLASIM" coll --platform "$TMP/dc8.xml" --op allgather --bytes 64MiB --json > "$TMP/out.json"
holds "JSON has devices = 8" "$(json_num "$TMP/out.json" devices) == 8"
holds "JSON has bytes = 64 MiB" "$(json_num "$TMP/out.json" bytes) == 67108864"
if grep -q '"op": "allgather"' "$TMP/out.json" && grep -q '"algorithm": "ring:bidir=1"' "$TMP/out.json"; then
	ok "JSON names the operation and the algorithm"
else
	not_ok "JSON names the operation and the algorithm" "$(cat "$TMP/out.json")"
fi

# Halving-doubling on a switch: hop = up link + down link (a = 2 us), each
# device sends and receives at L * B = 150 GB/s.  Power of two:
#   all-reduce 2 log2(N) * a + 2 (N-1)/N * S/B;  broadcast log2(N) * (a + S/B)
# N = 6 folds two pairs first: + 2 * (a + S/B) around the 4-rank core.
for n in 8 6; do
	"$DLASIM" platform --topology switch --devices "$n" -o "$TMP/sw$n.xml"
done
want=$(awk 'BEGIN { printf "%.12g", 2*3*2e-6 + 2*7/8*1e9/150e9 }')
"$DLASIM" coll --platform "$TMP/sw8.xml" --op allreduce --bytes 1GB --coll hd --json > "$TMP/out.json"
close "hd allreduce N=8 on a switch within 1% of the closed form" "$(json_num "$TMP/out.json" simulated_time_s)" "$want" 0.01
want=$(awk 'BEGIN { printf "%.12g", 3*(2e-6 + 1e9/150e9) }')
"$DLASIM" coll --platform "$TMP/sw8.xml" --op broadcast --bytes 1GB --coll hd --json > "$TMP/out.json"
close "hd broadcast N=8 (binomial tree) within 1% of the closed form" "$(json_num "$TMP/out.json" simulated_time_s)" "$want" 0.01
want=$(awk 'BEGIN { b = 1e9/150e9; printf "%.12g", 2*(2e-6 + b) + 2*2*2e-6 + 2*3/4*b }')
"$DLASIM" coll --platform "$TMP/sw6.xml" --op allreduce --bytes 1GB --coll hd --json > "$TMP/out.json"
close "hd allreduce N=6 (folded to 4) within 1% of the closed form" "$(json_num "$TMP/out.json" simulated_time_s)" "$want" 0.01

# The default runs the rings both ways only where they can: every link
# but the memory channels full-duplex, and a route back along every ring.
# dc-8 with one ring link shared by both directions, or with the hop
# d0 -> d1 declared one way only, gets the one-way ring (and its time).
dflt_algo() {	# FILE
	"$DLASIM" coll --platform "$1" --op allreduce --bytes 1GB --json > "$TMP/d.json" &&
		sed -n 's/.*"algorithm": *"\([^"]*\)".*/\1/p' "$TMP/d.json"
}
holds "dc-8: both ways by default" "\"$(dflt_algo platforms/dc-8.xml)\" == \"ring:bidir=1\""
sed 's|<link id="nv-d0-d1" bandwidth="75GBps" latency="1000ns" sharing_policy="SPLITDUPLEX">|<link id="nv-d0-d1" bandwidth="75GBps" latency="1000ns">|; s|<link_ctn id="nv-d0-d1" direction="UP"/>|<link_ctn id="nv-d0-d1"/>|g' \
	platforms/dc-8.xml > "$TMP/shared.xml"
holds "a shared ring link: one way by default" "\"$(dflt_algo "$TMP/shared.xml")\" == \"ring\""
sed 's|<route src="d0" dst="d1">|<route src="d0" dst="d1" symmetrical="NO">|' platforms/dc-8.xml > "$TMP/oneway.xml"
holds "a ring hop without its way back: one way by default" "\"$(dflt_algo "$TMP/oneway.xml")\" == \"ring\""
close "... at the one-way closed form" "$(json_num "$TMP/d.json" simulated_time_s)" \
	"$(awk 'BEGIN { printf "%.12g", 2 * 7 / 8 * 1e9 / 75e9 + 14e-6 }')" 1e-6
