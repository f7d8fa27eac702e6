/* SPDX-License-Identifier: MIT */
/*
 * Running a Chakra trace (docs/chakra.md): every device runs its nodes on
 * six engines, each an actor taking its nodes in trace order as their
 * dependencies complete.  Compute nodes take the device model's roofline
 * time, collectives run through the collective plugin, sends and receives
 * are SimGrid transfers between the devices, and memory stores and loads
 * move their bytes to and from the device's backing store through the
 * page-allocation plugin, as memory overlaying does in `train`.
 */
#include "chakra_run.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <simgrid/actor.h>
#include <simgrid/cond.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/mailbox.h>
#include <simgrid/mutex.h>

#include "lib/diag.h"
#include "machine/engine.h"
#include "results/outfile.h"
#include "coll/coll.h"
#include "backing.h"
#include "chakra.h"
#include "device.h"
#include "linkstats.h"
#include "power.h"

struct et_sim;

struct et_dev {
	struct et_sim *sim;
	int rank;
	const struct mc_et_rank *trace;
	sg_host_t host;
	sg_mutex_t mx;
	sg_cond_t cv;			/* a node finished */
	bool *done;			/* per node */
	struct mc_alloc **stored;	/* per store node, until its last load */
	int *loads_left;		/* per store node */
	int engines_left, memory_engines_left;
	double compute_end_s;		/* when the compute engine finished */
	struct mc_dev_stats st;
};

struct et_engine {
	struct et_dev *dev;
	enum mc_et_engine kind;
};

struct et_sim {
	const struct mc_train_cfg *cfg;
	struct dl_platform *p;
	struct mc_et *et;
	struct mc_device device;
	bool memory;			/* memory nodes move bytes */
	struct mc_pages *pages;
	struct mc_backing *backing;
	struct dl_coll *coll;
	struct mc_links links;
	struct mc_power power;
	struct et_dev *dev;
	struct et_engine *engines;
};

/* ---- time of a node ---- */

/*
 * A compute node on the device roofline: its num_ops are flops, two per
 * multiply-accumulate, its tensor_size the HBM bytes it moves; without
 * either, the trace's measured duration.  Host (CPU) ops take no device
 * time.
 */
double mc_et_compute_time(const struct mc_device *d, const struct mc_et_node *n)
{
	if (n->nop || n->cpu)
		return 0;
	if (n->flops > 0 || n->bytes > 0)
		return mc_stream_time(d, n->flops / 2, n->bytes);
	return n->duration_s;
}

/* ---- waiting ---- */

static void wait_done(struct et_dev *d, int node)
{
	sg_mutex_lock(d->mx);
	while (!d->done[node])
		sg_cond_wait(d->cv, d->mx);
	sg_mutex_unlock(d->mx);
}

static void mark_done(struct et_dev *d, int node)
{
	sg_mutex_lock(d->mx);
	d->done[node] = true;
	sg_cond_notify_all(d->cv);
	sg_mutex_unlock(d->mx);
}

/* Wait for every dependency of node i; the compute engine books what it
 * waited for on communication and on memory as exposed time. */
static void wait_deps(struct et_dev *d, const struct mc_et_node *n, bool compute)
{
	for (int k = 0; k < n->ndeps; k++) {
		enum mc_et_engine e = d->trace->node[n->dep[k]].engine;
		double t0 = simgrid_get_clock();

		wait_done(d, n->dep[k]);
		if (!compute)
			continue;
		if (e == MC_ET_STORE || e == MC_ET_LOAD)
			d->st.virt_exposed_s += simgrid_get_clock() - t0;
		else if (e != MC_ET_COMPUTE)
			d->st.sync_exposed_s += simgrid_get_clock() - t0;
	}
}

/* ---- the nodes ---- */

static sg_mailbox_t p2p_mailbox(int src, int dst, int tag)
{
	char name[64];

	snprintf(name, sizeof(name), "chakra:%d:%d:%d", src, dst, tag);
	return sg_mailbox_by_name(name);
}

static void run_message(struct et_dev *d, const struct mc_et_node *n)
{
	struct et_sim *s = d->sim;
	double t0 = simgrid_get_clock();

	if (n->engine == MC_ET_SEND) {
		sg_mailbox_put(p2p_mailbox(d->rank, n->peer, n->tag), d, n->bytes);
		mc_links_transfer(&s->links, d->host, s->dev[n->peer].host, n->bytes, t0,
				  simgrid_get_clock());
	} else {
		sg_mailbox_get(p2p_mailbox(n->peer, d->rank, n->tag));
	}
	d->st.sync_s += simgrid_get_clock() - t0;
}

static void run_store(struct et_dev *d, int i, const struct mc_et_node *n)
{
	struct et_sim *s = d->sim;
	struct mc_alloc *a = mc_pages_alloc(s->pages, d->rank, n->bytes);

	mc_backing_write(s->backing, a);
	d->st.offload_bytes += n->bytes;
	if (n->loads) {
		d->stored[i] = a;
		d->loads_left[i] = n->loads;
	} else {
		mc_pages_free(s->pages, a);
	}
}

