/* SPDX-License-Identifier: MIT */
/* The training iteration: per-device actors and their bookkeeping. */
#include "train.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <simgrid/actor.h>
#include <simgrid/cond.h>
#include <simgrid/engine.h>
#include <simgrid/mutex.h>
#include <xbt/log.h>

#include "lib/diag.h"
#include "machine/engine.h"
#include "results/outfile.h"
#include "coll/coll.h"
#include "backing/backing.h"
#include "backing/linkstats.h"
#include "power.h"

XBT_LOG_NEW_DEFAULT_CATEGORY(mcdla_train, "training iteration of the memory-centric study");

struct sim;

struct dev {
	struct sim *sim;
	int rank;
	sg_host_t host;
	sg_mutex_t mx;
	sg_cond_t cv;		/* any change below */
	double resident;	/* stash bytes on the device */
	bool *present;		/* per stash entry */
	bool *offloaded;
	bool *prefetched;	/* back on the device for backward */
	struct bk_alloc **remote;
	int *out_queue;		/* offload queue, -1 ends it */
	int out_posted;
	bool fwd_done;
	struct dlasim_coll_call *calls;	/* collective queue, bytes < 0 ends it */
	int posted, done;
	long last_gather;	/* number of the last all-gather for dW */
	double *arrive_s, *end_s_of;	/* per collective: entered, left */
	struct mc_dev_stats st;
	bool finished;		/* the iteration ended (st.end_s is its time) */
};

struct sim {
	const struct mc_train_cfg *cfg;
	struct dl_platform *p;
	struct mc_workload *w;
	struct mc_plan plan;
	struct mc_device device;
	char device_name[64];
	bool overlay;		/* memory overlaying (not the oracle) */
	double compression;	/* stash bytes per migrated byte */
	struct mc_power power;
	double budget;		/* stash bytes a device can hold */
	int *offload_order;	/* stash entries by last forward use */
	struct bk_pages *pages;
	struct bk_backing *backing;
	struct dl_coll *coll;
	struct bk_links links;
	struct dev *dev;
};

/* ---- waiting on a device's state ---- */

typedef bool (*dev_pred)(const struct dev *d, long arg);

/* Block until pred holds; returns the time waited. */
static double dev_wait(struct dev *d, dev_pred pred, long arg)
{
	double t0 = simgrid_get_clock();

	sg_mutex_lock(d->mx);
	while (!pred(d, arg))
		sg_cond_wait(d->cv, d->mx);
	sg_mutex_unlock(d->mx);
	return simgrid_get_clock() - t0;
}

static void dev_changed(struct dev *d)
{
	sg_cond_notify_all(d->cv);
}

static bool room_for(const struct dev *d, long e)
{
	return d->resident + d->sim->plan.stash[e].bytes <= d->sim->budget + 1e-6;
}

static bool prefetchable(const struct dev *d, long e)
{
	return d->offloaded[e] && room_for(d, e);
}

static bool is_prefetched(const struct dev *d, long e)
{
	return d->prefetched[e];
}

static bool collectives_done(const struct dev *d, long k)
{
	return d->done >= k;
}

static bool offload_posted(const struct dev *d, long k)
{
	return d->out_posted > k;
}

static bool call_posted(const struct dev *d, long k)
{
	return d->posted > k;
}

static bool forward_done(const struct dev *d, long unused)
{
	return d->fwd_done;
}

/* Entry e counts in device memory: it is kept for backward. */
static bool overlaid(const struct sim *s, int e)
{
	return s->overlay && e >= 0 && s->plan.stash[e].first_bwd_use >= 0;
}

/* It also goes to the backing store and back. */
static bool migrated(const struct sim *s, int e)
{
	return overlaid(s, e) && !s->plan.stash[e].kept;
}

/* Bytes of entry e in the backing store and on the way: a compressing
 * DMA engine (cDMA, docs/model.md) stores and moves them compressed. */
static double migrated_bytes(const struct sim *s, int e)
{
	return s->plan.stash[e].bytes / s->compression;
}

static void compute(struct dev *d, double seconds)
{
	if (seconds > 0) {
		sg_actor_sleep_for(seconds);
		d->st.compute_s += seconds;
	}
}

/* Queue a collective on the device's communication stream; its number. */
static long post_coll(struct dev *d, enum dlasim_coll_op op, double bytes)
{
	const struct dl_platform *p = d->sim->p;

	d->calls[d->posted] = (struct dlasim_coll_call){
		.op = op, .bytes = bytes, .ranks = p->ndevices, .rings = p->nrings,
	};
	d->posted++;
	dev_changed(d);
	return d->posted;
}

