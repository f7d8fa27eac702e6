#!/bin/sh
# dlasim dram: a trace replayed on the shipped devices, its outputs, and
# every kind of bad configuration or trace (one line naming file:line).
. test/lib.sh
D=platforms/dram

# 64 reads of one row of one bank at cycle 0: 1 activation, 63 row hits,
# 64 x 8 bytes; the first read ends tRCD + CL + BL/2 = 38 cycles after
# it is issued, one cycle after it arrives, then one every tCCD_L = 6.
awk 'BEGIN { for (i = 0; i < 64; i++) printf "0x%x READ 0\n", i * 8 }' > $TMP/row.trace
expect_ok json $DLASIM dram --config $D/ddr4-2400-x8-2ch2rk.conf --trace $TMP/row.trace --json
cp $TMP/out $TMP/row.json
holds "one activation, 63 hits" "$(json_num $TMP/row.json activations) == 1 && $(json_num $TMP/row.json row_hit_rate) * 64 > 62.999 && $(json_num $TMP/row.json row_hit_rate) * 64 < 63.001"
holds "512 bytes" "$(json_num $TMP/row.json bytes) == 512"
close "done when the last read's data is in" "$(json_num $TMP/row.json cycles)" "$((1 + 38 + 63 * 6 + 1))" 1e-9
expect_ok preset $DLASIM dram --config ddr4-2400-x8-2ch2rk --trace $TMP/row.trace --json
holds "preset = shipped file" "$(json_num $TMP/out cycles) == $(json_num $TMP/row.json cycles)"
expect_ok table $DLASIM dram --config $D/ddr4-2400-x8-2ch2rk.conf --trace $TMP/row.trace
holds "table names its units" "$(grep -c 'bandwidth, total (GB/s)\|latency, mean (cycles)' $TMP/out) == 2"
# Numbers in any spelling strtoull reads (hexadecimal in either case,
# octal with a leading 0, decimal, commas and tabs between fields, a
# comment) give the same requests as the plain spelling.
printf '0x0 READ 0\n0X8 read\t010\n16,READ,8  # sixteen\n0x0000018 R 00010\n' > $TMP/spell.trace
printf '0x0 READ 0\n0x8 READ 8\n0x10 READ 8\n0x18 READ 8\n' > $TMP/plain.trace
expect_ok spellings $DLASIM dram --config $D/ddr4-2400-x8-2ch2rk.conf --trace $TMP/spell.trace --json
grep -v '"trace"' $TMP/out > $TMP/spell.json
expect_ok plain $DLASIM dram --config $D/ddr4-2400-x8-2ch2rk.conf --trace $TMP/plain.trace --json
grep -v '"trace"' $TMP/out > $TMP/plain.json
holds "the same requests in other spellings" "$(cmp -s $TMP/spell.json $TMP/plain.json && echo 1 || echo 0) == 1"
# The DRAMsim3 configuration this device comes from reads as it is.
awk 'BEGIN { for (i = 0; i < 64; i++) printf "0x%x READ 0\n", i * 64 }' > $TMP/row64.trace
expect_ok dimm $DLASIM dram --config $D/ddr4-2400-x8-dimm.conf --trace $TMP/row64.trace --json
holds "a 64-bit channel moves 64 B a request" "$(json_num $TMP/out bytes) == 4096"

# NVM: 8 writes to one page wait for one bank (8 x 300 ns), to 8 pages
# spread over the 8 banks (300 ns) under page interleaving; they are
# handed over one a cycle (1 ns), and the run ends with the cycle the last
# one completes in.
awk 'BEGIN { for (i = 0; i < 8; i++) printf "%d WRITE 0\n", i * 64 }' > $TMP/page.trace
awk 'BEGIN { for (i = 0; i < 8; i++) printf "%d WRITE 0\n", i * 4096 }' > $TMP/pages.trace
expect_ok nvm-one-bank $DLASIM dram --config $D/nvm.conf --trace $TMP/page.trace --json
close "one bank: 8 x 300 ns" "$(json_num $TMP/out simulated_time_s)" 2.401e-6 1e-9
expect_ok nvm-eight-banks $DLASIM dram --config $D/nvm.conf --trace $TMP/pages.trace --json
close "eight banks: 300 ns" "$(json_num $TMP/out simulated_time_s)" 3.08e-7 1e-9
expect_ok nvm-line $DLASIM dram --config $D/nvm-line.conf --trace $TMP/page.trace --json
close "line interleaving: one line a bank" "$(json_num $TMP/out simulated_time_s)" 3.08e-7 1e-9
# A channel that holds one waiting request: A and B go to bank 0 (A in
# service at 0, B waits), C to bank 0 enters when B starts (300, handed
# over at 301), D to bank 1 when C starts (600, at 601), done at 901.
# Latencies 300, 599, 599, 300 cycles; without the bound D would finish
# at 303 and C wait 898.
(grep -v '^#' $D/nvm.conf; echo "trans_queue_size = 1") > $TMP/nvm1.conf
printf '0 WRITE 0\n64 WRITE 0\n128 WRITE 0\n4096 WRITE 0\n' > $TMP/queue.trace
expect_ok nvm-queue-bound $DLASIM dram --config $TMP/nvm1.conf --trace $TMP/queue.trace --json
holds "a full NVM channel holds the replay back: 902 cycles" "$(json_num $TMP/out cycles) == 902"
close "its waits: mean latency" "$(json_num $TMP/out latency_mean_s)" 4.495e-7 1e-12
close "its waits: max latency" "$(json_num $TMP/out latency_max_s)" 5.99e-7 1e-12

