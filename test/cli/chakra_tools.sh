# Chakra traces written by other tools (test/data/chakra/README.md says
# how each was made): Chakra's own generator, ASTRA-sim's custom
# collective, and one training step recorded from PyTorch 1.13, on
# mc-ring-8 and on a scale-out platform of two mc-ring system nodes.
# Closed forms (docs/collectives.md): S = 1 MiB, a = 2 us per hop on
# mc-ring-8 with 3 rings of 25 GB/s (B_ring = 75 GB/s), the rings run one
# way (--coll ring, hier: the default runs them both ways).
. test/lib.sh
D=test/data/chakra
GEN=$D/generator-8npus
P=platforms/mc-ring-8.xml
"$DLASIM" platform --topology mc-ring --nodes 2 -o $TMP/mc2.xml
t() {	# PLATFORM WORKLOAD [COLL]
	"$DLASIM" train --platform "$1" --workload "$2" ${3:+--coll $3} --json > "$TMP/r.json" 2> "$TMP/err" &&
		json_num "$TMP/r.json" iteration_time_s || echo "failed: $(cat $TMP/err)"
}
S=1048576
form() { awk -v s=$S "BEGIN { printf \"%.12g\", $1 }"; }

# Chakra's generator on mc-ring-8, each trace a directory of 8 ranks.
close "generator ALL_REDUCE = 14 (a + S/8/B_ring)" "$(t $P $GEN/ALL_REDUCE ring)" "$(form '14 * (2e-6 + s/8/75e9)')" 0.01
close "generator ALL_GATHER = 7 (a + S/8/B_ring)" "$(t $P $GEN/ALL_GATHER ring)" "$(form '7 * (2e-6 + s/8/75e9)')" 0.01
close "generator REDUCE_SCATTER = 7 (a + S/8/B_ring)" "$(t $P $GEN/REDUCE_SCATTER ring)" "$(form '7 * (2e-6 + s/8/75e9)')" 0.01
close "generator ALL_TO_ALL = 7 a + 3.5 S/B_ring" "$(t $P $GEN/ALL_TO_ALL)" "$(form '7 * 2e-6 + 3.5 * s/75e9')" 0.01
close "generator BARRIER = 14 a (no bytes)" "$(t $P $GEN/BARRIER)" "$(form '14 * 2e-6')" 0.01
# Broadcast: one pipeline piece of S/3 per ring over N-1 hops.
close "generator BROADCAST = 7 (a + S/3/25 GB/s)" "$(t $P $GEN/BROADCAST)" "$(form '7 * (2e-6 + s/3/25e9)')" 0.01
close "generator one_comp_node: its 5 us" "$(t $P $GEN/one_comp_node)" 5e-6 1e-9
close "generator two_comp_nodes_independent: 2 x 5 us on one engine" "$(t $P $GEN/two_comp_nodes_independent)" 1e-5 1e-9
close "generator two_comp_nodes_dependent: 2 x 5 us" "$(t $P $GEN/two_comp_nodes_dependent)" 1e-5 1e-9
holds "generator one_metadata_node_all_types: every attribute type read, no time" "\"$(t $P $GEN/one_metadata_node_all_types)\" == \"0\""
# Memory: 1 MiB to or from the device's memory-node over a 75 GB/s hop,
# plus the request and hop latencies, under 3 us.
for k in store load; do
	v=$(t $P $GEN/one_remote_mem_${k}_node)
	holds "generator one_remote_mem_${k}_node: S/75 GB/s plus under 3 us ($v)" \
		"\"$v\" != \"\" && $v >= $S/75e9 && $v <= $S/75e9 + 3e-6"
done
# The generator's sends and receives name no peer: refused, as ASTRA-sim
# (which reads comm_dst and comm_src) would.
expect_error "generator one_comm_send_node names no comm_dst" "one_comm_send_node.0.et: node 112 'COMM_SEND_NODE': COMM_SEND_NODE needs attribute comm_dst" \
	"$DLASIM" train --platform $P --workload $GEN/one_comm_send_node
expect_error "generator one_comm_recv_node names no comm_src" "COMM_RECV_NODE needs attribute comm_src" \
	"$DLASIM" train --platform $P --workload $GEN/one_comm_recv_node

# On 16 devices in two system nodes: rank 0's file every device runs.
# hier all-reduce (test/cli/scale_out.sh): G = 8, K = 2, s = S/3,
# a1 = 2 us, b1 = 25 GB/s, a2 = 4 us, b2 = 50 GB/s.
close "generator ALL_REDUCE on 2 nodes = hier closed form" "$(t $TMP/mc2.xml $GEN/ALL_REDUCE/ALL_REDUCE.0.et hier)" \
	"$(form '2 * (7 * 2e-6 + 7/8 * s/3/25e9) + 2 * (4e-6 + 1/2 * s/3/8/50e9)')" 0.01
for n in ALL_GATHER REDUCE_SCATTER ALL_TO_ALL BARRIER BROADCAST one_comp_node one_remote_mem_store_node one_remote_mem_load_node; do
	v=$(t $TMP/mc2.xml $GEN/$n/$n.0.et)
	holds "generator $n runs on 2 system nodes ($v)" "\"$v\" != \"\" && \"$v\" !~ /failed/"
done

# ASTRA-sim's custom ring all-reduce: 14 steps of one 131072-byte hop
# (75 GB/s on mc-ring-8) and 7 reductions of 7 us.  Before sends stopped
# waiting for their receives, it deadlocked.
close "ASTRA-sim custom all-reduce = 14 (a + 131072 B/75 GB/s) + 7 x 7 us" \
	"$(t $P $D/astra-sim-custom-allreduce)" "$(awk 'BEGIN { printf "%.12g", 14 * (2e-6 + 131072/75e9) + 49e-6 }')" 0.01
expect_error "ASTRA-sim custom all-reduce needs 8 devices" "per-rank traces of 8 ranks, the platform has 16 devices" \
	"$DLASIM" train --platform $TMP/mc2.xml --workload $D/astra-sim-custom-allreduce

# PyTorch 1.13, converted by Chakra's converter: 2195 host operators,
# many depending on nodes written after them, none with a duration; timed
# from their tensors (test/cli/chakra_torch.sh checks the time).
gzip -dc $D/pytorch-1.13/transformer_step.et.gz > $TMP/torch.et
for p in $P $TMP/mc2.xml; do
	v=$(t $p $TMP/torch.et)
	holds "PyTorch transformer step runs on $(basename $p) in more than 0 s ($v)" "\"$v\" != \"\" && $v > 0"
done
head -c 400000 $TMP/torch.et > $TMP/torch-cut.et
expect_error "a truncated PyTorch trace: one line" "torch-cut.et: message [0-9]* at byte [0-9]*: truncated" \
	"$DLASIM" train --platform $P --workload $TMP/torch-cut.et
# A corrupt node (its first field's tag byte overwritten) in a generator
# trace: one line naming the file and the message.
mkdir -p $TMP/corrupt && cp $GEN/ALL_REDUCE/*.et $TMP/corrupt/
printf '\377' | dd of=$TMP/corrupt/ALL_REDUCE.3.et bs=1 seek=9 conv=notrunc 2> /dev/null
expect_error "a corrupt node of a generator trace: one line" "ALL_REDUCE.3.et: message 1 at byte 8 is no Chakra Node" \
	"$DLASIM" train --platform $P --workload $TMP/corrupt
