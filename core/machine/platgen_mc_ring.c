/* SPDX-License-Identifier: MIT */
/*
 * MC-DLA ring (mc-ring): devices and memory-nodes alternating on the ring
 * (docs/platforms.md).
 */
#include "platgen.h"

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <string.h>

#include "lib/diag.h"
#include "lib/units.h"
#include "platform.h"

#include "platgen_parts.h"

static void hosts_mc_ring(struct out *o, int i)
{
	char backing[64];

	snprintf(backing, sizeof(backing), "m%d.1 m%d.0", pg_prv(o, i), i);
	pg_device(o, i, backing);
	pg_memory_half(o, i, 0);
	pg_memory_half(o, pg_prv(o, i), 1);
}

static void links_mc_ring(struct out *o, int i)
{
	char name[64];

	snprintf(name, sizeof(name), "nv-d%d-m%d", i, i);
	pg_nvlink(o, name, o->rings);
	snprintf(name, sizeof(name), "nv-m%d-d%d", pg_prv(o, i), i);
	pg_nvlink(o, name, o->rings);
	snprintf(name, sizeof(name), "dram-m%d.0", i);
	pg_link(o, name, MEMNODE_DIMM_BW / 2, DRAM_LAT, false, "dram", 1);
	snprintf(name, sizeof(name), "dram-m%d.1", pg_prv(o, i));
	pg_link(o, name, MEMNODE_DIMM_BW / 2, DRAM_LAT, false, "dram", 1);
}

static void routes_mc_ring(struct out *o, int i)
{
	char src[32], dst[32], hops[256];

	snprintf(src, sizeof(src), "d%d", i);
	snprintf(dst, sizeof(dst), "m%d.0", i);
	snprintf(hops, sizeof(hops), "nv-d%d-m%d:UP dram-m%d.0", i, i, i);
	pg_route(o, src, dst, true, hops, NULL, NULL);
	snprintf(dst, sizeof(dst), "m%d.1", pg_prv(o, i));
	snprintf(hops, sizeof(hops), "nv-m%d-d%d:DOWN dram-m%d.1", pg_prv(o, i), i, pg_prv(o, i));
	pg_route(o, src, dst, true, hops, NULL, NULL);
}

static void hop_mc_ring(struct out *o, int i, char *hops, size_t len)
{
	snprintf(hops, len, "nv-d%d-m%d:UP nv-m%d-d%d:UP", i, i, i, pg_nxt(o, i));
}

/*
 * MC-DLA(S) (Figure 7(b)): each device reaches its own memory-node mi over
 * two links; ring 0 joins the devices directly; ring 1 passes through mi on
 * every odd hop; ring 2 reuses the memory links, di -> mi -> mi+1 -> di+1.
 * Rings 1 and 2 need their own routes between the same devices, so their
 * members are port hosts of the devices (di.p1, di.p2).
 */

const struct machine pg_mc_ring = { hosts_mc_ring, links_mc_ring, routes_mc_ring, hop_mc_ring };
