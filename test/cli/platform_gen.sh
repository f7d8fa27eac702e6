# The generator: hosts per role and rings follow the machines of
# docs/platforms.md; the zone layout for large platforms does not change
# any route; the shipped 8-device platforms are what the generator writes.
. test/lib.sh

count() {	# FILE ROLE
	grep -c "<prop id=\"dlasim.role\" value=\"$2\"/>" "$1"
}
rings() {	# FILE
	grep -c '<prop id="dlasim.ring\.' "$1"
}
roles() {	# NAME FILE DEVICES MEMORY CPU PCIE SWITCH PORT RINGS
	got="$(count "$2" device) $(count "$2" memory) $(count "$2" cpu) $(count "$2" pcie-switch) $(count "$2" switch) $(count "$2" port) $(rings "$2")"
	want="$3 $4 $5 $6 $7 $8 $9"
	if [ "$got" = "$want" ]; then ok "$1"; else not_ok "$1" "devices memory cpu pcie switch port rings = $got, expected $want"; fi
}

for t in dc dc-gen4 hc hc-ring mc-star mc-ring switch; do
	"$DLASIM" platform --topology $t --devices 8 -o "$TMP/$t.xml"
done
# Sockets serve 4 devices; a PCIe switch is its links, no host (its two
# devices share its uplink, checked below); memory-nodes sit between
# neighbours (two halves each) in mc-ring, one per device in mc-star with
# two ports per device for rings 1 and 2; rings = links/2 except hc (half
# the links go to the CPU: one ring with the remaining three).
roles "dc: 8 devices, 2 sockets, 3 rings" "$TMP/dc.xml" 8 0 2 0 0 0 3
roles "dc-gen4: same machine" "$TMP/dc-gen4.xml" 8 0 2 0 0 0 3
roles "hc: 8 devices, 2 sockets, 1 ring" "$TMP/hc.xml" 8 0 2 0 0 0 1
roles "hc-ring: the same machine" "$TMP/hc-ring.xml" 8 0 2 0 0 0 1
roles "mc-ring: 8 devices, 8 memory-nodes of 2 halves, 3 rings" "$TMP/mc-ring.xml" 8 16 0 0 0 0 3
roles "mc-star: 8 devices, 8 memory-nodes, 16 ports, 3 rings" "$TMP/mc-star.xml" 8 8 0 0 0 16 3
roles "switch: 8 devices, 1 switch, 3 rings" "$TMP/switch.xml" 8 0 0 0 1 0 3

holds "dc-gen4 doubles PCIe (32 GBps)" "$(grep -c 'id="pcie-d0" bandwidth="32GBps"' "$TMP/dc-gen4.xml") == 1"
holds "dc: PCIe gen3 x16 (16 GBps)" "$(grep -c 'id="pcie-d0" bandwidth="16GBps"' "$TMP/dc.xml") == 1"
holds "dc: socket memory 80 GBps" "$(grep -c 'id="dram-cpu0" bandwidth="80GBps"' "$TMP/dc.xml") == 1"
holds "hc: socket memory 4 x 3 x 25 = 300 GBps" "$(grep -c 'id="dram-cpu0" bandwidth="300GBps"' "$TMP/hc.xml") == 1"
holds "hc: 3 links (75 GBps) to the socket" "$(grep -c 'id="nv-d0-cpu0" bandwidth="75GBps"' "$TMP/hc.xml") == 1"
# hc-ring: HC-DLA keeps 3 links per device for the devices: one ring (two
# of them), the third pairing d0-d1, d2-d3, ...; every device ends 3 of
# them.
hc_ends() {	# FILE DEVICE: physical device-side links ending at the device
	awk -v d="$2" '/<link id="nv-d[0-9]+-d[0-9]+"/ { match($0, /nv-d[0-9]+-d[0-9]+/); split(substr($0, RSTART + 4, RLENGTH - 4), e, "-d"); lanes = 1; cur = (e[1] == d || e[2] == d) }
		cur && /dlasim.lanes/ { match($0, /value="[0-9]+"/); lanes = substr($0, RSTART + 7, RLENGTH - 8) }
		cur && /<\/link>/ { n += lanes; cur = 0 } END { print n }' "$1"
}
holds "hc-ring: each device has 3 device-side links (d0 $(hc_ends "$TMP/hc-ring.xml" 0), d5 $(hc_ends "$TMP/hc-ring.xml" 5))" \
	"$(hc_ends "$TMP/hc-ring.xml" 0) == 3 && $(hc_ends "$TMP/hc-ring.xml" 5) == 3"
