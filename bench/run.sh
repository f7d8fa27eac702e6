#!/bin/sh
# make bench: every bench/*.sh in turn but the validation runs, which
# make validate runs (bench/validate.sh, bench/lib/validation.sh).
# Benchmarks print figures and ratios against a reference measured in the
# same run; they are not tests and do not fail on a missed target (they
# say so).
: "${BUILD:=build}"
export BUILD
cd "$(dirname "$0")/.." || exit 1
. bench/lib/validation.sh
for b in bench/*.sh; do
	case " run.sh validate.sh $VALIDATION_SCRIPTS " in
	*" ${b#bench/} "*) continue ;;
	esac
	echo "=== $b"
	sh "$b" || echo "($b exited with status $?)"
	echo
done
