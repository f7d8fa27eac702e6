/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
/*
 * Reading a platform file.  SimGrid aborts (with a backtrace) on anything it
 * cannot parse, so every rule of the SimGrid 4.1 format that dlasim relies on
 * is checked here first and reported as file:line.  The subset accepted is
 * documented in docs/platforms.md.
 */
#include "platform.h"

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <simgrid/host.h>
#include <simgrid/link.h>

#include "cluster.h"
#include "lib/diag.h"
#include "lib/units.h"
#include "platform_parts.h"
#include "xmlscan.h"

struct reader {
	struct dl_platform *p;
	int capnps, caproutes;
};

static int fail(struct reader *r, xmlNode *n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct reader *r, xmlNode *n, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return dl_err("%s:%ld: %s", r->p->file, n ? xmlGetLineNo(n) : 0L, msg);
}

static bool is_elem(xmlNode *n, const char *name)
{
	return n->type == XML_ELEMENT_NODE && strcmp((const char *)n->name, name) == 0;
}

/* Attribute text without allocation; NULL when absent. */
static const char *attr(xmlNode *n, const char *name)
{
	for (xmlAttr *a = n->properties; a; a = a->next)
		if (strcmp((const char *)a->name, name) == 0)
			return a->children && a->children->content ?
			       (const char *)a->children->content : "";
	return NULL;
}

static int check_attrs(struct reader *r, xmlNode *n, const char *const *allowed,
		       const char *const *required)
{
	for (xmlAttr *a = n->properties; a; a = a->next) {
		bool ok = false;

		for (const char *const *k = allowed; *k && !ok; k++)
			ok = strcmp((const char *)a->name, *k) == 0;
		if (!ok)
			return fail(r, n, "<%s>: unsupported attribute '%s'",
				    n->name, a->name);
	}
	for (const char *const *k = required; *k; k++)
		if (!attr(n, *k) || !*attr(n, *k))
			return fail(r, n, "<%s>: missing attribute '%s'", n->name, *k);
	return 0;
}

/* ---- properties ---- */

static int read_prop(struct reader *r, xmlNode *n, struct dl_props *props, int *cap)
{
	static const char *const allowed[] = { "id", "value", NULL };
	static const char *const required[] = { "id", NULL };
	struct dl_prop *pr;

	if (check_attrs(r, n, allowed, required))
		return -1;
	if (!attr(n, "value"))
		return fail(r, n, "<prop id=\"%s\">: missing attribute 'value'", attr(n, "id"));
	for (int i = 0; i < props->n; i++)
		if (strcmp(props->v[i].key, attr(n, "id")) == 0)
			return fail(r, n, "property '%s' given twice", attr(n, "id"));
	if (dl_platform_grow((void **)&props->v, cap, props->n + 1, sizeof(*props->v)))
		return -1;
	pr = &props->v[props->n];
	pr->key = strdup(attr(n, "id"));
	pr->value = strdup(attr(n, "value"));
	if (!pr->key || !pr->value) {
		free(pr->key);
		free(pr->value);
		return dl_err("out of memory");
	}
	props->n++;
	return 0;
}

static void free_props(struct dl_props *props)
{
	for (int i = 0; i < props->n; i++) {
		free(props->v[i].key);
		free(props->v[i].value);
	}
	free(props->v);
	props->v = NULL;
	props->n = 0;
}


/* ---- netpoints (hosts, routers, zones share one namespace) ---- */

/* A host, router or zone `name` declared in `zone`; `self` is its index
 * in hosts[] or zones[] (-1 for a router).  Returns the netpoint or -1. */
static int add_netpoint(struct reader *r, xmlNode *n, const char *name,
			enum dl_np_kind kind, int zone, int self)
{
	struct dl_platform *p = r->p;
	struct dl_netpoint *np;

	if (dl_strmap_get(&p->np_ids, name) >= 0)
		return fail(r, n, "'%s' is already the name of a host, router or zone", name);
	if (dl_platform_grow((void **)&p->nps, &r->capnps, p->nnps + 1, sizeof(*p->nps)))
		return -1;
	np = &p->nps[p->nnps];
	np->name = strdup(name);
	if (!np->name)
		return dl_err("out of memory");
	np->kind = kind;
	np->zone = zone;
	np->self = self;
	np->first_route = -1;
	if (dl_strmap_put(&p->np_ids, np->name, p->nnps))
		return dl_err("out of memory");
	return p->nnps++;
}

/* Netpoint called `name` if it is of `kind` (hosts and routers for
 * DL_NP_ROUTER), else -1. */
static int netpoint(const struct dl_platform *p, const char *name, enum dl_np_kind kind)
{
	int i = dl_strmap_get(&p->np_ids, name);

	if (i < 0)
		return -1;
	if (kind == DL_NP_ROUTER)
		return p->nps[i].kind == DL_NP_ZONE ? -1 : i;
	return p->nps[i].kind == kind ? i : -1;
}

