#!/bin/sh
# dlasim train --workload FILE.et | DIR: Chakra execution traces, made by
# test/chakra_gen, against totals worked out by hand (docs/chakra.md).
# The device runs 1.28e14 MAC/s (Table II: 1024 PEs x 125 MACs x 1 GHz),
# so the generator's 2.56e11-flop compute node takes 1 ms, plus the
# 100-cycle HBM latency: 1.0001 ms.
. test/lib.sh
P=platforms
C=workloads/chakra
G=$BUILD/test/chakra_gen
E=$TMP/et
mkdir -p $E
$DLASIM platform --topology dc --devices 2 -o $TMP/dc2.xml

# The shipped traces are the generator's, byte for byte.
$G chain $E/chain.et && $G memory $E/memory.et && $G pipeline $E/pipeline-8 8 && $G transformer $E/gpt2-medium.et
for f in chain.et memory.et gpt2-medium.et pipeline-8/pipeline.0.et pipeline-8/pipeline.3.et pipeline-8/pipeline.7.et; do
	if cmp -s $E/$f $C/$f; then ok "shipped $f is the generator's"; else not_ok "shipped $f is the generator's" "differs from test/chakra_gen's"; fi
done

# chain: compute, all-reduce of 1.2 GB, compute on dc-8.  The all-reduce
# runs both ways on dc-8's full-duplex links (the default, ring:bidir=1):
# 2 (N-1) steps of 1 us + S/(3 N)/2/25 GB/s = 14.014 ms (one way, --coll
# ring: 28.014 ms, test/cli/coll.tesh); the rest 2 x 1.0001 ms; the ring
# links carry 3 x 14 x 5e7 B, half each way, 8 links: 1.68e10 nvlink
# bytes.
expect_ok chain $DLASIM train --platform $P/dc-8.xml --workload $C/chain.et --json
cp $TMP/out $TMP/chain.json
close "chain: iteration = 2 x 1.0001 ms + 14.014 ms" "$(json_num $TMP/chain.json iteration_time_s)" 0.0160142 1e-6
close "chain: compute 2.0002 ms" "$(json_num $TMP/chain.json compute_s)" 0.0020002 1e-6
close "chain: the all-reduce fully exposed" "$(json_num $TMP/chain.json sync_exposed_s)" 0.014014 1e-6
close "chain: nvlink bytes 8 x 3 x 14 x 5e7" "$(json_num $TMP/chain.json nvlink_bytes)" 1.68e10 1e-6
holds "chain: JSON says chakra, no batch" "$(grep -c '"workload_format": "chakra"' $TMP/chain.json) == 1 && $(grep -c '"batch": null' $TMP/chain.json) == 1"
holds "chain: JSON names the collective, ring both ways on 8 devices" "$(grep -c '"coll": "ring:bidir=1"' $TMP/chain.json) == 1"
expect_ok chain-one-way $DLASIM train --platform $P/dc-8.xml --workload $C/chain.et --coll ring --json
close "chain, one way: iteration = 2 x 1.0001 ms + 28.014 ms" "$(json_num $TMP/out iteration_time_s)" 0.0300142 1e-6
$DLASIM platform --topology dc --nodes 2 -o $TMP/dc2n.xml
expect_ok chain-scale-out $DLASIM train --platform $TMP/dc2n.xml --workload $C/chain.et --json
holds "chain on 2 system nodes: hier, named" "$(grep -c '"coll": "hier:bidir=1"' $TMP/out) == 1"

# overlap: the all-reduce (14.014 ms) beside 10.0001 ms of compute that
# does not wait for it; the last node waits for both: the same 16.0142 ms,
# of which 14.014 - 10.0001 ms exposed.
$G overlap $E/overlap.et
expect_ok overlap $DLASIM train --platform $P/dc-8.xml --workload $E/overlap.et --json
close "overlap: iteration unchanged" "$(json_num $TMP/out iteration_time_s)" 0.0160142 1e-6
close "overlap: exposed 14.014 - 10.0001 ms" "$(json_num $TMP/out sync_exposed_s)" 0.0040139 1e-6