/* A load reads the store it depends on (freed after its last load), or
 * bytes that were in the backing store before the trace began. */
static void run_load(struct et_dev *d, const struct mc_et_node *n)
{
	struct et_sim *s = d->sim;
	struct mc_alloc *a;

	if (n->store < 0) {
		a = mc_pages_alloc(s->pages, d->rank, n->bytes);
	} else {
		a = d->stored[n->store];
		if (a->bytes != n->bytes)
			dl_sim_error("%s: node %llu '%s' loads %.0f bytes of store node %llu, which wrote %.0f",
				     d->trace->file, (unsigned long long)n->id, n->name, n->bytes,
				     (unsigned long long)d->trace->node[n->store].id, a->bytes);
	}
	mc_backing_read(s->backing, a);
	d->st.prefetch_bytes += n->bytes;
	if (n->store < 0 || --d->loads_left[n->store] == 0) {
		mc_pages_free(s->pages, a);
		if (n->store >= 0)
			d->stored[n->store] = NULL;
	}
}

static void run_node(struct et_dev *d, int i)
{
	const struct mc_et_node *n = &d->trace->node[i];
	struct et_sim *s = d->sim;
	double t0 = simgrid_get_clock(), t;

	switch (n->engine) {
	case MC_ET_COMPUTE:
		if ((t = mc_et_compute_time(&s->device, n)) > 0) {
			sg_actor_sleep_for(t);
			d->st.compute_s += t;
		}
		return;
	case MC_ET_COLLECTIVE: {
		struct dlasim_coll_call call = {
			.op = n->op, .bytes = n->bytes, .ranks = s->p->ndevices, .rings = s->p->nrings,
		};

		dl_coll_call(s->coll, d->rank, &call);
		d->st.sync_s += simgrid_get_clock() - t0;
		return;
	}
	case MC_ET_SEND:
	case MC_ET_RECV:
		run_message(d, n);
		return;
	case MC_ET_STORE:
		if (s->memory)
			run_store(d, i, n);
		break;
	case MC_ET_LOAD:
		if (s->memory)
			run_load(d, n);
		break;
	default:
		return;
	}
	d->st.virt_s += simgrid_get_clock() - t0;
}

/* ---- engines ---- */

/*
 * The device is done when its last engine is; what that engine ran after
 * the last compute node is exposed too, as in `train` (communication, or
 * memory overlaying).
 */
static void engine_done(struct et_dev *d, enum mc_et_engine kind)
{
	struct et_sim *s = d->sim;
	double now = simgrid_get_clock();
	bool memory = kind == MC_ET_STORE || kind == MC_ET_LOAD;

	if (memory && !--d->memory_engines_left && s->memory)
		mc_backing_done(s->backing, d->rank);
	if (kind == MC_ET_COMPUTE)
		d->compute_end_s = now;
	if (--d->engines_left)
		return;
	d->st.end_s = now;
	if (kind == MC_ET_COMPUTE)
		return;
	if (memory)
		d->st.virt_exposed_s += now - d->compute_end_s;
	else
		d->st.sync_exposed_s += now - d->compute_end_s;
}

static void engine_main(void *arg)
{
	struct et_engine *e = arg;
	struct et_dev *d = e->dev;

	for (int i = 0; i < d->trace->nnodes; i++) {
		if (d->trace->node[i].engine != e->kind)
			continue;
		wait_deps(d, &d->trace->node[i], e->kind == MC_ET_COMPUTE);
		run_node(d, i);
		mark_done(d, i);
	}
	engine_done(d, e->kind);
}

static const char *const engine_names[MC_ET_ENGINES] = {
	"et-compute", "et-collective", "et-send", "et-recv", "et-store", "et-load",
};

static int start_devices(struct et_sim *s)
{
	int n = s->p->ndevices;

	s->dev = calloc(n, sizeof(*s->dev));
	s->engines = calloc((size_t)n * MC_ET_ENGINES, sizeof(*s->engines));
	if (!s->dev || !s->engines)
		return dl_err("out of memory");
	for (int r = 0; r < n; r++) {
		struct et_dev *d = &s->dev[r];
		int nodes;

		d->sim = s;
		d->rank = r;
		d->trace = mc_et_rank_of(s->et, r);
		d->host = s->p->hosts[s->p->devices[r]].sg;
		nodes = d->trace->nnodes ? d->trace->nnodes : 1;
		d->done = calloc(nodes, sizeof(bool));
		d->stored = calloc(nodes, sizeof(*d->stored));
		d->loads_left = calloc(nodes, sizeof(int));
		if (!d->done || !d->stored || !d->loads_left)
			return dl_err("out of memory");
		d->mx = sg_mutex_init();
		d->cv = sg_cond_init();
		d->engines_left = MC_ET_ENGINES;
		d->memory_engines_left = 2;
	}
	for (int r = 0; r < n; r++) {
		for (int k = 0; k < MC_ET_ENGINES; k++) {
			struct et_engine *e = &s->engines[r * MC_ET_ENGINES + k];

			*e = (struct et_engine){ &s->dev[r], (enum mc_et_engine)k };
			dl_actor_start(engine_names[k], s->dev[r].host, engine_main, e);
		}
	}
	return 0;
}

