/* SPDX-License-Identifier: MIT */
/* Arrays that grow as elements are appended. */
#include "grow.h"

#include <stdlib.h>

int dl_grow(void **v, int *cap, int need, size_t size)
{
	void *bigger;
	int ncap;

	if (need <= *cap)
		return 0;
	ncap = *cap ? *cap : 16;
	while (ncap < need)
		ncap *= 2;
	bigger = realloc(*v, (size_t)ncap * size);
	if (!bigger)
		return -1;
	*v = bigger;
	*cap = ncap;
	return 0;
}