# Bad configurations.
bad() {	# bad NAME PATTERN FILE-CONTENTS
	printf '%b' "$3" > $TMP/$1.conf
	expect_error "$1" "$2" $DLASIM dram --config $TMP/$1.conf --trace $TMP/row.trace
}
good=$(grep -v '^#' $D/ddr4-2400-x8-2ch2rk.conf)
# with 'KEY = VALUE\n...': the good configuration, those keys replaced (a
# key given twice is an error of its own).
with() {
	keys=$(printf '%b\n' "$1" | sed -n 's/^\([A-Za-z_0-9]*\) *=.*/\1/p' | paste -sd'|')
	echo "$good" | grep -v -E "^($keys) *="
	printf '%b\n' "$1"
}
bad unknown-key "unknown-key.conf:1: unknown key 'tRCDX'" "tRCDX = 17\n$good"
bad not-number "not-number.conf:1: CL = fast: not a number" "CL = fast\n$good"
bad not-whole "not-whole.conf:1: CL = 17.5: not a whole number" "CL = 17.5\n$good"
bad range "range.conf:1: tRCD = -3: out of range" "tRCD = -3\n$good"
bad no-value "no-value.conf:1: 'CL' has no value" "CL =\n$good"
bad no-equals "no-equals.conf:1: 'CL 17' is not key = value" "CL 17\n$good"
bad section "section.conf:1: section header without" "[timing\n$good"
bad protocol "protocol.conf:1: protocol = HBM2: this model knows DDR4 and NVM" "protocol = HBM2\n$good"
bad mapping "mapping.conf: address_mapping 'rorobgrachco' must name" "$(with 'address_mapping = rorobgrachco')"
bad power-of-two "power-of-two.conf: channels = 3: the address mapping needs a power of two" "$(with 'channels = 3')"
bad missing "missing.conf: DDR4 needs 'tRCD'" "$(echo "$good" | grep -v '^tRCD')"
bad ranks "ranks.conf: channel_size 1000 MB is not a whole number of ranks of 536870912 bytes" "$(with 'channel_size = 1000')"
# A geometry whose size overflows, or rounds to nothing, or more ranks than
# a channel may have: one message each (they once divided by zero, or
# overflowed the bank count).
bad rank-overflow "rank-overflow.conf: a rank \\(4 devices of 64 x 64 banks x 1073741824 rows x 1048576 columns x 1024 bits\\) is more than 2\\^60 bytes" \
	"$(with 'rows = 1073741824\ncolumns = 1048576\nbankgroups = 64\nbanks_per_group = 64\ndevice_width = 1024\nbus_width = 4096')"
bad rank-bits "rank-bits.conf: a rank \\(1 devices of 1 x 1 banks x 1 rows x 1 columns x 1 bits\\) is less than a byte" \
	"$(with 'rows = 1\ncolumns = 1\nBL = 1\ndevice_width = 1\nbus_width = 1\nbankgroups = 1\nbanks_per_group = 1')"
bad many-ranks "many-ranks.conf: channel_size 8192 MB holds 1073741824 ranks of 8 bytes, more than 64" \
	"$(with 'rows = 1\ncolumns = 8\nbankgroups = 1\nbanks_per_group = 1\nchannel_size = 8192')"