static bool zone_within(const struct dl_platform *p, int zone, int ancestor)
{
	for (; zone >= 0; zone = p->zones[zone].parent)
		if (zone == ancestor)
			return true;
	return false;
}

/* ---- elements ---- */

static int read_children_props(struct reader *r, xmlNode *n, struct dl_props *props,
			       const char *const *other_children)
{
	int cap = 0;

	for (xmlNode *c = n->children; c; c = c->next) {
		bool ok = false;

		if (c->type != XML_ELEMENT_NODE)
			continue;
		if (is_elem(c, "prop")) {
			if (read_prop(r, c, props, &cap))
				return -1;
			continue;
		}
		for (const char *const *k = other_children; k && *k && !ok; k++)
			ok = is_elem(c, *k);
		if (!ok)
			return fail(r, c, "<%s> is not allowed inside <%s>", c->name, n->name);
	}
	return 0;
}

static int read_disk(struct reader *r, xmlNode *n)
{
	static const char *const allowed[] = { "id", "read_bw", "write_bw", NULL };
	double v;
	const char *why;
	struct dl_props dummy = { 0 };
	int ret;

	if (check_attrs(r, n, allowed, allowed))
		return -1;
	if ((why = dl_parse_sg_bandwidth(attr(n, "read_bw"), &v)) ||
	    (why = dl_platform_bandwidth_range(v)))
		return fail(r, n, "disk '%s': read_bw '%s': %s", attr(n, "id"), attr(n, "read_bw"), why);
	if ((why = dl_parse_sg_bandwidth(attr(n, "write_bw"), &v)) ||
	    (why = dl_platform_bandwidth_range(v)))
		return fail(r, n, "disk '%s': write_bw '%s': %s", attr(n, "id"), attr(n, "write_bw"), why);
	ret = read_children_props(r, n, &dummy, NULL);
	free_props(&dummy);
	return ret;
}

static int read_host(struct reader *r, xmlNode *n, int zone, int *cap)
{
	static const char *const allowed[] = { "id", "speed", "core", NULL };
	static const char *const required[] = { "id", "speed", NULL };
	static const char *const children[] = { "disk", NULL };
	struct dl_platform *p = r->p;
	struct dl_host *h;
	const char *why;
	long cores;

	if (check_attrs(r, n, allowed, required))
		return -1;
	if (dl_platform_grow((void **)&p->hosts, cap, p->nhosts + 1, sizeof(*p->hosts)))
		return -1;
	h = &p->hosts[p->nhosts];
	memset(h, 0, sizeof(*h));
	h->line = xmlGetLineNo(n);
	h->zone = zone;
	h->rank = -1;
	h->device = -1;
	h->node = -1;
	h->name = strdup(attr(n, "id"));
	if (!h->name)
		return dl_err("out of memory");
	p->nhosts++;	/* from here on freed with the platform */
	if ((why = dl_parse_sg_speed(attr(n, "speed"), &h->speed)) ||
	    (why = dl_platform_speed_range(h->speed)))
		return fail(r, n, "host '%s': speed '%s': %s (e.g. \"1Gf\")",
			    h->name, attr(n, "speed"), why);
	if (attr(n, "core") && (why = dl_parse_int(attr(n, "core"), 1, 1 << 20, &cores)))
		return fail(r, n, "host '%s': core '%s': %s", h->name, attr(n, "core"), why);
	h->np = add_netpoint(r, n, h->name, DL_NP_HOST, zone, p->nhosts - 1);
	if (h->np < 0 || dl_strmap_put(&p->host_ids, h->name, p->nhosts - 1))
		return -1;
	if (read_children_props(r, n, &h->props, children))
		return -1;
	for (xmlNode *c = n->children; c; c = c->next)
		if (is_elem(c, "disk") && read_disk(r, c))
			return -1;
	return 0;
}

