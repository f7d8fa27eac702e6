#!/bin/sh
# The progress line: drawn on a terminal (a pseudo-terminal made by
# script(1)), never into a pipe or a file, off with --quiet; forced on with
# DLASIM_PROGRESS=1 it leaves the results as they were.
. "$(dirname "$0")/../lib.sh"

study="$DLASIM study mcdla --designs MC-DLA\(B\) --parallel data --csv"

# on_tty NAME FILE CMD: CMD run under a pseudo-terminal, everything it
# printed (stdout and stderr mixed, as on a screen) in FILE.
on_tty() {
	script -qec "$2" /dev/null > "$1" 2>&1 < /dev/null
}

if on_tty "$TMP/tty" "$study" && grep -q '16/16 runs done, 0 failed, in ' "$TMP/tty" &&
   grep -q 'runs done, 0 failed, .* elapsed, about .* left' "$TMP/tty"; then
	ok "study on a terminal: runs done, elapsed, time left"
else
	not_ok "study on a terminal" "$(head -c 300 "$TMP/tty")"
fi

if on_tty "$TMP/quiet" "$study --quiet" && ! grep -q 'runs done' "$TMP/quiet" &&
   grep -q '^data,MC-DLA(B),vgg-e,' "$TMP/quiet"; then
	ok "study --quiet on a terminal: no progress line"
else
	not_ok "study --quiet" "$(head -c 300 "$TMP/quiet")"
fi

if $DLASIM study mcdla --designs "MC-DLA(B)" --parallel data --csv > "$TMP/csv" 2> "$TMP/err" && [ ! -s "$TMP/err" ]; then
	ok "study into a pipe or file: nothing on stderr"
else
	not_ok "study without a terminal" "$(head -c 300 "$TMP/err")"
fi

# The CSV on the terminal is the CSV of the plain run, line for line.
tr -d '\r' < "$TMP/quiet" > "$TMP/quiet.csv"
if cmp -s "$TMP/quiet.csv" "$TMP/csv"; then
	ok "study on a terminal prints the same table"
else
	not_ok "study table on a terminal" "$(diff "$TMP/quiet.csv" "$TMP/csv" | head -5)"
fi

# One run: the simulated time reached; pausing the engine to draw it
# changes nothing in the result.
coll="$DLASIM coll --platform platforms/dc-8.xml --op allreduce --bytes 1GB --json"
DLASIM_PROGRESS=1 $coll > "$TMP/forced.json" 2> "$TMP/forced.err"
$coll > "$TMP/plain.json" 2> /dev/null
if grep -q 'simulated time .* s reached, .* elapsed' "$TMP/forced.err" &&
   cmp -s "$TMP/forced.json" "$TMP/plain.json"; then
	ok "one run: simulated time shown, same result"
else
	not_ok "one run with progress" "$(head -c 300 "$TMP/forced.err")"
fi

train="$DLASIM train --platform platforms/mc-ring-8.xml --workload workloads/vgg-e.dnn --page-alloc bw_aware --json"
DLASIM_PROGRESS=1 $train > "$TMP/forced.json" 2> "$TMP/forced.err"
$train > "$TMP/plain.json" 2> /dev/null
if grep -q 'simulated time' "$TMP/forced.err" && cmp -s "$TMP/forced.json" "$TMP/plain.json"; then
	ok "train with progress: same result"
else
	not_ok "train with progress" "$(cmp "$TMP/forced.json" "$TMP/plain.json")"
fi

DLASIM_PROGRESS=1 $coll --quiet > /dev/null 2> "$TMP/q.err"
if [ ! -s "$TMP/q.err" ]; then ok "--quiet wins over DLASIM_PROGRESS=1"
else not_ok "--quiet" "$(head -c 200 "$TMP/q.err")"; fi

# Every command takes --quiet.
expect_ok "platform --quiet" $DLASIM platform --topology dc --devices 8 --quiet -o "$TMP/p.xml"
expect_error "--quiet takes no value" "quiet" $DLASIM coll --quiet=1 --platform platforms/dc-8.xml --op allreduce --bytes 1MB
