/* SPDX-License-Identifier: MIT */
/* Link load: per class, CPU memory bandwidth, per-link CSV. */
#include "linkstats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <simgrid/host.h>
#include <simgrid/link.h>

#include "lib/diag.h"

static int directions(const struct dl_link *l)
{
	return l->sharing == DL_SPLITDUPLEX ? 2 : 1;
}

/* The shared dram-class link on the route from device host d to cpu host
 * h, or -1. */
static int route_dram(const struct dl_platform *p, struct dl_traffic *t, int d, int h)
{
	const int *slot;
	int n;

	if (!dl_route_exists(p, d, h))
		return -1;
	n = dl_traffic_route(t, p->hosts[d].sg, p->hosts[h].sg, &slot);
	for (int i = 0; i < n; i++) {
		const struct dl_link *l = &p->links[slot[i] / 2];

		if (l->cls == DL_LINK_DRAM && l->sharing != DL_SPLITDUPLEX)
			return slot[i] / 2;
	}
	return -1;
}

/*
 * What a socket's memory link can carry at most: its bandwidth, and no more
 * than the links next to it on the routes from and to the devices it backs
 * (e.g. DC-DLA's two PCIe switch uplinks, 16 GB/s each way).  seen[] marks
 * the neighbouring links already counted for this socket.
 */
static void add_feed(struct bk_links *ls, int k, int dev, int cpu, int *seen, double *feed)
{
	const struct dl_platform *p = ls->p;

	for (int way = 0; way < 2; way++) {
		int a = way ? cpu : dev, b = way ? dev : cpu, n;
		const int *slot;

		if (!dl_route_exists(p, a, b))
			continue;
		n = dl_traffic_route(ls->traffic, p->hosts[a].sg, p->hosts[b].sg, &slot);

		for (int i = 0; i < n; i++) {
			int next = way ? i + 1 : i - 1;

			if (slot[i] / 2 != ls->sockets[k] || next < 0 || next >= n ||
			    seen[slot[next]] == k + 1)
				continue;
			seen[slot[next]] = k + 1;
			*feed += p->links[slot[next] / 2].bandwidth;
		}
	}
}

#define MAX_BACKING 64

/*
 * The CPU sockets whose memory backs a device, found on the routes the
 * model uses (each device to the hosts of its dlasim.backing), never on
 * routes from every device to every socket.
 */
static int find_sockets(struct bk_links *ls)
{
	const struct dl_platform *p = ls->p;
	int *socket_of = malloc((size_t)p->nhosts * sizeof(int));	/* cpu host -> k */
	int *seen = calloc(2 * (size_t)p->nlinks + 1, sizeof(int));
	double *feed = calloc((size_t)p->nhosts + 1, sizeof(double));

	if (!socket_of || !seen || !feed) {
		free(socket_of);
		free(seen);
		free(feed);
		return dl_err("out of memory");
	}
	for (int h = 0; h < p->nhosts; h++)
		socket_of[h] = -1;
	for (int r = 0; r < p->ndevices; r++) {
		int backing[MAX_BACKING], d = p->devices[r];
		int n = dl_backing_hosts(p, d, backing, MAX_BACKING);

		for (int b = 0; b < n; b++) {
			int h = backing[b], k = socket_of[h], link;

			if (p->hosts[h].role != DL_ROLE_CPU)
				continue;
			if (k < 0) {
				if ((link = route_dram(p, ls->traffic, d, h)) < 0)
					continue;
				k = socket_of[h] = ls->nsockets++;
				ls->sockets[k] = link;
				ls->socket_link[link] = k;
			}
			add_feed(ls, k, d, h, seen, &feed[k]);
		}
	}
	for (int k = 0; k < ls->nsockets; k++) {
		double own = p->links[ls->sockets[k]].bandwidth;

		ls->socket_cap[k] = feed[k] > 0 ? fmin(own, feed[k]) : own;
	}
	free(socket_of);
	free(seen);
	free(feed);
	return 0;
}

int bk_links_init(struct bk_links *ls, const struct dl_platform *p)
{
	memset(ls, 0, sizeof(*ls));
	ls->p = p;
	ls->sockets = calloc((size_t)p->nhosts + 1, sizeof(int));
	ls->socket_link = malloc(((size_t)p->nlinks + 1) * sizeof(int));
	ls->socket_cap = calloc((size_t)p->nhosts + 1, sizeof(double));
	ls->window_bytes = calloc((size_t)p->nhosts + 1, sizeof(double *));
	ls->nwindows = calloc((size_t)p->nhosts + 1, sizeof(int));
	ls->window_s = BK_LINK_WINDOW_S;
	if (!ls->sockets || !ls->socket_link || !ls->socket_cap || !ls->window_bytes ||
	    !ls->nwindows || dl_traffic_open(&ls->traffic, p)) {
		bk_links_free(ls);
		return dl_err("out of memory");
	}
	for (int i = 0; i < p->nlinks; i++)
		ls->socket_link[i] = -1;
	if (find_sockets(ls)) {
		bk_links_free(ls);
		return -1;
	}
	return 0;
}

