#!/bin/sh
# dlasim llm --offload (docs/llm.md, "Offload"): the bytes each kind puts
# in the backing store and moves there against closed forms computed here
# by hand; the orderings a reader can check: with everything in HBM all
# machines tie, with offload the backing store's bandwidth (read here from
# the generated platforms) orders them, ZeRO-3 moves more bytes on the
# fabric than ZeRO-1 and less to the backing store; bad inputs one line.
. test/lib.sh
calc() { awk "BEGIN { printf \"%.17g\", $1 }"; }

# The fabrics of today with one generation: the same NVLink domains of 8
# H100s and the same rail scale-out, and a backing store each: host
# memory over PCIe (nvswitch), Grace memory over NVLink-C2C (gh200), a
# CXL pool (cxl), memory-nodes on the NVLink fabric (mc-nvswitch).
MACHINES="nvswitch gh200 cxl mc-nvswitch"
for t in $MACHINES; do
	expect_ok "platform $t" $DLASIM platform --topology $t --devices 16 --node-devices 8 \
		--generation h100 -o $TMP/$t.xml
done
# Every device computes as an H100 (gh200's would be a GH200's).
L="$DLASIM llm --workload megatron-1.7b --device h100-sxm"

# backing_bw FILE: the backing-store bandwidth of device d0, the slowest
# link on its route to the first host of its dlasim.backing.
backing_bw() {
	awk '
	function bps(v,  n, u) {
		n = v + 0; u = v; sub(/^[0-9.eE+-]+/, "", u)
		if (u == "TBps") return n * 1e12
		if (u == "GBps") return n * 1e9
		if (u == "MBps") return n * 1e6
		if (u == "kBps") return n * 1e3
		if (u == "Bps") return n
		return -1
	}
	/<link id=/ { match($0, /id="[^"]*"/); id = substr($0, RSTART + 4, RLENGTH - 5)
		match($0, /bandwidth="[^"]*"/); bw[id] = bps(substr($0, RSTART + 11, RLENGTH - 12)) }
	/<host id="d0"/ { dev = 1 }
	dev && /dlasim.backing/ { match($0, /value="[^" ]*/); store = substr($0, RSTART + 7, RLENGTH - 7); dev = 0 }
	/<route src="d0"/ { route[n++] = $0 }
	END {
		for (i = 0; i < n; i++) {
			if (index(route[i], "dst=\"" store "\"") == 0) continue
			s = route[i]; min = -1
			while (match(s, /link_ctn id="[^"]*"/)) {
				l = substr(s, RSTART + 13, RLENGTH - 14); s = substr(s, RSTART + RLENGTH)
				if (min < 0 || bw[l] < min) min = bw[l]
			}
			printf "%.17g\n", min
			exit
		}
	}' "$1"
}

# ---- megatron-1.7b by hand: l 24, h 2304, s 2048, V 51200, fp16.  A
# layer has 12 h^2 + 13 h parameters; the device of one stage holds P =
# l (12 h^2 + 13 h) + V h + s h + 2 h of them: 2 P bytes of parameters
# and of gradients, 12 P of optimizer states (mixed-precision Adam), and
# with full recomputation 2 s b h bytes of activations per layer and
# micro-batch in flight ----
h=2304 l=24 s=2048 V=51200
Pl=$(calc "12 * $h * $h + 13 * $h")
P=$(calc "$l * $Pl + $V * $h + $s * $h + 2 * $h")
act=$(calc "2 * $s * $h * $l")
total=$(calc "16 * $P + $act")

# ---- the optimizer states alone: 5 GB over; read and written around
# the step, 2 x 5 GB, all of it exposed (nothing to overlap it with) ----
cap=$(calc "$total - 5e9")
expect_ok "5 GB over" $L --platform $TMP/nvswitch.xml --global-batch 4 --offload \
	--device-memory "$(awk "BEGIN { printf \"%.0fB\", $cap }")" --json
cp $TMP/out $TMP/opt.json
close "optimizer: 5 GB in the backing store" "$(json_num $TMP/opt.json offloaded_bytes)" 5e9 1e-6
close "optimizer: on the device = --device-memory" \
	"$(json_num $TMP/opt.json device_memory_used_bytes)" "$cap" 1e-9
