/* SPDX-License-Identifier: MIT */
/* Link load: per class, CPU memory bandwidth, per-link CSV. */
#include "linkstats.h"

#include <stdlib.h>
#include <string.h>

#include <simgrid/host.h>
#include <simgrid/link.h>
#include <simgrid/plugins/load.h>
#include <xbt/dynar.h>

#include "diag.h"

static int directions(const struct dl_link *l)
{
	return l->sharing == DL_SPLITDUPLEX ? 2 : 1;
}

/* The shared dram-class link on the routes to cpu host h (its index), or -1. */
static int socket_dram(const struct dl_platform *p, const struct dl_host *h)
{
	xbt_dynar_t links = xbt_dynar_new(sizeof(sg_link_t), NULL);
	int found = -1;

	for (int r = 0; r < p->ndevices && found < 0; r++) {
		unsigned k;
		sg_link_t l;

		xbt_dynar_reset(links);
		sg_host_get_route(p->hosts[p->devices[r]].sg, h->sg, links);
		xbt_dynar_foreach (links, k, l) {
			for (int i = 0; i < p->nlinks; i++)
				if (p->links[i].sg[0] == l && p->links[i].cls == DL_LINK_DRAM &&
				    p->links[i].sharing != DL_SPLITDUPLEX)
					found = i;
		}
	}
	xbt_dynar_free(&links);
	return found;
}

int mc_links_init(struct mc_links *ls, const struct dl_platform *p)
{
	memset(ls, 0, sizeof(*ls));
	ls->p = p;
	ls->sockets = calloc((size_t)p->nhosts + 1, sizeof(int));
	ls->peak_Bps = calloc((size_t)p->nhosts + 1, sizeof(double));
	if (!ls->sockets || !ls->peak_Bps || dl_traffic_open(&ls->traffic, p)) {
		mc_links_free(ls);
		return dl_err("out of memory");
	}
	for (int h = 0; h < p->nhosts; h++) {
		int i;

		if (p->hosts[h].role == DL_ROLE_CPU && (i = socket_dram(p, &p->hosts[h])) >= 0)
			ls->sockets[ls->nsockets++] = i;
	}
	return 0;
}

void mc_links_free(struct mc_links *ls)
{
	dl_traffic_close(ls->traffic);
	free(ls->sockets);
	free(ls->peak_Bps);
	memset(ls, 0, sizeof(*ls));
}

void mc_links_track(struct mc_links *ls)
{
	for (int k = 0; k < ls->nsockets; k++)
		sg_link_load_track(ls->p->links[ls->sockets[k]].sg[0]);
}

void mc_links_sample(struct mc_links *ls)
{
	for (int k = 0; k < ls->nsockets; k++)
		ls->peak_Bps[k] = sg_link_get_max_instantaneous_load(ls->p->links[ls->sockets[k]].sg[0]);
}

static double bytes(const struct mc_links *ls, int link, int dir)
{
	return dl_traffic_bytes(ls->traffic, link, dir);
}

void mc_links_summary(const struct mc_links *ls, double seconds, struct mc_link_summary *s)
{
	const struct dl_platform *p = ls->p;

	memset(s, 0, sizeof(*s));
	for (int i = 0; i < p->nlinks; i++)
		for (int d = 0; d < directions(&p->links[i]); d++)
			s->class_bytes[p->links[i].cls] += bytes(ls, i, d);
	for (int k = 0; k < ls->nsockets; k++) {
		if (seconds > 0)
			s->cpu_mem_bw_avg_Bps += bytes(ls, ls->sockets[k], 0) / seconds / ls->nsockets;
		if (ls->peak_Bps[k] > s->cpu_mem_bw_max_Bps)
			s->cpu_mem_bw_max_Bps = ls->peak_Bps[k];
	}
}

void mc_links_write_csv(const struct mc_links *ls, double seconds, FILE *f)
{
	const struct dl_platform *p = ls->p;

	fprintf(f, "link,class,direction,bandwidth_Bps,bytes,busy_fraction\n");
	for (int i = 0; i < p->nlinks; i++) {
		const struct dl_link *l = &p->links[i];

		for (int d = 0; d < directions(l); d++) {
			double b = bytes(ls, i, d);

			/* Busy fraction: bytes over what the link could carry
			 * during the iteration. */
			fprintf(f, "%s,%s,%s,%.17g,%.17g,%.6f\n", l->name, dl_link_class_name(l->cls),
				directions(l) == 2 ? (d ? "down" : "up") : "shared", l->bandwidth, b,
				seconds > 0 ? b / (l->bandwidth * seconds) : 0.0);
		}
	}
}
