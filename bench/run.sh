#!/bin/sh
# make bench: every bench/*.sh in turn.  Benchmarks print figures and
# ratios against a reference measured in the same run; they are not tests
# and do not fail on a missed target (they say so).
: "${BUILD:=build}"
export BUILD
cd "$(dirname "$0")/.." || exit 1
for b in bench/*.sh; do
	[ "$b" = bench/run.sh ] && continue
	echo "=== $b"
	sh "$b" || echo "($b exited with status $?)"
	echo
done
