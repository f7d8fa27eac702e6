# Scale-out platforms (Figure 15) and the hierarchical collectives on them
# (docs/platforms.md, docs/collectives.md).  Closed forms: per channel
# (ring) s = S / R, G devices per system node, K nodes; inside a node the
# ring hop has latency a1 and bandwidth b1 per ring, across nodes a path of
# 4 links (device, node switch, node switch, device: 4 us) or 6 across pods,
# b2 = uplink / R per ring.
. test/lib.sh

S=1e9
json_time() { json_num "$1" simulated_time_s; }
coll() {	# FILE ALGO OP
	"$DLASIM" coll --platform "$1" --op "$3" --bytes 1GB --coll "$2" --json > "$TMP/r.json" &&
		json_time "$TMP/r.json"
}

"$DLASIM" platform --topology dc --nodes 4 -o "$TMP/dc4.xml"
"$DLASIM" platform --topology mc-ring --nodes 4 -o "$TMP/mc4.xml"
count() { grep -c "<prop id=\"dlasim.role\" value=\"$2\"/>" "$1"; }
holds "dc, 4 nodes: 32 devices, 8 sockets, 4 node switches and a spine" \
	"$(count "$TMP/dc4.xml" device) == 32 && $(count "$TMP/dc4.xml" cpu) == 8 && $(count "$TMP/dc4.xml" switch) == 5"
holds "every device names its system node" "$(grep -c 'dlasim.node' "$TMP/dc4.xml") == 32"
# Memory-nodes stay inside their system node: d8's left half belongs to
# m15, the node's last memory-node, not to m7 of the node before.
holds "mc-ring: backing of d8 is m15.1 m8.0 (inside node 1)" \
	"$(grep -A3 '<host id="d8"' "$TMP/mc4.xml" | grep -c 'value="m15.1 m8.0"') == 1"
"$DLASIM" platform --topology dc --nodes 2 --oversubscription 2 --uplink-bandwidth 100GBps -o "$TMP/o.xml"
holds "oversubscription 2: node uplink 8 x 100 / 2 = 400 GBps" \
	"$(grep -c 'id="up-sw0" bandwidth="400GBps"' "$TMP/o.xml") == 1"

# hier all-reduce: 2 [(G-1) a1 + (G-1)/G s/b1] + 2 [(K-1) a2 + (K-1)/K (s/G)/b2]
hier_ar() {	# G K a1 b1 a2 b2
	awk -v G=$1 -v K=$2 -v a1=$3 -v b1=$4 -v a2=$5 -v b2=$6 -v S=$S 'BEGIN { s = S / 3
		printf "%.12g", 2 * ((G-1)*a1 + (G-1)/G*s/b1) + 2 * ((K-1)*a2 + (K-1)/K*s/G/b2) }'
}
close "dc, 4 nodes: hier all-reduce = closed form" "$(coll "$TMP/dc4.xml" hier allreduce)" \
	"$(hier_ar 8 4 1e-6 25e9 4e-6 50e9)" 0.01
close "mc-ring, 4 nodes: hier all-reduce = closed form (hops through memory-nodes: 2 us)" \
	"$(coll "$TMP/mc4.xml" hier allreduce)" "$(hier_ar 8 4 2e-6 25e9 4e-6 50e9)" 0.01
# hier:bidir=1: the rings inside the nodes run both ways (b1 doubles);
# across the nodes a rank reaches both neighbours out of the same switch
# port, so that part stays.
hier_bidir=$(awk -v S=$S 'BEGIN { G = 8; K = 4; s = S / 3
	printf "%.12g", 2 * ((G-1)*1e-6 + (G-1)/G*s/50e9) + 2 * ((K-1)*4e-6 + (K-1)/K*s/G/50e9) }')
close "dc, 4 nodes: hier:bidir=1 all-reduce = closed form, inside both ways" \
	"$(coll "$TMP/dc4.xml" hier:bidir=1 allreduce)" "$hier_bidir" 1e-6
close "dc, 4 nodes: hier:inter=hd,bidir=1 all-gather = half of it less the hd saving" \
	"$(coll "$TMP/dc4.xml" hier:inter=hd,bidir=1 allgather)" \
	"$(awk -v t="$hier_bidir" 'BEGIN { print t / 2 - (3 - 2) * 4e-6 }')" 1e-6
