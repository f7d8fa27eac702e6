# The fabrics of today (docs/platforms.md, "Fabrics of today"): NVLink
# domains of devices on an NVSwitch plane, scaled out over a
# rail-optimized fat tree of one NIC per device.  Closed forms (S = 1 GB,
# R = L/2 declared rings, a = 1 us per link): inside a domain a hop is two
# links (device up, device down: 2a) and a device injects L x B in all,
# shared by its rings; between domains of one scalable unit a hop is two
# NICs (2a) at the NIC's bandwidth, across units four links (4a).
. test/lib.sh

S=1e9
time_of() {	# FILE ALGO OP
	"$DLASIM" coll --platform "$1" --op "$3" --bytes 1GB --coll "$2" --json > "$TMP/r.json" 2> "$TMP/err" &&
		json_num "$TMP/r.json" simulated_time_s
}
count() { grep -c "<prop id=\"dlasim.role\" value=\"$2\"/>" "$1"; }

"$DLASIM" platform --help > "$TMP/help"
for t in nvswitch nvl72 gh200 cxl mc-nvswitch; do
	holds "platform --help lists $t" "$(grep -c -- "$t" "$TMP/help") >= 1"
done

# Datasheet bandwidths per generation: NVLink2/3/4/5 links per device and
# per-direction bandwidth, the era's NIC (100/200/400 Gb/s).
link_bw() {	# FILE LINK
	sed -n "s/.*<link id=\"$2\" bandwidth=\"\([^\"]*\)\".*/\1/p" "$1"
}
for spec in "v100 150GBps 12500000000Bps" "a100 300GBps 25GBps" "h100 450GBps 50GBps" "b200 900GBps 50GBps"; do
	set -- $spec
	"$DLASIM" platform --topology nvswitch --generation $1 --devices 16 -o "$TMP/g.xml" 2> /dev/null
	holds "$1: a device's links into the switch carry $2, its NIC $3" \
		"\"$(link_bw "$TMP/g.xml" nv-d0) $(link_bw "$TMP/g.xml" nic-d0)\" == \"$2 $3\""
done
"$DLASIM" platform --topology nvswitch --generation v100 --devices 16 -o "$TMP/v.xml" 2> /dev/null
holds "v100: a DGX-2's 16 devices in one domain, 6 links, 3 rings" \
	"$(grep -c dlasim.node "$TMP/v.xml") == 0 && $(grep -c '<prop id="dlasim.ring\.' "$TMP/v.xml") == 3"
"$DLASIM" platform --topology nvswitch --devices 8 --links-per-device 6 --link-bandwidth 50GBps \
	--nic-bandwidth 100Gbps -o "$TMP/o.xml" 2> /dev/null
holds "--links-per-device, --link-bandwidth, --nic-bandwidth" \
	"\"$(link_bw "$TMP/o.xml" nv-d0) $(link_bw "$TMP/o.xml" nic-d0)\" == \"300GBps 12500000000Bps\""

"$DLASIM" platform --topology nvswitch --devices 8 --pcie-bandwidth 64GBps --pcie-uplink-bandwidth 32GBps \
	--cpu-memory-bandwidth 100GBps -o "$TMP/h.xml" 2> /dev/null
holds "nvswitch: --pcie-bandwidth, --pcie-uplink-bandwidth, --cpu-memory-bandwidth" \
	"\"$(link_bw "$TMP/h.xml" pcie-d0) $(link_bw "$TMP/h.xml" pcie-up0) $(link_bw "$TMP/h.xml" dram-cpu0)\" == \"64GBps 32GBps 100GBps\""

# Hosts per family (16 devices): nvswitch 2 domains of 8 with 4 sockets;
# nvl72 one domain, a Grace per 2 devices; gh200 a Grace each; cxl an
# expander per 2 devices; mc-nvswitch a memory-node each.
for t in nvswitch nvl72 gh200 cxl mc-nvswitch; do
	"$DLASIM" platform --topology $t --devices 16 -o "$TMP/$t-16.xml" 2> /dev/null
done
holds "nvswitch: 16 devices, 4 sockets, 2 system nodes" \
	"$(count "$TMP/nvswitch-16.xml" device) == 16 && $(count "$TMP/nvswitch-16.xml" cpu) == 4 && $(grep -c 'dlasim.node" value="node1"' "$TMP/nvswitch-16.xml") == 8"
