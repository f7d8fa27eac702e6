#!/bin/sh
# Ring all-reduce of 1 GB on generated DC-DLA platforms of N devices.
#  1. Step-by-step ring (plugin 'ring') against bench/plain_ring.c, the same
#     exchange written directly on SimGrid, in the same run: wall-time
#     ratio (target <= 1.25 at N = 1024) and peak RSS (target <= 1 GB).
#  2. The O(N) flow model (plugin 'ring_flow'): wall time (targets 0.5 s
#     at N = 1024, 2 s at N = 4096, platform loading included), peak RSS,
#     and its simulated time against the step-by-step ring's.
# Step-by-step runs stop at N = 1024 (O(N^2) transfers: about 1 minute at
# 2048 and 5 at 4096); set DLASIM_BENCH_FULL=1 to go to 4096.
: "${BUILD:=build}"
DLASIM=$BUILD/dlasim
PLAIN=$BUILD/bench/plain_ring
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

mkdir -p "$BUILD/bench"
cc -O2 bench/plain_ring.c -o "$PLAIN" $(pkg-config --cflags --libs simgrid) || exit 1

# measure OUT CMD...: wall seconds and peak RSS (KiB) of CMD into OUT.
measure() {
	out=$1; shift
	/usr/bin/time -f "%e %M" -o "$out.time" "$@" > "$out" 2> "$out.err" || { cat "$out.err"; return 1; }
}
sim_time() { sed -n 's/.*"simulated_time_s": \([0-9.e+-]*\).*/\1/p' "$1"; }

max_step=1024
[ -n "$DLASIM_BENCH_FULL" ] && max_step=4096
echo "Ring all-reduce of 1 GB, dc platforms (3 rings of 25 GB/s per hop)"
printf "%6s | %10s %10s %7s %9s | %10s %9s %9s %11s\n" N step_s plain_s ratio rss_MiB flow_s rss_MiB sim_s flow/step
for n in 8 16 32 64 128 256 512 1024 2048 4096; do
	"$DLASIM" platform --topology dc --devices $n -o "$TMP/p.xml"
	measure "$TMP/flow" "$DLASIM" coll --platform "$TMP/p.xml" --op allreduce --bytes 1GB --coll ring_flow --json || exit 1
	set -- $(cat "$TMP/flow.time"); fw=$1; frss=$2
	fsim=$(sim_time "$TMP/flow")
	if [ $n -le $max_step ]; then
		measure "$TMP/step" "$DLASIM" coll --platform "$TMP/p.xml" --op allreduce --bytes 1GB --coll ring --json || exit 1
		measure "$TMP/plain" "$PLAIN" "$TMP/p.xml" $n 3 1e9 || exit 1
		set -- $(cat "$TMP/step.time"); sw=$1; srss=$2
		set -- $(cat "$TMP/plain.time"); pw=$1
		ssim=$(sim_time "$TMP/step")
		awk -v n=$n -v sw=$sw -v pw=$pw -v srss=$srss -v fw=$fw -v frss=$frss -v fs=$fsim -v ss=$ssim -v ps="$(cat "$TMP/plain")" 'BEGIN {
			printf "%6d | %10.2f %10.2f %7.2f %9.1f | %10.2f %9.1f %9.6f %11.6f\n", n, sw, pw, (pw > 0 ? sw / pw : 0), srss / 1024, fw, frss / 1024, fs, fs / ss
			if (ps - ss > 1e-8 * ss || ss - ps > 1e-8 * ss) printf "       (plain program simulated %s s, dlasim %s s)\n", ps, ss
		}'
		[ $n -eq 1024 ] && awk -v sw=$sw -v pw=$pw -v srss=$srss 'BEGIN {
			r = sw / pw
			printf "  N = 1024 step-by-step: %.2fx the plain SimGrid program (target <= 1.25: %s), %.0f MiB (target <= 1024: %s)\n", r, r <= 1.25 ? "met" : "MISSED", srss / 1024, srss <= 1048576 ? "met" : "MISSED"
		}'
	else
		awk -v n=$n -v fw=$fw -v frss=$frss -v fs=$fsim 'BEGIN {
			printf "%6d | %10s %10s %7s %9s | %10.2f %9.1f %9.6f %11s\n", n, "-", "-", "-", "-", fw, frss / 1024, fs, "-"
		}'
	fi
	[ $n -eq 1024 ] && awk -v w=$fw 'BEGIN { printf "  N = 1024 flow model: %.2f s wall (target <= 0.5: %s)\n", w, w <= 0.5 ? "met" : "MISSED" }'
	[ $n -eq 4096 ] && awk -v w=$fw -v r=$frss 'BEGIN { printf "  N = 4096 flow model: %.2f s wall (target <= 2: %s), %.0f MiB peak RSS\n", w, w <= 2 ? "met" : "MISSED", r / 1024 }'
done
