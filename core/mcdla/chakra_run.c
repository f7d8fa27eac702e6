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
#include "backing/backing.h"
#include "backing/linkstats.h"
#include "chakra.h"
#include "device.h"
#include "power.h"

struct et_sim;
struct et_receive;

struct et_dev {
	struct et_sim *sim;
	int rank;
	const struct mc_et_rank *trace;
	sg_host_t host;
	sg_mutex_t mx;
	sg_cond_t cv;			/* a node finished */
	bool *done;			/* per node */
	bool *started;			/* per node */
	double *done_at;		/* per node: when it was done */
	struct bk_alloc **stored;	/* per store node, until its last load */
	int *loads_left;		/* per store node */
	int engines_left, memory_engines_left;
	double compute_end_s;		/* when the compute engine finished */
	int receives_left;		/* receive nodes not yet done */
	struct et_receive *receive;	/* per node (receive nodes only) */
	struct mc_dev_stats st;
};

/* A receive node waiting for its message in an actor of its own. */
struct et_receive {
	struct et_dev *dev;
	int node;
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
	char device_name[64];
	bool memory;			/* memory nodes move bytes */
	struct bk_pages *pages;
	struct bk_backing *backing;
	/* Communicators: comm[0] every rank, comm[1 + g] process group g;
	 * all-to-all runs on a2a[] (the --coll plugin's own communicators
	 * when it runs all-to-all). */
	struct dl_coll **comm, **a2a;
	int ncomms;
	struct bk_links links;
	struct mc_power power;
	struct et_dev *dev;
	struct et_engine *engines;
};

/* ---- time of a node ---- */

/*
 * A compute node on the device roofline: its num_ops are flops, two per
 * multiply-accumulate, its tensor_size the HBM bytes it moves; without
 * either, the trace's measured duration.  Host (CPU) operators run on the
 * CPU engine for their recorded duration instead.
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
	d->done_at[node] = simgrid_get_clock();
	sg_cond_notify_all(d->cv);
	sg_mutex_unlock(d->mx);
}

/* Wait for every dependency of a node. */
static void wait_deps(struct et_dev *d, const struct mc_et_node *n)
{
	for (int k = 0; k < n->ndeps; k++)
		wait_done(d, n->dep[k]);
}

static bool deps_done(const struct et_dev *d, const struct mc_et_node *n)
{
	for (int k = 0; k < n->ndeps; k++)
		if (!d->done[n->dep[k]])
			return false;
	return true;
}

/*
 * The next node an engine runs, as ASTRA-sim issues nodes: the first in
 * trace order whose dependencies are done, waiting while none is; -1 when
 * the engine has none left.  *from skips the nodes already started.
 */
static int next_ready(struct et_dev *d, enum mc_et_engine kind, int *from)
{
	const struct mc_et_rank *t = d->trace;
	int pick = -1;

	sg_mutex_lock(d->mx);
	for (;;) {
		bool left = false;

		while (*from < t->nnodes && (t->node[*from].engine != kind || d->started[*from]))
			(*from)++;
		for (int i = *from; i < t->nnodes && pick < 0; i++) {
			if (t->node[i].engine != kind || d->started[i])
				continue;
			left = true;
			if (deps_done(d, &t->node[i]))
				pick = i;
		}
		if (pick >= 0 || !left)
			break;
		sg_cond_wait(d->cv, d->mx);
	}
	if (pick >= 0)
		d->started[pick] = true;
	sg_mutex_unlock(d->mx);
	return pick;
}

/* The compute engine idled from t0 until node n was ready: exposed time
 * of the engine whose node n waited for last (communication or memory). */
static void book_idle(struct et_dev *d, const struct mc_et_node *n, double t0)
{
	double idle = simgrid_get_clock() - t0, last = -1;
	enum mc_et_engine e = MC_ET_COMPUTE;

	for (int k = 0; k < n->ndeps; k++) {
		if (d->done_at[n->dep[k]] > last) {
			last = d->done_at[n->dep[k]];
			e = d->trace->node[n->dep[k]].engine;
		}
	}
	if (idle <= 0)
		return;
	if (e == MC_ET_STORE || e == MC_ET_LOAD)
		d->st.virt_exposed_s += idle;
	else if (e != MC_ET_COMPUTE)
		d->st.sync_exposed_s += idle;
}

/* ---- the nodes ---- */

