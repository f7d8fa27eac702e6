# Bad input to 'dlasim coll' and to the plugin loader: one clear line,
# non-zero exit, no signal, nothing on stdout.
. test/lib.sh

P=platforms/dc-8.xml
T=$BUILD/test-plugins
coll() { "$DLASIM" coll --platform "$P" --op allreduce --bytes 1MB "$@"; }

expect_error "missing platform file" "nope.xml: cannot open platform file" \
	"$DLASIM" coll --platform "$TMP/nope.xml" --op allreduce --bytes 1MB
expect_error "size zero" "--bytes '0': must be greater than zero" \
	"$DLASIM" coll --platform "$P" --op allreduce --bytes 0
expect_error "negative size" "--bytes '-5MB': must be greater than zero" \
	"$DLASIM" coll --platform "$P" --op allreduce --bytes -5MB
expect_error "unparseable size" "--bytes 'lots': not a number" \
	"$DLASIM" coll --platform "$P" --op allreduce --bytes lots
expect_error "unknown size unit" "--bytes '3XB': unknown unit" \
	"$DLASIM" coll --platform "$P" --op allreduce --bytes 3XB
expect_error "unknown operation" "--op 'gossip': not allreduce, allgather, reducescatter, broadcast or alltoall" \
	"$DLASIM" coll --platform "$P" --op gossip --bytes 1MB
expect_error "missing required options" "--platform, --op and --bytes are required" \
	"$DLASIM" coll --op allreduce
expect_error "unknown option" "unknown option '--fast'" coll --fast
# A forgotten value: the next option is not taken as the value.
expect_error "option as a value" "option '--platform' needs a value \(got the option '--op'\)" \
	"$DLASIM" coll --platform --op allreduce --bytes 1MB
expect_error "--help as a value" "option '--coll' needs a value \(got the option '--help'\)" \
	coll --coll --help
expect_error "last option without a value" "option '--coll' needs a value" coll --coll
expect_error "root out of range" "--root 9: the platform has 8 devices" coll --op broadcast --root 9

# Platforms that cannot run a collective.
cat > "$TMP/nodev.xml" <<'XML'
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
<zone id="z" routing="Full">
  <host id="cpu0" speed="1Gf"><prop id="dlasim.role" value="cpu"/></host>
</zone>
</platform>
XML
expect_error "platform without devices" "nodev.xml: no device in this platform" \
	"$DLASIM" coll --platform "$TMP/nodev.xml" --op allreduce --bytes 1MB
# Without a declared ring the ring is the device order, which needs its routes.
grep -v -e '<prop id="dlasim.ring' -e 'src="d1" dst="d2"' test/data/ring4-shared.xml > "$TMP/noring.xml"
expect_error "platform without rings" "noring.xml: no ring declared, and the device order has no route from 'd1' to 'd2'" \
	"$DLASIM" coll --platform "$TMP/noring.xml" --op allreduce --bytes 1MB
cat > "$TMP/onedev.xml" <<'XML'
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
<zone id="z" routing="Full">
  <host id="d0" speed="1Gf"><prop id="dlasim.role" value="device"/></host>
</zone>
</platform>
XML
expect_error "platform with one device (N < 2)" "needs at least 2 devices, this platform has 1" \
	"$DLASIM" coll --platform "$TMP/onedev.xml" --op allreduce --bytes 1MB

# Plugins.
expect_error "plugin not found names the search path" \
	"collective plugin 'nosuch' not found; looked for coll-nosuch.so in: .*plugins" coll --coll nosuch
expect_error "plugin path that does not exist" "cannot load plugin: No such file" coll --coll "$TMP/x.so"
# Checked before the platform is read: a file that is not there, or that
# would take minutes to load, is not reached.
expect_error "plugin checked before the platform" \
	"^dlasim: --coll: collective plugin 'nosuch' not found" \
	"$DLASIM" coll --platform "$TMP/nope.xml" --op allreduce --bytes 1MB --coll nosuch
