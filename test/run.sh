#!/bin/sh
# The test suite: unit tests (test/unit), golden-output tests (tesh,
# test/cli/*.tesh) and command-line tests (test/cli/*.sh).  Prints every
# result and ends with "N passed, N failed".
: "${BUILD:=build}"
export BUILD
cd "$(dirname "$0")/.." || exit 1
log=$(mktemp)
one=$(mktemp)
trap 'rm -f "$log" "$one"' EXIT

# run NAME CMD...: CMD prints "ok - ..." / "FAIL - ..." lines; a non-zero
# exit without a FAIL line (a crash) is a failure of its own.
run() {
	name=$1
	shift
	"$@" > "$one" 2>&1
	rc=$?
	cat "$one"
	cat "$one" >> "$log"
	if [ $rc -ne 0 ] && ! grep -q '^FAIL - ' "$one"; then
		echo "FAIL - $name: exited with status $rc" | tee -a "$log"
	fi
}

# A tesh file is one test: its golden output matches or not.
tesh_file() {
	if tesh --setenv bindir="$PWD/$BUILD" --setenv srcdir="$PWD" --cd "$PWD" "$1" > "$one.tesh" 2>&1; then
		echo "ok - $1"
	else
		cat "$one.tesh"
		echo "FAIL - $1: golden output differs"
	fi
	rm -f "$one.tesh"
}

for t in "$BUILD"/test/unit_*; do
	[ -x "$t" ] && run "$t" "$t"
done
for t in test/cli/*.tesh; do
	[ -f "$t" ] && run "$t" tesh_file "$t"
done
for t in test/cli/*.sh; do
	[ -f "$t" ] && run "$t" env TEST="$(basename "$t" .sh)" sh "$t"
done
passed=$(grep -c '^ok - ' "$log")
failed=$(grep -c '^FAIL - ' "$log")
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