void bk_links_free(struct bk_links *ls)
{
	dl_traffic_close(ls->traffic);
	for (int k = 0; ls->window_bytes && k < ls->nsockets; k++)
		free(ls->window_bytes[k]);
	free(ls->window_bytes);
	free(ls->nwindows);
	free(ls->sockets);
	free(ls->socket_link);
	free(ls->socket_cap);
	memset(ls, 0, sizeof(*ls));
}

/* Twice as wide windows, each the sum of two, until t fits in them. */
static void widen_windows(struct bk_links *ls, double t)
{
	while (t >= BK_LINK_WINDOWS * ls->window_s) {
		for (int k = 0; k < ls->nsockets; k++) {
			double *wb = ls->window_bytes[k];
			int n = ls->nwindows[k];

			for (int w = 0; w < n; w++)
				wb[w] = (2 * w < n ? wb[2 * w] : 0) + (2 * w + 1 < n ? wb[2 * w + 1] : 0);
		}
		ls->window_s *= 2;
	}
}

/* Room for window w of socket k (w < BK_LINK_WINDOWS). */
static int reserve_windows(struct bk_links *ls, int k, int w)
{
	int n = 2 * w + 16 < BK_LINK_WINDOWS ? 2 * w + 16 : BK_LINK_WINDOWS;
	double *grown;

	if (w < ls->nwindows[k])
		return 0;
	grown = realloc(ls->window_bytes[k], n * sizeof(double));
	if (!grown)
		return -1;
	memset(grown + ls->nwindows[k], 0, (n - ls->nwindows[k]) * sizeof(double));
	ls->window_bytes[k] = grown;
	ls->nwindows[k] = n;
	return 0;
}

/* Spread `bytes` evenly over the windows of [t0, t1) of socket k. */
static void add_windows(struct bk_links *ls, int k, double bytes, double t0, double t1)
{
	double rate = t1 > t0 ? bytes / (t1 - t0) : 0;
	int w0, w1;

	if (!(rate > 0) || !isfinite(t1))
		return;
	widen_windows(ls, t1);
	w0 = (int)(t0 / ls->window_s);
	w1 = (int)fmin(t1 / ls->window_s, BK_LINK_WINDOWS - 1);
	if (reserve_windows(ls, k, w1))
		return;
	for (int w = w0; w <= w1; w++) {
		double a = fmax(t0, w * ls->window_s), b = fmin(t1, (w + 1) * ls->window_s);

		if (b > a)
			ls->window_bytes[k][w] += rate * (b - a);
	}
}

void bk_links_transfer(struct bk_links *ls, sg_host_t src, sg_host_t dst, double bytes,
		       double t0, double t1)
{
	const int *slot;
	int n;

	dl_traffic_add(ls->traffic, src, dst, bytes);
	/* The sockets' memory links on the route (each at most once). */
	n = dl_traffic_route(ls->traffic, src, dst, &slot);
	for (int i = 0; i < n; i++) {
		int k = ls->socket_link[slot[i] / 2];
		bool again = false;

		for (int j = 0; j < i && !again; j++)
			again = slot[j] / 2 == slot[i] / 2;
		if (k >= 0 && !again)
			add_windows(ls, k, bytes, t0, t1);
	}
}

/*
 * Highest window of socket k.  Concurrent transfers share links fluidly,
 * so spreading each evenly over its duration can put more into a window
 * than the memory link could carry: what it can carry bounds it.
 */
static double max_window(const struct bk_links *ls, int k)
{
	double m = 0, cap = ls->socket_cap[k];

	for (int w = 0; w < ls->nwindows[k]; w++)
		m = fmax(m, fmin(cap, ls->window_bytes[k][w] / ls->window_s));
	return m;
}

static double bytes(const struct bk_links *ls, int link, int dir)
{
	return dl_traffic_bytes(ls->traffic, link, dir);
}

void bk_links_summary(const struct bk_links *ls, double seconds, struct bk_link_summary *s)
{
	const struct dl_platform *p = ls->p;

	memset(s, 0, sizeof(*s));
	s->cpu_mem_bw_window_s = ls->window_s;
	for (int i = 0; i < p->nlinks; i++)
		for (int d = 0; d < directions(&p->links[i]); d++)
			s->class_bytes[p->links[i].cls] += bytes(ls, i, d);
	for (int k = 0; k < ls->nsockets; k++) {
		if (seconds > 0)
			s->cpu_mem_bw_avg_Bps += bytes(ls, ls->sockets[k], 0) / seconds / ls->nsockets;
		s->cpu_mem_bw_max_Bps = fmax(s->cpu_mem_bw_max_Bps, max_window(ls, k));
	}
}

void bk_links_write_csv(const struct bk_links *ls, double seconds, FILE *f)
{
	const struct dl_traffic *t = ls->traffic;

	dl_traffic_write_csv(ls->p, &t, 1, seconds, f);
}
