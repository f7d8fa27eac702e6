/* SPDX-License-Identifier: MIT */
/*
 * Route resolution on the parsed platform, the way SimGrid composes a
 * route (NetZoneImpl::get_global_route): between hosts of one zone, the
 * zone's own route; between zones, the common ancestor's zoneRoute between
 * the two child zones holding them, plus the legs from the source to the
 * zoneRoute's source gateway and from its destination gateway to the
 * destination, resolved the same way.  A route exists only if every leg
 * does.  SimGrid itself is never asked: a Full zone without routes crashes
 * it, missing zoneRoutes abort it ("Bad gateways"), and a missing leg
 * inside a zone is silently dropped from the path it returns.
 */
#include "platform.h"

#include <stdlib.h>

/* Zones nest at most this deep in any sane file; deeper is refused. */
#define MAX_NESTING 64

static bool resolve(const struct dl_platform *p, int src, int dst, int depth);

/*
 * Zones other than Full compute routes as shortest paths over their
 * declared routes (Floyd, Dijkstra): search one, then make sure the
 * gateways of consecutive hops are joined.
 */
static bool search(const struct dl_platform *p, int src, int dst, int *gw_src, int *gw_dst,
		   int depth)
{
	int *via = malloc((size_t)p->nnps * sizeof(int));	/* route reaching each netpoint */
	int *queue = malloc((size_t)p->nnps * sizeof(int));
	int head = 0, tail = 0, next = -1;
	bool ok = false;

	if (!via || !queue)
		goto out;
	for (int i = 0; i < p->nnps; i++)
		via[i] = -2;
	via[src] = -1;
	queue[tail++] = src;
	while (head < tail && via[dst] == -2) {
		int at = queue[head++];

		for (int r = p->nps[at].first_route; r >= 0; r = p->routes[r].next) {
			if (via[p->routes[r].dst] != -2)
				continue;
			via[p->routes[r].dst] = r;
			queue[tail++] = p->routes[r].dst;
		}
	}
	if (via[dst] == -2)
		goto out;
	*gw_dst = p->routes[via[dst]].gw_dst;
	ok = true;
	for (int at = dst; via[at] >= 0; at = p->routes[via[at]].src) {
		const struct dl_route *r = &p->routes[via[at]];

		if (next >= 0 && r->gw_dst != p->routes[next].gw_src)
			ok = ok && resolve(p, r->gw_dst, p->routes[next].gw_src, depth + 1);
		*gw_src = r->gw_src;
		next = via[at];
	}
out:
	free(via);
	free(queue);
	return ok;
}

/* A host with a <host_link> (in a routing="Cluster" zone). */
static bool linked(const struct dl_platform *p, int np)
{
	return p->nps[np].kind == DL_NP_HOST && p->hosts[p->nps[np].self].host_link;
}

/* The route between netpoints src and dst declared directly in zone z. */
static bool local(const struct dl_platform *p, int z, int src, int dst, int *gw_src,
		  int *gw_dst, int depth)
{
	int r;

	/* SimGrid's star zone crashes on a netpoint without links. */
	if (p->zones[z].routing == DL_ROUTING_STAR)
		return linked(p, src) && linked(p, dst) && (*gw_src = src, *gw_dst = dst, true);
	if (p->zones[z].routing == DL_ROUTING_CLUSTER) {
		*gw_src = src;
		*gw_dst = dst;
		return true;
	}
	if (p->zones[z].routing != DL_ROUTING_FULL)
		return search(p, src, dst, gw_src, gw_dst, depth);
	r = dl_pairmap_get(&p->route_ids, src, dst);
	if (r < 0)
		return false;
	*gw_src = p->routes[r].gw_src;
	*gw_dst = p->routes[r].gw_dst;
	return true;
}

static bool resolve(const struct dl_platform *p, int src, int dst, int depth)
{
	int zs = p->nps[src].zone, zd = p->nps[dst].zone, gs, gd;

	if (src == dst)
		return true;
	if (depth > MAX_NESTING || zs < 0 || zd < 0)
		return false;
	if (zs == zd)
		return local(p, zs, src, dst, &gs, &gd, depth);
	/* The children of the common ancestor that hold src and dst. */
	while (p->zones[zs].depth > p->zones[zd].depth)
		zs = p->zones[zs].parent;
	while (p->zones[zd].depth > p->zones[zs].depth)
		zd = p->zones[zd].parent;
	if (zs == zd)	/* one zone inside the other: not a SimGrid layout */
		return false;
	while (p->zones[zs].parent != p->zones[zd].parent) {
		zs = p->zones[zs].parent;
		zd = p->zones[zd].parent;
	}
	if (!local(p, p->zones[zs].parent, p->zones[zs].np, p->zones[zd].np, &gs, &gd, depth))
		return false;
	return resolve(p, src, gs, depth + 1) && resolve(p, gd, dst, depth + 1);
}

bool dl_route_exists(const struct dl_platform *p, int src, int dst)
{
	if (src < 0 || dst < 0 || src >= p->nhosts || dst >= p->nhosts)
		return false;
	return resolve(p, p->hosts[src].np, p->hosts[dst].np, 0);
}
