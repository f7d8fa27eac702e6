#!/bin/sh
# The test suite: unit tests (test/unit), golden-output tests (tesh,
# test/cli/*.tesh) and command-line tests (test/cli/*.sh).  Prints every
# result and ends with "N passed, N failed".
: "${BUILD:=build}"
export BUILD
cd "$(dirname "$0")/.." || exit 1
log=$(mktemp)
trap 'rm -f "$log"' EXIT

run_unit() {
	for t in "$BUILD"/test/unit_*; do
		[ -x "$t" ] || continue
		"$t" > "$log.one" 2>&1
		rc=$?
		cat "$log.one"
		cat "$log.one" >> "$log"
		if [ $rc -ne 0 ] && ! grep -q '^FAIL - ' "$log.one"; then
			echo "FAIL - $t: exited with status $rc" | tee -a "$log"
		fi
	done
	rm -f "$log.one"
}

run_tesh() {
	for t in test/cli/*.tesh; do
		[ -f "$t" ] || continue
		if tesh --setenv bindir="$PWD/$BUILD" --setenv srcdir="$PWD" --cd "$PWD" "$t" > "$log.one" 2>&1; then
			echo "ok - $t" | tee -a "$log"
		else
			cat "$log.one"
			echo "FAIL - $t: golden output differs" | tee -a "$log"
		fi
	done
	rm -f "$log.one"
}

run_scripts() {
	for t in test/cli/*.sh; do
		[ -f "$t" ] || continue
		TEST=$(basename "$t" .sh) sh "$t" > "$log.one" 2>&1
		rc=$?
		cat "$log.one"
		cat "$log.one" >> "$log"
		if [ $rc -ne 0 ] && ! grep -q '^FAIL - ' "$log.one"; then
			echo "FAIL - $t: exited with status $rc" | tee -a "$log"
		fi
	done
	rm -f "$log.one"
}

run_unit
run_tesh
run_scripts
passed=$(grep -c '^ok - ' "$log")
failed=$(grep -c '^FAIL - ' "$log")
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
