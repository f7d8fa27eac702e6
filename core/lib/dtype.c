/* SPDX-License-Identifier: MIT */
#include "dtype.h"

#include <string.h>

static const char *const names[DL_DTYPES] = { "fp32", "bf16", "fp16", "fp8" };
static const double bytes[DL_DTYPES] = { 4, 2, 2, 1 };

const char *dl_dtype_name(enum dl_dtype t)
{
	return (unsigned)t < DL_DTYPES ? names[t] : "?";
}

int dl_dtype_parse(const char *s, enum dl_dtype *t)
{
	for (int i = 0; s && i < DL_DTYPES; i++) {
		if (strcmp(s, names[i]) == 0) {
			*t = (enum dl_dtype)i;
			return 0;
		}
	}
	return -1;
}

double dl_dtype_bytes(enum dl_dtype t)
{
	return bytes[t];
}
