#!/bin/sh
# SimGrid platforms as their authors write them (docs/platforms.md,
# "SimGrid platforms as written"): no dlasim property at all, a <cluster>
# inside a zone in each of SimGrid's topologies, clusters joined by
# zoneRoutes, routing="Cluster" zones of host_links, hosts with loopback
# routes, Floyd and Dijkstra zones.  Each
# runs `coll` and `train`; the ring all-reduce (the device order, nothing
# declared) agrees with SMPI's ring all-reduce (test/smpi_ring.c) on the
# same file within 2%; `platform adopt` writes a copy that is accepted
# and gives the same result; bad files are one line.
. test/lib.sh

xml_head() {	# the lines every file starts with
	printf '%s\n' "<?xml version='1.0'?>" \
		'<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">' '<platform version="4.1">'
}
# cluster NAME ATTRIBUTES [FILE [CHILDREN]]: 8 hosts node-0.sg ... node-7.sg
# in a <cluster> in a Full zone, written to $TMP/FILE.xml (default NAME).
cluster() {
	end="/>"
	[ -n "$4" ] && end=">$4</cluster>"
	{ xml_head; cat <<XML
  <zone id="world" routing="Full">
    <cluster id="$1" prefix="node-" radical="0-7" suffix=".sg"
             speed="100Tf" bw="25GBps" lat="1us" $2$end
  </zone>
</platform>
XML
	} > "$TMP/${3:-$1}.xml"
}
NODES="node-0.sg node-1.sg node-2.sg node-3.sg node-4.sg node-5.sg node-6.sg node-7.sg"

cluster flat ''
cluster shared 'sharing_policy="SHARED"'
cluster fatpipe 'sharing_policy="FATPIPE" loopback_bw="100GBps" loopback_lat="0"'
cluster backbone 'bb_bw="100GBps" bb_lat="1us"'
cluster backbone-fatpipe 'bb_bw="50GBps" bb_lat="1us" bb_sharing_policy="FATPIPE" limiter_link="30GBps"'
cluster torus 'topology="TORUS" topo_parameters="2,2,2" loopback_bw="100GBps" loopback_lat="0"'
cluster fat-tree 'topology="FAT_TREE" topo_parameters="2;4,2;1,2;1,2"'
cluster dragonfly 'topology="DRAGONFLY" topo_parameters="2,1;2,1;2,1;1"'

# Two flat clusters of 4 joined through their routers (cluster_multi.xml's way).
{ xml_head; cat <<'XML'
  <zone id="world" routing="Full">
    <cluster id="left" prefix="node-" radical="0-3" suffix=".sg" speed="100Tf" bw="25GBps" lat="1us"/>
    <cluster id="right" prefix="node-" radical="4-7" suffix=".sg" speed="100Tf" bw="25GBps" lat="1us"
             bb_bw="100GBps" bb_lat="1us"/>
    <link id="between" bandwidth="50GBps" latency="2us"/>
    <zoneRoute src="left" dst="right" gw_src="node-left_router.sg" gw_dst="node-right_router.sg">
      <link_ctn id="between"/>
    </zoneRoute>
  </zone>
</platform>
XML
} > "$TMP/two-clusters.xml"