# A refresh must leave a rank time to serve a request (without it a fuzzed
# configuration hung the replay: test/data/bad/refresh-starves.conf).  By
# hand, for this device with tRAS 400 (N = 32 banks a channel): the
# refresh starts by tRAS + tRP + N = 449 cycles late, an activation may
# follow tRFC 312 later (tRRD_L 6 and tFAW 26 are shorter) and is issued
# within N, its column command tRCD 17 later (the longest column-to-column
# delay, WL + BL/2 + tWTR_L = 25, is shorter) and within N:
# 449 + 312 + 32 + 17 + 32 = 842.  tREFI must exceed it.
bad refresh-room "refresh-room.conf: tREFI 842 is too short to serve a request between refreshes \\(tRFC 312\\): it must exceed 842 " \
	"$(with 'tRAS = 400\ntREFI = 842')"
with 'tRAS = 400\ntREFI = 843' > $TMP/refresh-843.conf
expect_ok refresh-room-843 $DLASIM dram --config $TMP/refresh-843.conf --trace $TMP/row.trace --json
holds "tREFI 843: the row's 64 reads served" "$(json_num $TMP/out requests) == 64"
printf 'CL = 17\000\n' > $TMP/nul.conf
expect_error nul-config "nul.conf:1: a NUL byte" $DLASIM dram --config $TMP/nul.conf --trace $TMP/row.trace
expect_error missing-config "no-such.conf: cannot open DRAM configuration" $DLASIM dram --config $TMP/no-such.conf --trace $TMP/row.trace
expect_error dir-config "a directory, not a DRAM configuration" $DLASIM dram --config $TMP --trace $TMP/row.trace
expect_error not-preset "--config 'ddr5': not a file name nor a preset" $DLASIM dram --config ddr5 --trace $TMP/row.trace

# Bad traces.
badtrace() {	# badtrace NAME PATTERN CONTENTS
	printf '%b' "$3" > $TMP/$1.trace
	expect_error "$1" "$2" $DLASIM dram --config $D/ddr4-2400-x8-2ch2rk.conf --trace $TMP/$1.trace
}
badtrace op "op.trace:2: operation is not READ or WRITE: 'FETCH'" "0x0 READ 0\n0x8 FETCH 1\n"
badtrace address "address.trace:1: address is not a number: 'zz'" "zz READ 0\n"
badtrace beyond "beyond.trace:1: request at 0x80000000: address beyond the device" "0x80000000 READ 0\n"
badtrace aligned "aligned.trace:1: request at 0x3: address not aligned to a block" "0x3 READ 0\n"
badtrace row-end "row-end.trace:1: request at 0x3f8: blocks beyond the end of the row" "0x3f8 READ 0 2\n"
badtrace backwards "backwards.trace:2: cycle 5 is before the previous line's 9" "0x0 READ 9\n0x8 READ 5\n"
badtrace fields "fields.trace:1: expected ADDRESS OP CYCLE \\[BLOCKS\\], got 2 fields" "0x0 READ\n"
badtrace negative "negative.trace:1: cycle is not a whole number of cycles: '-4'" "0x0 READ -4\n"
badtrace huge_cycle "huge_cycle.trace:1: cycle is beyond 2\\^61: '9000000000000000000'" "0x0 READ 9000000000000000000\n"
badtrace binary "binary.trace:1: operation is not READ or WRITE: '\\\\x01\\\\x02'" "0x0 \001\002 0\n"
printf '0x0 READ 0\000\n' > $TMP/nul.trace
expect_error nul-trace "nul.trace:1: a NUL byte" $DLASIM dram --config $D/ddr4-2400-x8-2ch2rk.conf --trace $TMP/nul.trace
awk 'BEGIN { s = "0x0"; for (i = 0; i < 2000; i++) s = s " "; print s "READ 0" }' > $TMP/long.trace
expect_error long-line "long.trace:1: line longer than 1023 bytes" $DLASIM dram --config $D/ddr4-2400-x8-2ch2rk.conf --trace $TMP/long.trace
expect_error missing-trace "no-such.trace: cannot open trace" $DLASIM dram --config $D/nvm.conf --trace $TMP/no-such.trace
mkdir -p $TMP/dir.trace
expect_error dir-trace "dir.trace: cannot read: Is a directory" $DLASIM dram --config $D/nvm.conf --trace $TMP/dir.trace
expect_error nvm-burst "request at 0: an NVM request is one line" sh -c "echo '0 READ 0 2' | $DLASIM dram --config $D/nvm.conf --trace -"
expect_error no-trace "dram: --config and --trace are required" $DLASIM dram --config $D/nvm.conf
expect_error cycles "dram: --cycles '0'" $DLASIM dram --config $D/nvm.conf --trace $TMP/page.trace --cycles 0

