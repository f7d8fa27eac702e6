/* SPDX-License-Identifier: MIT */
/*
 * The generator's XML writer: hosts, links and routes as SimGrid 4.1
 * reads them, and what every machine family builds on (ring neighbours,
 * devices, sockets, memory-node halves, the DIMM options).
 */
#include "platgen.h"

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <string.h>

#include "lib/diag.h"
#include "lib/units.h"
#include "platform.h"

#include "devdesc.h"
#include "platgen_parts.h"

static const struct dimm_option dimm_options[] = {
	{ 8e9, 29 }, { 16e9, 66 }, { 32e9, 87 }, { 64e9, 102 }, { 128e9, 127 },
};

bool pg_is_hc(const struct dl_platgen *g)
{
	return g->topology == DL_TOPO_HC || g->topology == DL_TOPO_HC_RING;
}

const struct dimm_option *pg_dimm_option(double bytes)
{
	for (size_t i = 0; i < sizeof(dimm_options) / sizeof(dimm_options[0]); i++)
		if (dimm_options[i].bytes == bytes)
			return &dimm_options[i];
	return NULL;
}

/* ---- XML output ---- */

void pg_bw_text(double bps, char *buf, size_t len)
{
	if (bps >= 1e9 && bps / 1e9 == (double)(long long)(bps / 1e9))
		snprintf(buf, len, "%.0fGBps", bps / 1e9);
	else
		snprintf(buf, len, "%.17gBps", bps);
}

void pg_lat_text(double s, char *buf, size_t len)
{
	if (s == 0)
		snprintf(buf, len, "0s");
	else if (s * 1e9 == (double)(long long)(s * 1e9))
		snprintf(buf, len, "%.0fns", s * 1e9);
	else
		snprintf(buf, len, "%.17gs", s);
}

/* <host> with its role and more properties: key, value, ..., NULL. */
void pg_host(struct out *o, const char *name, const char *speed, const char *role, ...)
{
	FILE *f = o->f;
	const char *k;
	va_list ap;

	fprintf(f, "    <host id=\"%s\" speed=\"%s\">\n", name, speed);
	fprintf(f, "      <prop id=\"dlasim.role\" value=\"%s\"/>\n", role);
	va_start(ap, role);
	while ((k = va_arg(ap, const char *)))
		fprintf(f, "      <prop id=\"%s\" value=\"%s\"/>\n", k, va_arg(ap, const char *));
	va_end(ap);
	fprintf(f, "    </host>\n");
}

void pg_link(struct out *o, const char *name, double bw, const char *lat,
		 bool splitduplex, const char *cls, int lanes)
{
	char b[64];

	pg_bw_text(bw, b, sizeof(b));
	fprintf(o->f, "    <link id=\"%s\" bandwidth=\"%s\" latency=\"%s\"%s>\n", name, b, lat,
		splitduplex ? " sharing_policy=\"SPLITDUPLEX\"" : "");
	fprintf(o->f, "      <prop id=\"dlasim.class\" value=\"%s\"/>\n", cls);
	if (lanes > 1)
		fprintf(o->f, "      <prop id=\"dlasim.lanes\" value=\"%d\"/>\n", lanes);
	fprintf(o->f, "    </link>\n");
}

/* A link that bounds each flow alone: it carries at least what feeds it,
 * so it never shares (docs/platforms.md, scale-out). */
void pg_fatpipe(struct out *o, const char *name, double bw, const char *lat, const char *cls)
{
	char b[64];

	pg_bw_text(bw, b, sizeof(b));
	fprintf(o->f, "    <link id=\"%s\" bandwidth=\"%s\" latency=\"%s\" sharing_policy=\"FATPIPE\">\n"
		"      <prop id=\"dlasim.class\" value=\"%s\"/>\n    </link>\n", name, b, lat, cls);
}

void pg_nvlink(struct out *o, const char *name, int lanes)
{
	char lat[64];

	pg_lat_text(o->g->link_lat, lat, sizeof(lat));
	pg_link(o, name, lanes * o->g->link_bw, lat, true, "nvlink", lanes);
}

/*
 * A route: `hops` is a space-separated list of link names, each followed by
 * ":UP" or ":DOWN" when the link is SPLITDUPLEX.  `zone_route` gives the
 * gateways of a zoneRoute between two blocks.
 */