echo "not a library" > "$TMP/text.so"
expect_error "file that is not a shared object" "text.so: cannot load plugin: not a shared object" \
	coll --coll "$TMP/text.so"
expect_error "shared object that cannot be loaded" "undefined symbol: dlasim_symbol_that_does_not_exist" \
	coll --coll "$T/coll_unresolved.so"
# A function nobody defines, called from a callback: libltdl binds calls
# lazily, the run would die of "symbol lookup error" (exit 127) midway.
expect_error "a callback's unresolved function, refused at load" \
	"^dlasim: --coll $T/coll_lazy_symbol.so: cannot load plugin: undefined symbol: dlasim_function_that_does_not_exist\$" \
	coll --coll "$T/coll_lazy_symbol.so"
expect_error "shared object without descriptor" "no 'dlasim_plugin' symbol: not a dlasim plugin" \
	coll --coll "$T/coll_no_descriptor.so"
expect_error "wrong ABI version" "built for plugin ABI version 2, this dlasim has ABI version 1" \
	coll --coll "$T/coll_bad_abi.so"
expect_error "wrong plugin kind" "'pages' is a page-allocation plugin, but --coll needs a collective plugin" \
	coll --coll "$T/coll_wrong_kind.so"
expect_error "init fails" "plugin 'refuses' failed to initialise: no license for this algorithm" \
	coll --coll "$T/coll_init_fails.so"
expect_error "options to a plugin that takes none" "plugin 'hd' takes no options \\(got 'x=1'\\)" \
	coll --coll hd:x=1
expect_error "ring: unknown option" "plugin 'ring' failed to initialise: unknown option 'x' \\(bidir=0 or bidir=1\\)" \
	coll --coll ring:x=1
expect_error "ring_flow: bidir neither 0 nor 1" "plugin 'ring_flow' failed to initialise: bidir='2': 0 or 1" \
	coll --coll ring_flow:bidir=2
expect_error "plugin that deadlocks" "'deadlock' .* deadlocked: rank 0 never finished allreduce" \
	coll --coll "$T/coll_deadlock.so"
# Training names the deadlock too (it reported an iteration of 0 s).
expect_error "plugin that deadlocks in training" \
	"'deadlock' .* deadlocked: device 0 never finished collective 1 of the iteration" \
	"$DLASIM" train --platform "$P" --workload workloads/alexnet.dnn --coll "$T/coll_deadlock.so"
# A call that leaves an unreceived transfer behind: no later call could
# receive it (calls do not share mailboxes), so it is the plugin's error.
expect_error "plugin leaving a transfer behind" \
	"'stray' .*: call 1 ended with a transfer to rank 1, channel 0, tag 0 unmatched" \
	coll --coll "$T/coll_stray.so"
expect_error "plugin leaving a receive behind" \
	"'stray' .*: call 1 ended with a transfer to rank 1, channel 0, tag 1 unmatched" \
	coll --coll "$T/coll_stray.so:recv"
# Whether a mailbox is left with a transfer is counted (sends less
# receives posted to it): a send and its receive that nobody waits for
# still meet, and leave nothing behind (they are waited for in the next
# call, which training makes).
expect_ok "send and receive nobody waits for in their call" \
	"$DLASIM" train --platform "$P" --workload workloads/alexnet.dnn --coll "$T/coll_stray.so:unwaited"
expect_error "plugin sending to a rank that does not exist" "isend: rank 8 out of range \\[0, 8\\)" \
	coll --coll "$T/coll_bad_rank.so"
expect_error "plugin asking for no channel" "channels\\(\\) returned 0" \
	coll --coll "$T/coll_no_channels.so"
expect_error "algorithm needing routes the platform lacks" \
	"'hd' .* sends to rank 4, but platform .* has no route from 'd0' to 'd4'" coll --coll hd