close "optimizer: moved = read and written once, 2 x 5 GB" \
	"$(json_num $TMP/opt.json offload_traffic_bytes)" 1e10 1e-6

# ---- all three kinds: device memory = the gradients and half the
# parameters, so the optimizer states, every checkpoint and half the
# parameters leave.  Per iteration, m = 4 micro-batches, one in flight:
# optimizer 2 x 12 P, checkpoints 2 x act x m, parameters read before
# each forward and backward of every micro-batch and written once,
# (2 m + 1) x P ----
cap=$(calc "2 * $P + $P")
expect_ok "all kinds offloaded" $L --platform $TMP/nvswitch.xml --global-batch 4 --offload \
	--device-memory "$(awk "BEGIN { printf \"%.0fB\", $cap }")" --json
cp $TMP/out $TMP/all.json
close "all kinds: 12 P + act + P in the backing store" "$(json_num $TMP/all.json offloaded_bytes)" \
	"$(calc "12 * $P + $act + $P")" 1e-9
close "all kinds: moved = 24 P + 2 act m + (2 m + 1) P" \
	"$(json_num $TMP/all.json offload_traffic_bytes)" "$(calc "24 * $P + 2 * $act * 4 + 9 * $P")" 1e-9

# ---- a pipeline: stage 0 (the fullest: the embedding, two micro-batches
# in flight) keeps its optimizer states and half its checkpoints off the
# device; each checkpoint's offloaded share goes out and back once per
# micro-batch, m = 8: 2 x 12 P0 + 2 x (act0 / 2) x m / 2.  The breakdown
# still adds up to the iteration ----
P0=$(calc "12 * $Pl + $V * $h + $s * $h")
act0=$(calc "2 * $s * $h * 12 * 2")
cap=$(calc "4 * $P0 + $act0 / 2")
expect_ok "pipeline" $L --platform $TMP/gh200.xml --global-batch 8 --pp 2 --offload \
	--device-memory "$(awk "BEGIN { printf \"%.0fB\", $cap }")" --json
cp $TMP/out $TMP/pp.json
close "pipeline: stage 0's 12 P0 + act0 / 2 in the backing store" \
	"$(json_num $TMP/pp.json offloaded_bytes)" "$(calc "12 * $P0 + $act0 / 2")" 1e-9
close "pipeline: moved = 24 P0 + act0 m / 2" "$(json_num $TMP/pp.json offload_traffic_bytes)" \
	"$(calc "24 * $P0 + $act0 * 8 / 2")" 1e-9
sum=0
for k in compute_s tp_exposed_s pp_exposed_s bubble_s dp_exposed_s ep_exposed_s offload_s; do
	sum=$(calc "$sum + $(json_num $TMP/pp.json $k)")
done
close "pipeline: the breakdown, offload_s in it, adds up to the iteration" "$sum" \
	"$(json_num $TMP/pp.json iteration_time_s)" 1e-9
holds "pipeline: some offload exposed" "$(json_num $TMP/pp.json offload_s) > 0"

# ---- checkpoints overlap compute: without recomputation a layer keeps
# s b h (34 + 5 a s / h) bytes; 12 GB of device memory send the optimizer
# states and part of them out.  The step cannot be hidden (2 O / B), the
# checkpoints partly are: exposed below all traffic / B ----
expect_ok "gh200, no recomputation" $L --platform $TMP/gh200.xml --global-batch 4 \
	--recompute none --offload --device-memory 12GB --json
cp $TMP/out $TMP/ov.json
B=$(backing_bw $TMP/gh200.xml)
holds "overlap: offload_s >= the step's 2 O / B" \
	"$(json_num $TMP/ov.json offload_s) >= 2 * 12 * $P / $B * 0.999"
holds "overlap: offload_s < all the traffic / B" \
	"$(json_num $TMP/ov.json offload_s) < $(json_num $TMP/ov.json offload_traffic_bytes) / $B * 0.9"