static sg_mailbox_t p2p_mailbox(int src, int dst, int tag)
{
	char name[64];

	snprintf(name, sizeof(name), "chakra:%d:%d:%d", src, dst, tag);
	return sg_mailbox_by_name(name);
}

/*
 * A send as ASTRA-sim has it: it does not wait for its receive to be
 * posted.  The receiving device's receive engine is the permanent
 * receiver of the mailbox (set_receivers()), so the transfer starts when
 * the send is issued and the send is done when its bytes have arrived.
 */
static void run_send(struct et_dev *d, const struct mc_et_node *n)
{
	struct et_sim *s = d->sim;
	double t0 = simgrid_get_clock();

	sg_mailbox_put(p2p_mailbox(d->rank, n->peer, n->tag), d, n->bytes);
	bk_links_transfer(&s->links, d->host, s->dev[n->peer].host, n->bytes, t0,
			  simgrid_get_clock());
	d->st.sync_s += simgrid_get_clock() - t0;
}

/* A receive: done once it is issued and its message has arrived. */
static void receive_main(void *arg)
{
	struct et_receive *rv = arg;
	struct et_dev *d = rv->dev;
	const struct mc_et_node *n = &d->trace->node[rv->node];
	double t0;

	wait_deps(d, n);
	t0 = simgrid_get_clock();
	sg_mailbox_get(p2p_mailbox(n->peer, d->rank, n->tag));
	d->st.sync_s += simgrid_get_clock() - t0;
	sg_mutex_lock(d->mx);
	d->done[rv->node] = true;
	d->done_at[rv->node] = simgrid_get_clock();
	d->receives_left--;
	sg_cond_notify_all(d->cv);
	sg_mutex_unlock(d->mx);
}

static void run_store(struct et_dev *d, int i, const struct mc_et_node *n)
{
	struct et_sim *s = d->sim;
	struct bk_alloc *a = bk_pages_alloc(s->pages, d->rank, n->bytes);

	bk_backing_write(s->backing, a);
	d->st.offload_bytes += n->bytes;
	if (n->loads) {
		d->stored[i] = a;
		d->loads_left[i] = n->loads;
	} else {
		bk_pages_free(s->pages, a);
	}
}

/* A load reads the store it depends on (freed after its last load), or
 * bytes that were in the backing store before the trace began. */
static void run_load(struct et_dev *d, const struct mc_et_node *n)
{
	struct et_sim *s = d->sim;
	struct bk_alloc *a;

	if (n->store < 0) {
		a = bk_pages_alloc(s->pages, d->rank, n->bytes);
	} else {
		a = d->stored[n->store];
		if (a->bytes != n->bytes)
			dl_sim_error("%s: node %llu '%s' loads %.0f bytes of store node %llu, which wrote %.0f",
				     d->trace->file, (unsigned long long)n->id, n->name, n->bytes,
				     (unsigned long long)d->trace->node[n->store].id, a->bytes);
	}
	bk_backing_read(s->backing, a);
	d->st.prefetch_bytes += n->bytes;
	if (n->store < 0 || --d->loads_left[n->store] == 0) {
		bk_pages_free(s->pages, a);
		if (n->store >= 0)
			d->stored[n->store] = NULL;
	}
}

/* This device's rank in the communicator of a collective. */
static int comm_rank(const struct et_sim *s, const struct mc_et_node *n, int rank)
{
	const struct mc_et_group *g;

	if (n->group < 0)
		return rank;
	g = &s->et->group[n->group];
	for (int i = 0; i < g->n; i++)
		if (g->rank[i] == rank)
			return i;
	return -1;	/* cannot be: mc_et_read() checked membership */
}

static void run_collective(struct et_dev *d, const struct mc_et_node *n)
{
	struct et_sim *s = d->sim;
	int c = n->group + 1;
	struct dlasim_coll_call call = {
		.op = n->op, .bytes = n->bytes, .rings = s->p->nrings,
		.ranks = n->group < 0 ? s->p->ndevices : s->et->group[n->group].n,
	};

	dl_coll_call(n->op == DLASIM_COLL_ALLTOALL ? s->a2a[c] : s->comm[c],
		     comm_rank(s, n, d->rank), &call);
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
	case MC_ET_CPU:
		if (n->duration_s > 0)
			sg_actor_sleep_for(n->duration_s);
		return;
	case MC_ET_COLLECTIVE:
		run_collective(d, n);
		d->st.sync_s += simgrid_get_clock() - t0;
		return;
	case MC_ET_SEND:
		run_send(d, n);
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
		bk_backing_done(s->backing, d->rank);
	if (kind == MC_ET_COMPUTE || kind == MC_ET_CPU)
		d->compute_end_s = fmax(d->compute_end_s, now);
	if (--d->engines_left)
		return;
	d->st.end_s = now;
	if (kind == MC_ET_COMPUTE || kind == MC_ET_CPU)
		return;
	if (memory)
		d->st.virt_exposed_s += now - d->compute_end_s;
	else
		d->st.sync_exposed_s += now - d->compute_end_s;
}