static int read_link(struct reader *r, xmlNode *n, int *cap)
{
	static const char *const allowed[] = { "id", "bandwidth", "latency", "sharing_policy", NULL };
	static const char *const required[] = { "id", "bandwidth", NULL };
	struct dl_platform *p = r->p;
	struct dl_link *l;
	const char *why, *sp, *v;
	long lanes;

	if (check_attrs(r, n, allowed, required))
		return -1;
	/* SimGrid 3.32 reads a missing latency as an empty number. */
	if (!attr(n, "latency"))
		return fail(r, n, "link '%s': missing attribute 'latency' (SimGrid needs one; latency=\"0\" for none)",
			    attr(n, "id"));
	if (dl_strmap_get(&p->link_ids, attr(n, "id")) >= 0)
		return fail(r, n, "link '%s' is declared twice", attr(n, "id"));
	if (dl_platform_grow((void **)&p->links, cap, p->nlinks + 1, sizeof(*p->links)))
		return -1;
	l = &p->links[p->nlinks];
	memset(l, 0, sizeof(*l));
	l->line = xmlGetLineNo(n);
	l->lanes = 1;
	l->name = strdup(attr(n, "id"));
	if (!l->name)
		return dl_err("out of memory");
	p->nlinks++;
	if (dl_strmap_put(&p->link_ids, l->name, p->nlinks - 1))
		return dl_err("out of memory");
	if ((why = dl_parse_sg_bandwidth(attr(n, "bandwidth"), &l->bandwidth)) ||
	    (why = dl_platform_bandwidth_range(l->bandwidth)))
		return fail(r, n, "link '%s': bandwidth '%s': %s (e.g. \"25GBps\")",
			    l->name, attr(n, "bandwidth"), why);
	if ((why = dl_parse_sg_time(attr(n, "latency"), &l->latency)) ||
	    (why = dl_platform_latency_range(l->latency)))
		return fail(r, n, "link '%s': latency '%s': %s (e.g. \"1us\")",
			    l->name, attr(n, "latency"), why);
	sp = attr(n, "sharing_policy");
	if (!sp || strcmp(sp, "SHARED") == 0)
		l->sharing = DL_SHARED;
	else if (strcmp(sp, "SPLITDUPLEX") == 0)
		l->sharing = DL_SPLITDUPLEX;
	else if (strcmp(sp, "FATPIPE") == 0)
		l->sharing = DL_FATPIPE;
	else
		return fail(r, n, "link '%s': sharing_policy '%s' is not SHARED, SPLITDUPLEX or FATPIPE",
			    l->name, sp);
	if (read_children_props(r, n, &l->props, NULL))
		return -1;
	v = dl_link_prop(l, "dlasim.class");
	for (l->cls = 0; v && l->cls < DL_LINK_CLASSES; l->cls++)
		if (strcmp(v, dl_link_class_name(l->cls)) == 0)
			break;
	if (!v)
		l->cls = DL_LINK_OTHER;
	else if (l->cls == DL_LINK_CLASSES)
		return fail(r, n, "link '%s': dlasim.class '%s' is not nvlink, pcie, dram or other",
			    l->name, v);
	v = dl_link_prop(l, "dlasim.lanes");
	if (v) {
		if ((why = dl_parse_int(v, 1, 1 << 16, &lanes)))
			return fail(r, n, "link '%s': dlasim.lanes '%s': %s", l->name, v, why);
		l->lanes = (int)lanes;
	}
	return 0;
}

static int read_router(struct reader *r, xmlNode *n, int zone)
{
	static const char *const allowed[] = { "id", NULL };

	if (check_attrs(r, n, allowed, allowed))
		return -1;
	for (xmlNode *c = n->children; c; c = c->next)
		if (c->type == XML_ELEMENT_NODE)
			return fail(r, c, "<%s> is not allowed inside <router>", c->name);
	return add_netpoint(r, n, attr(n, "id"), DL_NP_ROUTER, zone, -1) < 0 ? -1 : 0;
}

static int read_link_ctns(struct reader *r, xmlNode *n)
{
	static const char *const allowed[] = { "id", "direction", NULL };
	static const char *const required[] = { "id", NULL };
	int count = 0;

	for (xmlNode *c = n->children; c; c = c->next) {
		const char *dir;
		int li;

		if (c->type != XML_ELEMENT_NODE)
			continue;
		if (!is_elem(c, "link_ctn"))
			return fail(r, c, "<%s> is not allowed inside <%s>", c->name, n->name);
		if (check_attrs(r, c, allowed, required))
			return -1;
		li = dl_strmap_get(&r->p->link_ids, attr(c, "id"));
		if (li < 0)
			return fail(r, c, "link '%s' is not declared (before this route)", attr(c, "id"));
		dir = attr(c, "direction");
		if (r->p->links[li].sharing == DL_SPLITDUPLEX) {
			if (!dir || (strcmp(dir, "UP") && strcmp(dir, "DOWN")))
				return fail(r, c, "link '%s' is SPLITDUPLEX: give direction=\"UP\" or \"DOWN\"",
					    attr(c, "id"));
		} else if (dir && strcmp(dir, "NONE")) {
			return fail(r, c, "link '%s' is not SPLITDUPLEX: it takes no direction",
				    attr(c, "id"));
		}
		count++;
	}
	if (!count)
		return fail(r, n, "<%s> from '%s' to '%s' has no link", n->name,
			    attr(n, "src"), attr(n, "dst"));
	return 0;
}

/* Record one direction of a route between netpoints src and dst (with
 * its gateways); SimGrid refuses a route declared twice. */
