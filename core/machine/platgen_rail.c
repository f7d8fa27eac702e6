/* SPDX-License-Identifier: MIT */
/*
 * The fabrics of today (docs/platforms.md, "Fabrics of today"): NVLink
 * domains of G devices, every device with all its links into the
 * domain's NVSwitch plane, scaled out over a rail-optimized fat tree of
 * one NIC per device.  The family (nvswitch, nvl72, gh200, cxl,
 * mc-nvswitch) adds each device's host side and backing store.
 *
 * Zones: root > scalable units (`suS`, the nodes under one set of rail
 * leaves) > domains (`nodeA`).  A domain routes every pair of its
 * devices over the switch plane (nv-di up, nv-dj down) and each device to
 * two routers: `gwA` over its NIC alone (to the domains of its unit: the
 * rail's leaf switch turns the packet around) and `xgwA` over its NIC and
 * its rail leaf's uplink (to other units, through the spine).  Every
 * link is declared in the root's first zone, `links`.
 */
#include "platgen.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "platgen_parts.h"

/* Domains under one set of rail leaves: half a leaf's ports go down. */
static int unit_doms(const struct dl_platgen *g)
{
	return g->radix / 2;
}

static int units(const struct dl_platgen *g)
{
	return (pg_doms(g) + unit_doms(g) - 1) / unit_doms(g);
}

static bool leaf_fatpipe(const struct dl_platgen *g)
{
	return g->oversubscription == 1;
}

static void fatpipe(struct out *o, const char *name, double bw, const char *lat)
{
	pg_fatpipe(o, name, bw, lat, "other");
}

/* Devices of domain `a` in unit `s`: rail k of the unit is the k-th
 * device of each of its domains. */
static void scale_out_links(struct out *o)
{
	const struct dl_platgen *g = o->g;
	int G = pg_dom_devices(g), nu = units(g);
	char name[64], lat[64];

	pg_lat_text(g->link_lat, lat, sizeof(lat));
	for (int i = 0; i < g->devices; i++) {
		snprintf(name, sizeof(name), "nic-d%d", i);
		pg_link(o, name, g->nic_bw, lat, true, "other", 1);
	}
	for (int s = 0; s < nu; s++) {
		int first = s * unit_doms(g), last = first + unit_doms(g);
		int doms = (last < pg_doms(g) ? last : pg_doms(g)) - first;

		/* The leaves' crossbars: switching, no cable of their own. */
		snprintf(name, sizeof(name), "xbar-su%d", s);
		fatpipe(o, name, doms * G * g->nic_bw, "0s");
		for (int k = 0; nu > 1 && k < G; k++) {
			double up = doms * g->nic_bw / g->oversubscription;

			snprintf(name, sizeof(name), "leaf-su%d-r%d", s, k);
			if (leaf_fatpipe(g))
				fatpipe(o, name, up, lat);
			else
				pg_link(o, name, up, lat, true, "other", 1);
		}
	}
	if (nu > 1)
		fatpipe(o, "core", g->devices * g->nic_bw, "0s");
}

static void domain(struct out *o, const struct machine *m, int a)
{
	const struct dl_platgen *g = o->g;
	int G = pg_dom_devices(g), lo = a * G, hi = lo + G < g->devices ? lo + G : g->devices;
	int s = a / unit_doms(g);
	bool far = units(g) > 1;
	char src[32], dst[32], hops[256];

	fprintf(o->f, "    <zone id=\"node%d\" routing=\"Full\">\n", a);
	for (int i = lo; i < hi; i++)
		m->hosts(o, i);
	fprintf(o->f, "    <router id=\"gw%d\"/>\n", a);
	if (far)
		fprintf(o->f, "    <router id=\"xgw%d\"/>\n", a);
	for (int i = lo; i < hi; i++) {
		m->routes(o, i);
		snprintf(src, sizeof(src), "d%d", i);
		for (int j = i + 1; j < hi; j++) {
			snprintf(dst, sizeof(dst), "d%d", j);
			snprintf(hops, sizeof(hops), "nv-d%d:UP nv-d%d:DOWN", i, j);
			pg_route(o, src, dst, true, hops, NULL, NULL);
		}
		snprintf(dst, sizeof(dst), "gw%d", a);
		snprintf(hops, sizeof(hops), "nic-d%d:UP", i);
		pg_route(o, src, dst, true, hops, NULL, NULL);
		if (!far)
			continue;
		snprintf(dst, sizeof(dst), "xgw%d", a);
		snprintf(hops, sizeof(hops), leaf_fatpipe(g) ? "nic-d%d:UP leaf-su%d-r%d" :
			 "nic-d%d:UP leaf-su%d-r%d:UP", i, s, i - lo);
		pg_route(o, src, dst, true, hops, NULL, NULL);
	}
	fprintf(o->f, "    </zone>\n");
}

static void unit(struct out *o, const struct machine *m, int s)
{
	int first = s * unit_doms(o->g), last = first + unit_doms(o->g);
	char src[32], dst[32], zsrc[32], zdst[32], xbar[32];

	if (last > pg_doms(o->g))
		last = pg_doms(o->g);
	snprintf(xbar, sizeof(xbar), "xbar-su%d", s);
	fprintf(o->f, "  <zone id=\"su%d\" routing=\"Full\">\n", s);
	for (int a = first; a < last; a++)
		domain(o, m, a);
	if (units(o->g) > 1)
		fprintf(o->f, "    <zone id=\"su%d-up\" routing=\"Full\">\n"
			"    <router id=\"up%d\"/>\n    </zone>\n", s, s);
	for (int a = first; a < last; a++) {
		snprintf(src, sizeof(src), "gw%d", a);
		snprintf(zsrc, sizeof(zsrc), "node%d", a);
		for (int b = a + 1; b < last; b++) {
			snprintf(dst, sizeof(dst), "gw%d", b);
			snprintf(zdst, sizeof(zdst), "node%d", b);
			pg_route(o, src, dst, true, xbar, zsrc, zdst);
		}
		if (units(o->g) == 1)
			continue;
		snprintf(src, sizeof(src), "xgw%d", a);
		snprintf(dst, sizeof(dst), "up%d", s);
		snprintf(zdst, sizeof(zdst), "su%d-up", s);
		pg_route(o, src, dst, true, xbar, zsrc, zdst);
	}
	fprintf(o->f, "  </zone>\n");
}

void pg_write_rail(struct out *o, const struct machine *m)
{
	const struct dl_platgen *g = o->g;
	char src[32], dst[32], zsrc[32], zdst[32];

	fprintf(o->f, "  <zone id=\"links\" routing=\"Full\">\n");
	for (int i = 0; i < g->devices; i++) {
		char name[32];

		snprintf(name, sizeof(name), "nv-d%d", i);
		pg_nvlink(o, name, g->links);
		m->links(o, i);
	}
	scale_out_links(o);
	fprintf(o->f, "  </zone>\n");
	for (int s = 0; s < units(g); s++)
		unit(o, m, s);
	for (int s = 0; s < units(g); s++) {
		for (int t = s + 1; t < units(g); t++) {
			snprintf(src, sizeof(src), "up%d", s);
			snprintf(dst, sizeof(dst), "up%d", t);
			snprintf(zsrc, sizeof(zsrc), "su%d", s);
			snprintf(zdst, sizeof(zdst), "su%d", t);
			pg_route(o, src, dst, true, "core", zsrc, zdst);
		}
	}
}