/* Permanent receiver of every mailbox this device receives from. */
static void set_receivers(struct et_dev *d)
{
	char name[64];

	for (int i = 0; i < d->trace->nnodes; i++) {
		const struct mc_et_node *n = &d->trace->node[i];

		if (n->engine != MC_ET_RECV)
			continue;
		snprintf(name, sizeof(name), "chakra:%d:%d:%d", n->peer, d->rank, n->tag);
		sg_mailbox_set_receiver(name);
	}
}

/*
 * The receive engine: every receive is issued as soon as its dependencies
 * are done, however many are outstanding (ASTRA-sim limits sends and
 * collectives to one at a time, not receives), each in an actor of its
 * own; the engine lives until the last one is done, as the receiver of
 * the device's mailboxes.
 */
static void receive_engine(struct et_dev *d)
{
	struct et_receive *rv;

	set_receivers(d);
	for (int i = 0; i < d->trace->nnodes; i++) {
		if (d->trace->node[i].engine != MC_ET_RECV)
			continue;
		rv = &d->receive[i];
		*rv = (struct et_receive){ d, i };
		dl_actor_start("et-receive", d->host, receive_main, rv);
	}
	sg_mutex_lock(d->mx);
	while (d->receives_left)
		sg_cond_wait(d->cv, d->mx);
	sg_mutex_unlock(d->mx);
	engine_done(d, MC_ET_RECV);
}

static void engine_main(void *arg)
{
	struct et_engine *e = arg;
	struct et_dev *d = e->dev;

	if (e->kind == MC_ET_RECV) {
		receive_engine(d);
		return;
	}
	/* Sends go once every receive engine is its mailboxes' receiver. */
	if (e->kind == MC_ET_SEND)
		sg_actor_yield();
	/* Collectives keep trace order: the ranks of a communicator must call
	 * them in the same order. */
	if (e->kind == MC_ET_COLLECTIVE) {
		for (int i = 0; i < d->trace->nnodes; i++) {
			if (d->trace->node[i].engine != e->kind)
				continue;
			wait_deps(d, &d->trace->node[i]);
			run_node(d, i);
			mark_done(d, i);
		}
	} else {
		int from = 0, i;
		double t0 = simgrid_get_clock();

		while ((i = next_ready(d, e->kind, &from)) >= 0) {
			if (e->kind == MC_ET_COMPUTE)
				book_idle(d, &d->trace->node[i], t0);
			run_node(d, i);
			mark_done(d, i);
			t0 = simgrid_get_clock();
		}
	}
	engine_done(d, e->kind);
}

