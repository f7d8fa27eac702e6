#!/bin/sh
# File-based fuzzing of the commands: `dlasim coll`, `train` and `tier` on
# mutated platforms and workloads, `dram` on mutated device configurations
# and traces, `nna` on mutated device configurations; one process per
# input, each at most 10 s.  Usage: test/fuzz/commands.sh [N [SEED]] (N
# inputs, default 100).  (Records up to seed 41 in docs/fuzzing.md ran
# the first five kinds only, one input in five each.)
#
# Inputs come from the shipped files (platforms/, test/data/*.xml,
# workloads/*.dnn, workloads/tm/*.tm with 2 layers to keep runs short),
# mutated by zzuf (random bit flips at a random ratio) or by an edit of
# their structure (a number or an attribute value replaced by an extreme
# one, a line deleted or repeated).  A finding is:
#   signal    the command died of a signal (a crash, a SimGrid abort)
#   sanitizer ASan, UBSan or LSan reported (build with `make sanitize`
#             and run with BUILD=build-san to look for these)
#   hang      still running after 10 s (60 s in a sanitizer build, whose
#             runs are 10-30 times slower)
#   message   it failed without exactly one line on stderr, or SimGrid
#             spoke (the bad-input rule: one line, no backtrace)
#   injection a sweep's run list, run by sh, ran something besides dlasim
#   clobber   an input changed, or a file "(null)" appeared
#   accepted  an input that must be refused ran (a lost output, a bad
#             rank name, a repeated or foreign key)
#   refused   an input that must run failed (a core count of 1 to 64)
# Each finding's input and command are kept in $FUZZ_OUT (default
# build-fuzz/commands/); the last line gives inputs, time and findings.
# FUZZ_JOBS (default 2) inputs run at once.
: "${BUILD:=build}"
N=${1:-100}
SEED=${2:-1}
OUT=${FUZZ_OUT:-build-fuzz/commands}
JOBS=${FUZZ_JOBS:-2}
DLASIM=$BUILD/dlasim
cd "$(dirname "$0")/../.." || exit 1
command -v zzuf > /dev/null || { echo "commands.sh: zzuf is missing (deps.sh installs it)" >&2; exit 2; }
[ -x "$DLASIM" ] || { echo "commands.sh: no $DLASIM (make first)" >&2; exit 2; }
LIMIT=10
case $BUILD in *san*) LIMIT=60; export DLASIM_CONTEXTS=thread ASAN_OPTIONS=detect_leaks=1 \
	LSAN_OPTIONS=suppressions=$PWD/test/lsan.supp:print_suppressions=0 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 ;;