holds "hc-ring: hops alternate 2 links and 1" "$(grep -c 'id="nv-d0-d1" bandwidth="50GBps"' "$TMP/hc-ring.xml") == 1 && $(grep -c 'id="nv-d1-d2" bandwidth="25GBps"' "$TMP/hc-ring.xml") == 1"
# The ring runs at its slowest hop: all-reduce closed form with one ring
# of 25 GB/s, 2(N-1)/N x S / B + 2(N-1) x 1 us.
"$DLASIM" coll --platform "$TMP/hc-ring.xml" --op allreduce --bytes 1GB --coll ring --json > "$TMP/hc-ring.json"
close "hc-ring: ring all-reduce at 25 GB/s per direction" "$(json_num "$TMP/hc-ring.json" simulated_time_s)" \
	"$(awk 'BEGIN { printf "%.12g", 2 * 7 / 8 * 1e9 / 25e9 + 14e-6 }')" 1e-9
# hc, the paper's accounting (Section V-A: half the links, 1.5 rings):
# every hop carries 3 / 2 x 25 = 37.5 GB/s, so a device's two hops carry
# its 3 links' 75 GB/s; the all-reduce runs at 37.5 GB/s per direction.
holds "hc: every hop 37.5 GB/s (d0-d1, d1-d2, d7-d0)" \
	"$(grep -c 'id="nv-d[017]-d[120]" bandwidth="37500000000Bps"' "$TMP/hc.xml") == 3 && $(grep -c 'id="nv-d[0-9]-d[0-9]" bandwidth="37500000000Bps"' "$TMP/hc.xml") == 8"
"$DLASIM" coll --platform "$TMP/hc.xml" --op allreduce --bytes 1GB --coll ring --json > "$TMP/hc.json"
close "hc: ring all-reduce at 37.5 GB/s per direction" "$(json_num "$TMP/hc.json" simulated_time_s)" \
	"$(awk 'BEGIN { printf "%.12g", 2 * 7 / 8 * 1e9 / 37.5e9 + 14e-6 }')" 1e-9
"$DLASIM" platform --topology hc --devices 8 --socket power9 -o "$TMP/hc-p9.xml"
holds "hc --socket power9: 120 GBps per socket (Section II-C)" "$(grep -c 'id="dram-cpu0" bandwidth="120GBps"' "$TMP/hc-p9.xml") == 1"
# A PCIe switch is its uplink: d0 and d1 reach their socket over pcie-up0,
# d2 over pcie-up1 (two devices per switch).
uplink() {	# FILE DEVICE: the pcie-up link on the device's route to its socket
	grep -o "<route src=\"d$2\" dst=\"cpu[0-9]*\">.*pcie-up[0-9]*" "$1" | sed 's/.*pcie-up/pcie-up/'
}
holds "dc: two devices share a switch's uplink ($(uplink "$TMP/dc.xml" 0) $(uplink "$TMP/dc.xml" 1) $(uplink "$TMP/dc.xml" 2))" \
	"\"$(uplink "$TMP/dc.xml" 0) $(uplink "$TMP/dc.xml" 1) $(uplink "$TMP/dc.xml" 2)\" == \"pcie-up0 pcie-up0 pcie-up1\""
"$DLASIM" platform --topology dc-gen4 --devices 8 --pcie-uplink-bandwidth 16GBps -o "$TMP/gen4-link.xml"
holds "dc-gen4 doubles the switch uplink too" "$(grep -c 'id="pcie-up0" bandwidth="32GBps"' "$TMP/dc-gen4.xml") == 1"
holds "dc-gen4 --pcie-uplink-bandwidth 16GBps: gen4 devices behind a gen3 uplink" \
	"$(grep -c 'id="pcie-up0" bandwidth="16GBps"' "$TMP/gen4-link.xml") == 1 && $(grep -c 'id="pcie-d0" bandwidth="32GBps"' "$TMP/gen4-link.xml") == 1"
# Power: the DGX-1's 3200 W are 8 x 300 W devices, 2 x 135 W sockets and
# 530 W of the rest (Section V-C; docs/model.md).
power() {	# FILE: sum of dlasim.tdp and dlasim.other-power
	sed -n 's/.*"dlasim\.\(tdp\|other-power\)" value="\([0-9.]*\)W".*/\2/p' "$1" | awk '{ s += $1 } END { print s }'
}
holds "dc: 3200 W in all, the DGX-1's TDP" "$(power "$TMP/dc.xml") == 3200"
holds "mc-ring: 3200 W + 8 memory-nodes of 127 W" "$(power "$TMP/mc-ring.xml") == 3200 + 8 * 127"
holds "mc-star: the same memory-nodes" "$(power "$TMP/mc-star.xml") == 3200 + 8 * 127"
holds "hc: the same sockets as dc" "$(power "$TMP/hc.xml") == 3200"
holds "mc-ring: a memory-node half has 128 GBps of DIMMs" "$(grep -c 'id="dram-m0.0" bandwidth="128GBps"' "$TMP/mc-ring.xml") == 1"
holds "mc-ring: half of 10 x 128 GB" "$(grep -c 'dlasim.capacity" value="640000000000B"' "$TMP/mc-ring.xml") == 16"
holds "mc-star: 2 links (50 GBps) to the own memory-node" "$(grep -c 'id="nv-d0-m0" bandwidth="50GBps"' "$TMP/mc-star.xml") == 1"

