/* SPDX-License-Identifier: MIT */
/* Page allocation: shares, plugin services, and the check of answers. */
#include "pages.h"

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <simgrid/host.h>

#include "lib/diag.h"
#include "machine/engine.h"
#include "plugin/plugin.h"
#include "lib/units.h"

/* Pages of a share with no dlasim.capacity (a CPU socket's memory). */
#define UNBOUNDED_PAGES (LONG_MAX / 4)
#define MAX_EXTENTS 64

/* A request as the host knows it: the plugin sees `req`. */
struct request {
	struct dlasim_page_request req;
	struct bk_pages *pg;
	struct dlasim_page_share share[MAX_EXTENTS];
};

static struct request *request_of(const struct dlasim_page_request *req)
{
	return (struct request *)((char *)req - offsetof(struct request, req));
}

/* ---- occupancy of a store ---- */

/* The first live run ending after page `page` (runs are disjoint and
 * sorted by first page, so their ends are sorted too), or nruns. */
static int run_after(const struct bk_store *st, long page)
{
	int lo = 0, hi = st->nruns;

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		if (st->first[mid] + st->count[mid] <= page)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Extend the packed prefix of runs as far as it goes. */
static void skip_packed(struct bk_store *st)
{
	long end = st->packed ? st->first[st->packed - 1] + st->count[st->packed - 1] : 0;

	while (st->packed < st->nruns && st->first[st->packed] == end) {
		end += st->count[st->packed];
		st->packed++;
	}
}

/* An extent of `ans` on `share` overlapping [first, first + n): its end,
 * else -1. */
static long extent_clash(const struct dlasim_page_answer *ans, int share, long first, long n)
{
	for (int i = 0; ans && i < ans->nextents; i++) {
		const struct dlasim_page_extent *e = &ans->extent[i];

		if (e->share == share && e->first < first + n && first < e->first + e->pages)
			return e->first + e->pages;
	}
	return -1;
}

/* Is [first, first + n) free of live runs and of `ans` extents on `share`? */
static bool range_free(const struct bk_store *st, const struct dlasim_page_answer *ans,
		       int share, long first, long n)
{
	int i = run_after(st, first);

	if (i < st->nruns && st->first[i] < first + n)
		return false;
	return extent_clash(ans, share, first, n) < 0;
}

/*
 * First fit: the lowest `pages` free pages, free of live runs and of the
 * extents `ans` has already placed on `share`.  Each failed try moves past
 * one run or one extent, and the runs are walked in order from a binary
 * search: linear in the runs, not quadratic.
 */
static long svc_first_free(const struct dlasim_page_request *r,
			   const struct dlasim_page_answer *ans, int share, long pages)
{
	struct request *q = request_of(r);
	struct bk_store *st;
	long first = 0, end;
	int i;

	if (share < 0 || share >= r->nshares || pages < 1)
		return -1;
	st = &q->pg->store[q->pg->dev_store[r->device][share]];
	/* Skip the runs packed from page 0: allocations mostly go after
	 * them, and walking them every time is quadratic. */
	skip_packed(st);
	first = st->packed ? st->first[st->packed - 1] + st->count[st->packed - 1] : 0;
	i = st->packed;
	while (first <= st->capacity_pages - pages) {
		if (i < st->nruns && st->first[i] < first + pages) {
			first = st->first[i] + st->count[i];
			i++;
			continue;
		}
		end = extent_clash(ans, share, first, pages);
		if (end < 0)
			return first;
		first = end;
		i = run_after(st, first);
	}
	return -1;
}

static const struct dlasim_page_services page_services = {
	.size = sizeof(struct dlasim_page_services),
	.first_free = svc_first_free,
};

static int insert_run(struct bk_store *st, long first, long n)
{
	int i;

	if (st->nruns == st->cap) {
		int cap = st->cap ? 2 * st->cap : 16;
		long *f = realloc(st->first, cap * sizeof(long));

		if (f)
			st->first = f;
		long *c = f ? realloc(st->count, cap * sizeof(long)) : NULL;

		if (!c)
			return dl_err("out of memory");
		st->count = c;
		st->cap = cap;
	}
	for (i = st->nruns; i > 0 && st->first[i - 1] > first; i--) {
		st->first[i] = st->first[i - 1];
		st->count[i] = st->count[i - 1];
	}
	if (i < st->packed)	/* cannot happen: no gap to fill there */
		st->packed = 0;
	st->first[i] = first;
	st->count[i] = n;
	st->nruns++;
	st->used_pages += n;
	return 0;
}

static void remove_run(struct bk_store *st, long first)
{
	int i = run_after(st, first);

	if (i == st->nruns || st->first[i] != first)
		return;
	if (i < st->packed)
		st->packed = i;
	st->used_pages -= st->count[i];
	memmove(&st->first[i], &st->first[i + 1], (size_t)(st->nruns - i - 1) * sizeof(long));
	memmove(&st->count[i], &st->count[i + 1], (size_t)(st->nruns - i - 1) * sizeof(long));
	st->nruns--;
}

/* ---- set-up ---- */

static int store_of(struct bk_pages *pg, int host)
{
	const struct dl_host *h = &pg->p->hosts[host];
	const char *cap = dl_host_prop(h, "dlasim.capacity"), *mn, *why;
	struct bk_store *grown, *st;
	double bytes;

	for (int i = 0; i < pg->nstores; i++)
		if (pg->store[i].host == host)
			return i;
	grown = realloc(pg->store, (pg->nstores + 1) * sizeof(*grown));
	if (!grown)
		return dl_err("out of memory");
	pg->store = grown;
	st = &pg->store[pg->nstores];
	memset(st, 0, sizeof(*st));
	st->host = host;
	mn = dl_host_prop(h, "dlasim.memory-node");
	st->memory_node = mn ? mn : h->name;
	st->capacity_pages = UNBOUNDED_PAGES;
	if (cap) {
		if ((why = dl_parse_size(cap, &bytes)))
			return dl_err("%s:%d: host '%s': dlasim.capacity '%s': %s", pg->p->file,
				      h->line, h->name, cap, why);
		st->capacity_pages = (long)fmin(floor(bytes / pg->page_bytes), (double)UNBOUNDED_PAGES);
	}
	return pg->nstores++;
}

static int device_shares(struct bk_pages *pg, int rank)
{
	const struct dl_host *d = &pg->p->hosts[pg->p->devices[rank]];
	const char *backing = dl_host_prop(d, "dlasim.backing");
	char buf[1024], *save = NULL;
	int n = 0, *idx = calloc(MAX_EXTENTS, sizeof(int));

	pg->dev_store[rank] = idx;
	if (!idx)
		return dl_err("out of memory");
	if (!backing)
		return dl_err("%s:%d: device '%s' has no dlasim.backing property (the hosts backing its memory)",
			      pg->p->file, d->line, d->name);
	snprintf(buf, sizeof(buf), "%s", backing);
	for (char *t = strtok_r(buf, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
		int h = dl_host_index(pg->p, t), s;

		if (h < 0 || (pg->p->hosts[h].role != DL_ROLE_MEMORY && pg->p->hosts[h].role != DL_ROLE_CPU))
			return dl_err("%s:%d: device '%s': dlasim.backing names '%s', which is not a memory or cpu host",
				      pg->p->file, d->line, d->name, t);
		if (n == MAX_EXTENTS)
			return dl_err("%s:%d: device '%s': more than %d backing hosts", pg->p->file,
				      d->line, d->name, MAX_EXTENTS);
		s = store_of(pg, h);
		if (s < 0)
			return -1;
		idx[n++] = s;
	}
	if (n == 0)
		return dl_err("%s:%d: device '%s': empty dlasim.backing", pg->p->file, d->line, d->name);
	pg->dev_nshares[rank] = n;
	return 0;
}

static bool check_ops(const void *ops, const char **why)
{
	const struct dlasim_page_ops *o = ops;

	if (o->size < offsetof(struct dlasim_page_ops, place) + sizeof(o->place)) {
		*why = "ops struct too small";
		return false;
	}
	if (!o->place) {
		*why = "place() is required";
		return false;
	}
	return true;
}

int bk_pages_check(const char *spec, const char *option)
{
	return dl_plugin_check(DLASIM_KIND_PAGE_ALLOC, spec, option, check_ops);
}

int bk_pages_open(struct bk_pages **out, struct dl_platform *p, const char *spec,
		  const char *option, double page_bytes)
{
	struct bk_pages *pg = calloc(1, sizeof(*pg));

	*out = NULL;
	if (!pg)
		return dl_err("out of memory");
	pg->p = p;
	pg->page_bytes = page_bytes;
	pg->dev_store = calloc(p->ndevices, sizeof(int *));
	pg->dev_nshares = calloc(p->ndevices, sizeof(int));
	if (!pg->dev_store || !pg->dev_nshares) {
		dl_err("out of memory");
		goto fail;
	}
	for (int r = 0; r < p->ndevices; r++)
		if (device_shares(pg, r))
			goto fail;
	dl_host_api.page = &page_services;
	if (dl_plugin_open(&pg->plugin, DLASIM_KIND_PAGE_ALLOC, spec, option, check_ops))
		goto fail;
	pg->ops = pg->plugin->desc->ops;
	*out = pg;
	return 0;
fail:
	bk_pages_close(pg);
	return -1;
}

void bk_pages_close(struct bk_pages *pg)
{
	if (!pg)
		return;
	dl_plugin_close(pg->plugin);
	for (int i = 0; i < pg->nstores; i++) {
		free(pg->store[i].first);
		free(pg->store[i].count);
	}
	for (int r = 0; pg->dev_store && r < pg->p->ndevices; r++)
		free(pg->dev_store[r]);
	free(pg->dev_store);
	free(pg->dev_nshares);
	free(pg->store);
	free(pg);
}

/* ---- allocation ---- */

static void bad_answer(const struct bk_pages *pg, int rank, const char *fmt, ...)
	__attribute__((format(printf, 3, 4), noreturn));

static void bad_answer(const struct bk_pages *pg, int rank, const char *fmt, ...)
{
	char where[32], msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(where, sizeof(where), ", device %d", rank);
	dl_sim_plugin_error(pg->plugin, where, "%s", msg);
}

static void build_request(struct bk_pages *pg, struct request *q, int rank, double bytes)
{
	memset(q, 0, sizeof(*q));
	q->pg = pg;
	q->req.size = sizeof(q->req);
	q->req.device = rank;
	q->req.bytes = bytes;
	q->req.page_bytes = pg->page_bytes;
	q->req.pages = (long)ceil(bytes / pg->page_bytes);
	q->req.nshares = pg->dev_nshares[rank];
	q->req.share = q->share;
	for (int s = 0; s < q->req.nshares; s++) {
		const struct bk_store *st = &pg->store[pg->dev_store[rank][s]];
		const struct dl_host *h = &pg->p->hosts[st->host];

		q->share[s] = (struct dlasim_page_share){
			.host = h->name,
			.memory_node = st->memory_node,
			.capacity_pages = st->capacity_pages,
			.used_pages = st->used_pages,
			.bandwidth_Bps = sg_host_get_route_bandwidth(
				pg->p->hosts[pg->p->devices[rank]].sg, h->sg),
		};
	}
}

/* Every extent inside an existing share and its capacity, no overlap,
 * exactly the requested pages. */
static void check_answer(struct bk_pages *pg, const struct request *q,
			 const struct dlasim_page_answer *ans)
{
	int rank = q->req.device;
	long total = 0;

	if (ans->nextents < 1 || ans->nextents > ans->max_extents)
		bad_answer(pg, rank, "answered %d extents for %ld pages (1 to %d expected)",
			   ans->nextents, q->req.pages, ans->max_extents);
	for (int i = 0; i < ans->nextents; i++) {
		const struct dlasim_page_extent *e = &ans->extent[i];
		struct dlasim_page_answer before = *ans;
		const struct bk_store *st;

		if (e->share < 0 || e->share >= q->req.nshares)
			bad_answer(pg, rank, "extent %d names memory share %d, which does not exist (the device has %d: share 0 to %d)",
				   i, e->share, q->req.nshares, q->req.nshares - 1);
		st = &pg->store[pg->dev_store[rank][e->share]];
		if (e->pages < 1 || e->first < 0 || e->first > st->capacity_pages - e->pages)
			bad_answer(pg, rank, "extent %d: pages %ld..%ld of share %s are beyond its capacity of %ld pages",
				   i, e->first, e->first + e->pages - 1, q->share[e->share].host,
				   st->capacity_pages);
		before.nextents = i;
		if (!range_free(st, &before, e->share, e->first, e->pages))
			bad_answer(pg, rank, "extent %d: pages %ld..%ld of share %s overlap pages already allocated",
				   i, e->first, e->first + e->pages - 1, q->share[e->share].host);
		total += e->pages;
	}
	if (total != q->req.pages)
		bad_answer(pg, rank, "mapped %ld pages, %ld were requested", total, q->req.pages);
}

static struct bk_alloc *record(struct bk_pages *pg, const struct request *q,
			       const struct dlasim_page_answer *ans)
{
	struct bk_alloc *a = calloc(1, sizeof(*a));
	int rank = q->req.device;
	double excess = q->req.pages * pg->page_bytes - q->req.bytes;

	if (!a || !(a->extent = malloc(ans->nextents * sizeof(*a->extent))) ||
	    !(a->share_bytes = calloc(q->req.nshares, sizeof(double)))) {
		dl_err("out of memory");
		dl_sim_fail();
	}
	a->rank = rank;
	a->bytes = q->req.bytes;
	a->nextents = ans->nextents;
	memcpy(a->extent, ans->extent, ans->nextents * sizeof(*a->extent));
	for (int i = 0; i < ans->nextents; i++) {
		const struct dlasim_page_extent *e = &ans->extent[i];

		if (insert_run(&pg->store[pg->dev_store[rank][e->share]], e->first, e->pages))
			dl_sim_fail();
		a->share_bytes[e->share] += e->pages * pg->page_bytes;
	}
	/* The last page is only partly used. */
	a->share_bytes[ans->extent[ans->nextents - 1].share] -= excess;
	return a;
}

struct bk_alloc *bk_pages_alloc(struct bk_pages *pg, int rank, double bytes)
{
	struct dlasim_page_extent extent[MAX_EXTENTS];
	struct dlasim_page_answer ans = {
		.size = sizeof(ans), .max_extents = MAX_EXTENTS, .extent = extent,
	};
	struct request q;

	build_request(pg, &q, rank, bytes);
	if (pg->ops->place(pg->plugin->state, &dl_host_api, &q.req, &ans) != DLASIM_OK)
		bad_answer(pg, rank, "place() failed for %.0f bytes (%ld pages)", bytes, q.req.pages);
	check_answer(pg, &q, &ans);
	return record(pg, &q, &ans);
}

void bk_pages_free(struct bk_pages *pg, struct bk_alloc *a)
{
	struct dlasim_page_answer ans = {
		.size = sizeof(ans), .max_extents = a->nextents, .nextents = a->nextents,
		.extent = a->extent,
	};
	struct request q;

	for (int i = 0; i < a->nextents; i++)
		remove_run(&pg->store[pg->dev_store[a->rank][a->extent[i].share]], a->extent[i].first);
	if (DLASIM_HAS_MEMBER(pg->ops, struct dlasim_page_ops, release) && pg->ops->release) {
		build_request(pg, &q, a->rank, a->bytes);
		pg->ops->release(pg->plugin->state, &dl_host_api, &q.req, &ans);
	}
	free(a->extent);
	free(a->share_bytes);
	free(a);
}