static int declare_route(struct reader *r, xmlNode *n, int src, int dst, int gw_src, int gw_dst)
{
	struct dl_platform *p = r->p;
	struct dl_route *rt;

	if (dl_pairmap_get(&p->route_ids, src, dst) >= 0)
		return fail(r, n, "a route from '%s' to '%s' is already declared (routes are symmetrical unless symmetrical=\"NO\")",
			    p->nps[src].name, p->nps[dst].name);
	if (dl_platform_grow((void **)&p->routes, &r->caproutes, p->nroutes + 1, sizeof(*p->routes)) ||
	    dl_pairmap_put(&p->route_ids, src, dst, p->nroutes))
		return dl_err("out of memory");
	rt = &p->routes[p->nroutes];
	*rt = (struct dl_route){ .src = src, .dst = dst, .gw_src = gw_src, .gw_dst = gw_dst,
				 .next = p->nps[src].first_route };
	p->nps[src].first_route = p->nroutes++;
	return 0;
}

static int symmetrical(struct reader *r, xmlNode *n, bool *sym)
{
	const char *s = attr(n, "symmetrical");

	if (!s || strcmp(s, "YES") == 0 || strcmp(s, "yes") == 0) {
		*sym = true;
		return 0;
	}
	if (strcmp(s, "NO") == 0 || strcmp(s, "no") == 0) {
		*sym = false;
		return 0;
	}
	return fail(r, n, "symmetrical='%s' is not YES or NO", s);
}

static int read_route(struct reader *r, xmlNode *n, int zone)
{
	static const char *const allowed[] = { "src", "dst", "symmetrical", NULL };
	static const char *const required[] = { "src", "dst", NULL };
	int ends[2];
	bool sym;

	if (check_attrs(r, n, allowed, required) || symmetrical(r, n, &sym))
		return -1;
	for (int i = 0; i < 2; i++) {
		const char *end = attr(n, i ? "dst" : "src");

		ends[i] = netpoint(r->p, end, DL_NP_ROUTER);
		if (ends[i] < 0)
			return fail(r, n, "route %s '%s' is not a host or router declared before this route",
				    i ? "dst" : "src", end);
		if (r->p->nps[ends[i]].zone != zone)
			return fail(r, n, "route %s '%s' is not directly in zone '%s' (use <zoneRoute> between zones)",
				    i ? "dst" : "src", end, r->p->zones[zone].name);
	}
	if (ends[0] == ends[1])
		return fail(r, n, "route from '%s' to itself", attr(n, "src"));
	if (read_link_ctns(r, n) || declare_route(r, n, ends[0], ends[1], ends[0], ends[1]))
		return -1;
	return sym ? declare_route(r, n, ends[1], ends[0], ends[1], ends[0]) : 0;
}

static int read_zone_route(struct reader *r, xmlNode *n, int zone)
{
	static const char *const allowed[] = { "src", "dst", "gw_src", "gw_dst", "symmetrical", NULL };
	static const char *const required[] = { "src", "dst", "gw_src", "gw_dst", NULL };
	const char *names[2];
	int ends[2], gws[2];
	bool sym;

	if (check_attrs(r, n, allowed, required) || symmetrical(r, n, &sym))
		return -1;
	for (int i = 0; i < 2; i++) {
		const char *gw = attr(n, i ? "gw_dst" : "gw_src");
		int z;

		names[i] = attr(n, i ? "dst" : "src");
		ends[i] = netpoint(r->p, names[i], DL_NP_ZONE);
		z = ends[i] < 0 ? -1 : r->p->nps[ends[i]].self;
		if (z < 0 || r->p->zones[z].parent != zone)
			return fail(r, n, "zoneRoute %s '%s' is not a zone directly inside zone '%s'",
				    i ? "dst" : "src", names[i], r->p->zones[zone].name);
		gws[i] = netpoint(r->p, gw, DL_NP_ROUTER);
		if (gws[i] < 0 || !zone_within(r->p, r->p->nps[gws[i]].zone, z))
			return fail(r, n, "zoneRoute %s '%s' is not a host or router inside zone '%s'",
				    i ? "gw_dst" : "gw_src", gw, names[i]);
	}
	if (ends[0] == ends[1])
		return fail(r, n, "zoneRoute from zone '%s' to itself", names[0]);
	if (read_link_ctns(r, n) || declare_route(r, n, ends[0], ends[1], gws[0], gws[1]))
		return -1;
	return sym ? declare_route(r, n, ends[1], ends[0], gws[1], gws[0]) : 0;
}

struct caps {
	int hosts, links, zones;
};

enum zone_part { PART_UNKNOWN, PART_PROPS, PART_DECLS, PART_ROUTES };

static enum zone_part zone_part_of(xmlNode *c)
{
	if (is_elem(c, "prop"))
		return PART_PROPS;
	if (is_elem(c, "host") || is_elem(c, "link") || is_elem(c, "router") || is_elem(c, "zone"))
		return PART_DECLS;
	if (is_elem(c, "route") || is_elem(c, "zoneRoute"))
		return PART_ROUTES;
	return PART_UNKNOWN;
}