esac
TMP=$(mktemp -d "${TMPDIR:-/tmp}/dlasim-fuzz.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
mkdir -p "$OUT" "$TMP/seeds"
for f in workloads/tm/*.tm; do
	sed 's/^layers .*/layers 2/' "$f" > "$TMP/seeds/$(basename "$f")"
done
PLATFORMS=$(ls platforms/*.xml test/data/*.xml)
NPU=$(ls platforms/npu-*.xml)
DNN=$(ls workloads/*.dnn)
TM=$(ls "$TMP"/seeds/*.tm)
DRAM=$(ls platforms/dram/*.conf)
TRACES=$(ls test/fuzz/seeds/memdev_trace/*)
# A trace long enough to reach refreshes and write drains: 4000 requests
# over both channels, ranks and bank groups, one every 3 cycles.
awk 'BEGIN { srand(1); for (i = 0; i < 4000; i++)
	printf "0x%x %s %d\n", int(rand() * 2^24) * 64, (i % 3 ? "READ" : "WRITE"), 3 * i }' \
	> "$TMP/seeds/long.trace"
TRACES="$TRACES $TMP/seeds/long.trace"
# A dlasim result, and a stand-in for dlasim that prints its arguments.
"$DLASIM" coll --platform platforms/dc-8.xml --op allreduce --bytes 1MB --json > "$TMP/seeds/r.json"
printf '#!/bin/sh\nfor a; do printf "%%s\\0" "$a"; done\n' > "$TMP/fake"
chmod +x "$TMP/fake"

# pick RANDOM-NUMBER WORDS...: one of the words.
pick() {
	r=$1; shift
	n=$#; i=$((r % n + 1))
	eval "echo \${$i}"
}

# mutate R IN OUT: a mutated copy of IN, chosen by the random number R.
mutate() {
	case $(($1 % 4)) in
	0 | 1)	# bit flips, 1 in 10000 to 1 in 50 bytes
		ratio=$(pick $(($1 / 4)) 0.0001 0.0005 0.001 0.005 0.01 0.02)
		zzuf -s "$1" -r "$ratio" < "$2" > "$3" ;;
	2)	# a value replaced by an extreme one
		awk -v r="$1" 'BEGIN { srand(r); split("0 -1 1e308 1e-320 nan inf 4294967297 2147483648 1e400 -0 0.0 9e18 1073741824 1e6 x \"\" 1e-9 18446744073709551617", v, " ") }
			{ line[NR] = $0 } END { t = int(rand() * NR) + 1
			l = line[t]; n = 0
			# numbers, with an optional unit
			while (match(substr(l, n + 1), /[0-9][0-9.e+-]*/) && n < length(l)) {
				s = n + RSTART; e = RLENGTH
				if (rand() < 0.5) { l = substr(l, 1, s - 1) v[int(rand() * 18) + 1] substr(l, s + e); break }
				n = s + e - 1
			}
			line[t] = l
			for (i = 1; i <= NR; i++) print line[i] }' "$2" > "$3" ;;
	3)	# a line deleted or repeated
		awk -v r="$1" 'BEGIN { srand(r) } { line[NR] = $0 } END { t = int(rand() * NR) + 1; d = rand() < 0.5
			for (i = 1; i <= NR; i++) { if (i != t || !d) print line[i]; if (i == t && !d) print line[i] } }' "$2" > "$3" ;;
	esac
}

# hostile_words R: three words of shell syntax (quotes, $, `, ;, |, ...).
hostile_words() {
	awk -v r="$1" 'BEGIN { srand(r); s = "\047\"$`\\;&|<>(){}*?~!%=,:"
		for (k = 0; k < 3; k++) { w = ""; n = 1 + int(rand() * 12)
			for (j = 0; j < n; j++) w = w substr(s, int(rand() * length(s)) + 1, 1)
			printf "%s%s", k ? " " : "", w } }'
}

# inputs_sum DIR: a checksum of the files under DIR (inputs a run must
# leave alone) and of "(null)" here.
inputs_sum() {
	find "$1" -type f ! -path '*/sw/*' ! -name out.csv ! -name err -exec cksum {} + 2> /dev/null | sort
	ls -d "(null)" 2> /dev/null
}

# check_inputs DIR SUMS: "clobber" when an input changed.
check_inputs() {
	[ "$(inputs_sum "$1")" = "$2" ] || echo clobber
}

# check_sweep DIR SUMS: the run list, run by sh in an empty directory,
# runs the stand-in only, which writes each line's result.
check_sweep() {
	[ -f "$1/sw/runs.txt" ] || return 0
	(cd "$1/cwd" && sh "$1/sw/runs.txt") > /dev/null 2>&1
	if [ -n "$(find "$1" -name 'PWNED*')" ] || [ -n "$(ls -A "$1/cwd")" ] ||
	   [ "$(ls "$1/sw/runs" | grep -c '\.json$')" -ne "$(grep -c . "$1/sw/runs.txt")" ]; then
		echo injection
	fi
}