/* ---- actors ---- */

/* Communication stream: runs the queued collectives in order (SPMD),
 * noting when it entered and left each. */
static void comm_stream(void *arg)
{
	struct dev *d = arg;

	for (long k = 0;; k++) {
		dev_wait(d, call_posted, k);
		if (d->calls[k].bytes < 0)
			return;
		d->arrive_s[k] = simgrid_get_clock();
		if (d->sim->coll)	/* one device: nothing to exchange */
			dl_coll_call(d->sim->coll, d->rank, &d->calls[k]);
		d->end_s_of[k] = simgrid_get_clock();
		d->done = (int)k + 1;
		dev_changed(d);
	}
}

/* Offload DMA: writes feature maps to the backing store, in order. */
static void dma_out(void *arg)
{
	struct dev *d = arg;
	struct sim *s = d->sim;

	for (long k = 0;; k++) {
		int e;
		double t0;

		dev_wait(d, offload_posted, k);
		if ((e = d->out_queue[k]) < 0)
			return;
		t0 = simgrid_get_clock();
		d->remote[e] = bk_pages_alloc(s->pages, d->rank, migrated_bytes(s, e));
		bk_backing_write(s->backing, d->remote[e]);
		d->st.virt_s += simgrid_get_clock() - t0;
		d->st.offload_bytes += migrated_bytes(s, e);
		d->offloaded[e] = true;
		d->present[e] = false;
		d->resident -= s->plan.stash[e].bytes;
		dev_changed(d);
	}
}

/* Prefetch DMA: brings feature maps back in order of backward use, as far
 * ahead as device memory allows. */
static void dma_in(void *arg)
{
	struct dev *d = arg;
	struct sim *s = d->sim;

	dev_wait(d, forward_done, 0);
	for (int k = 0; k < s->plan.nprefetch; k++) {
		int e = s->plan.prefetch_order[k];
		double t0;

		if (!migrated(s, e))
			continue;
		dev_wait(d, prefetchable, e);
		d->resident += s->plan.stash[e].bytes;
		t0 = simgrid_get_clock();
		bk_backing_read(s->backing, d->remote[e]);
		d->st.virt_s += simgrid_get_clock() - t0;
		d->st.prefetch_bytes += migrated_bytes(s, e);
		bk_pages_free(s->pages, d->remote[e]);
		d->remote[e] = NULL;
		d->present[e] = true;
		d->prefetched[e] = true;
		dev_changed(d);
	}
	bk_backing_done(s->backing, d->rank);
}

/*
 * A step over its batch tiles: each tile's all-gather (model-parallel) is
 * queued while the tile before it computes, one tile ahead.
 */
static void forward_tiles(struct dev *d, const struct mc_op *op)
{
	double part = op->gather_bytes / op->tiles;
	long next = 0;

	if (part > 0)
		next = post_coll(d, DLASIM_COLL_ALLGATHER, part);
	for (int k = 0; k < op->tiles; k++) {
		long gathered = next;

		if (part > 0 && k + 1 < op->tiles)
			next = post_coll(d, DLASIM_COLL_ALLGATHER, part);
		if (gathered)
			d->st.sync_exposed_s += dev_wait(d, collectives_done, gathered);
		compute(d, op->fwd_s / op->tiles);
	}
}

static void forward(struct dev *d)
{
	struct sim *s = d->sim;
	int next_off = 0;

	for (int i = 0; i < s->plan.nops; i++) {
		const struct mc_op *op = &s->plan.op[i];

		if (overlaid(s, op->stash)) {
			d->st.virt_exposed_s += dev_wait(d, room_for, op->stash);
			d->resident += s->plan.stash[op->stash].bytes;
			d->present[op->stash] = true;
		}
		forward_tiles(d, op);
		/* Offload what this step was the last forward reader of. */
		for (; next_off < s->plan.nstash &&
		       s->plan.stash[s->offload_order[next_off]].last_fwd_use <= i; next_off++) {
			int e = s->offload_order[next_off];

			if (migrated(s, e))
				d->out_queue[d->out_posted++] = e;
		}
		dev_changed(d);
	}
	d->fwd_done = true;
	dev_changed(d);
}

/*
 * Backward of a step over its batch tiles: X gathered again for the
 * weight gradient (model-parallel) while the backward data pass runs,
 * dX all-reduced while the weight gradient is computed.  A recurrent
 * layer's weight gradient waits for the gathers of all its steps (the
 * stream is FIFO, so for the last one).
 */
