# Where a limit on the number of actors remains, one clear line instead of
# SimGrid's abort (docs/platforms.md, "Limits").
. test/lib.sh

"$DLASIM" platform --topology dc --devices 256 -o "$TMP/p.xml"
# The thread contexts of the sanitizer build: at most RLIMIT_NPROC actors.
expect_error "thread contexts beyond the system's thread limit" \
	"actors at once: the thread contexts \(DLASIM_CONTEXTS=thread\) allow 100 on this system" \
	env DLASIM_CONTEXTS=thread prlimit --nproc=100 "$DLASIM" coll --platform "$TMP/p.xml" \
	--op allreduce --bytes 1MB --coll ring_flow
# The default contexts have no guard page per stack, so more actors than
# vm.max_map_count / 2 (32,765 on a default kernel) run: 33,000 devices,
# one actor each (about 10 s).
"$DLASIM" platform --topology dc --devices 33000 -o "$TMP/big.xml"
# Under the thread contexts (the sanitizer build), whose threads also
# need memory the limits above do not show, the same run with a thread
# limit of 16,000 is refused in one line when it reaches it.
if [ "$DLASIM_CONTEXTS" = thread ]; then
	expect_error "33,000 actors as threads are refused in one line" \
		"16001 actors at once: the thread contexts" \
		prlimit --nproc=16000 "$DLASIM" coll --platform "$TMP/big.xml" --op allgather --bytes 1MB --coll ring_flow
else
	expect_ok "33,000 actors (more than vm.max_map_count / 2)" \
		"$DLASIM" coll --platform "$TMP/big.xml" --op allgather --bytes 1MB --coll ring_flow
fi

# Memory that runs out (an address-space limit, as `ulimit -v` sets) is
# one line and status 1 wherever it happens: in libxml2 while dlasim reads
# the platform, in SimGrid's C++ allocations while it loads it, or at an
# actor's stack (16,384 actors of 256 KiB need 4 GiB of address space).
# AddressSanitizer reserves terabytes of address space for its shadow, so
# the sanitizer build cannot run under such a limit at all.
if [ -z "$DLASIM_SANITIZE" ]; then
	"$DLASIM" platform --topology dc --devices 16384 -o "$TMP/p16k.xml"
	for mb in 200 300 400 450 600; do
		expect_error "out of memory at a $mb MB address-space limit" "^dlasim: .*out of memory" \
			prlimit --as=$((mb * 1048576)) "$DLASIM" coll --platform "$TMP/p16k.xml" \
			--op allreduce --bytes 1GB --coll ring_flow
	done
	expect_error "no room for actors' stacks at 2 GB" \
		"^dlasim: out of memory: no room for the 256 KiB stack of actor" \
		prlimit --as=$((2048 * 1048576)) "$DLASIM" coll --platform "$TMP/p16k.xml" \
		--op allreduce --bytes 1GB --coll ring_flow
fi
