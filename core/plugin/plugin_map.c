/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include "plugin_map.h"

#include <link.h>
#include <stddef.h>

struct mapping {
	const struct dl_plugin *p;	/* NULL: a free slot */
	unsigned long lo, hi;
};

static struct mapping maps[DL_PLUGIN_MAP_MAX];

/* The loaded object holding r->lo: its lowest and highest address. */
static int find_object(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct mapping *r = arg;
	unsigned long lo = ~0UL, hi = 0;

	(void)size;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

		if (ph->p_type != PT_LOAD)
			continue;
		if (info->dlpi_addr + ph->p_vaddr < lo)
			lo = info->dlpi_addr + ph->p_vaddr;
		if (info->dlpi_addr + ph->p_vaddr + ph->p_memsz > hi)
			hi = info->dlpi_addr + ph->p_vaddr + ph->p_memsz;
	}
	if (r->lo < lo || r->lo >= hi)
		return 0;
	r->lo = lo;
	r->hi = hi;
	return 1;
}

void dl_plugin_map_add(const struct dl_plugin *p, const void *inside)
{
	struct mapping m = { .lo = (unsigned long)inside };

	if (!dl_iterate_phdr(find_object, &m))
		return;
	for (int i = 0; i < DL_PLUGIN_MAP_MAX; i++) {
		if (!maps[i].p) {
			maps[i].lo = m.lo;
			maps[i].hi = m.hi;
			maps[i].p = p;	/* last: the slot is whole once it counts */
			return;
		}
	}
}

void dl_plugin_map_remove(const struct dl_plugin *p)
{
	for (int i = 0; i < DL_PLUGIN_MAP_MAX; i++)
		if (maps[i].p == p)
			maps[i].p = NULL;
}

const struct dl_plugin *dl_plugin_at(const void *pc)
{
	unsigned long a = (unsigned long)pc;

	for (int i = 0; i < DL_PLUGIN_MAP_MAX; i++)
		if (maps[i].p && a >= maps[i].lo && a < maps[i].hi)
			return maps[i].p;
	return NULL;
}