static void backward_tiles(struct dev *d, const struct mc_op *op)
{
	double gather = op->bwd_gather_bytes / op->tiles, dx = op->dx_reduce_bytes / op->tiles;
	long reduced = 0;

	for (int k = 0; k < op->tiles; k++) {
		if (gather > 0)
			d->last_gather = post_coll(d, DLASIM_COLL_ALLGATHER, gather);
		compute(d, op->bwd_s / op->tiles);
		/* Each device keeps its split of X, so its split of dX is all
		 * it needs: a reduce-scatter moves half an all-reduce's bytes;
		 * Figure 4's all-reduce is the default. */
		if (dx > 0)
			reduced = post_coll(d, d->sim->cfg->dx_reduce_scatter ?
					    DLASIM_COLL_REDUCESCATTER : DLASIM_COLL_ALLREDUCE, dx);
		if (op->wgrad_s > 0 && d->last_gather)
			d->st.sync_exposed_s += dev_wait(d, collectives_done, d->last_gather);
		compute(d, op->wgrad_s / op->tiles);
	}
	if (op->dw_reduce_bytes > 0)
		post_coll(d, DLASIM_COLL_ALLREDUCE, op->dw_reduce_bytes);
	if (reduced)
		d->st.sync_exposed_s += dev_wait(d, collectives_done, reduced);
}

static void backward_step(struct dev *d, int i)
{
	struct sim *s = d->sim;
	const struct mc_op *op = &s->plan.op[i];

	/* Every migrated entry goes out and comes back (Section IV: the
	 * overlay stresses the interconnect even where memory would fit), so
	 * backward waits for the prefetched copy, not for the original; with
	 * --overlay spill the entries that fit stay (mc_plan_keep). */
	for (int k = 0; k < op->nneed; k++)
		if (migrated(s, op->need[k]))
			d->st.virt_exposed_s += dev_wait(d, is_prefetched, op->need[k]);
	backward_tiles(d, op);
	for (int k = 0; k < op->nneed; k++) {
		int e = op->need[k];

		if (overlaid(s, e) && s->plan.stash[e].last_bwd_use == i) {
			d->present[e] = false;
			d->resident -= s->plan.stash[e].bytes;
		}
	}
	dev_changed(d);
}

static void device_main(void *arg)
{
	struct dev *d = arg;
	struct sim *s = d->sim;

	forward(d);
	for (int i = s->plan.nops - 1; i >= 0; i--)
		backward_step(d, i);
	d->st.sync_exposed_s += dev_wait(d, collectives_done, d->posted);
	d->st.end_s = simgrid_get_clock();
	d->finished = true;
	XBT_DEBUG("device %d: iteration done at %g s", d->rank, d->st.end_s);

	d->calls[d->posted++].bytes = -1;
	d->out_queue[d->out_posted++] = -1;
	dev_changed(d);
}


/* ---- set-up and results ---- */

static int by_last_fwd_use(const void *a, const void *b, void *arg)
{
	const struct mc_stash *st = arg;
	int x = st[*(const int *)a].last_fwd_use, y = st[*(const int *)b].last_fwd_use;

	return (x > y) - (x < y);
}

static int alloc_devices(struct sim *s)
{
	int n = s->plan.nstash, p = s->p->ndevices;

	s->dev = calloc(p, sizeof(*s->dev));
	s->offload_order = calloc(n, sizeof(int));
	if (!s->dev || !s->offload_order)
		return dl_err("out of memory");
	for (int e = 0; e < n; e++)
		s->offload_order[e] = e;
	qsort_r(s->offload_order, n, sizeof(int), by_last_fwd_use, s->plan.stash);
	for (int r = 0; r < p; r++) {
		struct dev *d = &s->dev[r];

		d->sim = s;
		d->rank = r;
		d->host = s->p->hosts[s->p->devices[r]].sg;
		d->present = calloc(n, sizeof(bool));
		d->offloaded = calloc(n, sizeof(bool));
		d->prefetched = calloc(n, sizeof(bool));
		d->remote = calloc(n, sizeof(*d->remote));
		d->out_queue = calloc(n + 1, sizeof(int));
		d->calls = calloc(s->plan.collectives + 1, sizeof(*d->calls));
		d->arrive_s = calloc(s->plan.collectives + 1, sizeof(double));
		d->end_s_of = calloc(s->plan.collectives + 1, sizeof(double));
		if (!d->present || !d->offloaded || !d->prefetched || !d->remote || !d->out_queue ||
		    !d->calls || !d->arrive_s || !d->end_s_of)
			return dl_err("out of memory");
		d->mx = sg_mutex_init();
		d->cv = sg_cond_init();
	}
	return 0;
}