# routing="Cluster" zones: hosts joined through their <host_link>s and a
# backbone (routing_cluster.xml's way), a host of each as the gateway.
{ xml_head; cat <<'XML'
  <zone id="world" routing="Full">
    <zone id="star1" routing="Cluster">
      <router id="router1"/>
      <host id="h1" speed="100Tf"/>
      <link id="l1_UP" bandwidth="25GBps" latency="1us"/>
      <link id="l1_DOWN" bandwidth="25GBps" latency="1us"/>
      <host_link id="h1" up="l1_UP" down="l1_DOWN"/>
      <host id="h2" speed="100Tf"/>
      <link id="l2" bandwidth="25GBps" latency="1us" sharing_policy="SPLITDUPLEX"/>
      <host_link id="h2" up="l2_UP" down="l2_DOWN"/>
      <host id="h3" speed="100Tf"/>
      <link id="l3" bandwidth="50GBps" latency="1us"/>
      <host_link id="h3" up="l3" down="l3"/>
      <backbone id="backbone1" bandwidth="100GBps" latency="1us"/>
    </zone>
    <zone id="star2" routing="Cluster">
      <host id="h4" speed="100Tf"/>
      <link id="l4" bandwidth="25GBps" latency="1us" sharing_policy="SPLITDUPLEX"/>
      <host_link id="h4" up="l4_UP" down="l4_DOWN"/>
      <host id="h5" speed="100Tf"/>
      <link id="l5" bandwidth="25GBps" latency="1us" sharing_policy="SPLITDUPLEX"/>
      <host_link id="h5" up="l5_UP" down="l5_DOWN"/>
      <host id="h6" speed="100Tf"/>
      <link id="l6" bandwidth="25GBps" latency="1us" sharing_policy="SPLITDUPLEX"/>
      <host_link id="h6" up="l6_UP" down="l6_DOWN"/>
      <route src="h6" dst="h6"><link_ctn id="l6" direction="UP"/></route>
    </zone>
    <link id="link1-2" bandwidth="50GBps" latency="5us"/>
    <zoneRoute src="star1" dst="star2" gw_src="h3" gw_dst="h4">
      <link_ctn id="link1-2"/>
    </zoneRoute>
  </zone>
</platform>
XML
} > "$TMP/star.xml"

# Hosts joined by routes, each with a loopback route to itself
# (small_platform.xml's way); hops of different speeds.
{ xml_head; cat <<'XML'
  <!-- <zone id="old" routing="Full"> and <host id="Old" speed="1Gf"/> once stood here -->
  <zone id="zone0" routing="Full">
    <host id="Tremblay" speed="100Tf"/>
    <host id="Jupiter" speed="100Tf"/>
    <host id="Fafard" speed="100Tf"/>
    <host id="Ginette" speed="100Tf"/>
    <link id="1" bandwidth="20GBps" latency="1us"/>
    <link id="2" bandwidth="25GBps" latency="2us"/>
    <link id="3" bandwidth="10GBps" latency="1us"/>
    <link id="4" bandwidth="25GBps" latency="1us"/>
    <link id="5" bandwidth="25GBps" latency="1us"/>
    <link id="6" bandwidth="25GBps" latency="1us"/>
    <link id="loopback" bandwidth="500GBps" latency="15ns" sharing_policy="FATPIPE"/>
    <route src="Tremblay" dst="Tremblay"><link_ctn id="loopback"/></route>
    <route src="Jupiter" dst="Jupiter"><link_ctn id="loopback"/></route>
    <route src="Fafard" dst="Fafard" symmetrical="NO"><link_ctn id="loopback"/></route>
    <route src="Ginette" dst="Ginette"><link_ctn id="loopback"/></route>
    <route src="Tremblay" dst="Jupiter"><link_ctn id="1"/></route>
    <route src="Jupiter" dst="Fafard"><link_ctn id="2"/></route>
    <route src="Fafard" dst="Ginette"><link_ctn id="3"/><link_ctn id="4"/></route>
    <route src="Ginette" dst="Tremblay"><link_ctn id="5"/></route>
    <route src="Tremblay" dst="Fafard"><link_ctn id="6"/></route>
    <route src="Jupiter" dst="Ginette"><link_ctn id="6"/></route>
  </zone>
</platform>
XML
} > "$TMP/loopback.xml"
SMALL="Tremblay Jupiter Fafard Ginette"

