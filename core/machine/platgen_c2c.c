/* SPDX-License-Identifier: MIT */
/*
 * Devices with a Grace CPU's memory over NVLink-C2C (gh200: one device
 * per Grace, HC-DLA's present form; nvl72: two, GB200 NVL72), on the
 * NVSwitch plane of their domain (docs/platforms.md).  The Grace is the
 * device's backing store.
 */
#include "platgen.h"

#include <stdbool.h>
#include <stdio.h>

#include "platgen_parts.h"

/* NVLink-C2C: 900 GB/s both ways, 450 per direction (GH200 datasheet). */
#define C2C_BW 450e9
#define C2C_LAT "1us"
/* Grace: up to 480 GB of LPDDR5X (GH200 datasheet). */
#define GRACE_BYTES "480000000000B"

static int per_grace(const struct out *o)
{
	return o->g->topology == DL_TOPO_NVL72 ? 2 : 1;
}

static int grace_of(const struct out *o, int i)
{
	return pg_dom_share(o->g, i, per_grace(o));
}

static void hosts_c2c(struct out *o, int i)
{
	char grace[32];

	snprintf(grace, sizeof(grace), "g%d", grace_of(o, i));
	pg_device(o, i, grace);
	if (pg_dom_local(o->g, i) % per_grace(o) == 0)
		pg_host(o, grace, HOST_SPEED, "cpu", "dlasim.capacity", GRACE_BYTES, NULL);
}

static void links_c2c(struct out *o, int i)
{
	char name[64];

	if (pg_dom_local(o->g, i) % per_grace(o))
		return;
	snprintf(name, sizeof(name), "c2c-g%d", grace_of(o, i));
	pg_link(o, name, C2C_BW, C2C_LAT, true, "nvlink", 1);
	snprintf(name, sizeof(name), "dram-g%d", grace_of(o, i));
	pg_link(o, name, o->g->cpu_mem_bw, DRAM_LAT, false, "dram", 1);
}

static void routes_c2c(struct out *o, int i)
{
	char src[32], dst[32], hops[256];
	int k = grace_of(o, i);

	snprintf(src, sizeof(src), "d%d", i);
	snprintf(dst, sizeof(dst), "g%d", k);
	snprintf(hops, sizeof(hops), "c2c-g%d:UP dram-g%d", k, k);
	pg_route(o, src, dst, true, hops, NULL, NULL);
}

const struct machine pg_gh200 = { hosts_c2c, links_c2c, routes_c2c, NULL };
const struct machine pg_nvl72 = { hosts_c2c, links_c2c, routes_c2c, NULL };