# memory on mc-ring-8: each device stores then loads 7.5e8 B through its
# memory-node; the local policy puts the pages on one half, one 3-lane
# NVLink of 75 GB/s each way: 10 ms per direction (plus microseconds of
# latency and requests).  Each byte crosses one memory channel each way:
# dram bytes 8 x 1.5e9.
expect_ok memory $DLASIM train --platform $P/mc-ring-8.xml --workload $C/memory.et --json
cp $TMP/out $TMP/mem.json
close "memory: iteration 2.0002 ms + 2 x 10 ms" "$(json_num $TMP/mem.json iteration_time_s)" 0.0220002 1e-3
holds "memory: offload and prefetch 7.5e8 B per device" "$(json_num $TMP/mem.json offload_bytes) == 7.5e8 && $(json_num $TMP/mem.json prefetch_bytes) == 7.5e8"
close "memory: dram bytes 8 x 1.5e9" "$(json_num $TMP/mem.json dram_bytes)" 1.2e10 1e-6
holds "memory on MC-DLA: no PCIe, no CPU memory" "$(json_num $TMP/mem.json pcie_bytes) == 0 && $(json_num $TMP/mem.json cpu_mem_bw_avg_Bps) == 0"
expect_ok memory-oracle $DLASIM train --platform $P/mc-ring-8.xml --workload $C/memory.et --device-memory inf --json
close "memory oracle: the stores and loads cost nothing" "$(json_num $TMP/out iteration_time_s)" 0.0020002 1e-6
expect_ok memory-dc $DLASIM train --platform $P/dc-8.xml --workload $C/memory.et --json
holds "memory on DC-DLA goes over PCIe to host memory, slower" "$(json_num $TMP/out pcie_bytes) > 0 && $(json_num $TMP/out iteration_time_s) > $(json_num $TMP/mem.json iteration_time_s)"

# pipeline-8: a directory of per-rank traces; rank r receives 7.5e8 B from
# r-1, computes 1.0001 ms, sends to r+1: 8 x 1.0001 ms + 7 x (1 us + 10 ms)
# over the dc ring's 75 GB/s links, 7 x 7.5e8 nvlink bytes.
expect_ok pipeline $DLASIM train --platform $P/dc-8.xml --workload $C/pipeline-8 --json
close "pipeline: 8 stages and 7 transfers" "$(json_num $TMP/out iteration_time_s)" 0.0780078 1e-6
close "pipeline: nvlink bytes 7 x 7.5e8" "$(json_num $TMP/out nvlink_bytes)" 5.25e9 1e-6

