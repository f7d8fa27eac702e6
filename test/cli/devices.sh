#!/bin/sh
# Device descriptions (docs/devices.md): a device host's speed and
# description drive its compute, the shipped descriptions are listed and
# written into generated platforms, Table II stays the default, bad
# descriptions are one line each, and the worked example runs.
. test/lib.sh
W=workloads

strip_platform() {	# the JSON without the platform's path
	grep -v '"platform"' "$1"
}

# A device host's speed drives its compute.  Doubling every device's
# speed on a generated mc-ring-8 runs Table II's PE array at twice the
# clock (HBM bandwidth and latency stay).  VGG-E's layers are mostly
# HBM-bound on Table II's device (docs/devices.md, "Speed"): its compute
# shrinks, but by less than half.  With an HBM that never binds (Table
# II's description with 1000x its bandwidth) the compute-bound array
# halves: at most 0.6x.
double_speed() {	# double_speed IN OUT SPEED: every device at twice SPEED Tf
	awk -v s="$3" '$0 ~ "<host id=\"d[0-9]+\" speed=\"" s "Tf\">" { sub("speed=\"" s "Tf\"", "speed=\"" 2 * s "Tf\"") } { print }' \
		"$1" > "$2"
	holds "every device of $(basename "$2") doubled" "$(grep -c "speed=\"$((2 * $3))Tf\"" "$2") == 8 && $(grep -c "speed=\"$3Tf\"" "$2") == 0"
}
compute_of() {	# compute_of PLATFORM: VGG-E's compute_s there
	$DLASIM train --platform "$1" --workload $W/vgg-e.dnn --batch 64 --json > $TMP/c.json 2> $TMP/c.err
	json_num $TMP/c.json compute_s
}
expect_ok gen-ring $DLASIM platform --topology mc-ring --devices 8 -o $TMP/ring.xml
double_speed $TMP/ring.xml $TMP/ring2x.xml 256
c1=$(compute_of $TMP/ring.xml)
c2=$(compute_of $TMP/ring2x.xml)
holds "Table II, twice the speed: VGG-E computes faster ($c2 / $c1)" "$c1 > 0 && $c2 < 0.95 * $c1 && $c2 >= 0.5 * $c1"
sed 's/value="900GBps"/value="900TBps"/; s/value="table2"/value="table2-fast-hbm"/' \
	platforms/devices/table2.xml > $TMP/fast-hbm.xml
expect_ok gen-fast-hbm $DLASIM platform --topology mc-ring --devices 8 --device $TMP/fast-hbm.xml -o $TMP/fast.xml
double_speed $TMP/fast.xml $TMP/fast2x.xml 256
c1=$(compute_of $TMP/fast.xml)
c2=$(compute_of $TMP/fast2x.xml)
holds "HBM not binding, twice the speed: VGG-E's compute at most 0.6x ($c2 / $c1)" "$c1 > 0 && $c2 <= 0.6 * $c1 && $c2 >= 0.5 * $c1"
cp $TMP/ring.xml $TMP/1x.xml
$DLASIM train --platform $TMP/ring.xml --workload $W/vgg-e.dnn --batch 64 --json > $TMP/1x.json

# Table II by default and stated explicitly: the same JSON, on a generated
# and on a shipped platform (and train --device table2 on the shipped one).
expect_ok gen-ring-table2 $DLASIM platform --topology mc-ring --devices 8 --device table2 -o $TMP/ring-t2.xml
holds "the description is written on every device" "$(grep -c 'dlasim.device.pe.count' $TMP/ring-t2.xml) == 8"
expect_ok vgg-table2 $DLASIM train --platform $TMP/ring-t2.xml --workload $W/vgg-e.dnn --batch 64 --json
strip_platform $TMP/1x.json > $TMP/a.json
strip_platform $TMP/out > $TMP/b.json
if cmp -s $TMP/a.json $TMP/b.json; then ok "explicit table2 = default (generated)"
else not_ok "explicit table2 = default (generated)" "$(diff $TMP/a.json $TMP/b.json | head -5)"; fi
for p in dc-8 mc-star-8; do
	expect_ok "$p-default" $DLASIM train --platform platforms/$p.xml --workload $W/alexnet.dnn --batch 64 --json
	strip_platform $TMP/out > $TMP/a.json
	expect_ok "$p-table2" $DLASIM train --platform platforms/$p.xml --workload $W/alexnet.dnn --batch 64 --device table2 --json
	strip_platform $TMP/out > $TMP/b.json
	if cmp -s $TMP/a.json $TMP/b.json; then ok "$p: --device table2 = default"
	else not_ok "$p: --device table2 = default" "$(diff $TMP/a.json $TMP/b.json | head -5)"; fi