for t in dc dc-gen4 hc mc-star mc-ring switch; do
	if cmp -s "$TMP/$t.xml" "platforms/$t-8.xml"; then ok "platforms/$t-8.xml is the generator's output"
	else not_ok "platforms/$t-8.xml is the generator's output" "regenerate it"; fi
done

# Block zones (routing tables of O(N)) route exactly like one flat zone.
same() {	# NAME TOPOLOGY N BLOCK ALGO OP
	"$DLASIM" platform --topology "$2" --devices "$3" --block 0 -o "$TMP/flat.xml"
	"$DLASIM" platform --topology "$2" --devices "$3" --block "$4" -o "$TMP/blocks.xml"
	a=$("$DLASIM" coll --platform "$TMP/flat.xml" --op "$6" --bytes 1GB --coll "$5" --json | sed -n 's/.*"simulated_time_s": //p' | tr -d ,)
	b=$("$DLASIM" coll --platform "$TMP/blocks.xml" --op "$6" --bytes 1GB --coll "$5" --json | sed -n 's/.*"simulated_time_s": //p' | tr -d ,)
	close "$1" "$b" "$a" 1e-9
}
same "dc, 256 devices in 4 blocks = flat" dc 256 64 ring_flow allreduce
same "mc-ring, 128 devices in 2 blocks = flat" mc-ring 128 64 ring_flow allreduce
same "hc, 96 devices in 3 blocks of 32 = flat" hc 96 32 ring allgather
holds "block zones are used above the block size (96 = 3 x 32)" "$(grep -c '<zone id="block' "$TMP/blocks.xml") == 3"

# Above the block size the switch fabric has two levels: leaf switches of
# `block` devices and a non-blocking spine, so a hop between leaves crosses
# 4 links instead of 2.  Halving-doubling on 128 devices in 2 leaves: one
# exchange of each half crosses leaves (4 us), six stay inside (2 us):
#   2 * (4 + 6 * 2) us + 2 * 127/128 * S / 150 GB/s
"$DLASIM" platform --topology switch --devices 128 -o "$TMP/sw.xml"
"$DLASIM" coll --platform "$TMP/sw.xml" --op allreduce --bytes 1GB --coll hd --json > "$TMP/r.json"
close "switch, 128 devices on 2 leaves: hd matches the two-level closed form" \
	"$(json_num "$TMP/r.json" simulated_time_s)" "$(awk 'BEGIN { printf "%.12g", 32e-6 + 2*127/128*1e9/150e9 }')" 0.001

# Odd sizes: partial sockets and switches, rings still close (one-way
# rings: the closed form with 75 GB/s).
for t in dc mc-ring; do
	"$DLASIM" platform --topology $t --devices 5 -o "$TMP/odd.xml"
	a=$(case $t in dc) echo 1e-6 ;; *) echo 2e-6 ;; esac)
	want=$(awk -v a="$a" 'BEGIN { printf "%.12g", 2*4/5*1e9/75e9 + 8*a }')
	"$DLASIM" coll --platform "$TMP/odd.xml" --op allreduce --bytes 1GB --coll ring --json > "$TMP/r.json"
	close "$t with 5 devices matches the closed form" "$(json_num "$TMP/r.json" simulated_time_s)" "$want" 0.01
done

# -o FILE: one line on stderr saying what was written, its size that of
# the file (stdout stays empty: it may be closed, outputs.sh).
if $DLASIM platform --topology mc-ring --devices 16 -o "$TMP/said.xml" > "$TMP/said.out" 2> "$TMP/said.err" &&
   grep -qx "dlasim: platform: wrote $TMP/said.xml: mc-ring, 16 devices, $(wc -c < "$TMP/said.xml") bytes" "$TMP/said.err" &&
   [ ! -s "$TMP/said.out" ]; then ok "-o says what it wrote"
else not_ok "-o says what it wrote" "$(cat "$TMP/said.out" "$TMP/said.err" | head -c 300)"; fi