static int read_zone(struct reader *r, xmlNode *n, int parent, struct caps *caps)
{
	static const char *const allowed[] = { "id", "routing", NULL };
	static const char *const routings[] = { "Full", "Floyd", "Dijkstra", "DijkstraCache", NULL };
	struct dl_platform *p = r->p;
	enum zone_part phase = PART_PROPS;
	bool has_hosts = false, has_zones = false;
	const char *routing;
	int zone, pcap = 0;

	if (check_attrs(r, n, allowed, allowed))
		return -1;
	routing = attr(n, "routing");
	for (const char *const *k = routings; *k; k++)
		if (strcmp(routing, *k) == 0)
			goto routing_ok;
	return fail(r, n, "zone '%s': routing '%s' is not Full, Floyd, Dijkstra or DijkstraCache",
		    attr(n, "id"), routing);
routing_ok:
	if (dl_platform_grow((void **)&p->zones, &caps->zones, p->nzones + 1, sizeof(*p->zones)))
		return -1;
	zone = p->nzones;
	memset(&p->zones[zone], 0, sizeof(p->zones[zone]));
	p->zones[zone].name = strdup(attr(n, "id"));
	if (!p->zones[zone].name)
		return dl_err("out of memory");
	p->zones[zone].line = xmlGetLineNo(n);
	p->zones[zone].parent = parent;
	p->zones[zone].depth = parent < 0 ? 0 : p->zones[parent].depth + 1;
	p->zones[zone].full = strcmp(routing, "Full") == 0;
	p->nzones++;
	p->zones[zone].np = add_netpoint(r, n, p->zones[zone].name, DL_NP_ZONE, parent, zone);
	if (p->zones[zone].np < 0)
		return -1;

	/* SimGrid 4.1: a zone holds either sub-zones (then zoneRoutes) or
	 * hosts and routers (then routes); properties first, declarations
	 * before the routes that use them. */
	for (xmlNode *c = n->children; c; c = c->next) {
		enum zone_part part;
		int ret;

		if (c->type != XML_ELEMENT_NODE)
			continue;
		part = zone_part_of(c);
		if (part == PART_UNKNOWN)
			return fail(r, c, "<%s> is not supported by dlasim inside <zone> (see docs/platforms.md)",
				    c->name);
		if (part < phase)
			return fail(r, c, "zone '%s': <%s> must come before the zone's %s",
				    p->zones[zone].name, c->name,
				    phase == PART_ROUTES ? "routes" : "other elements");
		phase = part;
		if ((is_elem(c, "zone") || is_elem(c, "zoneRoute")) && has_hosts)
			return fail(r, c, "zone '%s' holds hosts or routers, so it cannot hold <%s>: a zone holds either sub-zones or hosts",
				    p->zones[zone].name, c->name);
		if ((is_elem(c, "host") || is_elem(c, "router") || is_elem(c, "route")) && has_zones)
			return fail(r, c, "zone '%s' holds sub-zones, so it cannot hold <%s>: a zone holds either sub-zones or hosts",
				    p->zones[zone].name, c->name);
		if (is_elem(c, "prop"))
			ret = read_prop(r, c, &p->zones[zone].props, &pcap);
		else if (is_elem(c, "host"))
			ret = read_host(r, c, zone, &caps->hosts);
		else if (is_elem(c, "link"))
			ret = read_link(r, c, &caps->links);
		else if (is_elem(c, "router"))
			ret = read_router(r, c, zone);
		else if (is_elem(c, "zone"))
			ret = read_zone(r, c, zone, caps);
		else if (is_elem(c, "route"))
			ret = read_route(r, c, zone);
		else
			ret = read_zone_route(r, c, zone);
		if (ret)
			return -1;
		has_hosts |= is_elem(c, "host") || is_elem(c, "router");
		has_zones |= is_elem(c, "zone");
	}
	return 0;
}

/* ---- <cluster>: the whole platform as one SimGrid cluster ---- */

/* A cluster's dlasim.role and dlasim.backing apply to each of its hosts. */
static int cluster_host_props(const struct dl_props *zone, struct dl_props *host)
{
	static const char *const keys[] = { "dlasim.role", "dlasim.backing" };

	host->v = calloc(2, sizeof(*host->v));
	if (!host->v)
		return dl_err("out of memory");
	for (int k = 0; k < 2; k++) {
		const char *v = dl_props_get(zone, keys[k]);

		if (!v)
			continue;
		host->v[host->n].key = strdup(keys[k]);
		host->v[host->n].value = strdup(v);
		if (!host->v[host->n].key || !host->v[host->n++].value)
			return dl_err("out of memory");
	}
	return 0;
}