# ---- with everything in HBM every machine ties: the same devices and
# device fabric, nothing on the backing store, so the same events; only
# floating-point rounding could differ (1e-9).  --offload with room to
# spare changes nothing either ----
C="--global-batch 16 --tp 2 --pp 2 --dp 4"
expect_ok "oracle on nvswitch" $L --platform $TMP/nvswitch.xml $C --device-memory inf --json
ref=$(json_num $TMP/out iteration_time_s)
for run in "nvswitch --offload" "gh200 --device-memory inf" "cxl --device-memory inf" \
	"mc-nvswitch --device-memory inf" "mc-nvswitch --offload --page-alloc bw_aware" \
	"gh200 --offload --device-memory 1TB"; do
	set -- $run
	t=$1
	shift
	expect_ok "in HBM: $t $*" $L --platform $TMP/$t.xml $C "$@" --json
	close "in HBM: $t $* ties" "$(json_num $TMP/out iteration_time_s)" "$ref" 1e-9
	holds "in HBM: $t $*: nothing offloaded" \
		"$(json_num $TMP/out offload_s) == 0 && $(json_num $TMP/out offloaded_bytes) == 0"
done

# ---- with offload the backing store's bandwidth orders the machines:
# one device, 14.66 GB of optimizer states out and back at the step, all
# exposed, at the bandwidth of the slowest link to the store (a store's
# controller takes a read and a write in turn, docs/llm.md): 2 O / B
# within 2 % (latencies, SimGrid's bandwidth factor) ----
O=$(calc "$total - 12e9")
for t in $MACHINES; do
	expect_ok "offload on $t" $L --platform $TMP/$t.xml --global-batch 4 --offload \
		--device-memory 12GB --json
	cp $TMP/out $TMP/one-$t.json
	close "offload on $t: 14.66 GB" "$(json_num $TMP/one-$t.json offloaded_bytes)" "$O" 1e-9
	bw=$(backing_bw $TMP/$t.xml)
	echo "$t $bw $(json_num $TMP/one-$t.json offload_s)" >> $TMP/order
	close "offload on $t: exposed = 2 O / B, B = $bw" "$(json_num $TMP/one-$t.json offload_s)" \
		"$(calc "2 * $O / $bw")" 0.02
done
# Faster store, less exposed: every pair in the order of their bandwidths.
sort -k2,2gr $TMP/order | awk '
	NR > 1 && $2 < bw * 0.99 && !($3 > t) { bad = bad " " name "<" $1 }
	NR > 1 && $2 >= bw * 0.99 && ($3 > t * 1.01 || $3 < t * 0.99) { bad = bad " " name "~" $1 }
	{ name = $1; bw = $2; t = $3 }
	END { if (bad != "") { print bad; exit 1 } }' > $TMP/bad &&
	ok "offload_s orders as the backing-store bandwidths: $(sort -k2,2gr $TMP/order | awk '{ printf "%s ", $1 }')" ||
	not_ok "offload_s orders as the backing-store bandwidths" "$(cat $TMP/bad; cat $TMP/order)"
# Spread over the eight memory-nodes, the device's own NVLink bounds it.
expect_ok "mc-nvswitch bw_aware" $L --platform $TMP/mc-nvswitch.xml --global-batch 4 --offload \
	--page-alloc bw_aware --device-memory 12GB --json
holds "mc-nvswitch: bw_aware exposes less than local" \
	"$(json_num $TMP/out offload_s) < $(json_num $TMP/one-mc-nvswitch.json offload_s)"

# ---- --link-stats counts the backing traffic: on nvswitch it crosses
# the device's PCIe link, both ways (plus 64-byte read requests) ----
expect_ok "link-stats" $L --platform $TMP/nvswitch.xml --global-batch 4 --offload \
	--device-memory 12GB --link-stats $TMP/ls.csv --json
pcie_d0=$(awk -F, '$1 == "pcie-d0" { s += $5 } END { printf "%.17g", s }' $TMP/ls.csv)
close "link-stats: pcie-d0 carries the offload traffic" "$pcie_d0" \
	"$(json_num $TMP/out offload_traffic_bytes)" 1e-6
pcie=$(awk -F, 'NR > 1 && $2 == "pcie" { s += $5 } END { printf "%.17g", s }' $TMP/ls.csv)
close "link-stats: pcie total = the JSON's pcie_bytes" "$pcie" "$(json_num $TMP/out pcie_bytes)" 1e-9

