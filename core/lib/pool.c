/* SPDX-License-Identifier: MIT */
#include "pool.h"

#include <stdlib.h>
#include <string.h>

#include "grow.h"

#define POOL_CHUNK 256		/* objects a chunk */

void dl_pool_init(struct dl_pool *p, size_t size)
{
	/* a given-back object holds the link to the next one */
	if (size < sizeof(void *))
		size = sizeof(void *);
	size = (size + sizeof(void *) - 1) / sizeof(void *) * sizeof(void *);
	*p = (struct dl_pool){ .size = size };
}

/* A chunk more, its objects but the first given back; that one, or NULL. */
static void *grow_pool(struct dl_pool *p)
{
	char *chunk;

	if (dl_grow((void **)&p->chunks, &p->cap, p->nchunks + 1, sizeof(*p->chunks)))
		return NULL;
	chunk = calloc(POOL_CHUNK, p->size);
	if (!chunk)
		return NULL;
	p->chunks[p->nchunks++] = chunk;
	for (int i = POOL_CHUNK - 1; i > 0; i--)
		dl_pool_put(p, chunk + (size_t)i * p->size);
	return chunk;
}

void *dl_pool_get(struct dl_pool *p)
{
	void *obj = p->free;

	if (!obj)
		return grow_pool(p);
	memcpy(&p->free, obj, sizeof(void *));
	return obj;
}

void dl_pool_put(struct dl_pool *p, void *obj)
{
	memcpy(obj, &p->free, sizeof(void *));
	p->free = obj;
}

void dl_pool_free(struct dl_pool *p)
{
	for (int i = 0; i < p->nchunks; i++)
		free(p->chunks[i]);
	free(p->chunks);
	dl_pool_init(p, p->size);
}
