/* SPDX-License-Identifier: MIT */
/*
 * Binding a platform read by platform.c to the handles of the SimGrid
 * engine that loaded it, and checking its rings against SimGrid's routes.
 */
#include "platform.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <simgrid/host.h>
#include <simgrid/link.h>

#include "cluster.h"
#include "lib/diag.h"
#include "lib/strmap.h"

#include "platform_parts.h"

/* SimGrid's handles by name, from its lists: looking each name up would
 * search every zone of the platform in turn. */
static void bind_handles(struct dl_platform *p)
{
	sg_host_t *hosts = sg_host_list();
	sg_link_t *links = sg_link_list();
	size_t nh = sg_host_count(), nl = sg_link_count();
	char name[4096];

	for (size_t i = 0; i < nh; i++) {
		int h = dl_host_index(p, sg_host_get_name(hosts[i]));

		if (h >= 0)
			p->hosts[h].sg = hosts[i];
	}
	for (size_t i = 0; i < nl; i++) {
		const char *full = sg_link_get_name(links[i]);
		size_t len = strlen(full);
		int dir = 0, l;

		if (len >= sizeof(name))
			continue;
		memcpy(name, full, len + 1);
		l = dl_strmap_get(&p->link_ids, name);
		if (l < 0 || p->links[l].sharing == DL_SPLITDUPLEX) {
			/* SimGrid names the halves of a SPLITDUPLEX link X_UP, X_DOWN. */
			if (len > 3 && strcmp(name + len - 3, "_UP") == 0) {
				name[len - 3] = '\0';
			} else if (len > 5 && strcmp(name + len - 5, "_DOWN") == 0) {
				name[len - 5] = '\0';
				dir = 1;
			} else {
				continue;
			}
			l = dl_strmap_get(&p->link_ids, name);
			if (l < 0 || p->links[l].sharing != DL_SPLITDUPLEX)
				continue;
		}
		p->links[l].sg[dir] = links[i];
	}
	free(hosts);
	free(links);
}

/*
 * The dlasim.class of the cluster that built link `name`
 * (dl_cluster_link_name(): the longest cluster id the name starts with,
 * else the first fat tree or dragonfly whose names it has; their names do
 * not say which of two fat trees built a link).
 */
static enum dl_link_class cluster_link_class(const struct dl_platform *p, const char *name)
{
	const char *cls = NULL;
	size_t best = 0;
	bool found = false;

	for (int z = 0; z < p->nzones; z++) {
		const struct dl_zone *zone = &p->zones[z];
		size_t len = strlen(zone->name);
		bool own = !strncmp(name, zone->name, len) && name[len] == '_';

		if (zone->routing != DL_ROUTING_CLUSTER ||
		    !dl_cluster_link_name(zone->name, zone->topology, name) ||
		    (own ? len <= best : found))
			continue;
		found = true;
		best = own ? len : 0;
		cls = dl_props_get(&zone->props, "dlasim.class");
	}
	for (int k = 0; cls && k < DL_LINK_CLASSES; k++)
		if (strcmp(cls, dl_link_class_name(k)) == 0)
			return k;
	return DL_LINK_OTHER;
}

/*
 * The links a <cluster> builds are named by SimGrid: take every link the
 * file does not declare, its two directions X_UP and X_DOWN as one
 * split-duplex link X, of the class its cluster's dlasim.class names.
 */
static int adopt_cluster_links(struct dl_platform *p)
{
	const char *why;
	sg_link_t *links = sg_link_list();
	size_t n = sg_link_count();
	int cap = p->nlinks, ret = -1;

	for (size_t i = 0; i < n; i++) {
		const char *name = sg_link_get_name(links[i]);
		size_t len = strlen(name);
		int dir = len > 5 && strcmp(name + len - 5, "_DOWN") == 0 ? 1 :
			  len > 3 && strcmp(name + len - 3, "_UP") == 0 ? 0 : -1;
		char *base = strndup(name, dir < 0 ? len : len - (dir ? 5 : 3));
		int k;

		if (!base)
			goto oom;
		if (strcmp(name, "__loopback__") == 0 || dl_strmap_get(&p->link_ids, name) >= 0 ||
		    ((k = dl_strmap_get(&p->link_ids, base)) >= 0 && p->links[k].sg[dir < 0 ? 0 : dir])) {
			free(base);
			continue;
		}
		if (k < 0) {
			struct dl_link *l;

			if (dl_platform_grow((void **)&p->links, &cap, p->nlinks + 1, sizeof(*p->links))) {
				free(base);
				goto out;
			}
			l = &p->links[k = p->nlinks++];
			memset(l, 0, sizeof(*l));
			l->name = base;
			l->lanes = 1;
			l->cls = cluster_link_class(p, base);
			l->sharing = dir < 0 ? DL_SHARED : DL_SPLITDUPLEX;
			l->bandwidth = sg_link_get_bandwidth(links[i]);
			l->latency = sg_link_get_latency(links[i]);
			/* The bounds every declared link keeps (SimGrid took these). */
			if ((why = dl_platform_bandwidth_range(l->bandwidth)) ||
			    (why = dl_platform_latency_range(l->latency))) {
				dl_err("%s: cluster link '%s' (%g B/s, %g s): %s", p->file, l->name,
				       l->bandwidth, l->latency, why);
				goto out;
			}
			if (dl_strmap_put(&p->link_ids, l->name, k))
				goto oom;
		} else {
			free(base);
		}
		p->links[k].sg[dir < 0 ? 0 : dir] = links[i];
	}
	ret = 0;
	goto out;
oom:
	dl_err("out of memory");
out:
	free(links);
	return ret;
}

int dl_platform_bind(struct dl_platform *p)
{
	bind_handles(p);
	if (p->nclusters && adopt_cluster_links(p))
		return -1;
	for (int k = 0; k < p->nrings; k++) {
		const struct dl_ring *r = &p->rings[k];

		for (int i = 0; i < r->n; i++) {
			int a = r->member[i], b = r->member[(i + 1) % r->n];

			if (!dl_route_exists(p, a, b))
				return dl_err("%s: ring %d goes from '%s' to '%s' but the platform has no route between them",
					      p->file, k, p->hosts[a].name, p->hosts[b].name);
		}
	}
	p->bound = true;
	return 0;
}