holds "nvl72: 8 Grace CPUs, one domain" "$(count "$TMP/nvl72-16.xml" cpu) == 8 && $(grep -c dlasim.node "$TMP/nvl72-16.xml") == 0"
holds "gh200: 16 Grace CPUs" "$(count "$TMP/gh200-16.xml" cpu) == 16"
holds "gh200: NVLink-C2C 450 GB/s per direction, Grace memory 512 GB/s" \
	"\"$(link_bw "$TMP/gh200-16.xml" c2c-g0) $(link_bw "$TMP/gh200-16.xml" dram-g0)\" == \"450GBps 512GBps\""
holds "cxl: 8 expanders behind x16 links of 64 GB/s" \
	"$(count "$TMP/cxl-16.xml" memory) == 8 && \"$(link_bw "$TMP/cxl-16.xml" cxl-d0) $(link_bw "$TMP/cxl-16.xml" cxl-p0)\" == \"64GBps 64GBps\""
holds "mc-nvswitch: 16 memory-nodes, each with a device's links into the switch" \
	"$(count "$TMP/mc-nvswitch-16.xml" memory) == 16 && \"$(link_bw "$TMP/mc-nvswitch-16.xml" nv-m0)\" == \"$(link_bw "$TMP/mc-nvswitch-16.xml" nv-d0)\""

# One domain of 8: the rings' bandwidth is a device's injection L x B,
# however many rings are declared, and both ways adds nothing (a ring's
# two directions leave every device through the same switch port).
ring_form() {	# F LB: F x [(N-1)/N S/LB + (N-1) 2a], N = 8
	awk -v f=$1 -v b=$2 'BEGIN { printf "%.12g", f * (7/8 * 1e9/b + 7 * 2e-6) }'
}
for spec in "nvswitch 300e9 6" "nvl72 900e9 9" "gh200 450e9 9" "cxl 450e9 9" "mc-nvswitch 450e9 9"; do
	set -- $spec
	"$DLASIM" platform --topology $1 --devices 8 -o "$TMP/$1.xml" 2> /dev/null
	for algo in ring ring_flow ring:bidir=1; do
		close "$1-8: $algo all-reduce at L x B = $2" "$(time_of "$TMP/$1.xml" $algo allreduce)" "$(ring_form 2 $2)" 0.01
	done
	close "$1-8: ring all-gather" "$(time_of "$TMP/$1.xml" ring allgather)" "$(ring_form 1 $2)" 0.01
	close "$1-8: ring reduce-scatter" "$(time_of "$TMP/$1.xml" ring reducescatter)" "$(ring_form 1 $2)" 0.01
	# hd: log2(8) exchanges each way at the device's full port.
	close "$1-8: hd all-reduce" "$(time_of "$TMP/$1.xml" hd allreduce)" \
		"$(awk -v b=$2 'BEGIN { printf "%.12g", 2*3*2e-6 + 2*7/8*1e9/b }')" 0.01
	close "$1-8: hd broadcast (binomial tree)" "$(time_of "$TMP/$1.xml" hd broadcast)" \
		"$(awk -v b=$2 'BEGIN { printf "%.12g", 3*(2e-6 + 1e9/b) }')" 0.01
	# Broadcast: a pipeline of k pieces of c = S/(R k) per ring at LB/R.
	close "$1-8: ring broadcast" "$(time_of "$TMP/$1.xml" ring broadcast)" \
		"$(awk -v b=$2 -v R=$3 'BEGIN { s = 1e9/R; k = int(s/4194304); if (k*4194304 < s) k++; c = s/k
			printf "%.12g", (8-2+k) * (2e-6 + c/(b/R)) }')" 0.01
done

