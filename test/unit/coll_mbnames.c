/* SPDX-License-Identifier: MIT */
/* Mailbox names of collective calls: formatted by hand (core/coll/mbnames.h),
 * checked against printf's reading of DL_MBNAME_FORMAT. */
#include "check.h"

#include <limits.h>
#include <stdlib.h>

#include "coll/mbnames.h"

static void same_as_printf(unsigned name, int rank, int channel, int tag)
{
	struct dl_mbplace at = { rank, channel, tag };
	char mine[DL_MBNAME_MAX], ref[DL_MBNAME_MAX];

	snprintf(ref, sizeof(ref), DL_MBNAME_FORMAT, name, rank, channel, tag);
	CHECK_STR(dl_mbname(mine, name, &at), ref);
}

static void names_as_printf(void)
{
	static const int ints[] = { 0, 1, 9, 10, 99, 100, 65535, 65536, -1, -10,
				    INT_MAX, INT_MIN, INT_MIN + 1 };
	static const unsigned names[] = { 0, 7, 10, 4096, UINT_MAX };
	int n = sizeof(ints) / sizeof(ints[0]);

	for (unsigned k = 0; k < sizeof(names) / sizeof(names[0]); k++)
		for (int i = 0; i < n; i++)
			same_as_printf(names[k], ints[i], ints[(i + 3) % n], ints[(i + 7) % n]);
	srand(1);
	for (int i = 0; i < 10000; i++)
		same_as_printf((unsigned)rand() * 2u, rand() - RAND_MAX / 2, rand() % 4096,
			       rand() - RAND_MAX / 2);
}

/* The longest name fits with its terminating byte. */
static void longest_fits(void)
{
	struct dl_mbplace at = { INT_MIN, INT_MIN, INT_MIN };
	char buf[DL_MBNAME_MAX];

	CHECK(strlen(dl_mbname(buf, UINT_MAX, &at)) < DL_MBNAME_MAX);
}

int main(void)
{
	RUN(names_as_printf);
	RUN(longest_fits);
	CHECK_EXIT();
}
