# Bad platform files and generator options: one line naming the file and
# line (or the option) and what is wrong; SimGrid never sees a bad file.
. test/lib.sh

run() { "$DLASIM" coll --platform "$1" --op allreduce --bytes 1MB; }
base=test/data/ring4-shared.xml

# mutate NAME PATTERN SED-EXPR: a copy of the base platform, edited.
mutate() {
	sed "$3" "$base" > "$TMP/$1.xml"
	expect_error "$1" "$2" run "$TMP/$1.xml"
}

mutate malformed-xml "$TMP/malformed-xml.xml:[0-9]+: malformed XML" 's|</zone>||'
mutate unknown-role "ring4-shared|unknown-role.xml:11: host 'd0': dlasim.role 'gpu' is not device" \
	'0,/value="device"/s//value="gpu"/'
mutate unknown-element ":[0-9]+: <peer> is not supported by dlasim" \
	's|<host id="d0"|<peer id="c"/><host id="d0"|'
mutate unknown-attribute ":11: <host>: unsupported attribute 'coordinates'" \
	's|<host id="d0" |<host id="d0" coordinates="1 2" |'
mutate undeclared-link ":[0-9]+: link 'l99' is not declared" 's|<link_ctn id="l01"|<link_ctn id="l99"|'
mutate missing-direction ":[0-9]+: link 'l01' is SPLITDUPLEX: give direction" \
	's|<link_ctn id="l01" direction="UP"/>|<link_ctn id="l01"/>|'
mutate duplicate-route ":20: a route from 'd1' to 'd0' is already declared \\(routes are symmetrical" \
	's|<route src="d1" dst="d2">|<route src="d1" dst="d0">|'
mutate bad-bandwidth ":15: link 'l01': bandwidth '25GB/s': unknown unit" \
	'0,/bandwidth="25GBps"/s//bandwidth="25GB\/s"/'
mutate negative-latency ":15: link 'l01': latency '-1us': must not be negative" \
	'0,/latency="1us"/s//latency="-1us"/'
mutate no-doctype ":[0-9]+: no <!DOCTYPE platform" '/<!DOCTYPE/d'
mutate old-version ":[0-9]+: <platform version=\"4\">: dlasim reads version 4.1" \
	's|version="4.1"|version="4"|'
mutate ring-missing-device "zone 'ring4': dlasim.ring.0 does not visit device 'd3'" \
	's|value="d0 d1 d2 d3"/>|value="d0 d1 d2"/>|'
mutate ring-unknown-host "dlasim.ring.0: 'd9' is not a host" 's|value="d0 d1 d2 d3"/>|value="d0 d1 d2 d9"/>|'
mutate ring-twice "dlasim.ring.0: device 'd1' appears twice" 's|value="d0 d1 d2 d3"/>|value="d0 d1 d1 d3"/>|'
mutate ring-gap "rings are numbered from 0 without gaps, but dlasim.ring.0 is missing" \
	's|dlasim.ring.0|dlasim.ring.2|'
mutate ring-without-route "ring 0 goes from 'd1' to 'd3' but the platform has no route between them" \
	's|value="d0 d1 d2 d3"/>|value="d0 d1 d3 d2"/>|'
mutate bad-class ":15: link 'l01': dlasim.class 'pci' is not nvlink" \
	's|<link id="l01" bandwidth="25GBps" latency="1us" sharing_policy="SPLITDUPLEX"/>|<link id="l01" bandwidth="25GBps" latency="1us" sharing_policy="SPLITDUPLEX"><prop id="dlasim.class" value="pci"/></link>|'
mutate route-before-host ":[0-9]+: zone 'ring4': <host> must come before the zone's routes" \
	's|</zone>|<host id="late" speed="1Gf"/></zone>|'
mutate hosts-and-zones ":[0-9]+: zone 'ring4' holds hosts or routers, so it cannot hold <zone>" \
	's|<link id="l01"|<zone id="inner" routing="Full"/><link id="l01"|'
mutate empty-route ":[0-9]+: <route> from 'd0' to 'd1' has no link" \
	's|<link_ctn id="l01" direction="UP"/>||'

# The generator.
gen() { "$DLASIM" platform "$@" -o "$TMP/gen.xml"; }
expect_error "unknown topology" "--topology 'torus': unknown topology" gen --topology torus --devices 8
expect_error "one device between memory-nodes" "--devices 1: only dc, dc-gen4, hc and hc-ring have a one-device machine" gen --topology mc-star --devices 1
expect_error "zero devices" "--devices '0': need at least 1 device" gen --topology dc --devices 0
expect_error "devices not a number" "--devices 'eight': not an integer" gen --topology dc --devices eight
expect_error "odd link count" "--links-per-device 5: an even number" gen --topology dc --devices 8 --links-per-device 5
expect_error "mc-star needs 6 links" "mc-star is Figure 7\\(b\\)'s wiring" gen --topology mc-star --devices 8 --links-per-device 8
expect_error "bad link bandwidth" "--link-bandwidth 'fast': not a number" gen --topology dc --devices 8 --link-bandwidth fast
expect_error "unknown socket" "--socket 'epyc': not xeon or power9" gen --topology hc --devices 8 --socket epyc
expect_error "negative device TDP" "--device-tdp '-5W'" gen --topology dc --devices 8 --device-tdp -5W
expect_error "zero uplink" "--pcie-uplink-bandwidth '0GBps'" gen --topology dc-gen4 --devices 8 --pcie-uplink-bandwidth 0GBps
# A bandwidth and a latency both need their unit (docs/platforms.md, Units).
expect_error "bandwidth without a unit" "--link-bandwidth '25': missing unit" gen --topology dc --devices 8 --link-bandwidth 25
expect_error "latency without a unit" "--link-latency '1': missing unit" gen --topology dc --devices 8 --link-latency 1
expect_ok "latency 0 needs no unit" gen --topology dc --devices 8 --link-latency 0
expect_error "latency too large once in seconds" "--link-latency '1e305w': too large" gen --topology dc --devices 8 --link-latency 1e305w
expect_error "devices beyond the generator's limit" "--devices '2147483648': out of range \\(1 to 1048576\\)" gen --topology dc --devices 2147483648
rm -f "$TMP/gen.xml"
expect_error "DIMM not in Table IV" "--dimm: Table IV has 8GB" gen --topology mc-ring --devices 8 --dimm 4GB
if [ -e "$TMP/gen.xml" ]; then not_ok "no output file after errors" "$TMP/gen.xml exists"; else ok "no output file after errors"; fi
expect_error "unwritable output" "-o $TMP/no/such/dir/p.xml: cannot create" \
	"$DLASIM" platform --topology dc --devices 8 -o "$TMP/no/such/dir/p.xml"
