#!/bin/sh
# SimGrid's <cluster> as a whole platform (docs/platforms.md): the roles
# and rings come from the cluster's properties, SimGrid builds the hosts
# and links (flat with a backbone, torus, fat tree, dragonfly); results
# against closed forms; every malformed cluster is one line, never a
# SimGrid abort.
. test/lib.sh

# write NAME ATTRIBUTES [RADICAL]: a cluster of devices gpu0.dl ... with a ring in order.
write() {
	n=${3:-8}
	ring=$(i=0; while [ $i -lt $n ]; do printf 'gpu%d.dl ' $i; i=$((i + 1)); done)
	cat > $TMP/$1.xml <<XML
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
<cluster id="$1" prefix="gpu" suffix=".dl" radical="0-$((n - 1))" speed="256Tf" bw="25GBps" lat="1us" $2>
  <prop id="dlasim.role" value="device"/>
  <prop id="dlasim.class" value="nvlink"/>
  <prop id="dlasim.ring.0" value="${ring% }"/>
</cluster>
</platform>
XML
}

# The shipped torus: a ring of 8 over single 25 GB/s hops, 1 us each:
# all-reduce 2 (N-1)/N S/B + 2 (N-1) a = 0.07 + 14 us (1 GB).
expect_ok torus $DLASIM coll --platform torus-8 --op allreduce --bytes 1GB --json
close "torus all-reduce: ring closed form" "$(json_num $TMP/out simulated_time_s)" 0.070014 1e-9
close "torus bus bandwidth: the 25 GB/s hop" "$(json_num $TMP/out bus_bandwidth_Bps)" 25e9 1e-3
holds "torus: 8 devices, 1 ring" "$(json_num $TMP/out devices) == 8 && $(json_num $TMP/out rings) == 1"
# The cluster's links are SimGrid's, counted with its class: each of the
# 8 ring hops carries 2 x 7 chunks of 1/8 GB one way.
expect_ok torus-train $DLASIM train --platform torus-8 --workload alexnet --device-memory inf --link-stats $TMP/torus.csv --json
holds "torus: the traffic is on nvlink-class links" "$(json_num $TMP/out nvlink_bytes) > 0 && $(json_num $TMP/out other_bytes) == 0"
holds "torus: link-stats lists SimGrid's torus links" "$(grep -c '^torus_link_from_0_to_1,nvlink,up,25000000000,' $TMP/torus.csv) == 1"

# Flat with a backbone: every hop is up-link, backbone, down-link (3 us),
# and the 8 ring flows share the 100 GB/s backbone, 12.5 GB/s each:
# 14 steps of 1.25e8 B / 12.5 GB/s + 3 us.
write flat 'sharing_policy="SPLITDUPLEX" bb_bw="100GBps" bb_lat="1us"'
expect_ok flat $DLASIM coll --platform $TMP/flat.xml --op allreduce --bytes 1GB --json
close "flat + backbone: the backbone shared by 8 flows" "$(json_num $TMP/out simulated_time_s)" 0.140042 1e-9

# Fat tree and dragonfly run end to end (their routes are SimGrid's).
write ft 'topology="FAT_TREE" topo_parameters="2;4,2;1,2;1,1"'
expect_ok fat-tree $DLASIM coll --platform $TMP/ft.xml --op allreduce --bytes 1GB --json
# No hop is faster than 25 GB/s: the ring's time is at least its closed form.
holds "fat tree: no faster than a 25 GB/s ring" "$(json_num $TMP/out simulated_time_s) >= 0.070014"
write df 'topology="DRAGONFLY" topo_parameters="2,1;2,1;2,1;1"'
expect_ok dragonfly $DLASIM coll --platform $TMP/df.xml --op allgather --bytes 1GB --json
holds "dragonfly: no faster than a 25 GB/s ring" "$(json_num $TMP/out simulated_time_s) >= 0.035007"

# Bad clusters.
write bad 'topology="HYPERCUBE" topo_parameters="3"'
expect_error topology "bad.xml:4: cluster 'bad': topology 'HYPERCUBE' is not FLAT, TORUS, FAT_TREE or DRAGONFLY" $DLASIM coll --platform $TMP/bad.xml --op allreduce --bytes 1MB
write bad 'topology="TORUS" topo_parameters="2,2"'
expect_error torus-count "topo_parameters '2,2' place 4 hosts, the radical names 8" $DLASIM coll --platform $TMP/bad.xml --op allreduce --bytes 1MB
write bad 'topology="TORUS"'
expect_error torus-params "topology TORUS needs topo_parameters" $DLASIM coll --platform $TMP/bad.xml --op allreduce --bytes 1MB
write bad 'topology="FAT_TREE" topo_parameters="2;4,2;1;1,1"'
expect_error fat-tree-format "topo_parameters '2;4,2;1;1,1' are not \"levels;downs;ups;parallel links\"" $DLASIM coll --platform $TMP/bad.xml --op allreduce --bytes 1MB
write bad 'topology="DRAGONFLY" topo_parameters="2,1;2,1;1,1;2"'
expect_error dragonfly-routers "SimGrid 3.32 routes a dragonfly only with at least as many routers per chassis as groups" $DLASIM coll --platform $TMP/bad.xml --op allreduce --bytes 1MB
write bad 'topology="TORUS" topo_parameters="2,2,2" bb_bw="10GBps"'
expect_error backbone "a backbone \(bb_bw, bb_lat\) belongs to a FLAT cluster" $DLASIM coll --platform $TMP/bad.xml --op allreduce --bytes 1MB
write bad 'sharing_policy="HALFDUPLEX"'
expect_error sharing "sharing_policy 'HALFDUPLEX' is not SHARED, SPLITDUPLEX or FATPIPE" $DLASIM coll --platform $TMP/bad.xml --op allreduce --bytes 1MB
write bad 'bb_lat="1us"'
expect_error backbone-bw "a backbone needs bb_bw" $DLASIM coll --platform $TMP/bad.xml --op allreduce --bytes 1MB
write bad 'loopback_bw="fast"'
expect_error unit "loopback_bw 'fast'" $DLASIM coll --platform $TMP/bad.xml --op allreduce --bytes 1MB
write bad 'color="blue"'
expect_error attribute "<cluster>: unsupported attribute 'color'" $DLASIM coll --platform $TMP/bad.xml --op allreduce --bytes 1MB
sed 's/radical="0-7"/radical="7-0"/' $TMP/flat.xml > $TMP/bad.xml
expect_error radical "radical '7-0': not numbers and ranges" $DLASIM coll --platform $TMP/bad.xml --op allreduce --bytes 1MB
sed 's/ bw="25GBps"//' $TMP/flat.xml > $TMP/bad.xml
expect_error no-bw "missing attribute 'bw'" $DLASIM coll --platform $TMP/bad.xml --op allreduce --bytes 1MB
sed 's/gpu7.dl"/gpu8.dl"/' $TMP/flat.xml > $TMP/bad.xml
expect_error ring-host "gpu8.dl" $DLASIM coll --platform $TMP/bad.xml --op allreduce --bytes 1MB
sed 's/value="device"/value="memory"/' $TMP/flat.xml > $TMP/bad.xml
expect_error no-devices "device" $DLASIM coll --platform $TMP/bad.xml --op allreduce --bytes 1MB
sed 's|<platform version="4.1">|<platform version="4.1"><zone id="z" routing="Full"></zone>|' $TMP/flat.xml > $TMP/bad.xml
expect_error second-root "a second top-level <cluster>" $DLASIM coll --platform $TMP/bad.xml --op allreduce --bytes 1MB
