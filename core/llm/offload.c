/* SPDX-License-Identifier: MIT */
/* Offload to the backing store: the run's plan and every device's DMA actors. */
#include "offload.h"

#include <math.h>
#include <stdlib.h>

#include <simgrid/cond.h>
#include <simgrid/engine.h>
#include <simgrid/mutex.h>

#include "lib/diag.h"
#include "machine/engine.h"
#include "backing/backing.h"
#include "backing/linkstats.h"
#include "backing/pages.h"

/* The page of a remote allocation: dlasim train's default. */
#define PAGE_BYTES 65536.0

/* Chunks moved in order: the stage actor asks for writes and takes what
 * the reads brought; a DMA actor does them. */
struct stream {
	long asked, done, taken, total;
};

struct llm_offload_dev {
	struct llm_offload *o;
	int rank;
	sg_host_t host;
	long layers, slots;		/* the stage's layers; checkpoint slots */
	double ckpt_bytes, param_bytes, opt_bytes;	/* one chunk of each */
	struct bk_alloc **ckpt;		/* checkpoint i in slot i % slots */
	struct bk_alloc **param, **opt;	/* per layer, for the whole run */
	sg_mutex_t mx;
	sg_cond_t cv;
	struct stream ck_out, ck_in, par_in, opt_in, opt_out;
	bool placed, step_asked, step_done;
	int actors_left;
	double wait_s, moved;
};

struct llm_offload {
	const struct llm_cfg *cfg;
	const struct llm_model *m;
	struct dl_platform *p;
	struct llm_offloaded *split;	/* per stage */
	struct bk_pages *pg;
	struct bk_links links;
	bool links_open;
	struct bk_backing *b;
	bool *client;			/* per platform rank */
	struct llm_offload_dev **dev;
	int ndev;
	bool oom;			/* an attach failed */
};

/* ---- the DMA actors ---- */

static void wait_until(struct llm_offload_dev *d, const long *counter, long value)
{
	sg_mutex_lock(d->mx);
	while (*counter < value)
		sg_cond_wait(d->cv, d->mx);
	sg_mutex_unlock(d->mx);
}

static void bump(struct llm_offload_dev *d, long *counter)
{
	sg_mutex_lock(d->mx);
	(*counter)++;
	sg_cond_notify_all(d->cv);
	sg_mutex_unlock(d->mx);
}

static void move(struct llm_offload_dev *d, const struct bk_alloc *a, bool out)
{
	if (out)
		bk_backing_write(d->o->b, a);
	else
		bk_backing_read(d->o->b, a);
	d->moved += a->bytes;
}

/* The optimizer states and parameters live in the backing store for the
 * whole run: placed once, before the first transfer, by whichever DMA
 * actor runs first (actors do not preempt each other). */
static void place(struct llm_offload_dev *d)
{
	if (d->placed)
		return;
	d->placed = true;
	for (long l = 0; l < d->layers; l++) {
		if (d->param_bytes > 0)
			d->param[l] = bk_pages_alloc(d->o->pg, d->rank, d->param_bytes);
		if (d->opt_bytes > 0)
			d->opt[l] = bk_pages_alloc(d->o->pg, d->rank, d->opt_bytes);
	}
}

/* The last DMA actor of a device lets its controllers end. */
static void actor_done(struct llm_offload_dev *d)
{
	if (--d->actors_left == 0)
		bk_backing_done(d->o->b, d->rank);
}

static void step_wait(struct llm_offload_dev *d)
{
	sg_mutex_lock(d->mx);
	while (!d->step_asked)
		sg_cond_wait(d->cv, d->mx);
	sg_mutex_unlock(d->mx);
}

/* Out: each checkpoint once its forward is done; at the step every
 * optimizer chunk once read and updated, then the updated parameters. */
