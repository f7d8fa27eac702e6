/* SPDX-License-Identifier: MIT */
#include "cache.h"

#include <stdlib.h>

#include "lib/diag.h"

int nvm_cache_init(struct nvm_cache *c, double bytes, int ways)
{
	long lines = (long)(bytes / 64);

	*c = (struct nvm_cache){ .ways = ways };
	c->sets = ways > 0 ? lines / ways : 0;
	if (c->sets < 1)
		return dl_err("a cache of %g bytes cannot have %d ways of 64 B lines", bytes, ways);
	c->tag = malloc((size_t)(c->sets * ways) * sizeof(*c->tag));
	c->used = calloc((size_t)(c->sets * ways), sizeof(*c->used));
	if (!c->tag || !c->used) {
		nvm_cache_free(c);
		return dl_err("out of memory");
	}
	for (long i = 0; i < c->sets * ways; i++)
		c->tag[i] = -1;
	return 0;
}

void nvm_cache_free(struct nvm_cache *c)
{
	free(c->tag);
	free(c->used);
	c->tag = NULL;
	c->used = NULL;
}

bool nvm_cache_access(struct nvm_cache *c, long line, bool fill)
{
	/* Lines of one page spread over consecutive sets. */
	long set = (long)((unsigned long)line % (unsigned long)c->sets);
	long *tag = c->tag + set * c->ways;
	unsigned long *used = c->used + set * c->ways;
	int victim = 0;

	c->clock++;
	for (int w = 0; w < c->ways; w++) {
		if (tag[w] == line) {
			used[w] = c->clock;
			c->hits++;
			return true;
		}
		if (used[w] < used[victim])
			victim = w;
	}
	c->misses++;
	if (fill) {
		tag[victim] = line;
		used[victim] = c->clock;
	}
	return false;
}