# Scale-out: 4 domains of 8 (A100: R = 6, L B = 300 GB/s, NIC 25 GB/s).
# hier: 2[(G-1)a1 + (G-1)/G s/b1] + 2[(K-1)a2 + (K-1)/K (s/G)/b2],
# s = S/R, b1 = LB/R, b2 = NIC/R; a1 = 2 us, a2 = 2 us in one unit, 4 us
# across units (a ring over the domains pays its slowest hop).
hier_ar() {	# A2
	awk -v a2=$1 'BEGIN { G = 8; K = 4; R = 6; s = 1e9/R; b1 = 300e9/R; b2 = 25e9/R
		printf "%.12g", 2*((G-1)*2e-6 + (G-1)/G*s/b1) + 2*((K-1)*a2 + (K-1)/K*s/G/b2) }'
}
"$DLASIM" platform --topology nvswitch --nodes 4 -o "$TMP/n4.xml" 2> /dev/null
holds "--nodes 4: 32 devices in 4 system nodes" "$(count "$TMP/n4.xml" device) == 32 && $(grep -c 'dlasim.node" value="node3"' "$TMP/n4.xml") == 8"
close "nvswitch, 4 domains: hier all-reduce = closed form" "$(time_of "$TMP/n4.xml" hier allreduce)" "$(hier_ar 2e-6)" 0.01
# Every family scales out the same way: 4 domains of 8, its own L x B
# and NIC (a100: 25 GB/s; h100, b200: 50 GB/s).
for spec in "nvl72 900e9 9 50e9" "gh200 450e9 9 50e9" "cxl 450e9 9 50e9" "mc-nvswitch 450e9 9 50e9"; do
	set -- $spec
	"$DLASIM" platform --topology $1 --node-devices 8 --nodes 4 -o "$TMP/$1-n4.xml" 2> /dev/null
	close "$1, 4 domains of 8: hier all-reduce = closed form" "$(time_of "$TMP/$1-n4.xml" hier allreduce)" \
		"$(awk -v LB=$2 -v R=$3 -v nic=$4 'BEGIN { G = 8; K = 4; s = 1e9/R; b1 = LB/R; b2 = nic/R
			printf "%.12g", 2*((G-1)*2e-6 + (G-1)/G*s/b1) + 2*((K-1)*2e-6 + (K-1)/K*s/G/b2) }')" 0.01
done
"$DLASIM" platform --topology nvswitch --nodes 4 --switch-radix 4 -o "$TMP/n4u.xml" 2> /dev/null
holds "--switch-radix 4: two scalable units of 2 domains" "$(grep -c '<zone id="su[0-9]*"' "$TMP/n4u.xml") == 2"
close "nvswitch, 2 units: hier all-reduce pays 4 links between units" "$(time_of "$TMP/n4u.xml" hier allreduce)" "$(hier_ar 4e-6)" 0.01
# A flat ring over the domains runs at its slowest hop, one NIC shared
# by the R rings: 2(N-1)(2a + S/(R N) / (NIC/R)).
close "nvswitch, 4 domains: flat ring_flow all-reduce is bound by one NIC" \
	"$(time_of "$TMP/n4.xml" ring_flow allreduce)" \
	"$(awk 'BEGIN { N = 32; printf "%.12g", 2*(N-1)*(2e-6 + 1e9/N/25e9) }')" 0.01
# hd over 2 units: distance 16 crosses units (4 links), 8 crosses domains
# in a unit (2 NICs), 4, 2, 1 stay on the switch; S/2, S/4, ... each way.
# Leaf uplinks oversubscribed 2:1 carry the two domains' rail k flows on
# one NIC's worth: the distance-16 step at half the NIC.
hd_ar() {	# BANDWIDTH OF THE STEP ACROSS UNITS
	awk -v b16=$1 'BEGIN { n = 25e9; d = 300e9
		printf "%.12g", 2 * (4e-6 + 1e9/2/b16 + 2e-6 + 1e9/4/n + 3*2e-6 + 1e9*(1/8 + 1/16 + 1/32)/d) }'
}
close "nvswitch, 2 units, non-blocking: hd all-reduce = closed form" "$(time_of "$TMP/n4u.xml" hd allreduce)" "$(hd_ar 25e9)" 0.01
"$DLASIM" platform --topology nvswitch --nodes 4 --switch-radix 4 --oversubscription 2 -o "$TMP/n4x.xml" 2> /dev/null
close "nvswitch, 2 units, 2:1 leaves: hd's step across units at half a NIC" "$(time_of "$TMP/n4x.xml" hd allreduce)" "$(hd_ar 12.5e9)" 0.01
close "2:1 leaves: hier (one rail flow per leaf uplink) loses nothing" "$(time_of "$TMP/n4x.xml" hier allreduce)" "$(hier_ar 4e-6)" 0.01