static void writer_main(void *arg)
{
	struct llm_offload_dev *d = arg;

	place(d);
	for (long i = 0; i < d->ck_out.total; i++) {
		struct bk_alloc **slot = &d->ckpt[i % d->slots];

		wait_until(d, &d->ck_out.asked, i + 1);
		if (*slot)
			dl_sim_error("llm: device %d: checkpoint slot %ld still in use (more micro-batches in flight than the schedule allows)",
				     d->rank, i % d->slots);
		*slot = bk_pages_alloc(d->o->pg, d->rank, d->ckpt_bytes);
		move(d, *slot, true);
		bump(d, &d->ck_out.done);
	}
	step_wait(d);
	for (long l = 0; l < d->opt_out.total; l++) {
		wait_until(d, &d->opt_in.done, l + 1);
		move(d, d->opt[l], true);
		bump(d, &d->opt_out.done);
	}
	for (long l = 0; d->param_bytes > 0 && l < d->layers; l++)
		move(d, d->param[l], true);
	sg_mutex_lock(d->mx);
	d->step_done = true;
	sg_cond_notify_all(d->cv);
	sg_mutex_unlock(d->mx);
	actor_done(d);
}

/* Backward takes the checkpoints micro-batch by micro-batch, each from
 * its last layer down: read i is checkpoint k L + (L - 1 - l). */
static long written_as(const struct llm_offload_dev *d, long i)
{
	long k = i / d->layers, l = i % d->layers;

	return k * d->layers + (d->layers - 1 - l);
}

/* In: each checkpoint one layer ahead of backward; at the step every
 * optimizer chunk, one ahead of its write. */
static void reader_main(void *arg)
{
	struct llm_offload_dev *d = arg;

	place(d);
	for (long i = 0; i < d->ck_in.total; i++) {
		long w = written_as(d, i);
		struct bk_alloc **slot = &d->ckpt[w % d->slots];

		wait_until(d, &d->ck_in.taken, i);
		wait_until(d, &d->ck_out.done, w + 1);
		move(d, *slot, false);
		bk_pages_free(d->o->pg, *slot);
		*slot = NULL;
		bump(d, &d->ck_in.done);
	}
	step_wait(d);
	for (long l = 0; l < d->opt_in.total; l++) {
		wait_until(d, &d->opt_out.done, l - 1);
		move(d, d->opt[l], false);
		bump(d, &d->opt_in.done);
	}
	actor_done(d);
}

/* In: the parameters, one layer ahead of every forward and backward (the
 * chunks are equal; they are taken in turn). */
static void param_main(void *arg)
{
	struct llm_offload_dev *d = arg;

	place(d);
	for (long i = 0; i < d->par_in.total; i++) {
		wait_until(d, &d->par_in.taken, i);
		move(d, d->param[i % d->layers], false);
		bump(d, &d->par_in.done);
	}
	actor_done(d);
}

/* ---- the stage actor's side ---- */

static void take(struct llm_offload_dev *d, struct stream *st)
{
	wait_until(d, &st->done, st->taken + 1);
	bump(d, &st->taken);
}

void llm_offload_forward_done(struct llm_offload_dev *d)
{
	if (d && d->ck_out.total)
		bump(d, &d->ck_out.asked);
}

void llm_offload_before_layer(struct llm_offload_dev *d, bool backward)
{
	double t0;

	if (!d)
		return;
	t0 = simgrid_get_clock();
	if (d->par_in.total)
		take(d, &d->par_in);
	if (backward && d->ck_in.total)
		take(d, &d->ck_in);
	d->wait_s += simgrid_get_clock() - t0;
}

void llm_offload_step(struct llm_offload_dev *d)
{
	double t0;

	if (!d)
		return;
	t0 = simgrid_get_clock();
	sg_mutex_lock(d->mx);
	d->step_asked = true;
	sg_cond_notify_all(d->cv);
	while (!d->step_done)
		sg_cond_wait(d->cv, d->mx);
	sg_mutex_unlock(d->mx);
	d->wait_s += simgrid_get_clock() - t0;
}

double llm_offload_wait_s(const struct llm_offload_dev *d)
{
	return d ? d->wait_s : 0;
}

double llm_offload_moved(const struct llm_offload_dev *d)
{
	return d ? d->moved : 0;
}

