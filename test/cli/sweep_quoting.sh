#!/bin/sh
# dlasim sweep writes shell lines (runs.txt, sweep.sbatch): whatever bytes
# the paths and values hold, running them runs dlasim with the argv meant
# and nothing else; what no shell line can carry (a newline) is refused in
# one line naming the option or the spec line (docs/sweeps.md).
. test/lib.sh

D=$(cd "$(dirname "$DLASIM")" && pwd)/$(basename "$DLASIM")
SRC=$PWD
# byte N: the byte of value N (1-255) on standard output.
byte() { printf "\\$(printf %o "$1")"; }
# bytes FROM TO [SKIP...]: those bytes, less the skipped ones.
bytes() {
	from=$1; to=$2; shift 2
	i=$from
	while [ $i -le $to ]; do
		skip=0
		for s in "$@"; do [ $i -eq $s ] && skip=1; done
		[ $skip -eq 1 ] || byte $i
		i=$((i + 1))
	done
}
# Every byte but NUL, '/' and the newline, in two directory names (a name
# holds 255 bytes at most).
low=$(bytes 1 127 10 47)
high=$(bytes 128 255)
W="$TMP/$low/$high"
mkdir -p "$W" || { not_ok "a directory with bytes 1-255" "mkdir failed"; exit 0; }
holds "the directory names hold 253 bytes" "$(printf '%s%s' "$low" "$high" | wc -c) == 253"

# A stand-in for dlasim that writes its arguments, NUL-separated.
cat > "$W/fake dlasim" <<'FAKE'
#!/bin/sh
for a; do printf '%s\0' "$a"; done
FAKE
chmod +x "$W/fake dlasim"
cp "$SRC/platforms/dc-8.xml" "$W/p.xml"
# A value of the spec: every byte a spec word may hold (no control
# character, space or '#'), quotes, backslashes, '$' and '`' among them.
value=$(bytes 33 255 35 127)
printf 'command = coll\nplatform = p.xml\nop = allreduce\nbytes = %s\n' "$value" > "$W/s.spec"
# From the directory itself: p.xml becomes its absolute path.
if (cd "$W" && "$D" sweep s.spec --out "$W/out" --dlasim "$W/fake dlasim" --no-check) > "$TMP/sw.out" 2>&1; then
	ok "sweep in a directory of every byte"
else
	not_ok "sweep in a directory of every byte" "$(head -c 300 "$TMP/sw.out")"
fi
printf '%s\0' coll --platform "$W/p.xml" --op allreduce --bytes "$value" --json > "$TMP/expected"
check_argv() {
	if cmp -s "$TMP/expected" "$1"; then ok "$2"
	else not_ok "$2" "argv differs: $(od -c "$1" 2>&1 | head -n 3 | tr '\n' ' ')"; fi
}
(cd "$TMP" && sh "$W/out/runs.txt") > "$TMP/sh.out" 2>&1
check_argv "$W/out/runs/0001.json" "sh runs.txt runs dlasim with the argv meant"
holds "sh runs.txt printed nothing" "$(wc -c < "$TMP/sh.out") == 0"
rm -f "$W/out/runs/0001.json"
if command -v parallel > /dev/null; then
	(cd "$TMP" && parallel --will-cite < "$W/out/runs.txt") > "$TMP/par.out" 2>&1
	check_argv "$W/out/runs/0001.json" "parallel < runs.txt: the same argv"
	rm -f "$W/out/runs/0001.json"
fi
(cd "$TMP" && SLURM_ARRAY_JOB_ID=7 SLURM_ARRAY_TASK_ID=1 sh "$W/out/sweep.sbatch") > "$TMP/sb.out" 2>&1
check_argv "$W/out/runs/0001.json" "sweep.sbatch's task 1: the same argv"
holds "the task's output goes to DIR/slurm/7_1.out" "$(ls "$W/out/slurm" 2>/dev/null | grep -c '^7_1.out$') == 1"
holds "nothing else ran: the directories hold what the test made" \
	"$(find "$TMP" -newer "$W/s.spec" -type f | grep -v -e '/out/' -e '\.out$' -e /expected | wc -l) == 0"

# The attack's cases: a quote in the directory of a spec value, a newline
# in --out, in --dlasim, in the directory of a spec value.
Q="$TMP/a';touch PWNED2;'b"
mkdir -p "$Q" && cp "$SRC/platforms/dc-8.xml" "$Q/dc-8.xml" && cp "$W/fake dlasim" "$TMP/fake"
printf 'command = coll\nplatform = dc-8.xml\nop = allreduce\nbytes = 1MB\n' > "$Q/q.spec"
(cd "$Q" && "$D" sweep q.spec --out "$TMP/qout" --dlasim "$TMP/fake" --no-check) > /dev/null 2>&1
(cd "$TMP" && sh "$TMP/qout/runs.txt") > /dev/null 2>&1
holds "a quote in a value's directory runs nothing else" "$(find "$TMP" -name 'PWNED*' | wc -l) == 0"
printf '%s\0' coll --platform "$Q/dc-8.xml" --op allreduce --bytes 1MB --json > "$TMP/expected"
check_argv "$TMP/qout/runs/0001.json" "a quote in a value's directory: the argv meant"
nl='
'
cd "$TMP" || exit 1
expect_error out-newline "^dlasim: sweep: --out: the directory holds a newline" \
	"$D" sweep "$Q/q.spec" --out "x${nl}touch PWNED${nl}"
holds "--out with a newline: nothing made" "$(ls "$TMP" | grep -c '^x') == 0"
expect_error dlasim-newline "^dlasim: sweep: --dlasim: the path holds a newline" \
	"$D" sweep "$Q/q.spec" --out "$TMP/o2" --dlasim "/bin/x${nl}touch PWNED"
N="$TMP/n${nl}touch PWNED3${nl}"
mkdir -p "$N" && cp "$SRC/platforms/dc-8.xml" "$N/dc-8.xml" && cp "$Q/q.spec" "$N/q.spec"
(cd "$N" && expect_error value-newline "q.spec:2: 'dc-8.xml' names a file whose path holds a newline" \
	"$D" sweep q.spec --out "$TMP/o3")
holds "no PWNED anywhere" "$(find "$TMP" -name 'PWNED*' | wc -l) == 0"
# A platform.* value names a file of DIR/platforms: no '/' in it.
printf 'command = coll\nplatform.topology = ../../x\nop = allreduce\nbytes = 1MB\n' > "$TMP/g.spec"
expect_error generator-slash "g.spec:2: '../../x': a platform.\* value names a file in DIR/platforms" \
	"$D" sweep "$TMP/g.spec" --out "$TMP/o4"