# Floyd: routes through a router, shortest paths; a one-way loopback.
{ xml_head; cat <<'XML'
  <zone id="floyd" routing="Floyd">
    <host id="a" speed="100Tf"/>
    <host id="b" speed="100Tf"/>
    <host id="c" speed="100Tf"/>
    <host id="d" speed="100Tf"/>
    <router id="r"/>
    <link id="la" bandwidth="25GBps" latency="1us" sharing_policy="SPLITDUPLEX"/>
    <link id="lb" bandwidth="25GBps" latency="1us" sharing_policy="SPLITDUPLEX"/>
    <link id="lc" bandwidth="12.5GBps" latency="1us" sharing_policy="SPLITDUPLEX"/>
    <link id="ld" bandwidth="25GBps" latency="3us" sharing_policy="SPLITDUPLEX"/>
    <link id="lo" bandwidth="100GBps" latency="0"/>
    <route src="a" dst="a" symmetrical="NO"><link_ctn id="lo"/></route>
    <route src="a" dst="r"><link_ctn id="la" direction="UP"/></route>
    <route src="b" dst="r"><link_ctn id="lb" direction="UP"/></route>
    <route src="c" dst="r"><link_ctn id="lc" direction="UP"/></route>
    <route src="d" dst="r"><link_ctn id="ld" direction="UP"/></route>
  </zone>
</platform>
XML
} > "$TMP/floyd.xml"
sed 's/routing="Floyd"/routing="dijkstracache"/; /src="a" dst="a"/d' "$TMP/floyd.xml" > "$TMP/dijkstra.xml"

coll() {	# PLATFORM BYTES: the ring all-reduce's simulated time
	"$DLASIM" coll --platform "$1" --op allreduce --bytes "$2" --coll ring --json > "$TMP/c.json" 2> "$TMP/c.err" &&
		json_num "$TMP/c.json" simulated_time_s
}

smpi_ring_build || exit 0
# check NAME BYTES HOST...: coll and train run; the all-reduce is SMPI's.
check() {
	name=$1 bytes=$2
	shift 2
	f=$TMP/$name.xml
	got=$(coll "$f" "$bytes")
	if [ -z "$got" ]; then
		not_ok "$name: coll runs" "$(head -c 300 "$TMP/c.err")"
		return
	fi
	holds "$name: every host a device, the device order as the ring" \
		"$(json_num "$TMP/c.json" devices) == $# && $(json_num "$TMP/c.json" rings) == 1"
	# the note, once, names the file
	holds "$name: one note says every host is a device" \
		"$(grep -c "$name.xml: no dlasim.role: every host is a device ($#)" "$TMP/c.err") == 1 && $(grep -c . "$TMP/c.err") == 1"
	close "$name: all-reduce = SMPI's ring all-reduce" "$got" "$(smpi_ring_time "$f" 1 "$bytes" 0 2 "$@")" 0.02
	expect_ok "$name: train runs" "$DLASIM" train --platform "$f" --workload alexnet --batch 240 --device-memory inf --json
	"$DLASIM" platform adopt "$f" -o "$TMP/$name-adopted.xml" 2> /dev/null
	holds "$name: adopt declares the roles and the ring" \
		"$(grep -c 'dlasim.ring.0' "$TMP/$name-adopted.xml") == 1 && $(grep -c 'dlasim.role' "$TMP/$name-adopted.xml") >= 1"
	adopted=$(coll "$TMP/$name-adopted.xml" "$bytes")
	holds "$name: the adopted copy runs the same ($adopted s)" "\"$adopted\" == \"$got\""
	holds "$name: the adopted copy needs no note" "$(grep -c . "$TMP/c.err") == 0"
}

# Closed forms: 8 devices, 1e8 B, 2 x 7 steps of 1.25e7 B.  Flat,
# split-duplex: each step up-link then down-link at 25 GB/s, 2 us:
# 14 x (0.5 ms + 2 us).  A backbone of 100 GB/s carries all 8 flows,
# 12.5 GB/s each, over 3 links: 14 x (1 ms + 3 us).
close "flat cluster: ring closed form" "$(coll "$TMP/flat.xml" 1e8)" 0.007028 1e-9
close "cluster with a backbone: ring closed form" "$(coll "$TMP/backbone.xml" 1e8)" 0.014042 1e-9
for c in flat shared fatpipe backbone backbone-fatpipe torus fat-tree dragonfly two-clusters; do
	check $c 1e8 $NODES
done
check star 1e8 h1 h2 h3 h4 h5 h6
check loopback 1e8 $SMALL
check floyd 1e8 a b c d
check dijkstra 1e8 a b c d

# hd and ring_flow need no declared ring either; ring_flow runs the ring's
# schedule (SMPI's time), hd its own pairs.
for c in torus loopback star; do
	case $c in loopback) hosts=$SMALL ;; star) hosts="h1 h2 h3 h4 h5 h6" ;; *) hosts=$NODES ;; esac
	"$DLASIM" coll --platform "$TMP/$c.xml" --op allreduce --bytes 1e8 --coll ring_flow --json > "$TMP/out" 2> /dev/null
	close "$c: ring_flow = SMPI's ring all-reduce" "$(json_num "$TMP/out" simulated_time_s)" \
		"$(smpi_ring_time "$TMP/$c.xml" 1 1e8 0 2 $hosts)" 0.02
	expect_ok "$c: hd runs" "$DLASIM" coll --platform "$TMP/$c.xml" --op allreduce --bytes 1e8 --coll hd --json