# Training on every fabric with memory-nodes or pooled memory: what moves
# is the offload (W bytes per device out, W back), on the links of its
# route: gh200 C2C (nvlink) and Grace DRAM, cxl two CXL links (pcie) and
# the expander's DRAM, mc-nvswitch two switch ports (nvlink) and DIMMs.
train() {	# FILE POLICY OUT [ARGS]
	f=$1; pa=$2; out=$3; shift 3
	"$DLASIM" train --platform "$f" --workload vgg-e --batch 256 --page-alloc $pa \
		--link-stats "$TMP/$out.csv" --json "$@" > "$TMP/$out.json" 2> "$TMP/err" ||
		not_ok "train on $f with $pa" "$(cat "$TMP/err")"
}
cls() { json_num "$TMP/$1.json" ${2}_bytes; }
lbytes() {	# OUT LINK DIRECTION
	awk -F, -v l=$2 -v d=$3 '$1 == l && $3 == d { print $5 }' "$TMP/$1.csv"
}
for t in gh200 cxl mc-nvswitch; do
	for pa in local bw_aware; do
		train "$TMP/$t.xml" $pa $t-$pa
		train "$TMP/$t.xml" $pa $t-$pa-inf --device-memory inf
		W=$(json_num "$TMP/$t-$pa.json" offload_bytes)
		holds "$t, $pa: offload moved ($W B per device)" "$W > 1e8"
		close "$t, $pa: DRAM bytes = 8 devices x 2W" "$(cls $t-$pa dram)" "$(awk -v w=$W 'BEGIN { printf "%.12g", 16 * w }')" 1e-5
		case $t in
		cxl) close "cxl, $pa: CXL (pcie) bytes = 8 x 2W x 2 links" "$(cls $t-$pa pcie)" "$(awk -v w=$W 'BEGIN { printf "%.12g", 32 * w }')" 1e-5 ;;
		*) k=2; [ $t = gh200 ] && k=1
		   close "$t, $pa: nvlink bytes = the collectives' + 8 x 2W x $k" \
			"$(cls $t-$pa nvlink)" "$(awk -v w=$W -v k=$k -v c="$(cls $t-$pa-inf nvlink)" 'BEGIN { printf "%.12g", c + 16 * k * w }')" 1e-5 ;;
		esac
	done
done
W=$(json_num "$TMP/gh200-local.json" offload_bytes)
close "gh200: d0 writes its W bytes to its Grace over C2C" "$(lbytes gh200-local c2c-g0 up)" "$W" 1e-5
close "gh200: ... and reads them back" "$(lbytes gh200-local c2c-g0 down)" "$W" 1e-5
# Where the pages go: d0 keeps its whole backing list, the other devices
# only their first share.  LOCAL puts all of d0's pages in its first
# share; BW_AWARE spreads them over its N shares (2W / N each way).
only_first() {	# FILE OUT: every device but d0 backed by its first share
	awk '/<host id="d[0-9]+"/ { d = ($0 !~ /"d0"/) }
		d && /dlasim.backing/ { match($0, /value="[^"]*"/); split(substr($0, RSTART + 7, RLENGTH - 8), v, " ")
			$0 = substr($0, 1, RSTART + 6) v[1] substr($0, RSTART + RLENGTH - 1) } { print }' "$1" > "$2"
}
for spec in "mc-nvswitch m 8 1" "cxl p 4 2"; do
	set -- $spec	# FAMILY PREFIX SHARES DEVICES-PER-SHARE
	only_first "$TMP/$1.xml" "$TMP/$1-d0.xml"
	train "$TMP/$1-d0.xml" local $1-d0-local
	train "$TMP/$1-d0.xml" bw_aware $1-d0-bw
	W=$(json_num "$TMP/$1-d0-local.json" offload_bytes)
	# Share 1 of d0 is the first share of devices 1 x (devices per share) on.
	close "$1, LOCAL: d0's pages all in ${2}0 (${2}1's DRAM serves its own $4 device(s) only)" \
		"$(lbytes $1-d0-local dram-${2}1 shared)" "$(awk -v w=$W -v k=$4 'BEGIN { printf "%.12g", 2 * k * w }')" 1e-5
	close "$1, BW_AWARE: d0 puts 1/$3 of its pages in ${2}1" "$(lbytes $1-d0-bw dram-${2}1 shared)" \
		"$(awk -v w=$W -v n=$3 -v k=$4 'BEGIN { printf "%.12g", 2 * k * w + 2 * w / n }')" 1e-4
done

# Bad input: one line each.
expect_error "unknown generation" "--generation 'a200': not v100, a100, h100 or b200" \
	"$DLASIM" platform --topology nvswitch --devices 8 --generation a200
expect_error "a domain of 73" "--node-devices '73'" \
	"$DLASIM" platform --topology nvl72 --devices 146 --node-devices 73
expect_error "--generation on the paper's machines" "--generation: only the fabrics of today" \
	"$DLASIM" platform --topology dc --devices 8 --generation h100
expect_error "--nodes and --devices disagree" "--nodes 2 makes 16 devices \\(8 per NVLink domain\\), not --devices 12" \
	"$DLASIM" platform --topology nvswitch --nodes 2 --devices 12
expect_error "odd leaf radix" "--switch-radix 5: an even number" \
	"$DLASIM" platform --topology cxl --devices 64 --switch-radix 5