# ---- ZeRO over 4 devices, 10 GB each: ZeRO-1 needs 2 P + 2 P + 12 P / 4
# (+ act) and offloads what is over, ZeRO-3 needs 4 P / 4 + 3 P and fits; ZeRO-3
# moves 1.5 times ZeRO-1's bytes on the fabric (3 against 2 ring passes
# of the gradients), nothing to the backing store ----
Z="--platform $TMP/nvswitch.xml --global-batch 4 --dp 4 --offload --device-memory 10GB --json"
expect_ok "zero 1" $L $Z --zero 1
cp $TMP/out $TMP/z1.json
expect_ok "zero 3" $L $Z --zero 3
cp $TMP/out $TMP/z3.json
close "zero 1: 7 P + act - 10 GB offloaded" "$(json_num $TMP/z1.json offloaded_bytes)" \
	"$(calc "7 * $P + $act - 10e9")" 1e-9
holds "zero 3: nothing offloaded" "$(json_num $TMP/z3.json offloaded_bytes) == 0"
close "zero 3 moves 1.5 x zero 1's bytes on NVLink" "$(json_num $TMP/z3.json nvlink_bytes)" \
	"$(calc "1.5 * $(json_num $TMP/z1.json nvlink_bytes)")" 1e-9
holds "zero 1 moves more to the backing store" \
	"$(json_num $TMP/z1.json offload_traffic_bytes) > $(json_num $TMP/z3.json offload_traffic_bytes)"

# ---- outputs: the table's row, CSV = JSON ----
expect_ok "table" $L --platform $TMP/gh200.xml --global-batch 4 --offload --device-memory 12GB
grep -q "device memory 12.00 GB; offload on (page allocation local)" $TMP/out &&
	grep -q "backing store (exposed)" $TMP/out && ok "table: device memory, offload, its row" ||
	not_ok "table: device memory, offload, its row" "$(head -5 $TMP/out)"
expect_ok "csv" $L --platform $TMP/gh200.xml --global-batch 4 --offload --device-memory 12GB --csv
close "csv: offload_s = the JSON's" "$(sed -n 's/^offload_s,//p' $TMP/out)" \
	"$(json_num $TMP/one-gh200.json offload_s)" 1e-9

# ---- bad inputs: one line each, no simulation ----
expect_error "device memory garbage" "--device-memory '12XB'" \
	$L --platform $TMP/gh200.xml --global-batch 4 --device-memory 12XB
expect_error "device memory zero" "--device-memory '0'" \
	$L --platform $TMP/gh200.xml --global-batch 4 --device-memory 0
expect_error "no backing store" "--offload: .*switch-8.xml declares no backing store" \
	$L --platform switch-8 --global-batch 4 --offload
expect_error "unknown page-allocation plugin" "--page-alloc.*'nosuch' not found" \
	$L --platform $TMP/gh200.xml --global-batch 4 --offload --page-alloc nosuch
expect_error "without --offload: refused" \
	"megatron-1.7b does not fit: stage 0 needs .* --device-memory has 12.00 GB" \
	$L --platform $TMP/gh200.xml --global-batch 4 --device-memory 12GB
# The gradients stay: 2 P bytes against 3 GB.
expect_error "gradients over the device" \
	"does not fit even with --offload: stage 0 keeps its gradients .*: $(awk "BEGIN { printf \"%.2f\", (2 * $P - 3e9) / 1e9 }") GB over" \
	$L --platform $TMP/gh200.xml --global-batch 4 --offload --device-memory 3GB
# GPT-3 175B on one GH200 with 400 GB: 16 P + act - 400 GB leave for a
# Grace memory of dlasim.capacity bytes.
g=$(sed -n 's/.*id="dlasim.capacity" value="\([0-9]*\)B".*/\1/p' $TMP/gh200.xml | head -n 1)
over=$(awk -v g="$g" 'BEGIN { h = 12288; l = 96; V = 50257; s = 2048
	P = l * (12 * h * h + 13 * h) + V * h + s * h + 2 * h
	printf "%.2f", (16 * P + 2 * s * h * l - 400e9 - g) / 1e9 }')
expect_error "more than the backing store holds" \
	"gpt3-175b does not fit in device memory and the backing store: .* $over GB over" \
	$DLASIM llm --workload gpt3-175b --device h100-sxm --platform $TMP/gh200.xml \
	--global-batch 1 --offload --device-memory 400GB