static void free_devices(struct sim *s)
{
	for (int r = 0; s->dev && r < s->p->ndevices; r++) {
		struct dev *d = &s->dev[r];

		for (int e = 0; d->remote && e < s->plan.nstash; e++)
			if (d->remote[e])
				bk_pages_free(s->pages, d->remote[e]);
		free(d->present);
		free(d->offloaded);
		free(d->prefetched);
		free(d->remote);
		free(d->out_queue);
		free(d->calls);
		free(d->arrive_s);
		free(d->end_s_of);
		if (d->mx)
			sg_mutex_destroy(d->mx);
		if (d->cv)
			sg_cond_destroy(d->cv);
	}
	free(s->dev);
	free(s->offload_order);
}

static void start_actors(struct sim *s)
{
	for (int r = 0; r < s->p->ndevices; r++) {
		struct dev *d = &s->dev[r];

		dl_actor_start("device", d->host, device_main, d);
		dl_actor_start("comm-stream", d->host, comm_stream, d);
		if (s->overlay) {
			dl_actor_start("dma-out", d->host, dma_out, d);
			dl_actor_start("dma-in", d->host, dma_in, d);
		}
	}
}

/*
 * Synchronization (Figure 11) is a collective's communication: from the
 * last device's arrival to each device's end.  Before that, a device that
 * arrived early waits for its peers; that wait is counted apart.
 */
static void sync_times(const struct sim *s, struct mc_train_result *r)
{
	int n = s->p->ndevices, calls = s->dev[0].done;

	for (int k = 0; k < calls; k++) {
		double last = 0;

		for (int i = 0; i < n; i++)
			last = fmax(last, s->dev[i].arrive_s[k]);
		for (int i = 0; i < n; i++) {
			const struct dev *d = &s->dev[i];

			r->sync_s += fmax(0, d->end_s_of[k] - last) / n;
			r->sync_wait_s += fmax(0, fmin(last, d->end_s_of[k]) - d->arrive_s[k]) / n;
		}
	}
}

/*
 * SimGrid ends the run when no actor can move; a device still inside its
 * iteration then waited on something that never came.  The collectives
 * are the one part a plugin can leave hanging (`dlasim coll` names the
 * same); anything else is a defect of the model, named as well.
 */
static int check_finished(const struct sim *s)
{
	for (int i = 0; i < s->p->ndevices; i++) {
		const struct dev *d = &s->dev[i];

		if (d->finished)
			continue;
		if (s->coll && d->done < d->posted)
			return dl_err("collective plugin '%s' (%s) deadlocked: device %d never finished collective %d of the iteration",
				      dl_coll_name(s->coll), dl_coll_path(s->coll), i, d->done + 1);
		return dl_err("%s: device %d never finished the iteration (its actors waited on each other)",
			      s->cfg->workload, i);
	}
	return 0;
}

static void collect(const struct sim *s, struct mc_train_result *r)
{
	int n = s->p->ndevices;

	mc_result_start(r, s->w->name, n);
	r->workload_format = s->w->format;
	snprintf(r->device, sizeof(r->device), "%s", s->device_name);
	for (int i = 0; i < n; i++)
		mc_result_add_device(r, &s->dev[i].st);
	sync_times(s, r);
	mc_result_machine(r, s->cfg, s->p, &s->links, &s->power);
}

const char *mc_train_coll(const struct mc_train_cfg *cfg, const struct dl_platform *p)
{
	return cfg->coll ? cfg->coll : dl_coll_default(p);
}

bool mc_train_overlays(const struct mc_train_cfg *cfg)
{
	return !isinf(cfg->device_memory);
}

int mc_train_check_plugins(const struct mc_train_cfg *cfg)
{
	if (mc_train_overlays(cfg) && bk_pages_check(cfg->page_alloc, "--page-alloc"))
		return -1;
	if (cfg->coll && dl_coll_check(cfg->coll, "--coll"))
		return -1;
	return 0;
}

void mc_result_start(struct mc_train_result *r, const char *workload, int devices)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->workload, sizeof(r->workload), "%s", workload);
	r->devices = devices;
}

