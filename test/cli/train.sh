#!/bin/sh
# dlasim train: outputs, the Section V checks that hold per run, and every
# kind of bad input (one line, non-zero exit, no result file left).
. test/lib.sh
P=platforms
W=workloads
TP=$BUILD/test-plugins

# JSON keys and the oracle.
expect_ok json $DLASIM train --platform $P/mc-ring-8.xml --workload $W/alexnet.dnn --page-alloc bw_aware --json
cp $TMP/out $TMP/mcb.json
for k in iteration_time_s compute_s sync_s sync_exposed_s sync_wait_s virt_s virt_exposed_s \
	 cpu_mem_bw_avg_Bps cpu_mem_bw_max_Bps nvlink_bytes pcie_bytes dram_bytes; do
	v=$(json_num $TMP/mcb.json $k)
	holds "key $k" "\"$v\" != \"\""
done
# MC-DLA: no CPU memory bandwidth at all (Section V-A).
holds "mc-ring uses no CPU memory bandwidth" "$(json_num $TMP/mcb.json cpu_mem_bw_avg_Bps) == 0 && $(json_num $TMP/mcb.json cpu_mem_bw_max_Bps) == 0"
# Every overlay byte crosses one memory channel: dram bytes = 8 devices x
# (offloaded + prefetched), plus the 64-byte read requests (0.1% here).
close "dram bytes are the overlay bytes" "$(json_num $TMP/mcb.json dram_bytes)" "$(awk "BEGIN { printf \"%.17g\", 8 * ($(json_num $TMP/mcb.json offload_bytes) + $(json_num $TMP/mcb.json prefetch_bytes)) }")" 2e-3

expect_ok oracle $DLASIM train --platform $P/dc-8.xml --workload $W/alexnet.dnn --device-memory inf --json
cp $TMP/out $TMP/o.json
holds "oracle moves nothing to host memory" "$(json_num $TMP/o.json virt_s) == 0 && $(json_num $TMP/o.json pcie_bytes) == 0"
holds "oracle is bound by compute and exposed sync" "$(json_num $TMP/o.json iteration_time_s) >= $(json_num $TMP/o.json compute_s)"

# A machine slow enough to run for days: the socket windows widen (twice
# at a time) so that 65,536 of them cover the run, instead of growing with
# it (linkstats.h); the peak window can never be below the run's mean.
expect_ok slow-platform $DLASIM platform --topology hc --devices 8 --link-bandwidth 1e3Bps -o $TMP/slow.xml
expect_ok slow-run $DLASIM train --platform $TMP/slow.xml --workload $W/alexnet.dnn --json
cp $TMP/out $TMP/slow.json
ws=$(json_num $TMP/slow.json cpu_mem_bw_window_s)
it=$(json_num $TMP/slow.json iteration_time_s)
holds "a day-long run has wider windows" "$it > 86400 && $ws > 1e-4"
holds "windows are 100 us times a power of two" "2 ^ int(log($ws / 1e-4) / log(2) + 0.5) * 1e-4 / $ws > 1 - 1e-12 && 2 ^ int(log($ws / 1e-4) / log(2) + 0.5) * 1e-4 / $ws < 1 + 1e-12"
holds "windows widened only as far as the run needed" "$ws * 32768 <= $it"
holds "peak window at least the mean" "$(json_num $TMP/slow.json cpu_mem_bw_max_Bps) >= $(json_num $TMP/slow.json cpu_mem_bw_avg_Bps) * (1 - 1e-9) && $(json_num $TMP/slow.json cpu_mem_bw_avg_Bps) > 0"
expect_ok default-windows $DLASIM train --platform $P/dc-8.xml --workload $W/alexnet.dnn --json
holds "a short run keeps 100 us windows" "$(json_num $TMP/out cpu_mem_bw_window_s) == 1e-4"