# one I: input number I; prints a finding line or nothing.
one() {
	i=$1
	r=$((SEED * 1000003 + i * 7919))
	d="$TMP/$i"
	mkdir -p "$d"
	post= must_fail= must_run=
	case $((i % 14)) in
	0)	in=$(pick $r $PLATFORMS); f="$d/p.xml"; mutate $r "$in" "$f"
		set -- coll --platform "$f" --op $(pick $((r / 7)) allreduce allgather reducescatter broadcast) \
			--bytes $(pick $((r / 11)) 1MB 64MiB 1GB) --coll $(pick $((r / 13)) ring ring_flow hd) ;;
	1)	in=$(pick $r $PLATFORMS); f="$d/p.xml"; mutate $r "$in" "$f"
		set -- train --platform "$f" --workload workloads/alexnet.dnn --batch 64 \
			--page-alloc $(pick $((r / 7)) local bw_aware) --coll $(pick $((r / 11)) ring ring_flow) ;;
	2)	in=$(pick $r $DNN); f="$d/w.dnn"; mutate $r "$in" "$f"
		set -- train --platform platforms/$(pick $((r / 7)) dc-8 mc-ring-8 hc-8).xml --workload "$f" \
			--batch 64 --parallel $(pick $((r / 11)) data data data model) --coll ring_flow ;;
	3)	in=$(pick $r $TM); f="$d/w.tm"; mutate $r "$in" "$f"
		set -- tier --workload "$f" --policy $(pick $((r / 7)) hbm_only tm_training sentinel autotm ver_on hor_off ideal) ;;
	4)	in=$(pick $r $NPU); f="$d/p.xml"; mutate $r "$in" "$f"
		set -- tier --workload "$TMP/seeds/bert-large.tm" --policy $(pick $((r / 7)) tm_training ver_on hbm_only) --platform "$f" ;;
	5)	in=$(pick $r $DRAM); f="$d/d.conf"; mutate $r "$in" "$f"
		set -- dram --config "$f" --trace "$TMP/seeds/long.trace" $(pick $((r / 7)) "" --json) ;;
	6)	in=$(pick $r $TRACES); f="$d/t.trace"; mutate $r "$in" "$f"
		set -- dram --config $(pick $((r / 7)) $DRAM) --trace "$f" ;;
	7)	in=$(pick $r $DRAM); f="$d/d.conf"; mutate $r "$in" "$f"
		set -- nna --workload workloads/nna/facerec.dnn --dram "$f" \
			--dataflow $(pick $((r / 7)) ws arai) --dram-place $(pick $((r / 11)) roma lap) ;;
	8)	# sweep: shell syntax in the values and in a value's directory
		in=sweep; hd="$d/a';touch PWNED;\"\$(touch PWNED)\`touch PWNED\`'b"
		mkdir -p "$hd" "$d/cwd"; cp platforms/dc-8.xml "$hd/p.xml"; f="$hd/s.spec"
		printf 'command = coll\nplatform = p.xml\nop = allreduce\nbytes = %s\n' "$(hostile_words $r)" > "$f"
		cd "$hd" || return
		set -- sweep s.spec --out "$d/sw" --dlasim "$TMP/fake"
		post=check_sweep ;;
	9)	# merge: mutated results, the output onto an input or a full disk
		in=$TMP/seeds/r.json; mkdir -p "$d/m/runs"; f="$d/m/runs/0001.json"
		mutate $r "$in" "$f"; cp "$in" "$d/m/runs/0002.json"
		printf 'run,op\n1,a\n2,b\n' > "$d/m/params.csv"
		o=$(pick $((r / 7)) "$d/m/params.csv" "$d/m/runs/0001.json" "$d/m/runs/0002.json" /dev/full "$d/out.csv")
		set -- merge "$d/m" -o "$o" $(pick $((r / 11)) "" --json --partial)
		post=check_inputs; must_fail=$(case $o in /dev/full|$d/m/*) echo 1 ;; esac) ;;
	10)	# an output onto /dev/full or onto an input
		in=platforms/dc-8.xml; f="$d/p.xml"; cp "$in" "$f"
		o=$(pick $((r / 7)) /dev/full "$f" "$d/p.xml" "$d/../$(basename "$d")/p.xml")
		set -- $(pick $((r / 11)) "coll --op allreduce --bytes 1MB --trace" "train --workload alexnet --link-stats" "train --workload alexnet --trace") \
			"$o" --platform "$f"
		post=check_inputs; must_fail=1 ;;
	11)	# nvm: any documented core count, plugin options maybe given twice
		in=nvm; f=/dev/null; k=$(pick $((r / 7)) array chainqueue array)
		o=$(pick $((r / 11)) redu:blom=1 redu:blom=1,blom=0 tste:logpar=8 tste:logpar=8,logpar=8 lad)
		set -- nvm --workload $k --persist "$o" --cores $((r % 64 + 1)) --tx 2
		case $o in *,*) must_fail=1 ;; *) must_run=1 ;; esac ;;
	12)	# per-rank Chakra traces, one renamed to an odd rank
		in=workloads/chakra/pipeline-8; f="$d/ranks"; mkdir -p "$f"; cp "$in"/*.et "$f/"
		rank=$(pick $((r / 7)) 99999999999999999999 -1 +1 8 65536 007 " 1" 1e3 0x1 7)
		mv "$f/pipeline.7.et" "$f/pipeline.$rank.et"
		set -- train --platform platforms/dc-8.xml --workload "$f"
		case $rank in 7|007) must_run=1 ;; *) must_fail=1 ;; esac ;;
	13)	# a memory-device configuration with a key repeated or of the other kind
		in=$(pick $r $DRAM); f="$d/d.conf"
		line=$(pick $((r / 7)) "CL = 17" "read_ns = 48" "banks = 8" "tREFI = 0" "channels = 1" "line_bytes = 64")
		{ cat "$in"; echo "$line"; } > "$f"
		set -- dram --config "$f" --trace "$TMP/seeds/long.trace"
		must_fail=1 ;;
	esac
	[ -n "$FUZZ_SHOW" ] && echo "dlasim $*" >&2
	sums=$(inputs_sum "$d")
	timeout -s KILL $LIMIT "$DLASIM" "$@" > /dev/null 2> "$d/err"
	rc=$?
	cd "$top" || exit 2
	kind=
	[ -n "$post" ] && kind=$($post "$d" "$sums")
	if [ -n "$kind" ]; then :
	elif [ -n "$must_fail" ] && [ $rc -eq 0 ]; then kind=accepted
	elif [ -n "$must_run" ] && [ $rc -ne 0 ] && [ $rc -lt 128 ]; then kind=refused
	elif [ $rc -eq 137 ]; then kind=hang
	elif grep -qE 'AddressSanitizer|LeakSanitizer|runtime error:' "$d/err"; then kind=sanitizer
	elif [ $rc -ge 128 ]; then kind=signal
	elif grep -qE '^\[[0-9.]+\] |Backtrace|xbt_' "$d/err"; then kind=message
	elif [ $rc -ne 0 ] && [ "$(grep -c . "$d/err")" -ne 1 ]; then kind=message
	fi
	if [ -n "$kind" ]; then
		keep="$OUT/$kind-$SEED-$i"
		mkdir -p "$keep"
		cp -r "$f" "$keep/" 2> /dev/null
		cp "$d/err" "$keep/stderr"
		echo "dlasim $* (exit $rc; from $in)" | sed "s|$d/|$keep/|g" > "$keep/command"
		echo "finding $kind: $keep: $(head -n 1 "$d/err" | cut -c1-200)"
	fi
	rm -rf "$d"
}

top=$PWD
start=$(date +%s)
for w in $(seq 1 "$JOBS"); do
	(
		i=$w
		while [ "$i" -le "$N" ]; do
			one "$i"
			i=$((i + JOBS))
		done
	) > "$TMP/worker.$w" &
done
wait
cat "$TMP"/worker.*
findings=$(cat "$TMP"/worker.* | grep -c '^finding')
echo "commands.sh: $N inputs (seed $SEED, $BUILD) in $(($(date +%s) - start)) s: $findings findings"
[ "$findings" -eq 0 ]