done

# The shipped descriptions: at least 8, each with an fp32 or bf16 peak,
# memory bandwidth and capacity, links.
expect_ok list $DLASIM platform --list-devices
n=$(awk 'NR > 2 && NF >= 9' $TMP/out | wc -l)
holds "at least 8 descriptions listed ($n)" "$n >= 8"
for d in table2 tpuv2 v100-sxm2 a100-sxm-40gb a100-sxm-80gb h100-sxm gh200 b200 mi300x; do
	holds "$d listed" "$(grep -c "^$d " $TMP/out) == 1"
done
holds "gh200 lists its C2C link and CPU memory" "$(grep '^gh200 ' $TMP/out | grep -c 'C2C 450 GB/s to 480 GB')"
# An H100 machine: its speed is its fp32 peak, its TDP the devices'.
expect_ok gen-h100 $DLASIM platform --topology mc-ring --devices 8 --device h100-sxm -o $TMP/h100.xml
holds "h100 speed is its fp32 peak" "$(grep -c '<host id="d[0-9]*" speed="67Tf">' $TMP/h100.xml) == 8"
holds "h100 TDP" "$(grep -c 'dlasim.tdp" value="700W"' $TMP/h100.xml) == 8"
expect_ok train-h100 $DLASIM train --platform $TMP/h100.xml --workload $W/alexnet.dnn --batch 64 --json
holds "the run names its device" "$(grep -c '"device": "h100-sxm"' $TMP/out) == 1"

# Bad descriptions: one line naming the file and the field, exit non-zero,
# nothing written.
bad_host() {	# bad_host NAME PATTERN PROPS...: a ring whose d3 carries PROPS
	name=$1; pattern=$2; shift 2
	props=""
	for p in "$@"; do props="$props<prop id=\"${p%%=*}\" value=\"${p#*=}\"/>"; done
	awk -v props="$props" '{ print } /<host id="d3" / { print "      " props }' \
		$TMP/ring.xml > $TMP/$name.xml
	expect_error "$name" "$pattern" $DLASIM train --platform $TMP/$name.xml --workload $W/alexnet.dnn --batch 64 --json
}
bad_host negative-bandwidth "negative-bandwidth.xml:[0-9]+: host 'd3': dlasim.device.hbm.bandwidth '-1GBps': must be greater than zero" \
	dlasim.device.hbm.bandwidth=-1GBps
bad_host unknown-unit "unknown-unit.xml:[0-9]+: host 'd3': dlasim.device.peak.fp32 '10Tq': unknown unit" \
	dlasim.device.peak.fp32=10Tq dlasim.device.hbm.bandwidth=1TBps
bad_host contradictory "contradictory.xml:[0-9]+: host 'd3': dlasim.device.peak.fp32 .* contradicts the host's speed" \
	dlasim.device.peak.fp32=10Tf dlasim.device.hbm.bandwidth=1TBps dlasim.device.efficiency=1 dlasim.device.efficiency.source=x
bad_host unknown-field "unknown-field.xml:[0-9]+: host 'd3': dlasim.device.hbm-bandwidth: not a field" \
	dlasim.device.hbm-bandwidth=1TBps
bad_host missing-bandwidth "missing-bandwidth.xml:[0-9]+: host 'd3': dlasim.device.hbm.bandwidth: missing" \
	dlasim.device.model=roofline