done

# The adopted copy is the file plus properties: SimGrid's part unchanged.
"$DLASIM" platform adopt "$TMP/loopback.xml" > "$TMP/stdout.xml" 2> /dev/null
holds "adopt: only dlasim properties added" \
	"$(grep -v '<prop id="dlasim.ring.0"' "$TMP/stdout.xml" | sed 's|><prop id="dlasim.role" value="device"/></host>|/>|' | cmp -s - "$TMP/loopback.xml" && echo 1 || echo 0) == 1"
holds "adopt: the ring is the declaration order" \
	"$(grep -c "dlasim.ring.0\" value=\"$SMALL\"" "$TMP/stdout.xml") == 1"
# A file that declares its roles and ring is copied as it is.
cp "$TMP/stdout.xml" "$TMP/declared.xml"
"$DLASIM" platform adopt "$TMP/declared.xml" -o "$TMP/again.xml"
holds "adopt: a declared platform is copied unchanged" "$(cmp -s "$TMP/declared.xml" "$TMP/again.xml" && echo 1 || echo 0) == 1"
# A <cluster> as the whole platform takes both, in its own tag.
{ xml_head; printf '%s\n' '<cluster id="c" prefix="n" suffix="" radical="0-3" speed="100Tf" bw="25GBps" lat="1us"/>' '</platform>'; } > "$TMP/root.xml"
"$DLASIM" platform adopt "$TMP/root.xml" -o "$TMP/root-adopted.xml" 2> /dev/null
holds "adopt: a root cluster gets the role and the ring" \
	"$(grep -c '<prop id="dlasim.role" value="device"/>' "$TMP/root-adopted.xml") == 1 && $(grep -c 'dlasim.ring.0" value="n0 n1 n2 n3"' "$TMP/root-adopted.xml") == 1"
holds "adopt: the root cluster's copy runs the same" "\"$(coll "$TMP/root.xml" 1e8)\" == \"$(coll "$TMP/root-adopted.xml" 1e8)\""
# Declared roles win: only the devices named are ranked, no note.
sed '0,/<host id="Jupiter" speed="100Tf"\/>/s//<host id="Jupiter" speed="100Tf"><prop id="dlasim.role" value="cpu"\/><\/host>/' \
	"$TMP/loopback.xml" | sed 's|<host id="\([TFG][a-z]*\)" speed="100Tf"/>|<host id="\1" speed="100Tf"><prop id="dlasim.role" value="device"/></host>|' > "$TMP/roles.xml"
"$DLASIM" coll --platform "$TMP/roles.xml" --op allreduce --bytes 1MB --json > "$TMP/out" 2> "$TMP/err"
holds "declared roles: 3 devices, no note" "$(json_num "$TMP/out" devices) == 3 && $(grep -c . "$TMP/err") == 0"