/* SimGrid reads "x:host" and xmlns="..." as unknown names: no namespaces. */
static int check_no_namespaces(struct reader *r, xmlNode *n)
{
	for (; n; n = n->next) {
		if (n->type != XML_ELEMENT_NODE)
			continue;
		if (n->ns || n->nsDef)
			return fail(r, n, "<%s%s%s>: XML namespaces are not part of SimGrid's format",
				    n->ns && n->ns->prefix ? (const char *)n->ns->prefix : "",
				    n->ns && n->ns->prefix ? ":" : "", n->name);
		for (xmlAttr *a = n->properties; a; a = a->next)
			if (a->ns)
				return fail(r, n, "<%s>: attribute '%s:%s': XML namespaces are not part of SimGrid's format",
					    n->name, a->ns->prefix ? (const char *)a->ns->prefix : "",
					    a->name);
		if (check_no_namespaces(r, n->children))
			return -1;
	}
	return 0;
}

static int add_cluster_host(struct reader *r, xmlNode *n, const struct dl_cluster *c, long i,
			    int zone, int *cap)
{
	struct dl_platform *p = r->p;
	struct dl_host *h;

	if (dl_platform_grow((void **)&p->hosts, cap, p->nhosts + 1, sizeof(*p->hosts)))
		return -1;
	h = &p->hosts[p->nhosts];
	memset(h, 0, sizeof(*h));
	h->line = xmlGetLineNo(n);
	h->zone = zone;
	h->rank = -1;
	h->device = -1;
	h->speed = c->speed;
	if (asprintf(&h->name, "%s%ld%s", c->prefix, c->number[i], c->suffix) < 0) {
		h->name = NULL;
		return dl_err("out of memory");
	}
	p->nhosts++;
	h->np = add_netpoint(r, n, h->name, DL_NP_HOST, zone, p->nhosts - 1);
	if (h->np < 0 || dl_strmap_put(&p->host_ids, h->name, p->nhosts - 1))
		return -1;
	return cluster_host_props(&p->zones[zone].props, &h->props);
}

static int read_cluster(struct reader *r, xmlNode *n, struct caps *caps)
{
	static const char *const allowed[] = {
		"id", "prefix", "suffix", "radical", "speed", "core", "bw", "lat", "sharing_policy",
		"topology", "topo_parameters", "bb_bw", "bb_lat", "bb_sharing_policy", "loopback_bw",
		"loopback_lat", "limiter_link", "router_id", NULL,
	};
	/* prefix and suffix may be empty: dl_cluster_read() checks them */
	static const char *const required[] = { "id", "radical", "speed", "bw", "lat", NULL };
	struct dl_platform *p = r->p;
	struct dl_cluster c;
	const char *why;
	int zone, ret = -1;

	if (check_attrs(r, n, allowed, required))
		return -1;
	if ((why = dl_cluster_read(n, &c))) {
		fail(r, n, "cluster '%s': %s", attr(n, "id") ? attr(n, "id") : "", why);
		goto out;
	}
	if ((why = dl_platform_speed_range(c.speed))) {
		fail(r, n, "cluster '%s': speed '%s': %s", c.id, attr(n, "speed"), why);
		goto out;
	}
	if (dl_platform_grow((void **)&p->zones, &caps->zones, p->nzones + 1, sizeof(*p->zones)))
		goto out;
	zone = p->nzones;
	memset(&p->zones[zone], 0, sizeof(p->zones[zone]));
	p->zones[zone].line = xmlGetLineNo(n);
	p->zones[zone].parent = -1;
	if (!(p->zones[zone].name = strdup(c.id))) {
		dl_err("out of memory");
		goto out;
	}
	p->zones[zone].cluster = true;
	p->nzones++;
	p->nclusters++;
	p->zones[zone].np = add_netpoint(r, n, c.id, DL_NP_ZONE, -1, zone);
	if (p->zones[zone].np < 0 || read_children_props(r, n, &p->zones[zone].props, NULL))
		goto out;
	for (long i = 0; i < c.nhosts; i++)
		if (add_cluster_host(r, n, &c, i, zone, &caps->hosts))
			goto out;
	ret = add_netpoint(r, n, c.router, DL_NP_ROUTER, zone, -1) < 0 ? -1 : 0;
out:
	dl_cluster_free(&c);
	return ret;
}

/* SimGrid names the halves of split-duplex link X "X_UP" and "X_DOWN". */
static int check_link_names(struct reader *r)
{
	const struct dl_platform *p = r->p;
	char name[4096];

	for (int i = 0; i < p->nlinks; i++) {
		const struct dl_link *l = &p->links[i];

		if (l->sharing != DL_SPLITDUPLEX)
			continue;
		for (int d = 0; d < 2; d++) {
			int other;

			snprintf(name, sizeof(name), "%s%s", l->name, d ? "_DOWN" : "_UP");
			other = dl_strmap_get(&p->link_ids, name);
			if (other >= 0)
				return dl_err("%s:%d: link '%s': SimGrid names the %s half of split-duplex link '%s' (line %d) so",
					      p->file, p->links[other].line, name, d ? "down" : "up",
					      l->name, l->line);
		}
	}
	return 0;
}

