#!/bin/sh
# --version: one string for every command, and the same one in every JSON
# result (the Makefile's VERSION plus the commit).
. test/lib.sh

expect_ok "dlasim --version" $DLASIM --version
want=$(cat $TMP/out)
holds "the version line starts with 'dlasim $(cat VERSION)'" "\"$(echo "$want" | cut -c1-$((7 + $(wc -c < VERSION) - 1)))\" == \"dlasim $(cat VERSION)\""
for cmd in platform coll plugins train tier study "study mcdla" "study tm" sweep merge plot; do
	# shellcheck disable=SC2086
	$DLASIM $cmd --version > $TMP/v 2> $TMP/err
	rc=$?
	holds "$cmd --version prints the same line" "\"$(cat $TMP/v)\" == \"$want\" && $rc == 0"
done
# --version as an option's value is a forgotten value, as --help is (a
# file named --version is given as ./--version).
expect_error "--version as a value" "^dlasim: train: option '--workload' needs a value \(got the option '--version'\)$" \
	$DLASIM train --platform platforms/dc-8.xml --workload --version

v=$(echo "$want" | sed 's/^dlasim \([^ ]*\) .*/\1/')
$DLASIM coll --platform platforms/dc-8.xml --op allreduce --bytes 1MB --json > $TMP/c.json
holds "coll JSON names the version" "$(grep -c "\"dlasim_version\": \"$v\"" $TMP/c.json) == 1"
$DLASIM train --platform platforms/dc-8.xml --workload workloads/alexnet.dnn --json > $TMP/t.json
holds "train JSON names the version" "$(grep -c "\"dlasim_version\": \"$v\"" $TMP/t.json) == 1"
$DLASIM tier --workload workloads/tm/gpt3.tm --policy hbm_only --json > $TMP/r.json 2>/dev/null
holds "tier JSON names the version" "$(grep -c "\"dlasim_version\": \"$v\"" $TMP/r.json) == 1"
