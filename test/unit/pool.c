/* SPDX-License-Identifier: MIT */
/* The object pool: distinct, whole objects; given-back ones taken again
 * before any new memory; everything freed at once. */
#include "check.h"

#include <stdint.h>
#include <stdlib.h>

#include "lib/pool.h"

struct obj {
	double x;
	char name[13];
};

/* 600 objects at once (three chunks), each written whole: under the
 * sanitizer build an overlap or an overrun is a report. */
static void objects_distinct(void)
{
	enum { N = 600 };
	struct dl_pool p;
	struct obj *o[N];

	dl_pool_init(&p, sizeof(struct obj));
	for (int i = 0; i < N; i++) {
		o[i] = dl_pool_get(&p);
		CHECK(o[i] && (uintptr_t)o[i] % _Alignof(struct obj) == 0);
		memset(o[i], i & 0xff, sizeof(*o[i]));
		o[i]->x = i;
	}
	for (int i = 0; i < N; i++)
		CHECK(o[i]->x == i && o[i]->name[12] == (char)(i & 0xff));
	CHECK(p.nchunks == (N + 255) / 256);
	dl_pool_free(&p);
	CHECK(p.nchunks == 0 && !p.free);
}

/* Memory follows the most taken at a time: taking and giving back a
 * million times, 10 at a time, never asks for a second chunk. */
static void given_back_reused(void)
{
	struct dl_pool p;
	void *o[10];

	dl_pool_init(&p, sizeof(struct obj));
	for (int round = 0; round < 100000; round++) {
		for (int i = 0; i < 10; i++)
			CHECK(o[i] = dl_pool_get(&p));
		for (int i = 0; i < 10; i++)
			dl_pool_put(&p, o[i]);
	}
	CHECK(p.nchunks == 1);
	/* the last given back is the next taken */
	CHECK(dl_pool_get(&p) == o[9]);
	dl_pool_free(&p);
}

/* Objects smaller than the link a given-back one holds. */
static void small_objects(void)
{
	struct dl_pool p;
	char *a, *b;

	dl_pool_init(&p, 1);
	CHECK(p.size == sizeof(void *));
	a = dl_pool_get(&p);
	b = dl_pool_get(&p);
	CHECK(a && b && (a + sizeof(void *) <= b || b + sizeof(void *) <= a));
	dl_pool_free(&p);
}

int main(void)
{
	RUN(objects_distinct);
	RUN(given_back_reused);
	RUN(small_objects);
	CHECK_EXIT();
}
