/* SPDX-License-Identifier: MIT */
/* Link load: per class, CPU memory bandwidth, per-link CSV. */
#include "linkstats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/link.h>
#include <simgrid/plugins/load.h>
#include <xbt/dynar.h>

#include "diag.h"

static bool split(const struct dl_link *l)
{
	return l->sharing == DL_SPLITDUPLEX;
}

static int add_name(struct mc_links *ls, const char *name, const char *suffix, int slot)
{
	size_t n = strlen(name) + strlen(suffix) + 1;
	char *s = malloc(n);

	if (!s)
		return dl_err("out of memory");
	snprintf(s, n, "%s%s", name, suffix);
	ls->names[ls->nnames++] = s;
	return dl_strmap_put(&ls->slots, s, slot) ? dl_err("out of memory") : 0;
}

int mc_links_init(struct mc_links *ls, const struct dl_platform *p)
{
	memset(ls, 0, sizeof(*ls));
	ls->p = p;
	dl_strmap_init(&ls->slots);
	ls->overlay_bytes = calloc(2 * (size_t)p->nlinks + 1, sizeof(double));
	ls->names = calloc(2 * (size_t)p->nlinks + 1, sizeof(char *));
	ls->shared_bytes = calloc((size_t)p->nlinks + 1, sizeof(double));
	ls->shared_max_Bps = calloc((size_t)p->nlinks + 1, sizeof(double));
	ls->last_bytes = calloc((size_t)p->nlinks + 1, sizeof(double));
	if (!ls->overlay_bytes || !ls->names || !ls->shared_bytes || !ls->shared_max_Bps ||
	    !ls->last_bytes)
		return dl_err("out of memory");
	for (int i = 0; i < p->nlinks; i++) {
		const struct dl_link *l = &p->links[i];

		if (!split(l)) {
			if (add_name(ls, l->name, "", 2 * i))
				return -1;
		} else if (add_name(ls, l->name, "_UP", 2 * i) ||
			   add_name(ls, l->name, "_DOWN", 2 * i + 1)) {
			return -1;
		}
	}
	return 0;
}

void mc_links_free(struct mc_links *ls)
{
	dl_strmap_free(&ls->slots);
	for (int i = 0; i < ls->nnames; i++)
		free(ls->names[i]);
	free(ls->names);
	free(ls->overlay_bytes);
	free(ls->shared_bytes);
	free(ls->shared_max_Bps);
	free(ls->last_bytes);
	memset(ls, 0, sizeof(*ls));
}

void mc_links_add(struct mc_links *ls, sg_host_t src, sg_host_t dst, double bytes)
{
	xbt_dynar_t links = xbt_dynar_new(sizeof(sg_link_t), NULL);
	unsigned i;
	sg_link_t l;

	sg_host_get_route(src, dst, links);
	xbt_dynar_foreach (links, i, l) {
		int slot = dl_strmap_get(&ls->slots, sg_link_get_name(l));

		if (slot >= 0)
			ls->overlay_bytes[slot] += bytes;
	}
	xbt_dynar_free(&links);
}

void mc_links_track(struct mc_links *ls)
{
	for (int i = 0; i < ls->p->nlinks; i++)
		if (!split(&ls->p->links[i]))
			sg_link_load_track(ls->p->links[i].sg[0]);
}

/* Bandwidth of every shared memory link since the last sample.  (The
 * plugin's own instantaneous maximum counts zero-length intervals.) */
static void sample(struct mc_links *ls)
{
	double now = simgrid_get_clock(), dt = now - ls->last_t;

	for (int i = 0; i < ls->p->nlinks && dt > 0; i++) {
		double bytes;

		if (split(&ls->p->links[i]) || ls->p->links[i].cls != DL_LINK_DRAM)
			continue;
		bytes = sg_link_get_cum_load(ls->p->links[i].sg[0]);
		ls->shared_max_Bps[i] = fmax(ls->shared_max_Bps[i], (bytes - ls->last_bytes[i]) / dt);
		ls->last_bytes[i] = bytes;
	}
	ls->last_t = now;
}