# dlasim.class on a cluster in a zone gives its class to every link SimGrid
# builds for it, whatever SimGrid names them (a fat tree's "link_from_...",
# a dragonfly's "black_link_..."): no byte on an "other" link.
NV='<prop id="dlasim.class" value="nvlink"/>'
cluster fat-tree 'topology="FAT_TREE" topo_parameters="2;4,2;1,2;1,2"' fat-tree-nvlink "$NV"
cluster dragonfly 'topology="DRAGONFLY" topo_parameters="2,1;2,1;2,1;1"' dragonfly-nvlink "$NV"
sed "s|lat=\"1us\"/>|lat=\"1us\">$NV</cluster>|; s|bb_lat=\"1us\"/>|bb_lat=\"1us\">$NV</cluster>|; s|latency=\"2us\"/>|latency=\"2us\">$NV</link>|" \
	"$TMP/two-clusters.xml" > "$TMP/two-clusters-nvlink.xml"
for c in fat-tree dragonfly two-clusters; do
	"$DLASIM" train --platform "$TMP/$c-nvlink.xml" --workload alexnet --batch 240 --device-memory inf --json > "$TMP/out" 2> /dev/null
	holds "$c: SimGrid's links take the cluster's class" "$(json_num "$TMP/out" nvlink_bytes) > 0 && $(json_num "$TMP/out" other_bytes) == 0"
done

