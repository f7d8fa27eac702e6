#!/bin/sh
# dlasim nvm: bad input (one line, non-zero exit, nothing on stdout),
# broken plugins stopped by name, every shipped plugin on every mix with
# the invariant checker on, and properties that follow from the designs.
. test/lib.sh
TP=$BUILD/test-plugins

expect_error no_persist "--workload and --persist are required" "$DLASIM" nvm --workload mix1
expect_error bad_workload "--workload 'mix7': not a mix \(mix1 to mix6\) or a kernel \(array, btree" \
	"$DLASIM" nvm --workload mix7 --persist lad
expect_error unknown_persist "--persist: persistence-logging plugin 'nosuch' not found" \
	"$DLASIM" nvm --workload mix1 --persist nosuch
expect_error wrong_kind "'seq' is a log-allocation plugin, but --persist needs a persistence-logging plugin" \
	"$DLASIM" nvm --workload mix1 --persist "$BUILD/plugins/logalloc-seq.so"
expect_error wrong_kind_la "'lad' is a persistence-logging plugin, but --log-alloc needs a log-allocation plugin" \
	"$DLASIM" nvm --workload mix1 --persist lad --log-alloc "$BUILD/plugins/persist-lad.so"
expect_error bad_interleave "--interleave 'bank': not page or line" \
	"$DLASIM" nvm --workload mix1 --persist lad --interleave bank
expect_error bad_adr "--adr '0'" "$DLASIM" nvm --workload mix1 --persist lad --adr 0
expect_error bad_tx "--tx 'many'" "$DLASIM" nvm --workload mix1 --persist lad --tx many
expect_error bad_ipc "--ipc '0'" "$DLASIM" nvm --workload mix1 --persist lad --ipc 0
expect_error tiny_ipc "--ipc '1e-16': not from 0.001 to 64" "$DLASIM" nvm --workload mix1 --persist lad --ipc 1e-16
expect_error bad_cores "--cores '65'" "$DLASIM" nvm --workload btree --cores 65 --persist lad
# A plugin's options may hold commas: the CSV field is quoted (RFC 4180),
# so that the row has the header's columns.
expect_ok csv_quoted "$DLASIM" nvm --workload array --persist tste:logpar=8,blom=1 --tx 20 --csv
holds "CSV: the row has the header's columns, the options one field" \
	"$(csv_fields < $TMP/out | sort -u | wc -l) == 1 && $(grep -c '^array,"tste:logpar=8,blom=1",seq,' $TMP/out) == 1"
expect_error mix_cores "--cores 2: --workload 'mix1' runs on 4 cores \(Table 3.1\)" \
	"$DLASIM" nvm --workload mix1 --cores 2 --persist lad
expect_error extra_operand "unexpected argument 'x'" "$DLASIM" nvm --workload mix1 --persist lad x
expect_error bad_logpar "plugin 'tste' failed to initialise: logpar=x: not an integer" \
	"$DLASIM" nvm --workload mix1 --persist tste:logpar=x
expect_error bad_admission "admission=lifo: not fcfs or mudf" \
	"$DLASIM" nvm --workload mix1 --persist vadr:admission=lifo
expect_error bad_fallback "fallback=some: not trigger or all" \
	"$DLASIM" nvm --workload mix1 --persist lad_rdlog:fallback=some
expect_error bad_threshold "threshold=2: not a number in \[0, 1\]" \
	"$DLASIM" nvm --workload mix1 --persist lad:threshold=2
expect_error bad_depleted "depleted=wait: not log or stall" \
	"$DLASIM" nvm --workload mix1 --persist lad:depleted=wait
expect_error unknown_option "unknown option 'colour' \(blom\)" \
	"$DLASIM" nvm --workload mix1 --persist redu:colour=red
expect_error bad_blom "blom=2: not 0 or 1" "$DLASIM" nvm --workload mix1 --persist redu:blom=2
expect_error bad_fle "fle=0: not an integer" \
	"$DLASIM" nvm --workload mix1 --persist redu --log-alloc lalea:fle=0
expect_error seq_no_options "seq takes no options" \
	"$DLASIM" nvm --workload mix1 --persist redu --log-alloc seq:x=1
# More FIFO slots than the log area has blocks in a bank.
expect_error lalea_too_big "plugin 'lalea' failed to start on the log area" \
	"$DLASIM" nvm --workload mix1 --persist redu --log-alloc lalea:fle=1000000

