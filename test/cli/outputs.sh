#!/bin/sh
# Outputs (results/outfile.c, main's check of stdout) and interrupts
# (lib/cleanup.c): a regular file is replaced whole, with the umask's
# mode or the old file's; a device, a FIFO or a link to one is written in
# place, never replaced; output lost on stdout is an error; SIGINT and
# SIGTERM leave no temporary file, directory or child behind.
. test/lib.sh
gen() { "$DLASIM" platform --topology dc --devices 8 "$@"; }
mode() { stat -c %a "$1"; }

# ---- regular files ----
expect_ok "new file" sh -c "umask 022 && \"$DLASIM\" platform --topology dc --devices 8 -o \"$TMP/a.xml\""
holds "new file: 0666 less umask 022" "$(mode "$TMP/a.xml") == 644"
rm -f "$TMP/a.xml"
expect_ok "new file, umask 077" sh -c "umask 077 && \"$DLASIM\" platform --topology dc --devices 8 -o \"$TMP/a.xml\""
holds "new file: 0666 less umask 077" "$(mode "$TMP/a.xml") == 600"
chmod 640 "$TMP/a.xml"
expect_ok "replaced file" gen -o "$TMP/a.xml"
holds "replaced file keeps its mode" "$(mode "$TMP/a.xml") == 640"
gen > "$TMP/ref.xml"
if cmp -s "$TMP/a.xml" "$TMP/ref.xml"; then ok "replaced file: new contents"; else not_ok "replaced file: new contents" "differs from stdout"; fi
holds "no temporary file left" "$(ls "$TMP" | grep -c '\.tmp\.')== 0"

# A link to a regular file: the file is replaced, the link stays.
echo old > "$TMP/target.xml"
ln -s target.xml "$TMP/link.xml"
expect_ok "link to a file" gen -o "$TMP/link.xml"
holds "link to a file: still a link" "$(test -L "$TMP/link.xml" && echo 1 || echo 0) == 1"
if cmp -s "$TMP/target.xml" "$TMP/ref.xml"; then ok "link to a file: target written"; else not_ok "link to a file: target written" "target not replaced"; fi

# ---- what is not a regular file is written in place ----
expect_ok "-o /dev/null" gen -o /dev/null
holds "/dev/null is still a character device" "$(test -c /dev/null && echo 1 || echo 0) == 1"
ln -s /dev/null "$TMP/null-link"
expect_ok "-o link to /dev/null" gen -o "$TMP/null-link"
holds "link to /dev/null: still a link to a device" "$(test -L "$TMP/null-link" && test -c "$TMP/null-link" && echo 1 || echo 0) == 1"
mkfifo "$TMP/fifo"
cat "$TMP/fifo" > "$TMP/from-fifo" &
reader=$!
expect_ok "-o FIFO" gen -o "$TMP/fifo"
wait $reader
holds "FIFO is still a FIFO" "$(test -p "$TMP/fifo" && echo 1 || echo 0) == 1"
if cmp -s "$TMP/from-fifo" "$TMP/ref.xml"; then ok "FIFO: the reader got the platform"; else not_ok "FIFO: the reader got the platform" "differs"; fi
expect_error "-o /dev/full" "-o /dev/full: write failed: No space left on device" gen -o /dev/full
expect_error "-o a directory" "-o $TMP: is a directory" gen -o "$TMP"
expect_error "-o an empty name" "-o '': an empty file name" gen -o ""
expect_error "--link-stats /dev/full" "--link-stats /dev/full: write failed" \
	"$DLASIM" train --platform platforms/dc-8.xml --workload workloads/alexnet.dnn --link-stats /dev/full
# A link's id may hold a comma (SimGrid takes any text): its CSV field is
# quoted (RFC 4180), and every row keeps the header's six columns.
sed 's/"nv-d0-d1"/"nv,d0,d1"/g' platforms/dc-8.xml > "$TMP/comma.xml"
expect_ok "--link-stats, a comma in a link id" \
	"$DLASIM" train --platform "$TMP/comma.xml" --workload workloads/alexnet.dnn --link-stats "$TMP/links.csv"
holds "--link-stats: six columns in every row, the id quoted" \
	"$(csv_fields < "$TMP/links.csv" | sort -u | tr '\n' ' ') == 6 && $(grep -c '^\"nv,d0,d1\",nvlink,' "$TMP/links.csv") == 2"