# Bad input: one line each, before SimGrid sees the file.
bad() {	# NAME PATTERN: the file $TMP/bad.xml is refused
	expect_error "$1" "$2" "$DLASIM" coll --platform "$TMP/bad.xml" --op allreduce --bytes 1MB
}
cluster bad 'topology="FAT_TREE" topo_parameters="2;4,4;1,2;1,2"'
bad "fat tree for 16 hosts" "bad.xml:[56]: cluster 'bad': topo_parameters '2;4,4;1,2;1,2' place 16 hosts, the radical names 8"
cluster bad 'topology="DRAGONFLY" topo_parameters="2,1;0,1;2,1;2"'
bad "dragonfly with no chassis" "bad.xml:[56]: cluster 'bad': topo_parameters '2,1;0,1;2,1;2' are not"
cluster bad 'topology="TORUS" topo_parameters="2,0,4"'
bad "torus with a zero" "bad.xml:[56]: cluster 'bad': topo_parameters '2,0,4' are not"
sed 's/routing="Full"/routing="None"/' "$TMP/flat.xml" > "$TMP/bad.xml"
bad "routing None" "bad.xml:4: zone 'world': routing 'None' declares no routes"
sed 's/routing="Full"/routing="Vivaldi"/' "$TMP/flat.xml" > "$TMP/bad.xml"
bad "routing Vivaldi" "bad.xml:4: zone 'world': routing 'Vivaldi' is not read by dlasim"
sed 's/routing="Full"/routing="Fastest"/' "$TMP/flat.xml" > "$TMP/bad.xml"
bad "unknown routing" "zone 'world': routing 'Fastest' is not a SimGrid routing"
{ xml_head; printf '%s\n' '  <zone id="empty" routing="Full">' '    <link id="l" bandwidth="1GBps" latency="0"/>' '  </zone>' '</platform>'; } > "$TMP/bad.xml"
bad "no hosts" "bad.xml:3: no host in this platform"
sed 's/<route src="Fafard" dst="Fafard" symmetrical="NO">/<route src="Fafard" dst="Fafard">/; s/routing="Full"/routing="Floyd"/' "$TMP/loopback.xml" > "$TMP/bad.xml"
bad "symmetrical loopback in Floyd" "route from 'Tremblay' to itself: in a Floyd zone, SimGrid takes it only with symmetrical=\"NO\""
sed 's/routing="Floyd"/routing="Dijkstra"/' "$TMP/floyd.xml" > "$TMP/bad.xml"
bad "loopback in Dijkstra" "route from 'a' to itself: SimGrid's Dijkstra zones crash on a loopback route"
sed 's|<cluster id="left"|<host id="h" speed="1Gf"/><cluster id="left"|' "$TMP/two-clusters.xml" > "$TMP/bad.xml"
bad "cluster beside a host" "zone 'world' holds hosts or routers, so it cannot hold <cluster>"
sed 's|<cluster id="left" |<cluster id="left" topology="TORUS" topo_parameters="4" |' "$TMP/two-clusters.xml" > "$TMP/bad.xml"
bad "a torus has no router" "zoneRoute gw_src 'node-left_router.sg' is not a host or router inside zone 'left'"
# SimGrid's star zone crashes on a route through a router or a host
# without a host_link: there is none.
sed 's/gw_src="h3"/gw_src="router1"/' "$TMP/star.xml" > "$TMP/bad.xml"
bad "routing Cluster: a router as the gateway" "device order has no route from 'h3' to 'h4'"
grep -v '<host_link id="h2"' "$TMP/star.xml" > "$TMP/bad.xml"
bad "routing Cluster: a host without host_link" "device order has no route from 'h1' to 'h2'"
sed 's|<route src="h6" dst="h6">|<route src="h5" dst="h6">|' "$TMP/star.xml" > "$TMP/bad.xml"
bad "routing Cluster: a route between hosts" "zone 'star2' \(routing=\"Cluster\"\): a <route> may only join a host to itself"
sed 's|up="l2_UP"|up="l2"|' "$TMP/star.xml" > "$TMP/bad.xml"
bad "routing Cluster: a split-duplex link whole" "host_link 'h2': up 'l2' is not a link declared before it"
sed 's|routing="Cluster"|routing="Full"|' "$TMP/star.xml" > "$TMP/bad.xml"
bad "host_link outside a Cluster zone" "zone 'star1': <host_link> belongs in a zone with routing=\"Cluster\""
# SimGrid's scanner takes a zone that starts with a <link> for a zone of hosts.
sed 's|<zone id="world" routing="Full">|&<link id="first" bandwidth="1GBps" latency="0"/>|' "$TMP/flat.xml" > "$TMP/bad.xml"
bad "a link before a cluster" "zone 'world': <cluster> after <link> 'first' \(line 4\): SimGrid reads a zone that begins with a <link> as a zone of hosts"
# A declared link of a name SimGrid gives a cluster's link: declared twice.
sed 's|<link id="between"|<link id="left_link_0_UP" bandwidth="1GBps" latency="0"/>&|' "$TMP/two-clusters.xml" > "$TMP/bad.xml"
bad "a link named as a cluster's" "link 'left_link_0_UP': SimGrid may name a link of cluster 'left' \(line 5\) so"
sed 's|  </zone>|<link id="link_from_0_1_2" bandwidth="1GBps" latency="0"/>&|' "$TMP/fat-tree.xml" > "$TMP/bad.xml"
bad "a link named as a fat tree's" "link 'link_from_0_1_2': SimGrid may name a link of cluster 'fat-tree'"
sed '/<zoneRoute/,/<\/zoneRoute>/d' "$TMP/two-clusters.xml" > "$TMP/bad.xml"
bad "clusters not joined" "no ring declared, and the device order has no route from 'node-3.sg' to 'node-4.sg'"
expect_error "adopt: clusters not joined" "no route from 'node-3.sg' to 'node-4.sg'" \
	"$DLASIM" platform adopt "$TMP/bad.xml" -o "$TMP/never.xml"
holds "adopt: nothing written on error" "$(test -e "$TMP/never.xml" && echo 1 || echo 0) == 0"
expect_error "adopt: no file" "platform adopt: which platform file" "$DLASIM" platform adopt
# The sentence names one ring in the singular: a file without rings has the device order.
"$DLASIM" coll --platform "$TMP/flat.xml" --op allreduce --bytes 1MB > "$TMP/c.txt" 2> /dev/null
holds "coll's sentence: '1 ring', not '1 rings'" \
	"$(grep -c ', 1 ring, algorithm' "$TMP/c.txt") == 1"