void mc_result_add_device(struct mc_train_result *r, const struct mc_dev_stats *st)
{
	int n = r->devices;

	r->iteration_s = fmax(r->iteration_s, st->end_s);
	r->compute_s += st->compute_s / n;
	r->sync_s += st->sync_s / n;
	r->sync_exposed_s += st->sync_exposed_s / n;
	r->virt_s += st->virt_s / n;
	r->virt_exposed_s += st->virt_exposed_s / n;
	r->offload_bytes += st->offload_bytes / n;
	r->prefetch_bytes += st->prefetch_bytes / n;
}

void mc_result_machine(struct mc_train_result *r, const struct mc_train_cfg *cfg,
		       const struct dl_platform *p, const struct bk_links *links,
		       const struct mc_power *power)
{
	struct bk_link_summary ls;

	snprintf(r->coll, sizeof(r->coll), "%s", p->ndevices == 1 ? "none" : mc_train_coll(cfg, p));
	bk_links_summary(links, r->iteration_s, &ls);
	memcpy(r->class_bytes, ls.class_bytes, sizeof(r->class_bytes));
	r->cpu_mem_bw_avg_Bps = ls.cpu_mem_bw_avg_Bps;
	r->cpu_mem_bw_max_Bps = ls.cpu_mem_bw_max_Bps;
	r->cpu_mem_bw_window_s = ls.cpu_mem_bw_window_s;
	r->memory_node_tdp_w = power->memory_w;
	r->system_power_w = power->system_w;
}

static int prepare(struct sim *s)
{
	const struct mc_train_cfg *cfg = s->cfg;

	if (dl_platform_require_devices(s->p) ||
	    (s->p->ndevices > 1 && dl_platform_require_rings(s->p)) ||
	    mc_platform_power(s->p, &s->power) || bk_links_init(&s->links, s->p))
		return -1;
	if (mc_device_for_run(&s->device, s->p, cfg->device, s->w->dtype, s->device_name,
			      sizeof(s->device_name)))
		return -1;
	s->compression = cfg->compression > 0 ? cfg->compression : 1;
	if (mc_plan_build(&s->plan, s->w, &s->device, cfg->batch, s->p->ndevices, cfg->mode))
		return -1;
	if (mc_plan_fit(&s->plan, s->w, &s->device, cfg->device_memory, "--device-memory", &s->budget))
		return -1;
	s->overlay = mc_train_overlays(cfg);
	if (s->overlay && cfg->overlay_spill)
		mc_plan_keep(&s->plan, s->budget);
	if (s->overlay && (bk_pages_open(&s->pages, s->p, cfg->page_alloc, "--page-alloc",
					 cfg->page_bytes) ||
			   bk_backing_start(&s->backing, s->pages, &s->links)))
		return -1;
	if (s->p->ndevices > 1) {
		if (dl_coll_open(&s->coll, s->p, mc_train_coll(cfg, s->p), "--coll"))
			return -1;
		dl_coll_set_traffic(s->coll, s->links.traffic);
	} else if (cfg->coll) {
		dl_warn("--coll %s: %s has one device, no collective runs", cfg->coll, s->p->file);
	}
	return alloc_devices(s);
}

static void teardown(struct sim *s)
{
	free_devices(s);
	dl_coll_close(s->coll);
	bk_backing_free(s->backing);
	bk_pages_close(s->pages);
	mc_plan_free(&s->plan);
	bk_links_free(&s->links);
	mc_workload_free(s->w);
	dl_platform_free(s->p);
}

int mc_train_run(const struct mc_train_cfg *cfg, struct mc_train_result *r)
{
	struct sim s = { .cfg = cfg };
	struct dl_outfile csv = { 0 };
	int ret = -1;

	if (mc_train_check_plugins(cfg) || mc_workload_read(&s.w, cfg->workload))
		return -1;
	if (dl_engine_start(cfg->platform, &s.p))
		goto out;
	if (prepare(&s))
		goto out;
	if (cfg->link_stats && dl_outfile_open(&csv, cfg->link_stats, "--link-stats"))
		goto out;
	start_actors(&s);
	if (dl_engine_run() || check_finished(&s))
		goto out;
	collect(&s, r);
	if (cfg->link_stats) {
		bk_links_write_csv(&s.links, r->iteration_s, csv.f);
		if (dl_outfile_commit(&csv))
			goto out;
	}
	ret = 0;
out:
	if (ret && cfg->link_stats && csv.f)
		dl_outfile_abort(&csv);
	teardown(&s);
	return ret;
}
