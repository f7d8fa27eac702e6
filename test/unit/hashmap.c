/* SPDX-License-Identifier: MIT */
/* The string and index-pair maps on their shared table. */
#include <limits.h>
#include <stdio.h>

#include "check.h"

#include "lib/pairmap.h"
#include "lib/strmap.h"

static void string_map(void)
{
	struct dl_strmap m;
	static char keys[1000][16];
	char again[16];

	dl_strmap_init(&m);
	CHECK(dl_strmap_get(&m, "absent") == -1);
	for (int i = 0; i < 1000; i++) {
		snprintf(keys[i], sizeof(keys[i]), "k%d", i);
		CHECK(dl_strmap_put(&m, keys[i], i) == 0);
	}
	for (int i = 0; i < 1000; i++)
		CHECK(dl_strmap_get(&m, keys[i]) == i);
	CHECK(dl_strmap_put(&m, keys[7], 70) == 0);
	CHECK(dl_strmap_get(&m, "k7") == 70);
	/* A key is its characters, not where they are. */
	snprintf(again, sizeof(again), "k%d", 999);
	CHECK(dl_strmap_get(&m, again) == 999);
	CHECK(dl_strmap_put(&m, again, 9) == 0);
	CHECK(dl_strmap_get(&m, keys[999]) == 9);
	CHECK(dl_strmap_get(&m, "k1000") == -1);
	CHECK(dl_strmap_get(&m, "") == -1);
	CHECK(m.map.len == 1000);
	dl_strmap_free(&m);
	CHECK(dl_strmap_get(&m, "k1") == -1);
}

/* A short list looked up by its characters; a NULL key is absent. */
static void string_index(void)
{
	static const char *const list[] = { "dc", "hc", "mc", "hc" };
	char mc[] = "mc";

	CHECK(dl_str_index(list, 4, "dc") == 0);
	CHECK(dl_str_index(list, 4, mc) == 2);
	CHECK(dl_str_index(list, 4, "hc") == 1);	/* the first of two */
	CHECK(dl_str_index(list, 2, "mc") == -1);	/* beyond n */
	CHECK(dl_str_index(list, 4, "m") == -1);
	CHECK(dl_str_index(list, 4, NULL) == -1);
}

/* Every (a, b) of a grid against a plain array, through several growths;
 * (a, b) and (b, a) are different keys. */
static void pair_map(void)
{
	enum { N = 60 };
	struct dl_pairmap m;
	int ok = 1;

	dl_pairmap_init(&m);
	CHECK(dl_pairmap_get(&m, 0, 0) == -1);
	for (int a = 0; a < N; a++)
		for (int b = 0; b < N; b++)
			if ((a + 2 * b) % 3 && dl_pairmap_put(&m, a, b, a * N + b) != 0)
				ok = 0;
	CHECK(ok);
	for (int a = 0; a < N; a++)
		for (int b = 0; b < N; b++)
			if (dl_pairmap_get(&m, a, b) != ((a + 2 * b) % 3 ? a * N + b : -1))
				ok = 0;
	CHECK(ok);
	CHECK(dl_pairmap_get(&m, 1, 0) == N);
	CHECK(dl_pairmap_get(&m, 0, 1) == 1);
	CHECK(dl_pairmap_put(&m, 1, 0, 5) == 0);
	CHECK(dl_pairmap_get(&m, 1, 0) == 5);
	CHECK(dl_pairmap_get(&m, 0, 1) == 1);
	/* The largest indices, and the key (0, 0), whose packing is 1. */
	CHECK(dl_pairmap_put(&m, INT_MAX, INT_MAX, 11) == 0);
	CHECK(dl_pairmap_put(&m, 0, 0, 12) == 0);
	CHECK(dl_pairmap_get(&m, INT_MAX, INT_MAX) == 11);
	CHECK(dl_pairmap_get(&m, INT_MAX, INT_MAX - 1) == -1);
	CHECK(dl_pairmap_get(&m, 0, 0) == 12);
	CHECK(m.map.len == (size_t)(N * N - N * N / 3) + 2);
	dl_pairmap_free(&m);
	CHECK(dl_pairmap_get(&m, 1, 0) == -1);
}

int main(void)
{
	RUN(string_map);
	RUN(string_index);
	RUN(pair_map);
	CHECK_EXIT();
}
