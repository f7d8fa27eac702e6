/* SPDX-License-Identifier: MIT */
/* Link load: per class, CPU memory bandwidth, per-link CSV. */
#include "linkstats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <simgrid/host.h>
#include <simgrid/link.h>
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
	ls->window_bytes = calloc((size_t)p->nlinks + 1, sizeof(double *));
	ls->nwindows = calloc((size_t)p->nlinks + 1, sizeof(int));
	if (!ls->overlay_bytes || !ls->names || !ls->window_bytes || !ls->nwindows)
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
	for (int i = 0; ls->window_bytes && i < ls->p->nlinks; i++)
		free(ls->window_bytes[i]);
	free(ls->window_bytes);
	free(ls->nwindows);
	memset(ls, 0, sizeof(*ls));
}

static bool cpu_memory(const struct mc_links *ls, int i)
{
	return ls->p->links[i].cls == DL_LINK_DRAM && !split(&ls->p->links[i]);
}

/* Spread `bytes` evenly over the windows of [t0, t1). */
static void add_windows(struct mc_links *ls, int i, double bytes, double t0, double t1)
{
	int w0 = (int)(t0 / MC_LINK_WINDOW_S), w1 = (int)(t1 / MC_LINK_WINDOW_S);
	double rate = t1 > t0 ? bytes / (t1 - t0) : 0;

	if (w1 >= ls->nwindows[i]) {
		int n = 2 * w1 + 16;
		double *grown = realloc(ls->window_bytes[i], n * sizeof(double));

		if (!grown)
			return;
		memset(grown + ls->nwindows[i], 0, (n - ls->nwindows[i]) * sizeof(double));
		ls->window_bytes[i] = grown;
		ls->nwindows[i] = n;
	}
	for (int w = w0; w <= w1 && rate > 0; w++) {
		double a = fmax(t0, w * MC_LINK_WINDOW_S), b = fmin(t1, (w + 1) * MC_LINK_WINDOW_S);

		if (b > a)
			ls->window_bytes[i][w] += rate * (b - a);
	}
}

void mc_links_add(struct mc_links *ls, sg_host_t src, sg_host_t dst, double bytes,
		  double t0, double t1)
{
	xbt_dynar_t links = xbt_dynar_new(sizeof(sg_link_t), NULL);
	unsigned i;
	sg_link_t l;

	sg_host_get_route(src, dst, links);
	xbt_dynar_foreach (links, i, l) {
		int slot = dl_strmap_get(&ls->slots, sg_link_get_name(l));

		if (slot < 0)
			continue;
		ls->overlay_bytes[slot] += bytes;
		if (cpu_memory(ls, slot / 2))
			add_windows(ls, slot / 2, bytes, t0, t1);
	}
	xbt_dynar_free(&links);
}

static double link_bytes(const struct mc_links *ls, int i, int dir)
{
	return ls->overlay_bytes[2 * i + dir];
}

static double max_window(const struct mc_links *ls, int i)
{
	double m = 0;

	for (int w = 0; w < ls->nwindows[i]; w++)
		m = fmax(m, ls->window_bytes[i][w] / MC_LINK_WINDOW_S);
	return m;
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
		s->cpu_mem_bw_avg_Bps += seconds > 0 ? link_bytes(ls, l, 0) / seconds : 0;
		s->cpu_mem_bw_max_Bps = fmax(s->cpu_mem_bw_max_Bps, max_window(ls, l));
	}
	if (sockets)
		s->cpu_mem_bw_avg_Bps /= sockets;
}

void mc_links_write_csv(const struct mc_links *ls, double seconds, FILE *f)
{
	const struct dl_platform *p = ls->p;

	fprintf(f, "link,class,direction,bandwidth_Bps,overlay_bytes,busy_fraction\n");
	for (int i = 0; i < p->nlinks; i++) {
		const struct dl_link *l = &p->links[i];

		for (int d = 0; d < (split(l) ? 2 : 1); d++) {
			double bytes = link_bytes(ls, i, d);

			/* Busy fraction: bytes over what the link could carry
			 * in the iteration. */
			fprintf(f, "%s,%s,%s,%.17g,%.17g,%.6f\n", l->name, dl_link_class_name(l->cls),
				split(l) ? (d ? "down" : "up") : "shared", l->bandwidth, bytes,
				seconds > 0 ? bytes / (l->bandwidth * seconds) : 0.0);
		}
	}
}