# Broken plugins: one line naming the plugin, the transaction and the invariant.
run_tx="--workload mix4 --tx 20"
expect_error early_commit "persistence-logging plugin 'early_commit' \(.*\): transaction [0-9]+ \(core [0-9]\): commit\(\) before the redo log of line 0 is durable .*\(I2\)" \
	"$DLASIM" nvm $run_tx --persist "$TP/persist_early_commit.so"
expect_error in_place_early "plugin 'misbehave' .*: transaction [0-9]+ \(core [0-9]\): home_write\(\): line 0 in place before its undo entry is durable \(I1\)" \
	"$DLASIM" nvm $run_tx --persist "$TP/persist_misbehave.so:break=home"
expect_error overfill "plugin 'misbehave' .*: place\(\): line [0-9]+ to the ADR, which is full \(I5\)" \
	"$DLASIM" nvm $run_tx --persist "$TP/persist_misbehave.so:break=overfill"
expect_error unplaced "plugin 'misbehave' .*: on_write\(\) took line 0 but left it in no buffer \(I6\)" \
	"$DLASIM" nvm $run_tx --persist "$TP/persist_misbehave.so:break=unplaced"
expect_error volatile "plugin 'misbehave' .*: commit\(\) while line 0 is in the staging buffer.*\(I4\)" \
	"$DLASIM" nvm $run_tx --persist "$TP/persist_misbehave.so:break=volatile"
expect_error never_commits "plugin 'misbehave' .*: transaction [0-9]+ \(core [0-9]\) ended and was never committed" \
	"$DLASIM" nvm $run_tx --persist "$TP/persist_misbehave.so:break=never"
expect_error wrong_bank "log-allocation plugin 'misbehave' .*: alloc\(\) gave a log entry at 0x[0-9a-f]+ in bank [0-7], but that address is in bank" \
	"$DLASIM" nvm $run_tx --persist redu --log-alloc "$TP/logalloc_misbehave.so:break=bank"
expect_error reused_slot "log-allocation plugin 'misbehave' .*is in use" \
	"$DLASIM" nvm $run_tx --persist redu --log-alloc "$TP/logalloc_misbehave.so:break=live"

