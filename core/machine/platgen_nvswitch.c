/* SPDX-License-Identifier: MIT */
/*
 * NVSwitch node (nvswitch, docs/platforms.md): a DGX/HGX-style domain,
 * its devices on the NVSwitch plane, host memory over PCIe as in DC-DLA
 * (two devices per PCIe switch, four per CPU socket).
 */
#include "platgen.h"

#include <stdbool.h>
#include <stdio.h>

#include "platgen_parts.h"

static int socket_of(const struct out *o, int i)
{
	return pg_dom_share(o->g, i, DEVICES_PER_SOCKET);
}

static int pcie_switch_of(const struct out *o, int i)
{
	return pg_dom_share(o->g, i, DEVICES_PER_PCIE_SWITCH);
}

static void hosts_nvswitch(struct out *o, int i)
{
	char backing[32];

	snprintf(backing, sizeof(backing), "cpu%d", socket_of(o, i));
	pg_device(o, i, backing);
	if (pg_dom_local(o->g, i) % DEVICES_PER_SOCKET == 0)
		pg_host(o, backing, HOST_SPEED, "cpu", "dlasim.tdp", SOCKET_TDP, NULL);
}

static void links_nvswitch(struct out *o, int i)
{
	char name[64];

	snprintf(name, sizeof(name), "pcie-d%d", i);
	pg_link(o, name, o->g->pcie_bw, PCIE_LAT, true, "pcie", 1);
	if (pg_dom_local(o->g, i) % DEVICES_PER_PCIE_SWITCH == 0) {
		snprintf(name, sizeof(name), "pcie-up%d", pcie_switch_of(o, i));
		pg_link(o, name, o->g->pcie_uplink_bw > 0 ? o->g->pcie_uplink_bw : o->g->pcie_bw,
			PCIE_LAT, true, "pcie", 1);
	}
	if (pg_dom_local(o->g, i) % DEVICES_PER_SOCKET == 0) {
		snprintf(name, sizeof(name), "dram-cpu%d", socket_of(o, i));
		pg_link(o, name, o->g->cpu_mem_bw, DRAM_LAT, false, "dram", 1);
	}
}

static void routes_nvswitch(struct out *o, int i)
{
	char src[32], dst[32], hops[256];
	int s = socket_of(o, i);

	snprintf(src, sizeof(src), "d%d", i);
	snprintf(dst, sizeof(dst), "cpu%d", s);
	snprintf(hops, sizeof(hops), "pcie-d%d:UP pcie-up%d:UP dram-cpu%d", i, pcie_switch_of(o, i), s);
	pg_route(o, src, dst, true, hops, NULL, NULL);
}

const struct machine pg_nvswitch = { hosts_nvswitch, links_nvswitch, routes_nvswitch, NULL };