bad_host differs "differs.xml:[0-9]+: host 'd3': its device description differs from 'd0''s" \
	dlasim.device.hbm.bandwidth=1TBps dlasim.device.efficiency=1 dlasim.device.efficiency.source=x
printf 'network n\ndtype bf16\ninput x features=64 steps=1\nfc y out=64\n' > $TMP/bf16.dnn
expect_error no-peak-for-type "ring.xml: device 'table2': dlasim.device.peak.bf16: missing \(the workload computes in bf16\)" \
	$DLASIM train --platform $TMP/ring.xml --workload $TMP/bf16.dnn --batch 8 --json
expect_error unknown-device "device 'h200': no such description" \
	$DLASIM platform --topology mc-ring --devices 8 --device h200 -o $TMP/none.xml
holds "nothing written for an unknown device" "$(test -e $TMP/none.xml && echo 1 || echo 0) == 0"
expect_error train-unknown-device "device 'h200': no such description" \
	$DLASIM train --platform $TMP/ring.xml --workload $W/alexnet.dnn --device h200 --json
printf '<?xml version='"'"'1.0'"'"'?>\n<device>\n  <prop id="dlasim.device.peak.fp32" value="1Tf"/>\n  <prop id="dlasim.device.hbm.bandwidth" value="-2TBps"/>\n</device>\n' > $TMP/neg.xml
expect_error device-file-negative "neg.xml: dlasim.device.hbm.bandwidth '-2TBps': must be greater than zero" \
	$DLASIM platform --topology mc-ring --devices 8 --device $TMP/neg.xml
printf '<?xml version='"'"'1.0'"'"'?>\n<platform/>\n' > $TMP/notdev.xml
expect_error device-file-not-device "notdev.xml:2: the root element is not <device>" \
	$DLASIM platform --topology mc-ring --devices 8 --device $TMP/notdev.xml

# The worked example of docs/devices.md, as written there.
awk '/<!-- test: my-npu.xml -->/ { f = 1; next } f && /^```xml/ { next } f && /^```/ { exit } f' \
	docs/devices.md > $TMP/my-npu.xml
awk '/<!-- test: commands -->/ { f = 1; next } f && /^```sh/ { next } f && /^```/ { exit } f' \
	docs/devices.md > $TMP/example.sh
holds "the example is in docs/devices.md" "$(grep -c '<device>' $TMP/my-npu.xml) == 1 && $(grep -c '^dlasim ' $TMP/example.sh) == 2"
(cd $TMP && sed "s|^dlasim |$(cd "$OLDPWD" && pwd)/$DLASIM |" example.sh | sh > example.json 2> example.err)
holds "the example runs" "$? == 0 && $(grep -c '"device": "my-npu"' $TMP/example.json) == 1"
holds "its devices are 100 Tflop/s of 500 W" "$(grep -c '<host id="d[0-9]*" speed="100Tf">' $TMP/my-ring.xml) == 8 && $(grep -c 'value="500W"' $TMP/my-ring.xml) == 8"

# tier: the NPU from a description; without one, as before.
expect_ok tier-default $DLASIM tier --workload workloads/tm/bert-large.tm --policy hbm_only --json
cp $TMP/out $TMP/t0.json
expect_ok tier-h100 $DLASIM tier --workload workloads/tm/bert-large.tm --policy hbm_only --npu-device h100-sxm --json
cp $TMP/out $TMP/t1.json
# Table 1's chip is 8 MXUs of 128 x 128 at 1.05 GHz: 275.25 Tflop/s of
# bf16; H100-SXM's bf16 peak is 989.4: MXU time x 275.25 / 989.4.
close "tier compute scales with the bf16 peak" "$(json_num $TMP/t1.json compute_s)" \
	"$(awk "BEGIN { printf \"%.17g\", $(json_num $TMP/t0.json compute_s) * 8 * 16384 * 2 * 1.05e9 / 989.4e12 }")" 1e-9
expect_error tier-no-bf16 "table2.xml: device 'table2': dlasim.device.peak.bf16: missing" \
	$DLASIM tier --workload workloads/tm/bert-large.tm --policy hbm_only --npu-device table2 --json
