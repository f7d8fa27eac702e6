/* SPDX-License-Identifier: MIT */
#include "traffic.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <simgrid/host.h>
#include <xbt/dynar.h>

#include "lib/diag.h"
#include "results/csv.h"

/* A route seen before: its links as counter slots (2 * link + direction). */
struct route {
	sg_host_t src, dst;
	int *slots;
	int n;
};

struct dl_traffic {
	double *bytes;		/* [2 * nlinks] */
	/* SimGrid link -> slot, open addressing on the pointer. */
	sg_link_t *link_keys;
	int *link_slots;
	size_t link_cap;
	/* (src, dst) -> route, open addressing, grown at half load. */
	struct route *routes;
	size_t route_cap, nroutes;
};

static size_t mix(uintptr_t a, uintptr_t b)
{
	uint64_t h = (uint64_t)a * 0x9e3779b97f4a7c15ull ^ ((uint64_t)b + 0x632be59bd9b4e019ull);

	return (size_t)(h ^ (h >> 29));
}

static int link_slot(const struct dl_traffic *t, sg_link_t l)
{
	size_t i = mix((uintptr_t)l, 0) & (t->link_cap - 1);

	while (t->link_keys[i] && t->link_keys[i] != l)
		i = (i + 1) & (t->link_cap - 1);
	return t->link_keys[i] ? t->link_slots[i] : -1;
}

static void link_put(struct dl_traffic *t, sg_link_t l, int slot)
{
	size_t i = mix((uintptr_t)l, 0) & (t->link_cap - 1);

	while (t->link_keys[i] && t->link_keys[i] != l)
		i = (i + 1) & (t->link_cap - 1);
	t->link_keys[i] = l;
	t->link_slots[i] = slot;
}

int dl_traffic_open(struct dl_traffic **out, const struct dl_platform *p)
{
	struct dl_traffic *t = calloc(1, sizeof(*t));

	*out = NULL;
	if (!t)
		return dl_err("out of memory");
	t->link_cap = 16;
	while (t->link_cap < 4 * (size_t)p->nlinks)
		t->link_cap *= 2;
	t->route_cap = 64;
	t->bytes = calloc(2 * (size_t)p->nlinks + 1, sizeof(double));
	t->link_keys = calloc(t->link_cap, sizeof(*t->link_keys));
	t->link_slots = calloc(t->link_cap, sizeof(*t->link_slots));
	t->routes = calloc(t->route_cap, sizeof(*t->routes));
	if (!t->bytes || !t->link_keys || !t->link_slots || !t->routes) {
		dl_traffic_close(t);
		return dl_err("out of memory");
	}
	for (int i = 0; i < p->nlinks; i++)
		for (int d = 0; d < 2; d++)
			if (p->links[i].sg[d])
				link_put(t, p->links[i].sg[d], 2 * i + d);
	*out = t;
	return 0;
}

void dl_traffic_close(struct dl_traffic *t)
{
	if (!t)
		return;
	for (size_t i = 0; t->routes && i < t->route_cap; i++)
		free(t->routes[i].slots);
	free(t->routes);
	free(t->link_keys);
	free(t->link_slots);
	free(t->bytes);
	free(t);
}

static struct route *route_slot(struct route *table, size_t cap, sg_host_t src, sg_host_t dst)
{
	size_t i = mix((uintptr_t)src, (uintptr_t)dst) & (cap - 1);

	while (table[i].src && (table[i].src != src || table[i].dst != dst))
		i = (i + 1) & (cap - 1);
	return &table[i];
}

static int grow_routes(struct dl_traffic *t)
{
	size_t cap = 2 * t->route_cap;
	struct route *bigger = calloc(cap, sizeof(*bigger));

	if (!bigger)
		return -1;
	for (size_t i = 0; i < t->route_cap; i++)
		if (t->routes[i].src)
			*route_slot(bigger, cap, t->routes[i].src, t->routes[i].dst) = t->routes[i];
	free(t->routes);
	t->routes = bigger;
	t->route_cap = cap;
	return 0;
}

static const struct route *lookup(struct dl_traffic *t, sg_host_t src, sg_host_t dst)
{
	struct route *r = route_slot(t->routes, t->route_cap, src, dst);
	xbt_dynar_t links;
	unsigned k;
	sg_link_t l;

	if (r->src)
		return r;
	if ((t->nroutes + 1) * 2 > t->route_cap) {
		if (grow_routes(t))
			return NULL;
		r = route_slot(t->routes, t->route_cap, src, dst);
	}
	links = xbt_dynar_new(sizeof(sg_link_t), NULL);
	sg_host_get_route(src, dst, links);
	r->slots = malloc((xbt_dynar_length(links) + 1) * sizeof(int));
	if (!r->slots) {
		xbt_dynar_free(&links);
		return NULL;
	}
	xbt_dynar_foreach (links, k, l) {
		int slot = link_slot(t, l);

		if (slot >= 0)
			r->slots[r->n++] = slot;
	}
	xbt_dynar_free(&links);
	r->src = src;
	r->dst = dst;
	t->nroutes++;
	return r;
}

void dl_traffic_add(struct dl_traffic *t, sg_host_t src, sg_host_t dst, double bytes)
{
	const struct route *r;

	if (!t || src == dst || !(r = lookup(t, src, dst)))
		return;
	for (int i = 0; i < r->n; i++)
		t->bytes[r->slots[i]] += bytes;
}

int dl_traffic_route(struct dl_traffic *t, sg_host_t src, sg_host_t dst, const int **slots)
{
	const struct route *r;

	if (!t || src == dst || !(r = lookup(t, src, dst)))
		return -1;
	*slots = r->slots;
	return r->n;
}

double dl_traffic_bytes(const struct dl_traffic *t, int link, int dir)
{
	return t->bytes[2 * link + dir];
}

static int directions(const struct dl_link *l)
{
	return l->sharing == DL_SPLITDUPLEX ? 2 : 1;
}

void dl_traffic_write_csv(const struct dl_platform *p, const struct dl_traffic *const *t, int n,
			  double seconds, FILE *f)
{
	fprintf(f, "link,class,direction,bandwidth_Bps,bytes,busy_fraction\n");
	for (int i = 0; i < p->nlinks; i++) {
		const struct dl_link *l = &p->links[i];

		for (int d = 0; d < directions(l); d++) {
			double b = 0;

			for (int k = 0; k < n; k++)
				b += dl_traffic_bytes(t[k], i, d);
			/* Busy fraction: bytes over what the link could carry
			 * during the iteration. */
			dl_csv_field(f, l->name);
			fprintf(f, ",%s,%s,%.17g,%.0f,%.6f\n", dl_link_class_name(l->cls),
				directions(l) == 2 ? (d ? "down" : "up") : "shared", l->bandwidth, b,
				seconds > 0 ? b / (l->bandwidth * seconds) : 0.0);
		}
	}
}