# Reduce-scatter and all-gather: one of each half.
half=$(awk -v t="$(hier_ar 8 4 1e-6 25e9 4e-6 50e9)" 'BEGIN { printf "%.12g", t / 2 }')
close "dc, 4 nodes: hier reduce-scatter = half" "$(coll "$TMP/dc4.xml" hier reducescatter)" "$half" 0.01
close "dc, 4 nodes: hier all-gather = half" "$(coll "$TMP/dc4.xml" hier allgather)" "$half" 0.01

# inter=hd across K = 32 nodes in two pods of 16 (radix 16): the step at
# distance 16 crosses the pods (6 links), the 4 others stay in a pod:
#   2 [(G-1) a1 + (G-1)/G s/b1] + 2 [6 us + 4 x 4 us + (K-1)/K (s/G)/b2]
"$DLASIM" platform --topology dc --nodes 32 --switch-radix 16 -o "$TMP/dc32.xml"
holds "radix 16: 32 nodes in two pods" "$(grep -c '<zone id="pod[0-9]*"' "$TMP/dc32.xml") == 2"
want=$(awk -v S=$S 'BEGIN { s = S / 3; G = 8; K = 32
	printf "%.12g", 2 * ((G-1)*1e-6 + (G-1)/G*s/25e9) + 2 * (6e-6 + 4*4e-6 + (K-1)/K*s/G/50e9) }')
close "dc, 32 nodes in 2 pods: hier inter=hd all-reduce = closed form" \
	"$(coll "$TMP/dc32.xml" hier:inter=hd allreduce)" "$want" 0.01
want=$(awk -v S=$S 'BEGIN { s = S / 3; G = 8; K = 4
	printf "%.12g", 2 * ((G-1)*1e-6 + (G-1)/G*s/25e9) + 2 * (2*4e-6 + (K-1)/K*s/G/50e9) }')
close "dc, 4 nodes: hier inter=hd all-reduce = closed form" \
	"$(coll "$TMP/dc4.xml" hier:inter=hd allreduce)" "$want" 0.01

# hier broadcast: a pipelined ring across the nodes among the ranks of
# the root's index, then one inside every node, k = ceil(s / 4 MiB)
# pieces of c = s / k:  (K-2+k)(a2 + c/b2) + (G-2+k)(a1 + c/b1).
hier_bc() {	# BYTES G K a1 b1 a2 b2
	awk -v S=$1 -v G=$2 -v K=$3 -v a1=$4 -v b1=$5 -v a2=$6 -v b2=$7 'BEGIN { s = S / 3
		k = int(s / 4194304); if (k * 4194304 < s) k++; c = s / k
		printf "%.12g", (K-2+k)*(a2 + c/b2) + (G-2+k)*(a1 + c/b1) }'
}
close "dc, 4 nodes: hier broadcast of 1 GB = closed form (80 pieces)" \
	"$(coll "$TMP/dc4.xml" hier broadcast)" "$(hier_bc 1e9 8 4 1e-6 25e9 4e-6 50e9)" 0.01
close "mc-ring, 4 nodes: hier broadcast of 1 GB = closed form" \
	"$(coll "$TMP/mc4.xml" hier broadcast)" "$(hier_bc 1e9 8 4 2e-6 25e9 4e-6 50e9)" 0.01
"$DLASIM" coll --platform "$TMP/dc4.xml" --op broadcast --bytes 1MB --coll hier --root 13 --json > "$TMP/r.json"
close "dc, 4 nodes: hier broadcast of 1 MB from rank 13 = closed form (one piece)" \
	"$(json_time "$TMP/r.json")" "$(hier_bc 1e6 8 4 1e-6 25e9 4e-6 50e9)" 0.01
"$DLASIM" platform --topology dc --nodes 3 -o "$TMP/dc3b.xml"
"$DLASIM" coll --platform "$TMP/dc3b.xml" --op broadcast --bytes 1MB --coll hier:inter=hd --json > "$TMP/r.json"
close "dc, 3 nodes: a broadcast is a ring across with inter=hd too" \
	"$(json_time "$TMP/r.json")" "$(hier_bc 1e6 8 3 1e-6 25e9 4e-6 50e9)" 0.01
