/* SPDX-License-Identifier: MIT */
/*
 * A set-associative cache of 64 B lines with LRU replacement, holding tags
 * only: the last-level cache in front of the cores' reads and the DRAM
 * cache of the redo-logging designs.
 */
#ifndef DL_NVM_CACHE_H
#define DL_NVM_CACHE_H

#include <stdbool.h>

struct nvm_cache {
	long sets;
	int ways;
	long *tag;		/* sets x ways line numbers, -1 empty */
	unsigned long *used;	/* last use (LRU) */
	unsigned long clock;
	long hits, misses;
};

/* `bytes` of `ways`-way lines of 64 B; bytes / 64 / ways sets (>= 1). */
int nvm_cache_init(struct nvm_cache *c, double bytes, int ways);
void nvm_cache_free(struct nvm_cache *c);
/* Look `line` up; true on a hit.  A miss allocates it (evicting the
 * least recently used line of its set) when `fill`. */
bool nvm_cache_access(struct nvm_cache *c, long line, bool fill);

#endif