double llm_offload_stage_bytes(const struct llm_offload *o, long stage)
{
	return o ? o->split[stage].total : 0;
}

const struct dl_traffic *llm_offload_traffic_ledger(const struct llm_offload *o)
{
	return o && o->links_open ? o->links.traffic : NULL;
}

/* ---- set-up ---- */

const char *llm_offload_plugin(const struct llm_cfg *cfg)
{
	if (!cfg->offload)
		return "none";
	return cfg->page_alloc ? cfg->page_alloc : "local";
}

int llm_offload_check_plugin(const struct llm_cfg *cfg)
{
	return cfg->offload ? bk_pages_check(llm_offload_plugin(cfg), "--page-alloc") : 0;
}

/* Every device of the run names the hosts of its backing store. */
static int check_declared(const struct llm_cfg *cfg, const struct dl_platform *p, long devices)
{
	for (long r = 0; r < devices; r++) {
		const struct dl_host *h = &p->hosts[p->devices[r]];

		if (!dl_host_prop(h, "dlasim.backing"))
			return dl_err("llm: --offload: %s declares no backing store (device '%s' has no dlasim.backing; docs/platforms.md)",
				      cfg->platform, h->name);
	}
	return 0;
}

/* What every device of the run offloads against the stores they name. */
static int check_capacity(const struct llm_offload *o)
{
	const struct llm_par *c = &o->cfg->par;
	const struct bk_pages *pg = o->pg;
	bool *seen = calloc(pg->nstores ? pg->nstores : 1, sizeof(bool));
	double need = 0, have = 0;

	if (!seen)
		return dl_err("out of memory");
	for (long j = 0; j < c->pp; j++)
		for (long r = 0; r < c->dp; r++)
			for (long i = 0; i < c->tp; i++) {
				int rank = llm_rank(c, i, j, r);

				need += o->split[j].total;
				for (int s = 0; s < pg->dev_nshares[rank]; s++) {
					int k = pg->dev_store[rank][s];

					if (!seen[k])
						have += pg->store[k].capacity_pages * pg->page_bytes;
					seen[k] = true;
				}
			}
	free(seen);
	if (need <= have)
		return 0;
	return dl_err("llm: %s does not fit in device memory and the backing store: the %ld devices of the run offload %.2f GB, the backing store they name holds %.2f GB: %.2f GB over",
		      o->m->name, c->tp * c->pp * c->dp, need / 1e9, have / 1e9, (need - have) / 1e9);
}

/* Each stage's split; true if some stage offloads. */
static bool split_stages(struct llm_offload *o, double cap)
{
	const struct llm_par *c = &o->cfg->par;
	bool any = false;

	for (long j = 0; j < c->pp; j++) {
		struct llm_memory mem;

		llm_memory(o->m, c, j, &mem);
		if (cap > 0 && isfinite(cap))
			llm_offload_split(&mem, cap, &o->split[j]);
		any = any || o->split[j].total > 0;
	}
	return any;
}

int llm_offload_open(struct llm_offload **out, const struct llm_cfg *cfg,
		     const struct llm_model *m, struct dl_platform *p, double cap)
{
	const struct llm_par *c = &cfg->par;
	struct llm_offload *o;

	*out = NULL;
	if (!cfg->offload)
		return 0;
	if (check_declared(cfg, p, c->tp * c->pp * c->dp))
		return -1;
	if (!(o = calloc(1, sizeof(*o))) || !(o->split = calloc(c->pp, sizeof(*o->split))) ||
	    !(o->client = calloc(p->ndevices, sizeof(bool)))) {
		llm_offload_close(o);
		return dl_err("out of memory");
	}
	o->cfg = cfg;
	o->m = m;
	o->p = p;
	if (!split_stages(o, cap)) {
		llm_offload_close(o);
		return 0;
	}
	if (bk_pages_open(&o->pg, p, llm_offload_plugin(cfg), "--page-alloc", PAGE_BYTES) ||
	    check_capacity(o) || bk_links_init(&o->links, p)) {
		llm_offload_close(o);
		return -1;
	}
	o->links_open = true;
	*out = o;
	return 0;
}