"$DLASIM" platform --topology dc --nodes 64 -o "$TMP/dc64n.xml"
holds "512 devices: hier broadcast beats the flat ring's N-hop pipeline" \
	"$(coll "$TMP/dc64n.xml" hier broadcast) * 2 < $(coll "$TMP/dc64n.xml" ring_flow broadcast)"

# The flat collectives run on the scale-out plane too (any pair routes).
expect_ok "hd runs on a scale-out platform" "$DLASIM" coll --platform "$TMP/dc4.xml" --op allreduce --bytes 1MB --coll hd
expect_ok "ring runs on a scale-out platform" "$DLASIM" coll --platform "$TMP/mc4.xml" --op allgather --bytes 1MB --coll ring

# Training picks hier on a scale-out platform and says so; memory
# overlaying is the same per device as on one 8-device machine (same
# per-device batch: 2 nodes x 64).
"$DLASIM" platform --topology mc-ring --nodes 2 -o "$TMP/mc2.xml"
"$DLASIM" train --platform "$TMP/mc2.xml" --workload workloads/vgg-e.dnn --batch 1024 \
	--page-alloc bw_aware --json > "$TMP/so.json"
"$DLASIM" train --platform platforms/mc-ring-8.xml --workload workloads/vgg-e.dnn --batch 512 \
	--page-alloc bw_aware --json > "$TMP/one.json"
holds "training on scale-out uses hier, both ways inside the nodes, by default" "$(grep -c '"coll": "hier:bidir=1"' "$TMP/so.json") == 1"
close "offloaded bytes per device: scale-out = one machine" \
	"$(json_num "$TMP/so.json" offload_bytes)" "$(json_num "$TMP/one.json" offload_bytes)" 1e-9
"$DLASIM" train --platform platforms/dc-8.xml --workload workloads/vgg-e.dnn > "$TMP/t.txt"
holds "training on 8 devices uses ring both ways by default" "$(grep -c 'collectives ring:bidir=1$' "$TMP/t.txt") == 1"