# Every shipped plugin on every mix, audited against I1-I6 after every
# event: no violation, and at least every core's workload committed.
for p in lad lad_rdlog tste vadr redu redu:blom=1 vadr:admission=mudf lad_rdlog:fallback=all \
	 lad:depleted=stall lad_rdlog:depleted=stall tste:priority=text \
	 lad/lalea redu/lalea redu:blom=1/lalea; do
	la=seq
	case $p in */*) la=${p#*/}; p=${p%/*} ;; esac
	for w in mix1 mix2 mix3 mix4 mix5 mix6; do
		if "$DLASIM" nvm --workload $w --persist $p --log-alloc $la --tx 40 --check --json \
			> "$TMP/c.json" 2> "$TMP/err"; then
			c=$(json_num "$TMP/c.json" committed_tx)
			[ "$c" -ge 160 ] || echo "$p/$la/$w: $c transactions committed, fewer than 4 x 40"
		else
			echo "$p/$la/$w: $(head -c 300 "$TMP/err")"
		fi
	done
done > "$TMP/audit"
if [ -s "$TMP/audit" ]; then not_ok "every plugin, every mix, audited" "$(head -c 600 "$TMP/audit")"
else ok "every plugin, every mix, audited"; fi

# --cores 9 to 64 (documented 1 to 64): core c's data lies from c GiB on,
# so past 8 cores the NVM grows to as many GiB as cores (8 GB up to 8
# cores, the table's); these runs once failed late with "address beyond
# the device".  Each core runs --tx transactions: at least cores x tx
# commit.
for c in 9 64; do
	expect_ok "--cores $c" "$DLASIM" nvm --workload array --persist lad --cores $c --tx 5 --json
	holds "--cores $c: $c cores, at least $((c * 5)) transactions" \
		"$(json_num $TMP/out cores) == $c && $(json_num $TMP/out committed_tx) >= $((c * 5))"
done

# LAD falls back to logging when the ADR is depleted (dissertation 1.2,
# 2.1.3, 4.5.2): the line waits for its log entry in the log queue, and
# the core goes on.  A core has one transaction in flight and a B-Tree
# transaction writes at most 35 lines, so a 1024-entry log queue never
# fills: no line ever waits.  With depleted=stall the core waits for an
# ADR entry instead, which 16 entries shared by 4 cores make happen.
for p in lad lad_rdlog; do
	for d in log stall; do
		if "$DLASIM" nvm --workload btree --persist $p:depleted=$d --adr 16 --logq 1024 --tx 300 \
			--json > "$TMP/$p.$d.json" 2> "$TMP/err"; then ok "$p:depleted=$d runs"
		else not_ok "$p:depleted=$d runs" "$(head -c 300 "$TMP/err")"; fi
	done
	holds "$p: no stall with the fallback on depletion" "$(json_num "$TMP/$p.log.json" stalls) == 0"
	holds "$p:depleted=stall stalls" "$(json_num "$TMP/$p.stall.json" stalls) > 0"
done
if "$DLASIM" nvm --workload btree --persist lad --adr 16 --logq 1024 --tx 300 --json \
	> "$TMP/lad.default.json" 2> "$TMP/err"; then
	for k in throughput_tx_per_s log_entries stalls; do
		holds "lad falls back on depletion by default: $k" \
			"$(json_num "$TMP/lad.default.json" $k) == $(json_num "$TMP/lad.log.json" $k)"
	done
else
	not_ok "lad by default" "$(head -c 300 "$TMP/err")"
fi

# TSTE's two readings of the priority rule.  Figure 3.4 (the default):
# transactions share the ADR until it overflows.  Section 3.3's text
# (priority=text): a transaction is the priority one only if its first
# line reaches an empty ADR, otherwise it is non-priority and logged.
# HashTable writes 3-4 lines (one a bucket count many transactions share)
# and never more than the ADR holds: every log is unnecessary, and under
# the text rule each transaction that starts while earlier lines drain is
# logged, where sharing logs only when the ADR fills.
expect_error bad_priority "priority=first: not figure or text" \
	"$DLASIM" nvm --workload mix1 --persist tste:priority=first
for r in figure text; do
	"$DLASIM" nvm --workload hashtable --persist tste:priority=$r --interleave line --adr 256 \
		--tx 200 --json > "$TMP/tste.$r.json" 2> "$TMP/err" || not_ok "tste:priority=$r" "$(head -c 300 "$TMP/err")"
done
holds "tste: no necessary log when every write set fits" \
	"$(json_num "$TMP/tste.text.json" necessary_log_tx) == 0 && $(json_num "$TMP/tste.figure.json" necessary_log_tx) == 0"
holds "tste: the text rule logs more transactions than sharing" \
	"$(json_num "$TMP/tste.text.json" unnecessary_log_tx) > 2 * $(json_num "$TMP/tste.figure.json" unnecessary_log_tx)"
# Entries of committed transactions that fit the ADR: some under TSTE;
# none under VADR, which logs only a transaction that overflows its own
# virtual ADR (as large as the ADR).
holds "tste: unnecessary log entries counted" "$(json_num "$TMP/tste.text.json" unnecessary_log_entries) > 0"
if "$DLASIM" nvm --workload mix3 --persist vadr --interleave line --tx 100 --json > "$TMP/vadr.json" 2> "$TMP/err"; then
	holds "vadr: log entries, none of an unnecessary-log transaction" \
		"$(json_num "$TMP/vadr.json" log_entries) > 0 && $(json_num "$TMP/vadr.json" unnecessary_log_entries) == 0"
else
	not_ok "vadr on mix3" "$(head -c 300 "$TMP/err")"
fi

# A header is written once its record's entries persisted (intra-record
# ordering), one 64 B block with the sequential log, two in one bank with
# LALEA (4.3).  One core running TATP (one line, so one entry and one
# header per transaction) finds the banks idle: a header takes 300 ns a
# block, and the commit waits for the entry's 300 ns before it.
for la in seq lalea; do
	if "$DLASIM" nvm --workload tatp --cores 1 --persist redu --log-alloc $la --interleave line \
		--tx 200 --json > "$TMP/hdr.$la.json" 2> "$TMP/err"; then ok "header latency, $la, runs"
	else not_ok "header latency, $la, runs" "$(head -c 300 "$TMP/err")"; fi
done
h=$(json_num "$TMP/hdr.seq.json" header_latency_s)
holds "seq: a one-block header persists in 300 ns on an idle bank" "$h >= 300e-9 && $h < 330e-9"
h=$(json_num "$TMP/hdr.lalea.json" header_latency_s)
holds "lalea: a two-block header in one bank, 600 ns" "$h >= 600e-9 && $h < 630e-9"
holds "lalea: the commit waits for the entry, then the header" \
	"$(json_num "$TMP/hdr.lalea.json" commit_latency_s) >= $h + 300e-9"
