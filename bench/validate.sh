#!/bin/sh
# make validate: the runs the validation pages quote (docs/validation.md,
# "make validate"): the four studies in full, each one's tables as CSV in
# $VALIDATE_OUT (default $BUILD/validate), then the validation scripts of
# bench/lib/validation.sh, each one's output beside them and on stdout.
# Like make bench it asserts nothing: it prints what the pages compare
# with the papers, and the wall time of each part.
: "${BUILD:=build}"
export BUILD
cd "$(dirname "$0")/.." || exit 1
. bench/lib/validation.sh
OUT=${VALIDATE_OUT:-$BUILD/validate}
mkdir -p "$OUT" || exit 1
now() { date +%s; }

for s in mcdla tm nna nvm; do
	echo "=== dlasim study $s --csv > $OUT/study-$s.csv"
	t0=$(now)
	"$BUILD/dlasim" study $s --csv > "$OUT/study-$s.csv" || echo "(study $s exited with status $?)"
	echo "$(($(now) - t0)) s of wall time (load average $(cut -d' ' -f1 /proc/loadavg))"
	echo
done
for b in $VALIDATION_SCRIPTS; do
	echo "=== bench/$b > $OUT/${b%.sh}.txt"
	t0=$(now)
	sh "bench/$b" > "$OUT/${b%.sh}.txt" 2>&1 || echo "(bench/$b exited with status $?)"
	cat "$OUT/${b%.sh}.txt"
	echo "$(($(now) - t0)) s of wall time"
	echo
done