# ---- standard output ----
P=platforms/dc-8.xml
full() { "$@" > /dev/full; }
expect_error "coll > /dev/full" "writing standard output: No space left on device" \
	full "$DLASIM" coll --platform $P --op allreduce --bytes 1MB
expect_error "train > /dev/full" "writing standard output: No space left on device" \
	full "$DLASIM" train --platform $P --workload workloads/alexnet.dnn
expect_error "tier > /dev/full" "writing standard output: No space left on device" \
	full "$DLASIM" tier --workload workloads/tm/bert-large.tm --policy hbm_only
expect_error "plugins > /dev/full" "writing standard output: No space left on device" \
	full "$DLASIM" plugins
expect_error "platform > /dev/full" "writing standard output: No space left on device" \
	full "$DLASIM" platform --topology dc --devices 8
expect_error "study mcdla --csv > /dev/full" "writing standard output: No space left on device" \
	full "$DLASIM" study mcdla --parallel data --csv
closed() { "$@" >&-; }
expect_error "coll with stdout closed" "writing standard output: Bad file descriptor" \
	closed "$DLASIM" coll --platform $P --op allreduce --bytes 1MB
expect_ok "-o FILE with stdout closed" closed "$DLASIM" platform --topology dc --devices 8 -o "$TMP/c.xml"

# ---- interrupts ----
# wait_for COND: poll a shell condition for up to 20 s.
wait_for() {
	i=0
	while ! eval "$1" && [ $i -lt 200 ]; do sleep 0.1; i=$((i + 1)); done
	eval "$1"
}
# A script's background jobs start with SIGINT ignored (and dlasim keeps
# what was ignored at its start, as nohup wants): restore it first.
unignore='$SIG{INT} = "DEFAULT"; exec @ARGV or die'
# stop PID SIG: send SIG, wait at most 20 s for PID to end; its status in $rc.
stop() {
	spid=$1
	kill -$2 $spid
	wait_for '! kill -0 $spid 2>/dev/null || [ "$(ps -o stat= -p $spid)" = Z ]' || kill -9 $spid
	wait $spid
	rc=$?
}
for sig in INT TERM; do
	mkdir -p "$TMP/sig-$sig"
	perl -e "$unignore" -- "$DLASIM" platform --topology dc --devices 400000 -o "$TMP/sig-$sig/big.xml" &
	pid=$!
	wait_for 'ls "$TMP/sig-$sig" | grep -q "big.xml.tmp"'
	stop $pid $sig
	holds "SIG$sig: the generator dies of the signal" "$rc > 128"
	holds "SIG$sig: no temporary file, no half-written output" "$(ls "$TMP/sig-$sig" | wc -l) == 0"
done

# A study: its generated platforms and its children go too.
mkdir -p "$TMP/plugins" "$TMP/tmpdir"
cp "$BUILD/test-plugins/page_hang.so" "$TMP/plugins/page-bw_aware.so"
children() { cat /proc/$1/task/*/children 2>/dev/null; }
alive() {	# how many of the pids $* still run (zombies do not)
	n=0
	for c in "$@"; do
		s=$(ps -o stat= -p "$c" 2>/dev/null)
		case $s in ""|Z*) ;; *) n=$((n + 1)) ;; esac
	done
	echo $n
}
for sig in INT TERM KILL; do
	DLASIM_PLUGIN_PATH="$TMP/plugins" TMPDIR="$TMP/tmpdir" perl -e "$unignore" -- \
		"$DLASIM" study mcdla --parallel data --jobs 2 --timeout 60s > /dev/null 2>&1 &
	pid=$!
	# Runs 33 and 34 (bw_aware) hang: wait until the same two children
	# have run for a second.
	wait_for 'k1=$(children $pid) && [ -n "$k1" ] && sleep 1 && [ "$k1" = "$(children $pid)" ]'
	kids=$(children $pid)
	holds "study SIG$sig: children running before" "$(alive $kids) > 0"
	stop $pid $sig
	holds "study SIG$sig: the study dies of the signal" "$rc > 128"
	wait_for '[ "$(alive $kids)" -eq 0 ]'
	holds "study SIG$sig: no child left running" "$(alive $kids) == 0"
	if [ $sig != KILL ]; then
		holds "study SIG$sig: temporary directory removed" "$(ls "$TMP/tmpdir" | wc -l) == 0"
	fi
	rm -rf "$TMP/tmpdir"/*
done