# Synchronization (Figure 11) is communication from the last device's
# arrival.  AlexNet's 8 weight all-reduces on the idle rings of the oracle
# take the ring's closed form (docs/collectives.md), both ways on dc-8's
# full-duplex links (the default, ring:bidir=1): 2(N-1)/N x 4 x
# 60,965,224 bytes / (2 x 3 x 25 GB/s) + 8 x 2(N-1) x 1 us; in one
# direction (--coll ring) twice the bandwidth term.
holds "dc-8 trains with rings both ways by default" "$(grep -c '"coll": "ring:bidir=1"' $TMP/o.json) == 1"
close "oracle sync is the rings' closed form (both ways)" "$(json_num $TMP/o.json sync_s)" \
	"$(awk 'BEGIN { printf "%.12g", 2 * 7 / 8 * 4 * 60965224 / 150e9 + 8 * 14e-6 }')" 1e-6
expect_ok oracle-one-way $DLASIM train --platform $P/dc-8.xml --workload $W/alexnet.dnn --device-memory inf --coll ring --json
close "oracle sync is the rings' closed form (one way)" "$(json_num $TMP/out sync_s)" \
	"$(awk 'BEGIN { printf "%.12g", 2 * 7 / 8 * 4 * 60965224 / 75e9 + 8 * 14e-6 }')" 1e-6
# With memory overlaying on PCIe, devices reach the all-reduces at
# different times; the waiting is counted apart and the communication,
# on NVLinks nothing else uses, is the oracle's.
expect_ok sync-inf $DLASIM train --platform $P/dc-8.xml --workload $W/googlenet.dnn --device-memory inf --json
cp $TMP/out $TMP/g-inf.json
expect_ok sync-16 $DLASIM train --platform $P/dc-8.xml --workload $W/googlenet.dnn --json
close "sync without the peer wait is the oracle's" "$(json_num $TMP/out sync_s)" "$(json_num $TMP/g-inf.json sync_s)" 1e-6
holds "peer wait counted apart" "$(json_num $TMP/out sync_wait_s) > $(json_num $TMP/out sync_s) && $(json_num $TMP/g-inf.json sync_wait_s) == 0"

# HC-DLA reads and writes host memory harder than DC-DLA (Figure 12).
expect_ok dc $DLASIM train --platform $P/dc-8.xml --workload $W/vgg-e.dnn --json
cp $TMP/out $TMP/dc.json
expect_ok hc $DLASIM train --platform $P/hc-8.xml --workload $W/vgg-e.dnn --json
cp $TMP/out $TMP/hc.json
holds "HC-DLA uses more CPU memory bandwidth than DC-DLA" "$(json_num $TMP/hc.json cpu_mem_bw_avg_Bps) > $(json_num $TMP/dc.json cpu_mem_bw_avg_Bps) && $(json_num $TMP/dc.json cpu_mem_bw_avg_Bps) > 0"
# A DC-DLA socket's memory is reached through two PCIe switches, whose
# x16 uplinks carry 16 GB/s each way: 64 GB/s at most, below the 80 GB/s
# of the memory itself.
holds "DC socket bandwidth within its PCIe uplinks (64 GB/s)" "$(json_num $TMP/dc.json cpu_mem_bw_max_Bps) <= 64e9 * 1.0001"

# A third page-allocation plugin, built outside the core, loaded by path,
# puts every page on the device's right (LOCAL: left).  Transfers follow
# the pages: d0 writes to its left memory-node half m7.1 over the DOWN
# direction of nv-m7-d0, which nothing else uses (the rings go m7 -> d0)
# but the 64-byte note that tells the half's controller d0 is done.
expect_ok third-plugin $DLASIM train --platform $P/mc-ring-8.xml --workload $W/alexnet.dnn --coll ring --page-alloc $TP/page_last.so --link-stats $TMP/last.csv
expect_ok local $DLASIM train --platform $P/mc-ring-8.xml --workload $W/alexnet.dnn --coll ring --page-alloc local --link-stats $TMP/local.csv --json
left_writes() { awk -F, '$1 == "nv-m7-d0" && $3 == "down" { print $5 }' "$1"; }
holds "third plugin: nothing written to the left half" "$(left_writes $TMP/last.csv) == 64"
holds "local: d0's offload goes to the left half" "$(left_writes $TMP/local.csv) >= $(json_num $TMP/out offload_bytes)"

