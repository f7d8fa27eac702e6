#!/bin/sh
# Configuration and option readers against the attack's inputs
# (docs/fuzzing.md, "Hostile inputs"): a key given twice, a key of the
# other device kind, tREFI = 0, a plugin option given twice, per-rank
# trace names dlasim cannot hold.  Each is one line naming the file or
# option and a non-zero exit.
. test/lib.sh
D=platforms/dram
echo '0 READ 0' > $TMP/one.trace
dram() { "$DLASIM" dram --config "$1" --trace $TMP/one.trace; }
# conf NAME LINES...: the DDR4 configuration with LINES appended (keys it
# gives replaced), or the NVM one for NAME nvm-*.
conf() {
	name=$1; shift
	base=$D/ddr4-2400-x8-2ch2rk.conf
	case $name in nvm-*) base=$D/nvm.conf ;; esac
	{ grep -v '^#' $base; printf '%s\n' "$@"; } > $TMP/$name.conf
}

# A key given twice: refused at its second line, the first named.
conf twice "CL = 16"
expect_error dram-key-twice "twice.conf:[0-9]+: 'CL' given twice \(first at line [0-9]+\)" dram $TMP/twice.conf
conf unused-twice "VDD = 1.2" "VDD = 1.3"
expect_error dram-unused-key-twice "unused-twice.conf:[0-9]+: 'VDD' given twice" dram $TMP/unused-twice.conf
conf nvm-twice "read_ns = 50"
expect_error nvm-key-twice "nvm-twice.conf:[0-9]+: 'read_ns' given twice" dram $TMP/nvm-twice.conf
# A key of the other kind, wherever protocol comes.
conf nvm-cl "CL = 17"
expect_error nvm-ddr-key "nvm-cl.conf:[0-9]+: 'CL' is a DDR4 key; this is an NVM configuration" dram $TMP/nvm-cl.conf
{ echo "tRCD = 17"; grep -v '^#' $D/nvm.conf; } > $TMP/nvm-first.conf
expect_error nvm-ddr-key-before-protocol "nvm-first.conf:1: 'tRCD' is a DDR4 key" dram $TMP/nvm-first.conf
conf ddr-read-ns "read_ns = 48"
expect_error ddr-nvm-key "ddr-read-ns.conf:[0-9]+: 'read_ns' is an NVM key; this is a DDR4 configuration" dram $TMP/ddr-read-ns.conf
# tREFI = 0 once turned refresh off, undocumented: refresh_policy = NONE
# does that; and DDR4 with refresh needs a tREFI.
grep -v -e '^#' -e '^tREFI' $D/ddr4-2400-x8-2ch2rk.conf > $TMP/base.conf
{ cat $TMP/base.conf; echo "tREFI = 0"; } > $TMP/trefi0.conf
expect_error trefi-zero "trefi0.conf:[0-9]+: tREFI = 0: no refresh interval \(refresh_policy = NONE turns refresh off\)" dram $TMP/trefi0.conf
expect_error trefi-missing "notrefi.conf: DDR4 needs 'tREFI' \(or refresh_policy = NONE\)" \
	sh -c "cp $TMP/base.conf $TMP/notrefi.conf && exec \"$DLASIM\" dram --config $TMP/notrefi.conf --trace $TMP/one.trace"
{ grep -v '^refresh_policy' $TMP/base.conf; echo "refresh_policy = NONE"; } > $TMP/norefresh.conf
expect_ok no-refresh-without-trefi dram $TMP/norefresh.conf

# A plugin option given twice.
for spec in redu:blom=1,blom=0 tste:logpar=8,logpar=2 redu:blom=1,,blom=1; do
	expect_error "persist $spec" "^dlasim: --persist $spec: option '[a-z]+' given twice\$" \
		"$DLASIM" nvm --workload array --persist $spec --tx 10
done

# Per-rank Chakra traces: a rank dlasim cannot hold (past a long,
# negative, signed, past the limit) is refused like an absent one.
C=workloads/chakra/pipeline-8
for bad in 99999999999999999999 -1 +1 65536 ' 1'; do
	rm -rf "$TMP/ranks" && mkdir -p "$TMP/ranks" && cp $C/*.et "$TMP/ranks/"
	cp $C/pipeline.0.et "$TMP/ranks/pipeline.$bad.et"
	expect_error "rank file pipeline.$bad.et" "ranks: pipeline.$bad.et: the rank of NAME.R.et is a number from 0 to 65535" \
		"$DLASIM" train --platform platforms/dc-8.xml --workload "$TMP/ranks"
done