void mc_links_sampler(void *arg)
{
	sg_actor_daemonize(sg_actor_self());
	for (;;) {
		sg_actor_sleep_for(MC_LINK_SAMPLE_S);
		sample(arg);
	}
}

void mc_links_snapshot(struct mc_links *ls)
{
	sample(ls);
	for (int i = 0; i < ls->p->nlinks; i++)
		if (!split(&ls->p->links[i]))
			ls->shared_bytes[i] = sg_link_get_cum_load(ls->p->links[i].sg[0]);
}

static double link_bytes(const struct mc_links *ls, int i, int dir)
{
	return split(&ls->p->links[i]) ? ls->overlay_bytes[2 * i + dir] : ls->shared_bytes[i];
}

/* The shared dram-class link on the route from a device to cpu host h
 * (its index), or -1. */
static int socket_dram(const struct mc_links *ls, const struct dl_host *h)
{
	const struct dl_platform *p = ls->p;
	xbt_dynar_t links = xbt_dynar_new(sizeof(sg_link_t), NULL);
	int found = -1;

	for (int r = 0; r < p->ndevices; r++) {
		unsigned i;
		sg_link_t l;

		xbt_dynar_reset(links);
		sg_host_get_route(p->hosts[p->devices[r]].sg, h->sg, links);
		xbt_dynar_foreach (links, i, l) {
			int slot = dl_strmap_get(&ls->slots, sg_link_get_name(l));

			if (slot >= 0 && p->links[slot / 2].cls == DL_LINK_DRAM && !split(&p->links[slot / 2]))
				found = slot / 2;
		}
		if (xbt_dynar_length(links) > 0)
			break;	/* every route to a socket ends on its memory link */
	}
	xbt_dynar_free(&links);
	return found;
}

void mc_links_summary(const struct mc_links *ls, double seconds, struct mc_link_summary *s)
{
	const struct dl_platform *p = ls->p;
	int sockets = 0;

	memset(s, 0, sizeof(*s));
	for (int i = 0; i < p->nlinks; i++)
		for (int d = 0; d < (split(&p->links[i]) ? 2 : 1); d++)
			s->class_bytes[p->links[i].cls] += link_bytes(ls, i, d);
	for (int i = 0; i < p->nhosts; i++) {
		int l;

		if (p->hosts[i].role != DL_ROLE_CPU || (l = socket_dram(ls, &p->hosts[i])) < 0)
			continue;
		sockets++;
		s->cpu_mem_bw_avg_Bps += seconds > 0 ? ls->shared_bytes[l] / seconds : 0;
		s->cpu_mem_bw_max_Bps = fmax(s->cpu_mem_bw_max_Bps, ls->shared_max_Bps[l]);
	}
	if (sockets)
		s->cpu_mem_bw_avg_Bps /= sockets;
}

void mc_links_write_csv(const struct mc_links *ls, double seconds, FILE *f)
{
	const struct dl_platform *p = ls->p;

	fprintf(f, "link,class,direction,counted,bandwidth_Bps,bytes,busy_fraction\n");
	for (int i = 0; i < p->nlinks; i++) {
		const struct dl_link *l = &p->links[i];

		for (int d = 0; d < (split(l) ? 2 : 1); d++) {
			double bytes = link_bytes(ls, i, d);

			/* Busy fraction: bytes over what the link could carry
			 * in the iteration. */
			fprintf(f, "%s,%s,%s,%s,%.17g,%.17g,%.6f\n", l->name, dl_link_class_name(l->cls),
				split(l) ? (d ? "down" : "up") : "shared",
				split(l) ? "overlay" : "all", l->bandwidth, bytes,
				seconds > 0 ? bytes / (l->bandwidth * seconds) : 0.0);
		}
	}
}
