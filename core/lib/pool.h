/* SPDX-License-Identifier: MIT */
/*
 * Objects of one size, taken and given back in any order and freed all at
 * once: memory follows the most ever taken at a time, not how many were
 * taken in all (the requests in flight of a memory device's callers).
 */
#ifndef DL_POOL_H
#define DL_POOL_H

#include <stddef.h>

struct dl_pool {
	size_t size;		/* of an object */
	void *free;		/* given back, linked through their first bytes */
	void **chunks;		/* what was allocated, in chunks of objects */
	int nchunks, cap;
};

/* An empty pool of objects of `size` bytes. */
void dl_pool_init(struct dl_pool *p, size_t size);
/* An object, its contents undefined; NULL when memory runs out, without a
 * message. */
void *dl_pool_get(struct dl_pool *p);
void dl_pool_put(struct dl_pool *p, void *obj);
/* Free every object, taken or not; the pool is empty again. */
void dl_pool_free(struct dl_pool *p);

#endif