# Link statistics: one row per link direction, nothing left on failure.
expect_ok link-stats $DLASIM train --platform $P/mc-ring-8.xml --workload $W/rnn-lstm-1.dnn --link-stats $TMP/links.csv
holds "link-stats header" "\"$(head -n 1 $TMP/links.csv)\" == \"link,class,direction,bandwidth_Bps,bytes,busy_fraction\""
holds "link-stats rows" "$(grep -c '^dram-m0.0,dram,shared,' $TMP/links.csv) == 1 && $(grep -c '^nv-d0-m0,nvlink,up,' $TMP/links.csv) == 1"

# System power (Section V-C): the platform's TDPs, 3200 W for the DGX-1
# of DC-DLA, plus 8 memory-nodes of 127 W (128 GB LRDIMMs, Table IV).
holds "mc-ring: 3200 W + 8 x 127 W" "$(json_num $TMP/mcb.json system_power_w) == 4216 && $(json_num $TMP/mcb.json memory_node_tdp_w) == 1016"
holds "dc: 3200 W" "$(json_num $TMP/dc.json system_power_w) == 3200"
# A compressing DMA engine (cDMA) moves and stores R times fewer bytes.
expect_ok cdma $DLASIM train --platform $P/dc-8.xml --workload $W/vgg-e.dnn --overlay-compression 2.6 --json
close "cDMA 2.6:1 moves 1/2.6 of the bytes" "$(json_num $TMP/out offload_bytes)" "$(awk "BEGIN { printf \"%.17g\", $(json_num $TMP/dc.json offload_bytes) / 2.6 }")" 1e-9
holds "cDMA shortens DC-DLA's iteration" "$(json_num $TMP/out iteration_time_s) < $(json_num $TMP/dc.json iteration_time_s)"
# The TPUv2-like device (184 TMAC/s, 2.8 TB/s; docs/devices.md) computes
# faster than Table II's (128 TMAC/s, 900 GB/s), as the paper's "faster
# device-node"; test/unit/mcdla_model.c checks its roofline.
expect_ok tpuv2 $DLASIM train --platform $P/dc-8.xml --workload $W/alexnet.dnn --device tpuv2 --device-memory inf --json
holds "tpuv2 computes faster than table2" "$(json_num $TMP/out compute_s) < $(json_num $TMP/o.json compute_s)"
holds "the run names its device" "$(grep -c '"device": "tpuv2"' $TMP/out) == 1"

# Bad workloads.
printf 'input data channels=3 height=8 width=8\nconv c1 out=4 kernel=3 pad\n' > $TMP/syntax.dnn
expect_error syntax "syntax.dnn:2: 'pad' is not key=value" $DLASIM train --platform $P/mc-ring-8.xml --workload $TMP/syntax.dnn
printf 'input data channels=3 height=8 width=8\nconvolution c1 out=4 kernel=3\n' > $TMP/kind.dnn
expect_error unknown-layer "kind.dnn:2: unknown layer type 'convolution'" $DLASIM train --platform $P/mc-ring-8.xml --workload $TMP/kind.dnn
printf 'input data channels=3 height=8 width=8\nconv c1 out=0 kernel=3\n' > $TMP/zero.dnn
expect_error zero-dimension "zero.dnn:2: conv 'c1': out=0: must be an integer from 1" $DLASIM train --platform $P/mc-ring-8.xml --workload $TMP/zero.dnn
printf 'input data channels=3 height=-8 width=8\nfc f out=4\n' > $TMP/neg.dnn
expect_error negative-dimension "neg.dnn:1: input 'data': height=-8: must be an integer from 1" $DLASIM train --platform $P/mc-ring-8.xml --workload $TMP/neg.dnn
printf 'input data channels=3 height=8 width=8\nconv c1 out=4 kernel=11\n' > $TMP/big.dnn
expect_error kernel-too-large "big.dnn:2: conv 'c1': kernel 11 does not fit" $DLASIM train --platform $P/mc-ring-8.xml --workload $TMP/big.dnn
expect_error missing-file "nothere.dnn: No such file" $DLASIM train --platform $P/mc-ring-8.xml --workload $TMP/nothere.dnn

