/* SPDX-License-Identifier: MIT */
/*
 * Rings: the device orders a platform declares for the collectives
 * (zone properties dlasim.ring.N, docs/platforms.md).
 */
#include "platform.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/diag.h"
#include "lib/units.h"

#include "platform_parts.h"

/* The device behind a ring member (the member itself or the port's device). */
static int member_device(const struct dl_platform *p, int host)
{
	if (p->hosts[host].role == DL_ROLE_DEVICE)
		return host;
	if (p->hosts[host].role == DL_ROLE_PORT)
		return p->hosts[host].device;
	return -1;
}

static int read_ring(struct dl_platform *p, const struct dl_zone *z, const char *key,
		     const char *text, struct dl_ring *ring)
{
	char *copy = strdup(text), *save = NULL;
	int n = 0, ret = -1;

	if (!copy)
		return dl_err("out of memory");
	ring->member = calloc(p->ndevices + 1, sizeof(int));
	ring->rank_at = calloc(p->ndevices + 1, sizeof(int));
	ring->pos_of_rank = malloc((p->ndevices + 1) * sizeof(int));
	if (!ring->member || !ring->rank_at || !ring->pos_of_rank) {
		dl_err("out of memory");
		goto out;
	}
	for (int i = 0; i < p->ndevices; i++)
		ring->pos_of_rank[i] = -1;
	for (char *t = strtok_r(copy, " \t\n,", &save); t; t = strtok_r(NULL, " \t\n,", &save)) {
		int h = dl_host_index(p, t), d;

		if (h < 0) {
			dl_platform_file_fail(p, z->line, "zone '%s': %s: '%s' is not a host", z->name, key, t);
			goto out;
		}
		d = member_device(p, h);
		if (d < 0) {
			dl_platform_file_fail(p, z->line, "zone '%s': %s: '%s' is a %s, ring members are devices or their ports",
				  z->name, key, t, dl_role_name(p->hosts[h].role));
			goto out;
		}
		if (ring->pos_of_rank[p->hosts[d].rank] >= 0) {
			dl_platform_file_fail(p, z->line, "zone '%s': %s: device '%s' appears twice",
				  z->name, key, p->hosts[d].name);
			goto out;
		}
		ring->member[n] = h;
		ring->rank_at[n] = p->hosts[d].rank;
		ring->pos_of_rank[p->hosts[d].rank] = n;
		n++;
	}
	ring->n = n;
	for (int i = 0; i < p->ndevices; i++) {
		if (ring->pos_of_rank[i] < 0) {
			dl_platform_file_fail(p, z->line, "zone '%s': %s does not visit device '%s' (a ring visits every device once)",
				  z->name, key, p->hosts[p->devices[i]].name);
			goto out;
		}
	}
	if (n < 2) {
		dl_platform_file_fail(p, z->line, "zone '%s': %s has fewer than 2 members", z->name, key);
		goto out;
	}
	ret = 0;
out:
	free(copy);
	return ret;
}

/*
 * No ring declared: ring 0 is the device order (rank 0, 1, ..., N-1 and
 * back to 0), so that SimGrid's own platforms run the ring collectives.
 * Its hops need routes, as a declared ring's do.
 */
static int device_order_ring(struct dl_platform *p)
{
	struct dl_ring *r;

	if (p->ndevices < 2)
		return 0;
	p->rings = calloc(1, sizeof(*p->rings));
	if (!p->rings)
		return dl_err("out of memory");
	r = &p->rings[0];
	r->member = malloc(p->ndevices * sizeof(int));
	r->rank_at = malloc(p->ndevices * sizeof(int));
	r->pos_of_rank = malloc(p->ndevices * sizeof(int));
	p->nrings = 1;	/* freed with the platform from here on */
	if (!r->member || !r->rank_at || !r->pos_of_rank)
		return dl_err("out of memory");
	for (int i = 0; i < p->ndevices; i++) {
		r->member[i] = p->devices[i];
		r->rank_at[i] = i;
		r->pos_of_rank[i] = i;
	}
	r->n = p->ndevices;
	p->ring_implied = true;
	for (int i = 0; i < p->ndevices; i++) {
		int a = p->devices[i], b = p->devices[(i + 1) % p->ndevices];

		if (!dl_route_exists(p, a, b))
			return dl_err("%s: no ring declared, and the device order has no route from '%s' to '%s' (declare one: zone property dlasim.ring.0)",
				      p->file, p->hosts[a].name, p->hosts[b].name);
	}
	return 0;
}

int dl_platform_read_rings(struct dl_platform *p)
{
	static const char prefix[] = "dlasim.ring.";
	int max = -1;

	for (int z = 0; z < p->nzones; z++) {
		for (int i = 0; i < p->zones[z].props.n; i++) {
			const char *key = p->zones[z].props.v[i].key;
			long k;

			if (strncmp(key, prefix, sizeof(prefix) - 1) != 0)
				continue;
			if (dl_parse_int(key + sizeof(prefix) - 1, 0, 4095, &k))
				return dl_platform_file_fail(p, p->zones[z].line, "zone '%s': property '%s': ring numbers are 0, 1, 2, ...",
						 p->zones[z].name, key);
			if (k > max)
				max = (int)k;
		}
	}
	if (max < 0)
		return device_order_ring(p);
	p->rings = calloc(max + 1, sizeof(*p->rings));
	if (!p->rings)
		return dl_err("out of memory");
	p->nrings = max + 1;
	for (int k = 0; k <= max; k++) {
		char key[64];
		int found = -1;

		snprintf(key, sizeof(key), "%s%d", prefix, k);
		for (int z = 0; z < p->nzones; z++) {
			if (!dl_zone_prop(&p->zones[z], key))
				continue;
			if (found >= 0)
				return dl_platform_file_fail(p, p->zones[z].line, "%s is declared in zones '%s' and '%s'",
						 key, p->zones[found].name, p->zones[z].name);
			found = z;
		}
		if (found < 0)
			return dl_err("%s: rings are numbered from 0 without gaps, but %s is missing",
				      p->file, key);
		if (read_ring(p, &p->zones[found], key, dl_zone_prop(&p->zones[found], key), &p->rings[k]))
			return -1;
	}
	return 0;
}
