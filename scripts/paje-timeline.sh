#!/bin/sh
# paje-timeline.sh TRACE PNG [LINK...]: draw a dlasim Paje trace with
# pj_dump (pajeng) and gnuplot: one row per device actor showing when it
# computes (SimGrid's "sleep" state: dlasim models compute as a timed
# sleep), and below it the bandwidth used on the given links (all links
# whose name starts with "nv-" when none is given).  docs/traces.md.
# Both panels share one time axis: their margins are fixed, so the plot
# areas are as wide as each other (PAJE_TIMELINE_AXES=FILE writes each
# panel's left and right edge in pixels there, for the tests).
set -e
[ $# -ge 2 ] || { echo "usage: $0 TRACE PNG [LINK...]" >&2; exit 2; }
trace=$1; png=$2; shift 2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/paje-timeline.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
pj_dump -l 12 "$trace" > "$tmp/dump"

# Device actors (named "device-PID", on host dN), in rank order.
awk -F', ' '$1 == "Container" && $3 == "ACTOR" && $7 ~ /^device-/ { print $2, $7 }' "$tmp/dump" |
	sort -V > "$tmp/actors"
awk 'NR == FNR { row[$2] = FNR; next } { FS = ", "; $0 = $0 }
	$1 == "State" && ($2 in row) && $8 == "sleep" {
		printf "%s %.12g %.12g\n", row[$2], $4, $5 }' "$tmp/actors" "$tmp/dump" > "$tmp/compute"
awk '{ printf "%s\"%s\" %d", (NR > 1 ? ", " : ""), $1, NR }' "$tmp/actors" > "$tmp/ytics"

# Link usage, GB/s, as steps.
if [ $# -eq 0 ]; then
	set -- $(awk -F', ' '$1 == "Container" && $3 == "LINK" && $7 ~ /^nv-/ { print $7 }' "$tmp/dump" | sort -V | head -n 4)
fi
plots=""
for l in "$@"; do
	awk -F', ' -v l="$l" '$1 == "Variable" && $2 == l && $3 == "bandwidth_used" {
		printf "%.12g %.12g\n%.12g %.12g\n", $4, $7 / 1e9, $5, $7 / 1e9 }' "$tmp/dump" > "$tmp/link-$l"
	[ -s "$tmp/link-$l" ] || { echo "$0: no usage of link '$l' in $trace" >&2; exit 1; }
	plots="$plots${plots:+, }'$tmp/link-$l' using (\$1*1e3):2 with lines title '$l'"
done
end=$(awk -F', ' '$1 == "Container" && $3 == "0" { print $5 * 1e3; exit }' "$tmp/dump")

gnuplot <<GP
set terminal pngcairo size 1100,700 font ",10" noenhanced
set output '$png'
set multiplot layout 2,1
set xrange [0:$end]
set lmargin 12
set rmargin 4
set title 'device actors: compute (SimGrid state "sleep")'
set ytics ($(cat "$tmp/ytics"))
set yrange [0.3:$(wc -l < "$tmp/actors") + 0.7]
set xlabel 'simulated time (ms)'
unset key
plot '$tmp/compute' using (\$2*1e3):1:(\$2*1e3):(\$3*1e3):(\$1-0.35):(\$1+0.35) with boxxyerror fill solid 0.8 lc rgb '#3465a4'
edges = sprintf("%d %d\\n", GPVAL_TERM_XMIN, GPVAL_TERM_XMAX)
set title 'link usage (bandwidth_used)'
set ytics auto
set yrange [0:*]
set ylabel 'GB/s'
set key below horizontal
set bmargin 5
plot $plots
edges = edges . sprintf("%d %d\\n", GPVAL_TERM_XMIN, GPVAL_TERM_XMAX)
unset multiplot
if (strlen("${PAJE_TIMELINE_AXES:-}") > 0) { set print "${PAJE_TIMELINE_AXES:-}"; print edges; unset print }
GP