static int dev_init(struct llm_offload_dev *d, const struct llm_offloaded *plan,
		    const struct llm_model *m, const struct llm_par *c, long stage)
{
	double mb = llm_microbatches(m, c);

	d->layers = m->layers / c->pp;
	d->slots = d->layers * llm_inflight(m, c, 0);
	/* Every checkpoint's share: the offloaded activations over the
	 * checkpoints in flight. */
	d->ckpt_bytes = plan->activations / d->layers / llm_inflight(m, c, stage);
	d->param_bytes = plan->params / d->layers;
	d->opt_bytes = plan->optimizer / d->layers;
	d->ck_out.total = d->ck_in.total = d->ckpt_bytes > 0 ? (long)mb * d->layers : 0;
	d->par_in.total = d->param_bytes > 0 ? 2 * (long)mb * d->layers : 0;
	d->opt_in.total = d->opt_out.total = d->opt_bytes > 0 ? d->layers : 0;
	d->ckpt = calloc(d->slots, sizeof(*d->ckpt));
	d->param = calloc(d->layers, sizeof(*d->param));
	d->opt = calloc(d->layers, sizeof(*d->opt));
	d->mx = sg_mutex_init();
	d->cv = sg_cond_init();
	return d->ckpt && d->param && d->opt ? 0 : -1;
}

struct llm_offload_dev *llm_offload_attach(struct llm_offload *o, int rank, long stage,
					   sg_host_t host)
{
	struct llm_offload_dev *d, **grown;

	if (!o || !(o->split[stage].total > 0))
		return NULL;
	grown = realloc(o->dev, (o->ndev + 1) * sizeof(*grown));
	if (grown)
		o->dev = grown;
	if (!grown || !(d = calloc(1, sizeof(*d)))) {
		o->oom = true;
		return NULL;
	}
	o->dev[o->ndev++] = d;
	d->o = o;
	d->rank = rank;
	d->host = host;
	o->client[rank] = true;
	if (dev_init(d, &o->split[stage], o->m, &o->cfg->par, stage))
		o->oom = true;
	return d;
}

int llm_offload_start(struct llm_offload *o)
{
	if (!o)
		return 0;
	if (o->oom)
		return dl_err("out of memory");
	if (bk_backing_start_for(&o->b, o->pg, &o->links, o->client))
		return -1;
	for (int k = 0; k < o->ndev; k++) {
		struct llm_offload_dev *d = o->dev[k];

		d->actors_left = 2 + (d->par_in.total > 0);
		dl_actor_start("llm-offload", d->host, writer_main, d);
		dl_actor_start("llm-prefetch", d->host, reader_main, d);
		if (d->par_in.total > 0)
			dl_actor_start("llm-param-prefetch", d->host, param_main, d);
	}
	return 0;
}

static void dev_free(struct llm_offload *o, struct llm_offload_dev *d)
{
	for (long l = 0; l < d->layers; l++) {
		if (d->param && d->param[l])
			bk_pages_free(o->pg, d->param[l]);
		if (d->opt && d->opt[l])
			bk_pages_free(o->pg, d->opt[l]);
	}
	for (long i = 0; d->ckpt && i < d->slots; i++)
		if (d->ckpt[i])
			bk_pages_free(o->pg, d->ckpt[i]);
	if (d->mx)
		sg_mutex_destroy(d->mx);
	if (d->cv)
		sg_cond_destroy(d->cv);
	free(d->ckpt);
	free(d->param);
	free(d->opt);
	free(d);
}

void llm_offload_close(struct llm_offload *o)
{
	if (!o)
		return;
	for (int k = 0; k < o->ndev; k++)
		dev_free(o, o->dev[k]);
	free(o->dev);
	bk_backing_free(o->b);
	bk_pages_close(o->pg);
	if (o->links_open)
		bk_links_free(&o->links);
	free(o->split);
	free(o->client);
	free(o);
}