/* SimGrid's scanner knows the DTD by these two system identifiers only. */
static bool simgrid_doctype(const xmlDtd *dtd)
{
	const char *id = dtd && dtd->SystemID ? (const char *)dtd->SystemID : "";

	return dtd && dtd->name && !strcmp((const char *)dtd->name, "platform") && !dtd->ExternalID &&
	       (!strcmp(id, "https://simgrid.org/simgrid.dtd") ||
		!strcmp(id, "http://simgrid.gforge.inria.fr/simgrid/simgrid.dtd"));
}

static int read_document(struct reader *r, xmlNode *root)
{
	struct caps caps = { 0 };
	const char *version;
	int zones = 0;

	if (check_no_namespaces(r, root))
		return -1;
	if (!is_elem(root, "platform"))
		return fail(r, root, "root element is <%s>, expected <platform>", root->name);
	if (!simgrid_doctype(root->doc->intSubset))
		return fail(r, root, "no <!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\"> before <platform> (SimGrid requires it)");
	version = attr(root, "version");
	if (!version || strcmp(version, "4.1") != 0)
		return fail(r, root, "<platform version=\"%s\">: dlasim reads version 4.1 (simgrid_update_xml upgrades older files)",
			    version ? version : "");
	for (xmlNode *c = root->children; c; c = c->next) {
		if (c->type != XML_ELEMENT_NODE)
			continue;
		if (!is_elem(c, "zone") && !is_elem(c, "cluster"))
			return fail(r, c, "<%s> is not supported at the top of <platform>; put everything in one <zone> or <cluster>",
				    c->name);
		if (zones++)
			return fail(r, c, "a second top-level <%s>: a platform has one root zone (or one <cluster>)",
				    c->name);
		if (is_elem(c, "cluster") ? read_cluster(r, c, &caps) : read_zone(r, c, -1, &caps))
			return -1;
	}
	if (!zones)
		return fail(r, root, "<platform> has no <zone>");
	return check_link_names(r);
}

/* ---- entry points ---- */

/* The file's bytes, NUL-terminated.  A regular file: SimGrid may read the
 * platform again by its name (engine.c). */
static int load(const struct dl_platform *p, char **buf, size_t *len)
{
	FILE *f = fopen(p->file, "rb");
	struct stat st;
	int ret = -1;

	*buf = NULL;
	if (!f)
		return dl_err("%s: cannot open platform file: %s", p->file, strerror(errno));
	if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
		dl_err("%s: not a regular file (SimGrid reads the platform again by its name)", p->file);
		goto out;
	}
	if (st.st_size > INT_MAX) {
		dl_err("%s: larger than 2 GiB", p->file);
		goto out;
	}
	*len = (size_t)st.st_size;
	*buf = malloc(*len + 1);
	if (!*buf) {
		dl_err("%s: out of memory", p->file);
		goto out;
	}
	if (fread(*buf, 1, *len, f) != *len) {
		dl_err("%s: read error", p->file);
		goto out;
	}
	(*buf)[*len] = '\0';
	ret = 0;
out:
	fclose(f);
	if (ret) {
		free(*buf);
		*buf = NULL;
	}
	return ret;
}

/* Encodings SimGrid reads as libxml2 does. */
static bool utf8_encoding(const xmlChar *enc)
{
	return !enc || !xmlStrcasecmp(enc, BAD_CAST "UTF-8") ||
	       !xmlStrcasecmp(enc, BAD_CAST "US-ASCII") || !xmlStrcasecmp(enc, BAD_CAST "ASCII");
}

/*
 * No XML_PARSE_HUGE (it lifts libxml2's limits on entity expansion, and a
 * kilobyte of nested entities grows past a gigabyte); no XML_PARSE_NOENT,
 * no DTD loading, no network.  The reader looks at elements only: without
 * the blank text between them (NOBLANKS) and with short texts kept in
 * their nodes (COMPACT), a generated 65,536-device file's tree takes 170 MB
 * and 0.2 s less.
 */
#define PARSE_OPTIONS (XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING | \
		       XML_PARSE_BIG_LINES | XML_PARSE_NOBLANKS | XML_PARSE_COMPACT)

/* libxml2 reports memory that runs out on its global error channel (and
 * prints it there unless a handler takes it); the parser's last error is
 * then whatever failed next, e.g. "Extra content at the end". */
static void note_xml_error(void *oom, xmlErrorPtr e)
{
	if (e && e->code == XML_ERR_NO_MEMORY)
		*(bool *)oom = true;
}

