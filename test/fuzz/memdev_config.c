/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: memory-device configuration files (memdev/config.c)
 * and, for those accepted, the device they describe: every address
 * decodes to fields that encode back to it, and a short request stream
 * runs to its end (a timing that stalls the controller is a hang; in
 * step_every_cycle mode, to its end or 2 x 10^6 cycles).
 */
#include "fuzz.h"

#include "memdev/memdev.h"
#include "memdev/trace.h"

/* Devices larger than this only slow the search down. */
#define MAX_FUZZ_BANKS 4096
/* step_every_cycle visits every cycle by design (a verification mode): a
 * slow device (an NVM write of 3 ms) is then a long run, not a hang; it is
 * replayed for this many cycles only. */
#define STEP_MODE_CYCLES 2000000
#define STREAM 256

struct stream {
	const struct memdev *d;
	uint64_t x;
	int left;
};

static uint64_t step(uint64_t *x)
{
	*x = *x * 6364136223846793005ULL + 1442695040888963407ULL;
	return *x;
}

/* Addresses as the device lays them out: decode anything, encode back. */
static int next_request(void *arg, struct memdev_req *r, int64_t *cycle)
{
	struct stream *s = arg;
	struct memdev_addr a, b;

	while (s->left > 0) {
		s->left--;
		memdev_decode(s->d, step(&s->x), &a);
		memset(r, 0, sizeof(*r));
		r->addr = memdev_encode(s->d, &a);
		memdev_decode(s->d, r->addr, &b);
		if (a.ch != b.ch || a.rk != b.rk || a.bg != b.bg || a.ba != b.ba ||
		    a.row != b.row || a.col != b.col)
			abort();	/* the mapping is not one to one */
		r->write = step(&s->x) & 1;
		*cycle = (int64_t)(STREAM - s->left) * 3;
		if (!memdev_check(s->d, r))
			return 1;
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct memdev_config cfg;
	struct stream s = { .x = size, .left = STREAM };
	struct memdev *d;
	char path[64];
	int64_t end;
	int fd = fuzz_file(data, size, path, sizeof(path));

	if (fd < 0)
		return 0;
	if (memdev_config_read(path, &cfg) == 0 &&
	    (long)cfg.channels * cfg.ranks * cfg.banks <= MAX_FUZZ_BANKS &&
	    (d = memdev_open(&cfg))) {
		s.d = d;
		memdev_replay(d, next_request, &s, cfg.step_every_cycle ? STEP_MODE_CYCLES : 0,
			      &end);
		memdev_close(d);
	}
	close(fd);
	return 0;
}