/* ---- set-up and results ---- */

/* Sends need a route between the two devices (SimGrid aborts without). */
static int check_routes(const struct et_sim *s)
{
	for (int r = 0; r < s->p->ndevices; r++) {
		const struct mc_et_rank *rk = mc_et_rank_of(s->et, r);

		for (int i = 0; i < rk->nnodes; i++) {
			const struct mc_et_node *n = &rk->node[i];

			if (n->engine == MC_ET_SEND &&
			    !dl_route_exists(s->p, s->p->devices[r], s->p->devices[n->peer]))
				return dl_err("%s: node %llu '%s': platform %s has no route from rank %d to rank %d",
					      rk->file, (unsigned long long)n->id, n->name, s->p->file, r,
					      n->peer);
		}
	}
	return 0;
}

static int prepare(struct et_sim *s)
{
	const struct mc_train_cfg *cfg = s->cfg;

	if (dl_platform_require_devices(s->p) || mc_platform_power(s->p, &s->power) ||
	    mc_links_init(&s->links, s->p))
		return -1;
	if (mc_et_read(&s->et, cfg->workload, s->p->ndevices) || check_routes(s))
		return -1;
	mc_device_defaults(&s->device);
	/* The oracle (--device-memory inf) keeps everything on the device. */
	s->memory = s->et->memory && mc_train_overlays(cfg);
	if (s->memory && (mc_pages_open(&s->pages, s->p, cfg->page_alloc, "--page-alloc",
					cfg->page_bytes) ||
			  mc_backing_start(&s->backing, s->pages, &s->links)))
		return -1;
	if (dl_coll_open(&s->coll, s->p, mc_train_coll(cfg, s->p), "--coll"))
		return -1;
	dl_coll_set_traffic(s->coll, s->links.traffic);
	return 0;
}

static void collect(const struct et_sim *s, struct mc_train_result *r)
{
	int n = s->p->ndevices;

	mc_result_start(r, s->et->name, n);
	for (int i = 0; i < n; i++)
		mc_result_add_device(r, &s->dev[i].st);
	mc_result_machine(r, s->cfg, s->p, &s->links, &s->power);
}

/* Every node of every rank ran; else name one that did not. */
static int check_finished(const struct et_sim *s)
{
	for (int r = 0; r < s->p->ndevices; r++) {
		const struct et_dev *d = &s->dev[r];

		for (int i = 0; i < d->trace->nnodes; i++)
			if (!d->done[i])
				return dl_err("%s: rank %d never finished node %llu '%s': the ranks wait on each other (sends and receives in an order that deadlocks)",
					      d->trace->file, r, (unsigned long long)d->trace->node[i].id,
					      d->trace->node[i].name);
	}
	return 0;
}

static void teardown(struct et_sim *s)
{
	for (int r = 0; s->dev && r < s->p->ndevices; r++) {
		struct et_dev *d = &s->dev[r];

		for (int i = 0; d->stored && i < d->trace->nnodes; i++)
			if (d->stored[i])
				mc_pages_free(s->pages, d->stored[i]);
		free(d->done);
		free(d->stored);
		free(d->loads_left);
		if (d->mx)
			sg_mutex_destroy(d->mx);
		if (d->cv)
			sg_cond_destroy(d->cv);
	}
	free(s->dev);
	free(s->engines);
	dl_coll_close(s->coll);
	mc_backing_free(s->backing);
	mc_pages_close(s->pages);
	mc_links_free(&s->links);
	mc_et_free(s->et);
	dl_platform_free(s->p);
}

int mc_chakra_run(const struct mc_train_cfg *cfg, struct mc_train_result *r)
{
	struct et_sim s = { .cfg = cfg };
	struct dl_outfile csv = { 0 };
	int ret = -1;

	if (mc_train_check_plugins(cfg) || dl_engine_start(cfg->platform, &s.p) || prepare(&s))
		goto out;
	if (cfg->link_stats && dl_outfile_open(&csv, cfg->link_stats, "--link-stats"))
		goto out;
	if (start_devices(&s) || dl_engine_run() || check_finished(&s))
		goto out;
	collect(&s, r);
	if (cfg->link_stats) {
		mc_links_write_csv(&s.links, r->iteration_s, csv.f);
		if (dl_outfile_commit(&csv))
			goto out;
	}
	ret = 0;
out:
	if (ret && csv.f)
		dl_outfile_abort(&csv);
	teardown(&s);
	return ret;
}