# dlasim coll without --coll uses the collective train would: hier on
# scale-out (every operation), ring_flow
# beyond 64 devices, ring up to 64; the times are the named plugin's.
dflt() {	# FILE OP: the algorithm and time of a run without --coll
	"$DLASIM" coll --platform "$1" --op "$2" --bytes 1GB --json > "$TMP/d.json" &&
		echo "$(sed -n 's/.*"algorithm": *"\([^"]*\)".*/\1/p' "$TMP/d.json") $(json_time "$TMP/d.json")"
}
"$DLASIM" platform --topology dc --devices 128 -o "$TMP/dc128.xml"
set -- $(dflt "$TMP/dc4.xml" allreduce)
holds "coll on scale-out uses hier both ways by default" "\"$1\" == \"hier:bidir=1\""
close "coll's default on scale-out = --coll hier:bidir=1" "$2" "$(coll "$TMP/dc4.xml" hier:bidir=1 allreduce)" 1e-12
set -- $(dflt "$TMP/dc4.xml" broadcast)
holds "coll broadcast on scale-out uses hier by default" "\"$1\" == \"hier:bidir=1\""
set -- $(dflt "$TMP/dc128.xml" allreduce)
holds "coll on 128 devices uses ring_flow both ways by default" "\"$1\" == \"ring_flow:bidir=1\""
close "coll's default on 128 devices = --coll ring_flow:bidir=1" "$2" "$(coll "$TMP/dc128.xml" ring_flow:bidir=1 allreduce)" 1e-12
set -- $(dflt platforms/dc-8.xml allreduce)
holds "coll on 8 devices uses ring both ways by default" "\"$1\" == \"ring:bidir=1\""

# A flat ring over the whole scale-out platform has unequal hops: inside
# a node a1 = 1 us (mc-ring: 2 us through a memory-node) at b1 = 25 GB/s
# per ring, across nodes a2 = 4 us (6 across pods) at b2 = 50 GB/s.  The
# step-by-step ring runs at its slowest step, 2(N-1) max(a + c/b) for an
# all-reduce with c = S / (R N); ring_flow must give the same (it used to
# pay every receiver's own latencies as well: +33% at 1024 devices).
for op in allreduce allgather broadcast; do
	close "mc-ring, 4 nodes, flat ring: ring_flow = ring ($op)" \
		"$(coll "$TMP/mc4.xml" ring_flow $op)" "$(coll "$TMP/mc4.xml" ring $op)" 0.01
done
close "mc-ring, 4 nodes, flat ring: ring_flow = ring (all-reduce, to 1e-6)" \
	"$(coll "$TMP/mc4.xml" ring_flow allreduce)" "$(coll "$TMP/mc4.xml" ring allreduce)" 1e-6
flat_ar() {	# N A B: 2(N-1)(a + S/(3N)/b) for S = 1 GiB
	awk -v N=$1 -v a=$2 -v b=$3 'BEGIN { printf "%.12g", 2 * (N - 1) * (a + 1073741824 / 3 / N / b) }'
}
gib() {	# FILE OP
	"$DLASIM" coll --platform "$1" --op "$2" --bytes 1GiB --coll ring_flow --json > "$TMP/r.json" &&
		json_time "$TMP/r.json"
}
"$DLASIM" platform --topology dc --nodes 128 -o "$TMP/dc1024.xml"
"$DLASIM" platform --topology mc-ring --nodes 128 -o "$TMP/mc1024.xml"
close "dc, 128 nodes (1024 devices), flat ring_flow all-reduce of 1 GiB = 2(N-1)(a1 + c/b1)" \
	"$(gib "$TMP/dc1024.xml" allreduce)" "$(flat_ar 1024 1e-6 25e9)" 0.01
close "mc-ring, 128 nodes, flat ring_flow all-reduce of 1 GiB = 2(N-1)(a1 + c/b1)" \
	"$(gib "$TMP/mc1024.xml" allreduce)" "$(flat_ar 1024 2e-6 25e9)" 0.01
# hier across 128 nodes in several pods: the ring over the nodes pays
# the slowest of its hops, across pods (6 links: a2 = 6 us), on every
# step, not the 4 us inside a pod.
close "dc, 128 nodes: hier all-reduce of 1 GiB = closed form with a2 = 6 us" \
	"$("$DLASIM" coll --platform "$TMP/dc1024.xml" --op allreduce --bytes 1GiB --coll hier --json | sed -n 's/.*"simulated_time_s": *\([-0-9.eE+]*\).*/\1/p')" \
	"$(awk 'BEGIN { G = 8; K = 128; s = 2^30 / 3; printf "%.12g", 2 * ((G-1)*1e-6 + (G-1)/G*s/25e9) + 2 * ((K-1)*6e-6 + (K-1)/K*s/G/50e9) }')" 1e-6
close "dc, 128 nodes, flat ring_flow all-gather = half the all-reduce" \
	"$(gib "$TMP/dc1024.xml" allgather)" "$(awk -v t="$(flat_ar 1024 1e-6 25e9)" 'BEGIN { print t / 2 }')" 0.01

# Bad input: one line each.
expect_error "hier without system nodes" "'hier' .*: the platform declares no system nodes" \
	"$DLASIM" coll --platform platforms/dc-8.xml --op allreduce --bytes 1MB --coll hier
"$DLASIM" platform --topology dc --nodes 3 -o "$TMP/dc3.xml"
expect_error "inter=hd on 3 nodes" "inter=hd needs a power-of-two number of system nodes, not 3" \
	"$DLASIM" coll --platform "$TMP/dc3.xml" --op allreduce --bytes 1MB --coll hier:inter=hd
expect_error "hier: unknown option" "unknown option 'across'" \
	"$DLASIM" coll --platform "$TMP/dc4.xml" --op allreduce --bytes 1MB --coll hier:across=tree
expect_error "scale-out of mc-star" "--nodes: system nodes are dc, dc-gen4, hc, hc-ring or mc-ring" \
	"$DLASIM" platform --topology mc-star --nodes 2
expect_error "radix too small" "--switch-radix 12: a system node's switch needs 16 ports" \
	"$DLASIM" platform --topology dc --nodes 2 --switch-radix 12
expect_error "oversubscription below 1" "--oversubscription '0.5'" \
	"$DLASIM" platform --topology dc --nodes 2 --oversubscription 0.5
expect_error "devices and nodes disagree" "--nodes 2 makes 16 devices" \
	"$DLASIM" platform --topology dc --nodes 2 --devices 12
