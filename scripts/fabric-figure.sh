#!/bin/sh
# fabric-figure.sh PLATFORM PNG [TITLE]: draw a generated platform of the
# fabrics of today (docs/platforms.md) with gnuplot: devices in a row,
# grouped by NVLink domain (the domain's switch plane a bar above them,
# one line per device whose routes to the other devices cross it), the
# hosts of their backing stores below, the routers of the NICs' gateways
# above; one line per declared route from a device to another host or
# router, dashed lines for the zone routes between gateways (the rail
# fabric).  Hosts are placed by role, read from the file.
set -e
[ $# -ge 2 ] || { echo "usage: $0 PLATFORM PNG [TITLE]" >&2; exit 2; }
xml=$1; png=$2; title=${3:-$(basename "$1" .xml)}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/fabric-figure.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# Nodes: NAME X Y KIND; device i of domain A at x = i + A (a gap between
# domains), a backing host at the mean x of the devices it backs first,
# a router at the mean x of the devices routed to it.
awk -v nodes="$tmp/nodes" -v segs="$tmp/segs" -v zsegs="$tmp/zsegs" -v bars="$tmp/bars" '
	/<zone id="node[0-9]+"/ { match($0, /node[0-9]+/); dom = substr($0, RSTART + 4, RLENGTH - 4) }
	/<host id=/ { match($0, /id="[^"]*"/); h = substr($0, RSTART + 4, RLENGTH - 5) }
	/dlasim.backing/ && h != "" { match($0, /value="[^" ]*/); first[h] = substr($0, RSTART + 7, RLENGTH - 7) }
	/dlasim.role/ && h != "" { match($0, /value="[^"]*"/); role[h] = substr($0, RSTART + 7, RLENGTH - 8)
		if (role[h] == "device") { x[h] = nd + dom; y[h] = 0; dev_dom[h] = dom; nd++ } }
	/<\/host>/ { h = "" }
	/<router id=/ { match($0, /id="[^"]*"/); r = substr($0, RSTART + 4, RLENGTH - 5); role[r] = "router" }
	/<route src=/ { match($0, /src="[^"]*"/); s = substr($0, RSTART + 5, RLENGTH - 6)
		match($0, /dst="[^"]*"/); d = substr($0, RSTART + 5, RLENGTH - 6)
		if (role[d] == "device") { sw[s] = 1; sw[d] = 1; next }
		nr++; rs[nr] = s; rd[nr] = d
		if (role[d] == "router" || first[s] == d) { sx[d] += x[s]; sn[d]++ } }
	/<zoneRoute / { match($0, /gw_src="[^"]*"/); s = substr($0, RSTART + 8, RLENGTH - 9)
		match($0, /gw_dst="[^"]*"/); d = substr($0, RSTART + 8, RLENGTH - 9)
		nz++; zs[nz] = s; zd[nz] = d }
	END {
		for (n in sn) { x[n] = sx[n] / sn[n]
			y[n] = role[n] == "router" ? (n ~ /^xgw/ ? 3 : 2) : -1.5 }
		# unit routers: above the gateways of their domains
		for (k = 1; k <= nz; k++) if (!(zd[k] in x)) { ux[zd[k]] += x[zs[k]]; un[zd[k]]++ }
		for (n in un) { x[n] = ux[n] / un[n]; y[n] = 4 }
		for (k = 1; k <= nz; k++) if (!(zs[k] in x)) { x[zs[k]] = 0; y[zs[k]] = 4 }
		for (n in x) printf "%s %g %g %s\n", n, x[n], y[n], role[n] > nodes
		for (k = 1; k <= nr; k++)
			printf "%g %g %g %g\n", x[rs[k]], y[rs[k]], x[rd[k]] - x[rs[k]], y[rd[k]] - y[rs[k]] > segs
		for (k = 1; k <= nz; k++)
			printf "%g %g %g %g\n", x[zs[k]], y[zs[k]], x[zd[k]] - x[zs[k]], y[zd[k]] - y[zs[k]] > zsegs
		for (n in sw) if (role[n] == "device") {
			printf "%g 0 0 0.8\n", x[n] > bars
			a = dev_dom[n]
			if (!(a in lo) || x[n] < lo[a]) lo[a] = x[n]
			if (!(a in hi) || x[n] > hi[a]) hi[a] = x[n] }
		for (a in lo) printf "%g 0.8 %g 0\n", lo[a] - 0.3, hi[a] - lo[a] + 0.6 > bars
	}' "$xml"
touch "$tmp/segs" "$tmp/zsegs" "$tmp/bars"
gnuplot <<GP
set terminal pngcairo size 1100,620 font ",9"
set output "$png"
set title "$title"
unset border; unset xtics; unset ytics; unset key
set offsets 3, 0.8, 0.6, 0.4
set label "NVSwitch plane" at graph 0.01, first 0.8 left
set label "backing store" at graph 0.01, first -1.5 left
set label "NIC gateway (same unit)" at graph 0.01, first 2 left
set label "NIC + rail leaf uplink" at graph 0.01, first 3 left
plot "$tmp/bars" using 1:2:3:4 with vectors nohead lw 2 lc rgb "#2a7ab0", \
     "$tmp/segs" using 1:2:3:4 with vectors nohead lc rgb "#555555", \
     "$tmp/zsegs" using 1:2:3:4 with vectors nohead dt 2 lc rgb "#c05020", \
     "$tmp/nodes" using 2:3:(strcol(4) eq "device" ? 7 : strcol(4) eq "router" ? 5 : 9) with points pt variable ps 1.6 lc rgb "#222222", \
     "$tmp/nodes" using 2:3:1 with labels offset 0,-1.1 font ",8"
GP