# Bad runs: batch, capacity, broken plugins; no partial --link-stats file.
expect_error batch "--batch 100 does not divide across 8 devices" $DLASIM train --platform $P/mc-ring-8.xml --workload $W/alexnet.dnn --batch 100
expect_error capacity "--device-memory 1GB cannot hold layer 'conv1_2'" $DLASIM train --platform $P/mc-ring-8.xml --workload $W/vgg-e.dnn --device-memory 1GB --link-stats $TMP/cap.csv
holds "no link-stats after a capacity error" "$(ls $TMP | grep -c cap.csv) == 0"
# The plugins are checked before the platform is read (here a platform
# that does not exist), the page allocator only when pages are overlaid.
expect_error coll-before-platform "^dlasim: --coll: collective plugin 'nosuch' not found" \
	$DLASIM train --platform $TMP/nope.xml --workload $W/alexnet.dnn --coll nosuch
expect_error pages-before-platform "^dlasim: --page-alloc: page-allocation plugin 'nosuch' not found" \
	$DLASIM train --platform $TMP/nope.xml --workload $W/alexnet.dnn --page-alloc nosuch
expect_error oracle-no-page-check "nope.xml: cannot open platform file" \
	$DLASIM train --platform $TMP/nope.xml --workload $W/alexnet.dnn --page-alloc nosuch --device-memory inf
expect_error bad-node "page-allocation plugin 'bad_node' .*device [0-9]: extent 0 names memory share 7, which does not exist" $DLASIM train --platform $P/mc-ring-8.xml --workload $W/alexnet.dnn --page-alloc $TP/page_bad_node.so --link-stats $TMP/node.csv
holds "no link-stats after a bad plugin answer" "$(ls $TMP | grep -c node.csv) == 0"
expect_error overlap "page-allocation plugin 'overlap' .*overlap pages already allocated" $DLASIM train --platform $P/mc-ring-8.xml --workload $W/alexnet.dnn --page-alloc $TP/page_overlap.so
expect_error wrong-kind "is a collective plugin, but --page-alloc needs a page-allocation plugin" $DLASIM train --platform $P/mc-ring-8.xml --workload $W/alexnet.dnn --page-alloc $BUILD/plugins/coll-ring.so
expect_error bad-parallel "--parallel 'both': not 'data' or 'model'" $DLASIM train --platform $P/mc-ring-8.xml --workload $W/alexnet.dnn --parallel both
expect_error bad-device "device 'tpu3': no such description" $DLASIM train --platform $P/mc-ring-8.xml --workload $W/alexnet.dnn --device tpu3
expect_error bad-compression "--overlay-compression '0.5': a ratio from 1" $DLASIM train --platform $P/dc-8.xml --workload $W/alexnet.dnn --overlay-compression 0.5
sed 's/"dlasim.tdp" value="300W"/"dlasim.tdp" value="300X"/' $P/dc-8.xml > $TMP/badtdp.xml
expect_error bad-tdp "badtdp.xml:[0-9]+: host 'd0': dlasim.tdp '300X'" $DLASIM train --platform $TMP/badtdp.xml --workload $W/alexnet.dnn
expect_error bad-memory "--device-memory '-1GB'" $DLASIM train --platform $P/mc-ring-8.xml --workload $W/alexnet.dnn --device-memory -1GB

# A model-parallel layer narrower than the devices that split it (4
# channels over 8 devices): one warning on stderr naming the first such
# layer and how many there are; stdout stays one JSON object.
printf 'network narrow\ninput data channels=3 height=16 width=16\nconv c1 out=4 kernel=3 pad=1\nconv c2 out=6 kernel=3 pad=1\nconv c3 out=64 kernel=3 pad=1\nfc f1 out=10\n' > $TMP/narrow.dnn
"$DLASIM" train --platform $P/mc-ring-8.xml --workload $TMP/narrow.dnn --batch 8 --parallel model --json > $TMP/narrow.json 2> $TMP/narrow.err
holds "narrow layer: runs, one warning naming c1 and 2 layers" \
	"$? == 0 && $(grep -c . $TMP/narrow.err) == 1 && $(grep -c "narrow.dnn:3: layer 'c1' has 4 outputs to split over 8 devices (2 such layers)" $TMP/narrow.err) == 1"
holds "narrow layer: stdout is the JSON object alone" \
	"$(head -c 1 $TMP/narrow.json | grep -c '{') == 1 && $(tail -n 1 $TMP/narrow.json | grep -c '^}$') == 1 && $(grep -c warning $TMP/narrow.json) == 0 && \"$(json_num $TMP/narrow.json iteration_time_s)\" != \"\""