void pg_route(struct out *o, const char *src, const char *dst, bool sym, const char *hops,
		  const char *zsrc, const char *zdst)
{
	char copy[512], *save = NULL;

	if (zsrc)
		fprintf(o->f, "    <zoneRoute src=\"%s\" dst=\"%s\" gw_src=\"%s\" gw_dst=\"%s\"%s>",
			zsrc, zdst, src, dst, sym ? "" : " symmetrical=\"NO\"");
	else
		fprintf(o->f, "    <route src=\"%s\" dst=\"%s\"%s>", src, dst,
			sym ? "" : " symmetrical=\"NO\"");
	snprintf(copy, sizeof(copy), "%s", hops);
	for (char *t = strtok_r(copy, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
		char *dir = strchr(t, ':');

		if (dir)
			*dir++ = '\0';
		fprintf(o->f, "<link_ctn id=\"%s\"%s%s%s/>", t, dir ? " direction=\"" : "",
			dir ? dir : "", dir ? "\"" : "");
	}
	fprintf(o->f, "</%s>\n", zsrc ? "zoneRoute" : "route");
}

/* ---- the machines ---- */

bool dl_topology_is_domain(enum dl_topology t)
{
	return t >= DL_TOPO_NVSWITCH && t < DL_TOPOLOGIES;
}

/* NVLink domains of the fabrics of today: devices [A G, (A + 1) G). */
int pg_dom_devices(const struct dl_platgen *g)
{
	return g->node_devices < g->devices ? g->node_devices : g->devices;
}

int pg_dom_of(const struct dl_platgen *g, int i)
{
	return i / pg_dom_devices(g);
}

int pg_dom_local(const struct dl_platgen *g, int i)
{
	return i % pg_dom_devices(g);
}

int pg_doms(const struct dl_platgen *g)
{
	int G = pg_dom_devices(g);

	return (g->devices + G - 1) / G;
}

int pg_dom_share(const struct dl_platgen *g, int i, int per)
{
	int per_dom = (pg_dom_devices(g) + per - 1) / per;

	return pg_dom_of(g, i) * per_dom + pg_dom_local(g, i) / per;
}

int pg_dom_size(const struct dl_platgen *g, int i)
{
	int lo = i - pg_dom_local(g, i), size = pg_dom_devices(g);

	return lo + size > g->devices ? g->devices - lo : size;
}

void pg_route_store(struct out *o, int i, const char *fabric, const char *store, int s)
{
	char src[32], dst[32], hops[256];

	snprintf(src, sizeof(src), "d%d", i);
	snprintf(dst, sizeof(dst), "%s%d", store, s);
	snprintf(hops, sizeof(hops), "%s-d%d:UP %s-%s:DOWN dram-%s", fabric, i, fabric, dst, dst);
	pg_route(o, src, dst, true, hops, NULL, NULL);
}

/* Ring successor and predecessor inside the machine: the whole platform,
 * or the device's system node when scaled out. */
int pg_nxt(const struct out *o, int i)
{
	int n = o->g->nodes ? DL_NODE_DEVICES : o->g->devices;

	return i - i % n + (i % n + 1) % n;
}

int pg_prv(const struct out *o, int i)
{
	int n = o->g->nodes ? DL_NODE_DEVICES : o->g->devices;

	return i - i % n + (i % n + n - 1) % n;
}

/* Ring hops are symmetrical routes except on 2 devices, where the hop
 * back is a route of its own over other links. */
bool pg_hop_sym(const struct out *o)
{
	return o->g->nodes || o->g->devices > 2;
}

static void speed_text(double flops, char *buf, size_t len)
{
	if (flops >= 1e12 && flops / 1e12 == (double)(long long)(flops / 1e12))
		snprintf(buf, len, "%.0fTf", flops / 1e12);
	else
		snprintf(buf, len, "%.17gf", flops);
}

/* The description's fields but its TDP (written beside the role) and the
 * peak of its default type (the host's speed, so that a speed edited in
 * the file is the one that counts). */
static bool written_as_field(const char *key, const char *speed_key)
{
	return strncmp(key, DL_DEVDESC_PREFIX, strlen(DL_DEVDESC_PREFIX)) == 0 &&
	       strcmp(key, speed_key) != 0;
}

/* A device carrying --device's description (docs/devices.md). */
static void described_device(struct out *o, const char *name, const char *tdp,
			     const char *backing, const char *k, const char *node)
{
	const struct dl_props *d = o->g->device_props;
	const char *dtype = NULL;
	char speed[64], speed_key[64];

	for (int i = 0; i < d->n; i++)
		if (strcmp(d->v[i].key, DL_DEVDESC_PREFIX "dtype") == 0)
			dtype = d->v[i].value;
	snprintf(speed_key, sizeof(speed_key), DL_DEVDESC_PREFIX "peak.%s", dtype ? dtype : "fp32");
	speed_text(o->g->device_speed, speed, sizeof(speed));
	fprintf(o->f, "    <host id=\"%s\" speed=\"%s\">\n", name, speed);
	fprintf(o->f, "      <prop id=\"dlasim.role\" value=\"device\"/>\n");
	fprintf(o->f, "      <prop id=\"dlasim.tdp\" value=\"%s\"/>\n", tdp);
	if (backing)
		fprintf(o->f, "      <prop id=\"dlasim.backing\" value=\"%s\"/>\n", backing);
	if (k)
		fprintf(o->f, "      <prop id=\"%s\" value=\"%s\"/>\n", k, node);
	for (int i = 0; i < d->n; i++) {
		const char *v = d->v[i].value;
		char q = strchr(v, '"') ? '\'' : '"';

		if (written_as_field(d->v[i].key, speed_key))
			fprintf(o->f, "      <prop id=\"%s\" value=%c%s%c/>\n", d->v[i].key, q, v, q);
	}
	fprintf(o->f, "    </host>\n");
}

/* A device; scaled out, dlasim.node names its system node. */
void pg_device(struct out *o, int i, const char *backing)
{
	char name[32], tdp[64], node[32];
	const char *k = NULL;

	snprintf(name, sizeof(name), "d%d", i);
	snprintf(tdp, sizeof(tdp), "%gW", o->g->device_tdp_w);
	snprintf(node, sizeof(node), "node%d", i / DL_NODE_DEVICES);
	if (o->g->nodes)
		k = "dlasim.node";
	/* NVLink domains are system nodes when there are several. */
	if (dl_topology_is_domain(o->g->topology) && pg_doms(o->g) > 1) {
		snprintf(node, sizeof(node), "node%d", pg_dom_of(o->g, i));
		k = "dlasim.node";
	}
	if (o->g->device_props)
		described_device(o, name, tdp, backing, k, node);
	else if (backing)
		pg_host(o, name, DEVICE_SPEED, "device", "dlasim.tdp", tdp, "dlasim.backing", backing,
		     k, node, NULL);
	else
		pg_host(o, name, DEVICE_SPEED, "device", "dlasim.tdp", tdp, k, node, NULL);
}

/*
 * DC-DLA and HC-DLA: the CPU socket of device i.  A PCIe switch is no
 * host: no traffic starts or ends there, and it is its shared uplink
 * (links_dc_hc), while every host costs SimGrid a search of every zone
 * when the platform loads.
 */
void pg_socket_hosts(struct out *o, int i)
{
	char name[32];

	if (i % DEVICES_PER_SOCKET == 0) {
		snprintf(name, sizeof(name), "cpu%d", i / DEVICES_PER_SOCKET);
		pg_host(o, name, HOST_SPEED, "cpu", "dlasim.tdp", SOCKET_TDP, NULL);
	}
}

void pg_memory_half(struct out *o, int node, int half)
{
	const struct dimm_option *d = pg_dimm_option(o->g->dimm_bytes);
	char name[32], cap[64], tdp[64], node_name[32];

	snprintf(name, sizeof(name), "m%d.%d", node, half);
	snprintf(node_name, sizeof(node_name), "m%d", node);
	snprintf(cap, sizeof(cap), "%.17gB", d->bytes * DIMMS_PER_MEMNODE / 2);
	snprintf(tdp, sizeof(tdp), "%gW", d->node_tdp_w / 2);
	pg_host(o, name, HOST_SPEED, "memory", "dlasim.memory-node", node_name,
	     "dlasim.capacity", cap, "dlasim.tdp", tdp, NULL);
}
