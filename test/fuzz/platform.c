/* SPDX-License-Identifier: MIT */
/* libFuzzer target: the platform reader (machine/platform.c, xmlscan.c),
 * everything it checks before SimGrid would see the file, and the copy
 * SimGrid then reads: dlasim's properties gone, the rest as it was (same
 * elements, same lines), or the target aborts. */
#include "fuzz.h"

#include "machine/platform.h"

#include "../xml_copy_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dl_platform *p;
	char path[64], *xml;
	size_t len;
	long ours;
	int fd = fuzz_file(data, size, path, sizeof(path));

	if (fd < 0)
		return 0;
	if (dl_platform_read_bytes(&p, path, &xml, &len) == 0) {
		dl_platform_require_rings(p);
		dl_platform_free(p);
		if (!xc_drop_is_faithful(xml, len, &ours))
			abort();
		free(xml);
	}
	close(fd);
	return 0;
}