/* The file's tree in *doc, and its bytes in *buf (*len of them). */
static int parse_xml(struct dl_platform *p, xmlDoc **doc, char **buf, size_t *len)
{
	bool oom = false;
	xmlParserCtxtPtr ctxt = NULL;
	const xmlError *e;
	const char *why;
	int line, ret = -1;

	*doc = NULL;
	*len = 0;
	if (load(p, buf, len))
		return -1;
	if ((why = dl_xml_scan(*buf, *len, &line))) {
		dl_err("%s:%d: %s", p->file, line, why);
		goto out;
	}
	ctxt = xmlNewParserCtxt();
	if (!ctxt) {
		dl_err("out of memory");
		goto out;
	}
	xmlSetStructuredErrorFunc(&oom, note_xml_error);
	*doc = xmlCtxtReadMemory(ctxt, *buf, (int)*len, p->file, NULL, PARSE_OPTIONS);
	xmlSetStructuredErrorFunc(NULL, NULL);
	e = xmlCtxtGetLastError(ctxt);
	if (oom) {
		dl_err("%s: out of memory reading the platform (%zu bytes of XML)", p->file, *len);
		goto out;
	}
	if (!*doc || (e && e->level >= XML_ERR_ERROR)) {
		char msg[512];
		size_t n;

		snprintf(msg, sizeof(msg), "%s", e && e->message ? e->message : "unreadable XML");
		n = strlen(msg);
		while (n && (msg[n - 1] == '\n' || msg[n - 1] == ' '))
			msg[--n] = '\0';
		dl_err("%s:%d: malformed XML: %s", p->file, e ? e->line : 0, msg);
		goto out;
	}
	if (!utf8_encoding((*doc)->encoding)) {
		dl_err("%s:1: encoding '%s': dlasim reads UTF-8 platform files (SimGrid reads the bytes as they are)",
		       p->file, (const char *)(*doc)->encoding);
		goto out;
	}
	ret = 0;
out:
	if (ret) {
		xmlFreeDoc(*doc);
		*doc = NULL;
		free(*buf);
		*buf = NULL;
	}
	xmlFreeParserCtxt(ctxt);
	return ret;
}

int dl_platform_read(struct dl_platform **out, const char *file)
{
	return dl_platform_read_bytes(out, file, NULL, NULL);
}

int dl_platform_read_bytes(struct dl_platform **out, const char *file, char **bytes, size_t *len)
{
	struct reader r = { 0 };
	struct dl_platform *p;
	xmlDoc *doc = NULL;
	char *buf = NULL;
	size_t n;
	int ret = -1;

	*out = NULL;
	if (bytes)
		*bytes = NULL;
	p = calloc(1, sizeof(*p));
	if (!p || !(p->file = strdup(file))) {
		free(p);
		return dl_err("out of memory");
	}
	r.p = p;
	if (parse_xml(p, &doc, &buf, &n))
		goto out;
	if (read_document(&r, xmlDocGetRootElement(doc)) || dl_platform_assign_roles(p) || dl_platform_read_nodes(p) ||
	    dl_platform_read_rings(p) || dl_platform_check_devices(p))
		goto out;
	ret = 0;
	*out = p;
	if (bytes) {
		*bytes = buf;
		*len = n;
		buf = NULL;
	}
out:
	xmlFreeDoc(doc);
	free(buf);
	if (ret)
		dl_platform_free(p);
	return ret;
}

void dl_platform_free(struct dl_platform *p)
{
	if (!p)
		return;
	for (int i = 0; i < p->nhosts; i++) {
		free(p->hosts[i].name);
		free_props(&p->hosts[i].props);
	}
	for (int i = 0; i < p->nlinks; i++) {
		free(p->links[i].name);
		free_props(&p->links[i].props);
	}
	for (int i = 0; i < p->nzones; i++) {
		free(p->zones[i].name);
		free_props(&p->zones[i].props);
	}
	for (int i = 0; i < p->nrings; i++) {
		free(p->rings[i].member);
		free(p->rings[i].rank_at);
		free(p->rings[i].pos_of_rank);
	}
	free(p->rings);
	free(p->hosts);
	free(p->links);
	free(p->zones);
	free(p->devices);
	dl_strmap_free(&p->host_ids);
	dl_strmap_free(&p->link_ids);
	for (int i = 0; i < p->nnps; i++)
		free(p->nps[i].name);
	free(p->nps);
	free(p->routes);
	dl_pairmap_free(&p->route_ids);
	dl_strmap_free(&p->np_ids);
	free(p->file);
	free(p);
}

int dl_platform_require_devices(const struct dl_platform *p)
{
	if (p->ndevices < 1)
		return dl_err("%s: no device in this platform (hosts with <prop id=\"dlasim.role\" value=\"device\"/>)",
			      p->file);
	return 0;
}

int dl_platform_require_rings(const struct dl_platform *p)
{
	if (dl_platform_require_devices(p))
		return -1;
	if (p->ndevices < 2)
		return dl_err("%s: a collective needs at least 2 devices, this platform has %d",
			      p->file, p->ndevices);
	if (p->nrings < 1)
		return dl_err("%s: no ring declared (zone property dlasim.ring.0 listing the devices in ring order)",
			      p->file);
	return 0;
}
