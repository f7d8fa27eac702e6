#!/bin/sh
# Plugins that crash or misuse the host: one line naming the plugin, a
# failure status, no signal, no backtrace (plugin/crash.c, hostapi.c).
. test/lib.sh
T=$BUILD/test-plugins
coll() { "$DLASIM" coll --platform platforms/dc-8.xml --op allreduce --bytes 1MB --coll "$@"; }

expect_error "segfault in a collective's actor" \
	"^dlasim: collective plugin 'crash' \\($T/coll_crash.so\\) crashed: Segmentation fault$" coll "$T/coll_crash.so"
expect_error "abort() in a plugin" "collective plugin 'crash' .* crashed: Aborted$" coll "$T/coll_crash.so:abort"
expect_error "SIGFPE in a plugin" "collective plugin 'crash' .* crashed: Floating point exception$" coll "$T/coll_crash.so:fpe"
expect_error "segfault in a page-allocation callback" \
	"page-allocation plugin 'crash' \\($T/page_crash.so\\) crashed: Segmentation fault$" \
	"$DLASIM" train --platform platforms/mc-ring-8.xml --workload workloads/alexnet.dnn --page-alloc "$T/page_crash.so"

# A plugin that fails with a reason (its error-level log line): the reason
# ends the host's one line.  Memory-nodes of 1 MB hold no layer of AlexNet.
sed 's/\(dlasim.capacity" value="\)[0-9]*B/\11000000B/' platforms/mc-ring-8.xml > "$TMP/mc-small.xml"
for p in local bw_aware; do
	expect_error "$p fails with its reason" \
		"^dlasim: page-allocation plugin '$p' \\(.*\\), device [0-9]: place\\(\\) failed for [0-9]+ bytes \\([0-9]+ pages\\): device [0-9]: (no share has [0-9]+ free pages|share m[0-9.]+ has no run of [0-9]+ free pages)$" \
		"$DLASIM" train --platform "$TMP/mc-small.xml" --workload workloads/alexnet.dnn --page-alloc $p
done
# An error-level line not followed by a failure is printed once, as given.
expect_ok "an error logged, no failure" "$DLASIM" train --platform platforms/mc-ring-8.xml \
	--workload workloads/alexnet.dnn --page-alloc "$T/page_chatty.so:error"
holds "the error logged is printed once, as given" \
	"$(grep -c '^dlasim: chatty: error: device [0-9]: not a real error$' "$TMP/err") == 1 && $(grep -c . "$TMP/err") == 1"

# The host's sleep() never hands SimGrid a duration it aborts on.
for d in inf nan -inf; do
	expect_error "sleep($d)" "collective plugin 'sleeper' \\($T/coll_sleep.so\\): sleep\\($d\\): a duration must be a finite number of seconds" \
		coll "$T/coll_sleep.so:$d"
done

# init() filled its 1024-byte reason without a NUL: read no further (the
# sanitizer build would report the overread), cut at 1023 characters.
expect_error "reason without its NUL" "plugin 'long_error' failed to initialise: E{1023}$" coll "$T/coll_long_error.so"

# In a study the crash is the failed run's reason.
mkdir -p "$TMP/plugins"
cp "$T/page_crash.so" "$TMP/plugins/page-bw_aware.so"
DLASIM_PLUGIN_PATH="$TMP/plugins" "$DLASIM" study mcdla --parallel data --csv > "$TMP/out" 2> "$TMP/err"
holds "study: the 8 crashed runs named with the plugin" \
	"$? == 1 && $(grep -c "run [0-9]* failed: dlasim platform .*--page-alloc bw_aware .*: page-allocation plugin 'crash' ($TMP/plugins/page-bw_aware.so) crashed: Segmentation fault$" "$TMP/err") == 8"