"$DLASIM" train --platform $P/mc-ring-8.xml --workload $TMP/narrow.dnn --batch 8 --parallel data --json > /dev/null 2> $TMP/narrow.err
holds "narrow layer: no warning data-parallel" "$(grep -c . $TMP/narrow.err) == 0"

# --overlay spill: only what does not fit leaves.  AlexNet's feature maps
# fit beside its weights in 16 GB: nothing moves, and the iteration is the
# oracle's (no overlaying at all); on 8 devices of batch 2048 VGG-E's maps
# (15.4 GB per device) do not all fit: some leave, fewer than with
# --overlay all, the default (Section IV: every map out and back).
expect_ok spill $DLASIM train --platform $P/dc-8.xml --workload $W/alexnet.dnn --overlay spill --json
cp $TMP/out $TMP/spill.json
expect_ok spill-oracle $DLASIM train --platform $P/dc-8.xml --workload $W/alexnet.dnn --device-memory inf --json
holds "spill: nothing leaves when everything fits" "$(json_num $TMP/spill.json offload_bytes) == 0 && $(json_num $TMP/spill.json prefetch_bytes) == 0 && $(grep -c '"overlay": "spill"' $TMP/spill.json) == 1"
close "spill: then the iteration is the oracle's" "$(json_num $TMP/spill.json iteration_time_s)" "$(json_num $TMP/out iteration_time_s)" 1e-9
expect_ok spill-vgg $DLASIM train --platform $P/mc-ring-8.xml --workload $W/vgg-e.dnn --batch 2048 --overlay spill --json
cp $TMP/out $TMP/spill-vgg.json
expect_ok all-vgg $DLASIM train --platform $P/mc-ring-8.xml --workload $W/vgg-e.dnn --batch 2048 --json
holds "spill: VGG-E at batch 2048 moves some, less than all, faster" \
	"$(json_num $TMP/spill-vgg.json offload_bytes) > 0 && $(json_num $TMP/spill-vgg.json offload_bytes) < $(json_num $TMP/out offload_bytes) && $(json_num $TMP/spill-vgg.json iteration_time_s) < $(json_num $TMP/out iteration_time_s) && $(grep -c '"overlay": "all"' $TMP/out) == 1"
expect_error bad-overlay "--overlay 'some': not 'all' or 'spill'" $DLASIM train --platform $P/dc-8.xml --workload $W/alexnet.dnn --overlay some

# --dx-collective: model-parallel fc2 gathers its input X (fc1's output,
# 4 x 4096 x 512 B = 8.39 MB) before forward and again for dW, and reduces
# dX after backward: on the oracle's idle one-way rings of dc-8 an
# all-gather or reduce-scatter of X is T = 7/8 x X / 75 GB/s + 7 us, an
# all-reduce 2T, so synchronization is 4T with Figure 4's all-reduce and
# 3T with a reduce-scatter (each device needs only its split of dX).
printf 'network two_fc\ninput data channels=1024 height=1 width=1\nfc fc1 out=4096\nfc fc2 out=4096\n' > $TMP/fc.dnn
T=$(awk 'BEGIN { printf "%.12g", 7 / 8 * 4 * 4096 * 512 / 75e9 + 7e-6 }')
expect_ok dx-allreduce $DLASIM train --platform $P/dc-8.xml --workload $TMP/fc.dnn --parallel model --device-memory inf --coll ring --json
close "dx all-reduce: sync = 4T" "$(json_num $TMP/out sync_s)" "$(awk "BEGIN { print 4 * $T }")" 1e-6
holds "dx all-reduce is the default" "$(grep -c '"dx_collective": "allreduce"' $TMP/out) == 1"
expect_ok dx-reducescatter $DLASIM train --platform $P/dc-8.xml --workload $TMP/fc.dnn --parallel model --device-memory inf --coll ring --dx-collective reducescatter --json
close "dx reduce-scatter: sync = 3T" "$(json_num $TMP/out sync_s)" "$(awk "BEGIN { print 3 * $T }")" 1e-6
expect_error bad-dx "--dx-collective 'gather': not 'allreduce' or 'reducescatter'" $DLASIM train --platform $P/dc-8.xml --workload $W/alexnet.dnn --dx-collective gather
