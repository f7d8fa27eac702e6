/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: request traces (memdev/trace.c) replayed on the DDR4
 * preset and on the NVM preset, each for at most 10^5 cycles.
 */
#include "fuzz.h"

#include "memdev/memdev.h"
#include "memdev/trace.h"

static void replay(const char *preset, const char *path)
{
	struct memdev_config cfg;
	struct memdev_trace t;
	struct memdev *d;
	int64_t end;

	if (memdev_preset(preset, &cfg) || !(d = memdev_open(&cfg)))
		abort();
	if (memdev_trace_open(&t, path, d) == 0) {
		memdev_replay(d, memdev_trace_next, &t, 100000, &end);
		memdev_trace_close(&t);
	}
	memdev_close(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64];
	int fd = fuzz_file(data, size, path, sizeof(path));

	if (fd < 0)
		return 0;
	replay("ddr4-2400-x8-2ch2rk", path);
	lseek(fd, 0, SEEK_SET);
	replay("nvm", path);
	close(fd);
	return 0;
}
