# Helpers for command-line tests: each check prints "ok - NAME" or
# "FAIL - NAME: why", which test/run.sh counts.  Source after setting
# TEST (the script's name).
: "${BUILD:=build}"
DLASIM="${DLASIM:-$BUILD/dlasim}"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/dlasim-test.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

ok() { echo "ok - $TEST: $1"; }
not_ok() { echo "FAIL - $TEST: $1: $2"; }

# expect_ok NAME CMD...: CMD exits 0 (its stdout is kept in $TMP/out).
expect_ok() {
	name=$1; shift
	if "$@" > "$TMP/out" 2> "$TMP/err"; then ok "$name"
	else not_ok "$name" "exit $?: $(head -c 300 "$TMP/err")"; fi
}

# expect_error NAME PATTERN CMD...: CMD exits non-zero with no core dump or
# backtrace, prints exactly one line on stderr matching PATTERN (grep -E),
# and nothing on stdout.
expect_error() {
	name=$1; pattern=$2; shift 2
	"$@" > "$TMP/out" 2> "$TMP/err"
	rc=$?
	lines=$(grep -c . "$TMP/err")
	if [ $rc -eq 0 ]; then not_ok "$name" "exit 0, expected an error"
	elif [ $rc -ge 128 ]; then not_ok "$name" "killed by signal $((rc - 128)): $(head -c 300 "$TMP/err")"
	elif [ "$lines" -ne 1 ]; then not_ok "$name" "$lines lines on stderr: $(head -c 400 "$TMP/err")"
	elif ! grep -Eq -- "$pattern" "$TMP/err"; then not_ok "$name" "message '$(cat "$TMP/err")' does not match '$pattern'"
	elif [ -s "$TMP/out" ]; then not_ok "$name" "printed on stdout: $(head -c 200 "$TMP/out")"
	else ok "$name"; fi
}

# json_num FILE KEY: the number of "KEY": in a JSON file (first match).
json_num() {
	sed -n "s/.*\"$2\": *\\([-0-9.eE+]*\\).*/\\1/p" "$1" | head -n 1
}

# close NAME VALUE EXPECTED RELTOL: |VALUE - EXPECTED| <= RELTOL * |EXPECTED|.
close() {
	if awk -v a="$2" -v b="$3" -v t="$4" 'BEGIN { d = a - b; if (d < 0) d = -d; m = b < 0 ? -b : b; exit !(a != "" && d <= t * m) }'; then
		ok "$1"
	else
		not_ok "$1" "got $2, expected $3 within $4"
	fi
}

# holds NAME AWK-CONDITION: an awk expression that must be true.
holds() {
	if awk "BEGIN { exit !($2) }"; then ok "$1"; else not_ok "$1" "false: $2"; fi
}

# csv_fields: the number of fields of each line of stdin, read as RFC 4180
# has it (a comma between double quotes belongs to its field).
csv_fields() {
	awk '{ n = 1; q = 0
		for (i = 1; i <= length($0); i++) {
			c = substr($0, i, 1)
			if (c == "\"") q = !q
			else if (c == "," && !q) n++
		}
		print n }'
}

# png_ok FILE: a PNG, the signature, an IHDR of 1100 x 620 (docs/figures.md) and more
# than an empty frame's ~3 KB of compressed pixels.
png_ok() {
	[ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] &&
	[ "$(dd if="$1" bs=1 skip=12 count=12 2>/dev/null | od -An -tx1 | tr -d ' \n')" = 494844520000044c0000026c ] &&
	[ "$(wc -c < "$1")" -gt 10000 ]
}
# svg_ok FILE PATTERN: an SVG, one document, closed, with drawn paths and
# PATTERN (e.g. its title) in it.
svg_ok() {
	head -c 200 "$1" | grep -q '<?xml' && tail -c 20 "$1" | grep -q '</svg>' &&
	[ "$(grep -c '<path' "$1")" -gt 20 ] && grep -q "$2" "$1"
}

# SimGrid's SMPI running test/smpi_ring.c, the ring collectives as an MPI
# program, with the network model dlasim configures (CM02 without TCP
# corrections, SMPI's bandwidth and latency factors 1).
# smpi_ring_build: build $TMP/smpi_ring; false (with a FAIL line) if smpicc cannot.
smpi_ring_build() {
	smpicc -O2 test/smpi_ring.c -o "$TMP/smpi_ring" > "$TMP/smpicc.err" 2>&1 && return 0
	not_ok "smpicc builds test/smpi_ring.c" "$(head -c 300 "$TMP/smpicc.err")"
	return 1
}
# smpi_ring_time PLATFORM RINGS BYTES BIDIR PHASES HOST...: the last rank's
# time for BYTES on RINGS rings in the order of the HOSTs (PHASES 2: all-reduce,
# 1: all-gather; BIDIR 1: half each way).
smpi_ring_time() {
	_sr_plat=$1 _sr_rings=$2 _sr_bytes=$3 _sr_bidir=$4 _sr_phases=$5
	shift 5
	printf '%s\n' "$@" > "$TMP/smpi_hosts"
	(cd "$TMP" && smpirun -platform "$_sr_plat" -hostfile smpi_hosts -np $# \
		--cfg=network/model:CM02 --cfg=network/TCP-gamma:0 --cfg=network/crosstraffic:0 \
		--cfg=smpi/bw-factor:1 --cfg=smpi/lat-factor:1 --cfg=smpi/host-speed:1Gf \
		./smpi_ring "$_sr_rings" "$_sr_bytes" "$_sr_bidir" "$_sr_phases" 2> smpi.err) |
		awk '$1 == "rank" && $3 > m { m = $3 } END { printf "%.12g", m }'
}
