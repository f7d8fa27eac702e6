/* SPDX-License-Identifier: MIT */
/*
 * What a platform may hold (the ranges SimGrid takes) and the properties
 * of its hosts, links and zones, looked up once the file is read.
 */
#include "platform.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/diag.h"
#include "lib/grow.h"
#include "lib/strmap.h"

#include "platform_parts.h"

/* ---- what a platform may hold ---- */

const char *dl_platform_latency_range(double s)
{
	return s <= DL_MAX_LATENCY_S ? NULL : "more than the 1 s a link may take";
}

const char *dl_platform_bandwidth_range(double Bps)
{
	return Bps >= DL_MIN_BANDWIDTH_BPS ? NULL : "less than the 1e-3 B/s a link or disk must carry";
}

const char *dl_platform_speed_range(double flops)
{
	return flops >= DL_MIN_SPEED_FLOPS ? NULL : "less than the 1 flop/s a host must compute";
}

/* dl_grow(), said when memory runs out (platform_parts.h). */
int dl_platform_grow(void **v, int *cap, int need, size_t size)
{
	return dl_grow(v, cap, need, size) ? dl_err("out of memory") : 0;
}

/* ---- properties ---- */

const char *dl_props_get(const struct dl_props *props, const char *key)
{
	for (int i = 0; i < props->n; i++)
		if (strcmp(props->v[i].key, key) == 0)
			return props->v[i].value;
	return NULL;
}

const char *dl_host_prop(const struct dl_host *h, const char *key)
{
	return dl_props_get(&h->props, key);
}

const char *dl_link_prop(const struct dl_link *l, const char *key)
{
	return dl_props_get(&l->props, key);
}

const char *dl_zone_prop(const struct dl_zone *z, const char *key)
{
	return dl_props_get(&z->props, key);
}

int dl_host_index(const struct dl_platform *p, const char *name)
{
	return dl_strmap_get(&p->host_ids, name);
}

int dl_backing_hosts(const struct dl_platform *p, int device, int *hosts, int max)
{
	const char *v = dl_host_prop(&p->hosts[device], "dlasim.backing");
	char name[256];
	int n = 0;

	while (v && *v && n < max) {
		size_t len = strcspn(v, " ");
		int h;

		if (len > 0 && len < sizeof(name)) {
			memcpy(name, v, len);
			name[len] = '\0';
			if ((h = dl_host_index(p, name)) >= 0)
				hosts[n++] = h;
		}
		v += len + strspn(v + len, " ");
	}
	return n;
}
