/* SPDX-License-Identifier: MIT */
/* libFuzzer target: the platform reader (kernel/platform.c, xmlscan.c),
 * everything it checks before SimGrid would see the file. */
#include "fuzz.h"

#include "kernel/platform.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dl_platform *p;
	char path[64];
	int fd = fuzz_file(data, size, path, sizeof(path));

	if (fd < 0)
		return 0;
	if (dl_platform_read(&p, path) == 0) {
		dl_platform_require_rings(p);
		dl_platform_free(p);
	}
	close(fd);
	return 0;
}