# Late cycles: the replay stays in cycles, so a request 2.5e10 cycles in
# (21 s of DDR4-2400) is served like one at 1e9 (the same read and write,
# the same latency; both are clear of a refresh), where converting through
# seconds once lost a cycle and never finished.
late() {	# CYCLE: elapsed cycles less CYCLE
	printf '0x0 READ %s\n0x40 WRITE %s\n' $1 $(($1 + 5)) > $TMP/late.trace
	timeout 60 "$DLASIM" dram --config ddr4-2400-x8-2ch2rk --trace $TMP/late.trace --json > $TMP/late.json &&
		echo $(($(json_num $TMP/late.json cycles) - $1))
}
holds "a request at cycle 2.5e10 is served as one at 1e9" "$(late 25000000000) == $(late 1000000000) && $(late 1000000000) > 0"

# Close page: a bank auto-precharged with a request's last block takes its
# next activation as soon as the timing allows.  Bits of an address:
# offset 0-2, block 3-9, channel 10, rank 11, group 12-13, bank 14-15, row
# 16-30.  Writes to group 1 row 1 (cycle 14) and group 0 row 1 (39), then
# reads of group 1 row 2 (48) and group 0 row 0 (50).  Write: ACT at
# arrival + 1, WR tRCD = 17 later, done CWL + BL/2 = 16 after; the bank may
# activate again max(ACT + tRAS + tRP, WR + CWL + BL/2 + tWR + tRP) =
# max(ACT + 56, WR + 51) later.  W1: ACT 15, WR 32, done 48, next ACT 83;
# W2: ACT 40, WR 57, done 73, next ACT 108; R3: ACT 83, RD 100, done 100 +
# CL + BL/2 = 121; R4: ACT 108, RD 125, done 146.  Latencies 34, 34, 73,
# 96 cycles: mean 59.25; the run ends with cycle 146 (147 cycles).
sed 's/^row_buf_policy.*/row_buf_policy = CLOSE_PAGE/' $D/ddr4-2400-x8-2ch2rk.conf > $TMP/close.conf
printf '0x11000 WRITE 14\n0x10018 WRITE 39\n0x21010 READ 48\n0x10 READ 50\n' > $TMP/close.trace
expect_ok close-page $DLASIM dram --config $TMP/close.conf --trace $TMP/close.trace --json
cp $TMP/out $TMP/close.json
holds "close page: 147 cycles, 4 activations" "$(json_num $TMP/close.json cycles) == 147 && $(json_num $TMP/close.json activations) == 4"
close "close page: mean latency 59.25 cycles" "$(json_num $TMP/close.json latency_mean_s)" "$(awk 'BEGIN { printf "%.12g", 59.25 * 8.33e-10 }')" 1e-9
close "close page: the last read waits 96 cycles" "$(json_num $TMP/close.json latency_max_s)" "$(awk 'BEGIN { printf "%.12g", 96 * 8.33e-10 }')" 1e-9

# An idle stretch costs constant work: a request just below the 2^61 cap
# after one at cycle 0 finishes at once, with the refreshes of the stretch
# counted exactly (every tREFI / ranks = 4680 cycles staggered, two ranks
# every tREFI = 9360 simultaneous: one a cycle, so rank 1 one cycle after
# rank 0) and the request served as after any idle time (39 cycles: the
# run's cycles are CYCLE + 39 + 1, counted exactly).
far=2305843009213693000
printf '0x0 READ 0\n0x40 READ %s\n' $far > $TMP/far.trace
sed 's/^refresh_policy.*/refresh_policy = RANK_LEVEL_SIMULTANEOUS/' $D/ddr4-2400-x8-2ch2rk.conf > $TMP/simul.conf
for conf in $D/ddr4-2400-x8-2ch2rk.conf $TMP/simul.conf; do
	expect_ok far-idle-${conf##*/} timeout 20 $DLASIM dram --config $conf --trace $TMP/far.trace --json
	cp $TMP/out $TMP/far.json
	case $conf in
	*simul*) refs=$((2 * ((far - 1) / 9360))) ;;
	*) refs=$(((far - 1) / 4680)) ;;
	esac
	holds "${conf##*/}: $refs refreshes in the idle stretch" "$(json_num $TMP/far.json refreshes) == $refs"
	holds "${conf##*/}: the run ends with the late request's cycle, exactly" "\"$(json_num $TMP/far.json cycles)\" == \"$((far + 40))\""
	close "${conf##*/}: the late request served in 39 cycles" "$(json_num $TMP/far.json latency_max_s)" "$(awk 'BEGIN { printf "%.12g", 39 * 8.33e-10 }')" 1e-9
done