# The transformer: 24 GPT-2-medium blocks (h 1024, 16 heads, sequence
# 1024, batch 8 per device): every layer stores 4 x (10 x 8192 x 1024 +
# 8 x 16 x 1024^2) = 872415232 bytes of activations and loads them back;
# 24 all-reduces of 4 x 12 x 1024^2 bytes.
expect_ok gpt-mc $DLASIM train --platform $P/mc-ring-8.xml --workload $C/gpt2-medium.et --page-alloc bw_aware --json
cp $TMP/out $TMP/gmc.json
holds "gpt: offload = prefetch = 24 x 872415232 B" "$(json_num $TMP/gmc.json offload_bytes) == 24 * 872415232 && $(json_num $TMP/gmc.json prefetch_bytes) == 24 * 872415232"
# Compute: the roofline of every compute node, summed here from the
# node sizes the generator documents (test/chakra_gen.c).
want=$(awk 'function node(f, b) { t = f / 2 / 1.28e14; if (b / 9e11 > t) t = b / 9e11; return t + 1e-7 }
BEGIN { h = 1024; a = 16; s = 1024; b = 8; T = b * s; e = 4
	qkv = node(2*T*3*h*h, e*(T*h + 3*h*h + 3*T*h)); att = node(4*b*s*s*h, e*(4*T*h + 2*b*a*s*s))
	prj = node(2*T*h*h, e*(2*T*h + h*h)); mlp = node(2*T*4*h*h, e*(5*T*h + 4*h*h))
	fb = e*(T*h + 3*h*h + 3*T*h) + e*(4*T*h + 2*b*a*s*s) + e*(2*T*h + h*h) + 2*e*(5*T*h + 4*h*h)
	gemm = 2*T*3*h*h + 2*T*h*h + 2*2*T*4*h*h
	printf "%.12g", 24 * (qkv + att + prj + 2*mlp + node(gemm + 4*b*s*s*h, fb) + node(gemm, fb)) }')
close "gpt: compute is the roofline of its nodes" "$(json_num $TMP/gmc.json compute_s)" "$want" 1e-9
expect_ok gpt-dc $DLASIM train --platform $P/dc-8.xml --workload $C/gpt2-medium.et --json
cp $TMP/out $TMP/gdc.json
expect_ok gpt-oracle $DLASIM train --platform $P/dc-8.xml --workload $C/gpt2-medium.et --device-memory inf --json
cp $TMP/out $TMP/gor.json
holds "gpt: MC-DLA (ring, bw_aware) beats DC-DLA" "$(json_num $TMP/gmc.json iteration_time_s) < $(json_num $TMP/gdc.json iteration_time_s)"
holds "gpt: the oracle is the lower bound" "$(json_num $TMP/gor.json iteration_time_s) <= $(json_num $TMP/gmc.json iteration_time_s)"
holds "gpt: the oracle is compute plus exposed all-reduces" "$(json_num $TMP/gor.json iteration_time_s) >= $(json_num $TMP/gor.json compute_s)"

# Bad traces: one line naming the file and node, exit 1, nothing else.
for k in cycle coll-order storage-node gather group-rank group-no-ranks unknown-group no-comm-size missing-dep duplicate-id truncated; do
	$G bad $k $E/$k.et
done
expect_error cycle "cycle.et: node 0 'a' can never start" $DLASIM train --platform $P/dc-8.xml --workload $E/cycle.et
expect_error coll-order "coll-order.et: node 0 'first' can never start" $DLASIM train --platform $P/dc-8.xml --workload $E/coll-order.et
# A node waiting for a later one on its engine: ASTRA-sim issues whichever
# node is ready, so both run, the second first: 2 x 1.0001 ms.
$G reorder $E/reorder.et
expect_ok reorder $DLASIM train --platform $P/dc-8.xml --workload $E/reorder.et --json
close "reorder: both compute nodes run, 2 x 1.0001 ms" "$(json_num $TMP/out iteration_time_s)" 0.0020002 1e-6
expect_error unknown-type "storage-node.et: node 0 'read_dataset': unknown node type 8 \(Chakra's schema has types 0 to 7" $DLASIM train --platform $P/dc-8.xml --workload $E/storage-node.et
expect_error gather "gather.et: node 0 'gather': collective GATHER: dlasim runs .*not the rooted REDUCE, GATHER and SCATTER" $DLASIM train --platform $P/dc-8.xml --workload $E/gather.et
expect_error group-rank "group-rank.et: process group '3' names rank 9, the platform has 8 devices" $DLASIM train --platform $P/dc-8.xml --workload $E/group-rank.et
expect_error group-no-ranks "group-no-ranks.et: node 0 '## process_group:init ##': process group '4' without a list of ranks" $DLASIM train --platform $P/dc-8.xml --workload $E/group-no-ranks.et
expect_error unknown-group "unknown-group.et: node 1 'allreduce': pg_name '5' names no process group" $DLASIM train --platform $P/dc-8.xml --workload $E/unknown-group.et
expect_error no-comm-size "no-comm-size.et: node 0 'allreduce': COMM_COLL_NODE needs attribute comm_size or tensor_size" $DLASIM train --platform $P/dc-8.xml --workload $E/no-comm-size.et
expect_error missing-dep "missing-dep.et: node 0 'orphan': depends on node 41" $DLASIM train --platform $P/dc-8.xml --workload $E/missing-dep.et
expect_error duplicate-id "duplicate-id.et: node 0 'two': a second node with this id" $DLASIM train --platform $P/dc-8.xml --workload $E/duplicate-id.et
expect_error truncated "truncated.et: message 2 at byte [0-9]*: truncated" $DLASIM train --platform $P/dc-8.xml --workload $E/truncated.et
printf 'not protobuf at all, just text\n' > $E/text.et
expect_error text "text.et: (message 0 at byte 0: truncated|the first message is no Chakra GlobalMetadata)" $DLASIM train --platform $P/dc-8.xml --workload $E/text.et
: > $E/empty.et
expect_error empty "empty.et: empty file" $DLASIM train --platform $P/dc-8.xml --workload $E/empty.et
expect_error ranks "pipeline-8: per-rank traces of 8 ranks, the platform has 2 devices" $DLASIM train --platform $E/../dc2.xml --workload $C/pipeline-8
mkdir -p $E/hole && cp $C/pipeline-8/pipeline.0.et $C/pipeline-8/pipeline.2.et $E/hole/
expect_error hole "hole: no trace of rank 1" $DLASIM train --platform $P/dc-8.xml --workload $E/hole
$G swap $E/swap
expect_error deadlock "swap.0.et: rank 0 never finished node 0 'recv'" $DLASIM train --platform $E/../dc2.xml --workload $E/swap
expect_error batch "--batch: the Chakra trace .* fixes its own batch" $DLASIM train --platform $P/dc-8.xml --workload $C/chain.et --batch 64
expect_error parallel "--parallel: the Chakra trace" $DLASIM train --platform $P/dc-8.xml --workload $C/chain.et --parallel model
expect_error no-backing "dlasim.backing" $DLASIM train --platform $P/switch-8.xml --workload $C/memory.et

# ---- the compute nodes' data type (docs/chakra.md): attribute dtype, else
# --dtype, else fp32.  One node of 1e12 FLOPs on an A100 of efficiency
# 0.542: 1e12 / (312e12 x 0.542) in fp16, 1e12 / (19.5e12 x 0.542) in fp32 ----
expect_ok "a100 platform" $DLASIM platform --topology switch --devices 2 \
	--device bench/lib/a100-megatron.xml -o $E/a100.xml
$G typed $E/fp16.et fp16 1e12 && $G typed $E/fp7.et fp7 1e12
expect_ok "typed fp16" $DLASIM train --platform $E/a100.xml --workload $E/fp16.et --json
close "typed fp16: compute at the fp16 peak" "$(json_num $TMP/out compute_s)" "$(awk 'BEGIN { printf "%.17g", 1e12 / (312e12 * 0.542) }')" 1e-9
expect_ok "--dtype overrides the node's" $DLASIM train --platform $E/a100.xml --workload $E/fp16.et --dtype fp32 --json
close "--dtype fp32: compute at the fp32 peak" "$(json_num $TMP/out compute_s)" "$(awk 'BEGIN { printf "%.17g", 1e12 / (19.5e12 * 0.542) }')" 1e-9
expect_ok "--dtype on an untyped trace" $DLASIM train --platform $P/dc-8.xml --workload $C/chain.et --dtype fp32 --json
close "--dtype fp32 on chain: its 2.0002 ms" "$(json_num $TMP/out compute_s)" 0.0020002 1e-6
expect_error "bad dtype attribute" "fp7.et: node 0 'typed': attribute dtype is not the string fp32, bf16, fp16 or fp8" \
	$DLASIM train --platform $E/a100.xml --workload $E/fp7.et
expect_error "bad --dtype" "--dtype 'fp7'" $DLASIM train --platform $E/a100.xml --workload $E/fp16.et --dtype fp7
expect_error "--dtype on a network description" "--dtype: .*alexnet.* is no Chakra trace" \
	$DLASIM train --platform $P/dc-8.xml --workload alexnet --dtype fp16
expect_error "a type the device has no peak for" "dlasim.device.peak.fp16: missing" \
	$DLASIM train --platform $P/dc-8.xml --workload $C/chain.et --dtype fp16
