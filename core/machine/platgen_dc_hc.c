/* SPDX-License-Identifier: MIT */
/*
 * DC-DLA and HC-DLA (dc, dc-gen4, hc, hc-ring): devices on PCIe behind CPU sockets,
 * their ring over NVLink (docs/platforms.md).
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

static void hosts_dc_hc(struct out *o, int i)
{
	char backing[32];

	snprintf(backing, sizeof(backing), "cpu%d", i / DEVICES_PER_SOCKET);
	pg_device(o, i, backing);
	pg_socket_hosts(o, i);
}

/* The device's PCIe link: gen3 x16, or gen4 (both directions doubled). */
static double pcie_bw(const struct out *o)
{
	if (o->g->pcie_bw > 0)
		return o->g->pcie_bw;
	return o->g->topology == DL_TOPO_DC_GEN4 ? 2 * PCIE_GEN3_BW : PCIE_GEN3_BW;
}

/* A PCIe switch's uplink to its socket: of the same generation as the
 * device links unless given (a gen4 device behind a gen3 switch). */
static double pcie_uplink_bw(const struct out *o)
{
	return o->g->pcie_uplink_bw > 0 ? o->g->pcie_uplink_bw : pcie_bw(o);
}

static double socket_mem_bw(const struct out *o)
{
	if (o->g->cpu_mem_bw > 0)
		return o->g->cpu_mem_bw;
	/* HC-DLA: enough for the four devices' links (Section IV: 4 x 3 x B). */
	if (pg_is_hc(o->g))
		return DEVICES_PER_SOCKET * o->cpu_links * o->g->link_bw;
	return XEON_SOCKET_MEM_BW;
}

/*
 * HC-DLA's device side: L - L/2 links per device (3 for L = 6).
 *
 * `hc` (the reproduction point) counts them as the paper does (Section
 * V-A: half the links, 1.5 rings): one ring whose every hop carries
 * (L - L/2) / 2 x B per direction, 37.5 GB/s.  `hc-ring` wires them: a
 * ring takes two of a device's links (one to each neighbour), so they
 * form (L - L/2) / 2 whole rings (one); an odd link left on every device
 * pairs device 2k with 2k+1, doubling every other hop, and a ring runs at
 * its slowest hop, B.
 */
static int hc_ring_hop_lanes(const struct out *o, int i)
{
	int side = o->g->links - o->cpu_links;

	return side / 2 + (side % 2 && i % 2 == 0 && pg_nxt(o, i) == i + 1);
}

static void hc_hop_link(struct out *o, const char *name, int i)
{
	char lat[64];
	int side = o->g->links - o->cpu_links;

	if (o->g->topology == DL_TOPO_HC_RING) {
		pg_nvlink(o, name, hc_ring_hop_lanes(o, i));
		return;
	}
	pg_lat_text(o->g->link_lat, lat, sizeof(lat));
	pg_link(o, name, side * o->g->link_bw / 2, lat, true, "nvlink", side % 2 ? 0 : side / 2);
}

static void links_dc_hc(struct out *o, int i)
{
	char name[64];

	snprintf(name, sizeof(name), "nv-d%d-d%d", i, pg_nxt(o, i));
	if (o->g->devices > 1 && pg_is_hc(o->g))
		hc_hop_link(o, name, i);
	else if (o->g->devices > 1)
		pg_nvlink(o, name, o->rings);
	if (i % DEVICES_PER_SOCKET == 0) {
		snprintf(name, sizeof(name), "dram-cpu%d", i / DEVICES_PER_SOCKET);
		pg_link(o, name, socket_mem_bw(o), DRAM_LAT, false, "dram", 1);
	}
	if (pg_is_hc(o->g)) {
		snprintf(name, sizeof(name), "nv-d%d-cpu%d", i, i / DEVICES_PER_SOCKET);
		pg_nvlink(o, name, o->cpu_links);
		return;
	}
	snprintf(name, sizeof(name), "pcie-d%d", i);
	pg_link(o, name, pcie_bw(o), PCIE_LAT, true, "pcie", 1);
	if (i % DEVICES_PER_PCIE_SWITCH == 0) {
		snprintf(name, sizeof(name), "pcie-up%d", i / DEVICES_PER_PCIE_SWITCH);
		pg_link(o, name, pcie_uplink_bw(o), PCIE_LAT, true, "pcie", 1);
	}
}

static void routes_dc_hc(struct out *o, int i)
{
	char src[32], dst[32], hops[256];
	int s = i / DEVICES_PER_SOCKET;

	snprintf(src, sizeof(src), "d%d", i);
	snprintf(dst, sizeof(dst), "cpu%d", s);
	if (pg_is_hc(o->g))
		snprintf(hops, sizeof(hops), "nv-d%d-cpu%d:UP dram-cpu%d", i, s, s);
	else
		snprintf(hops, sizeof(hops), "pcie-d%d:UP pcie-up%d:UP dram-cpu%d", i,
			 i / DEVICES_PER_PCIE_SWITCH, s);
	pg_route(o, src, dst, true, hops, NULL, NULL);
}

static void hop_dc_hc(struct out *o, int i, char *hops, size_t len)
{
	snprintf(hops, len, "nv-d%d-d%d:UP", i, pg_nxt(o, i));
}

/*
 * MC-DLA ring (Figure 7(c)): memory-node mi sits between di and di+1 on
 * every ring.  Each half of mi is a host of its own (its DMA engine, memory
 * controller and DIMMs serve one device exclusively): mi.0 serves di,
 * mi.1 serves di+1.  A half lives in the zone of the device it serves.
 */

const struct machine pg_dc_hc = { hosts_dc_hc, links_dc_hc, routes_dc_hc, hop_dc_hc };