static const char *const engine_names[MC_ET_ENGINES] = {
	"et-compute", "et-collective", "et-send", "et-recv", "et-store", "et-load", "et-cpu",
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
		d->receive = calloc(nodes, sizeof(*d->receive));
		d->started = calloc(nodes, sizeof(bool));
		d->done_at = calloc(nodes, sizeof(double));
		if (!d->done || !d->stored || !d->loads_left || !d->receive || !d->started ||
		    !d->done_at)
			return dl_err("out of memory");
		for (int i = 0; i < d->trace->nnodes; i++)
			d->receives_left += d->trace->node[i].engine == MC_ET_RECV;
		d->mx = sg_mutex_init();
		d->cv = sg_cond_init();
		d->engines_left = MC_ET_ENGINES;
		d->memory_engines_left = 2;
	}
	/* Receive engines first: they become their mailboxes' receivers
	 * before any send is issued. */
	for (int pass = 0; pass < 2; pass++) {
		for (int r = 0; r < n; r++) {
			for (int k = 0; k < MC_ET_ENGINES; k++) {
				struct et_engine *e = &s->engines[r * MC_ET_ENGINES + k];

				if ((k == MC_ET_RECV) != (pass == 0))
					continue;
				*e = (struct et_engine){ &s->dev[r], (enum mc_et_engine)k };
				dl_actor_start(engine_names[k], s->dev[r].host, engine_main, e);
			}
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

static bool runs_alltoall(const struct mc_et *et, int group)
{
	for (int r = 0; r < et->nranks; r++)
		for (int i = 0; i < et->rank[r].nnodes; i++)
			if (et->rank[r].node[i].op == DLASIM_COLL_ALLTOALL &&
			    et->rank[r].node[i].engine == MC_ET_COLLECTIVE &&
			    et->rank[r].node[i].group == group)
				return true;
	return false;
}

/*
 * One communicator per process group and one of every rank, with the
 * --coll plugin; all-to-all on the plugin's own if it runs them, else on
 * communicators of the alltoall plugin (made only where the trace has
 * all-to-all).
 */
static int open_comms(struct et_sim *s)
{
	const char *spec = mc_train_coll(s->cfg, s->p);

	s->ncomms = s->et->ngroups + 1;
	s->comm = calloc(s->ncomms, sizeof(*s->comm));
	s->a2a = calloc(s->ncomms, sizeof(*s->a2a));
	if (!s->comm || !s->a2a)
		return dl_err("out of memory");
	for (int c = 0; c < s->ncomms; c++) {
		const struct mc_et_group *g = c ? &s->et->group[c - 1] : NULL;

		if (dl_coll_open_group(&s->comm[c], s->p, spec, "--coll", g ? g->rank : NULL,
				       g ? g->n : 0))
			return -1;
		dl_coll_set_traffic(s->comm[c], s->links.traffic);
		if (!runs_alltoall(s->et, c - 1) || dl_coll_supports(s->comm[c], DLASIM_COLL_ALLTOALL))
			continue;
		if (dl_coll_open_group(&s->a2a[c], s->p, "alltoall", "all-to-all of the trace",
				       g ? g->rank : NULL, g ? g->n : 0))
			return -1;
		dl_coll_set_traffic(s->a2a[c], s->links.traffic);
	}
	for (int c = 0; c < s->ncomms; c++)
		if (!s->a2a[c])
			s->a2a[c] = s->comm[c];
	return 0;
}

static int prepare(struct et_sim *s)
{
	const struct mc_train_cfg *cfg = s->cfg;

	if (dl_platform_require_devices(s->p) || mc_platform_power(s->p, &s->power) ||
	    bk_links_init(&s->links, s->p))
		return -1;
	if (mc_et_read(&s->et, cfg->workload, s->p->ndevices) || check_routes(s))
		return -1;
	if (mc_device_for_run(&s->device, s->p, cfg->device, DL_FP32, s->device_name,
			      sizeof(s->device_name)))
		return -1;
	/* The oracle (--device-memory inf) keeps everything on the device. */
	s->memory = s->et->memory && mc_train_overlays(cfg);
	if (s->memory && (bk_pages_open(&s->pages, s->p, cfg->page_alloc, "--page-alloc",
					cfg->page_bytes) ||
			  bk_backing_start(&s->backing, s->pages, &s->links)))
		return -1;
	return open_comms(s);
}

static void collect(const struct et_sim *s, struct mc_train_result *r)
{
	int n = s->p->ndevices;

	mc_result_start(r, s->et->name, n);
	r->workload_format = "chakra";
	snprintf(r->device, sizeof(r->device), "%s", s->device_name);
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
				bk_pages_free(s->pages, d->stored[i]);
		free(d->done);
		free(d->stored);
		free(d->loads_left);
		free(d->receive);
		free(d->started);
		free(d->done_at);
		if (d->mx)
			sg_mutex_destroy(d->mx);
		if (d->cv)
			sg_cond_destroy(d->cv);
	}
	free(s->dev);
	free(s->engines);
	for (int c = 0; c < s->ncomms; c++) {
		if (s->a2a && s->a2a[c] != s->comm[c])
			dl_coll_close(s->a2a[c]);
		dl_coll_close(s->comm ? s->comm[c] : NULL);
	}
	free(s->comm);
	free(s->a2a);
	bk_backing_free(s->backing);
	bk_pages_close(s->pages);
	bk_links_free(&s->links);
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
		bk_links_write_csv(&s.links, r->iteration_s, csv.f);
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
