/* SPDX-License-Identifier: MIT */
/* libFuzzer target: Chakra execution traces (mcdla/chakra.c), one .et
 * file decoded with protobuf-c and checked whole for an 8-device machine
 * (the collectives and messages are checked against the device count). */
#include "fuzz.h"

#include "mcdla/chakra.h"

#define FUZZ_DEVICES 8

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mc_et *et = NULL;
	char path[64];
	int fd = fuzz_file(data, size, path, sizeof(path));

	if (fd < 0)
		return 0;
	if (mc_et_read(&et, path, FUZZ_DEVICES) == 0)
		mc_et_free(et);
	close(fd);
	return 0;
}
