/* SPDX-License-Identifier: MIT */
/* The simulated accelerator's actors (docs/nna.md, "Time"). */
#include "sim.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>

#include "lib/diag.h"
#include "machine/engine.h"

#define READY_WEIGHT 0x1
#define READY_IFMAP 0x2

/* The DMA issues at most one request per nanosecond (docs/nna.md). */
#define ISSUE_S 1e-9

/* A transfer and what its completion means. */
struct load {
	struct nna_xfer x;
	struct nna_sim *sim;
	long step;		/* the step it loads for, or -1 */
	unsigned char what;	/* READY_* for loads, 0 for the writer's */
	struct load *next_finished;
};

static void wait_until_locked(struct nna_sim *sim)
{
	sg_cond_wait(sim->changed, sim->mutex);
}

#define WAIT_UNTIL(sim, cond) \
	do { \
		sg_mutex_lock((sim)->mutex); \
		while (!(cond)) \
			wait_until_locked(sim); \
		sg_mutex_unlock((sim)->mutex); \
	} while (0)

static void changed(struct nna_sim *sim)
{
	sg_cond_notify_all(sim->changed);
}

/* ---- transfers ---- */

/*
 * The DRAM model runs ahead of the simulated clock, up to the next
 * completion, and the memory actor then sleeps until that time.  What a
 * completion means is therefore kept until the actor gets there: applied
 * at once, another actor woken in between would see a transfer complete
 * before its time (the writer ended an inference 1.5 us before its last
 * write was served).
 */
static void load_done(struct nna_xfer *x)
{
	struct load *l = (struct load *)x;
	struct nna_sim *sim = l->sim;

	l->next_finished = sim->finished;
	sim->finished = l;
}

/* At the completions' time, with the mutex held. */
static void apply_finished(struct nna_sim *sim)
{
	while (sim->finished) {
		struct load *l = sim->finished;

		sim->finished = l->next_finished;
		if (l->what)
			sim->ready[l->step] |= l->what;
		else
			sim->waiting--;
		nna_xfer_free(&l->x);
		free(l);
	}
}

static struct load *new_load(struct nna_sim *sim, bool write, long step, unsigned char what)
{
	struct load *l = malloc(sizeof(*l));

	if (!l)
		dl_sim_error("out of memory");
	nna_xfer_init(&l->x, write);
	l->x.on_done = load_done;
	l->sim = sim;
	l->step = step;
	l->what = what;
	return l;
}

struct reader {
	struct nna_sim *sim;
	struct load *l;
};

static void read_piece(const struct nna_piece *p, void *arg)
{
	struct reader *r = arg;
	long b = r->sim->x->a.block_bytes;
	int before = r->l->x.nrt;

	if (nna_xfer_add(&r->l->x, r->sim->dma, p->dtile, p->offset / b,
			 (p->offset + p->bytes + b - 1) / b))
		dl_sim_fail();
	r->sim->read_pieces++;
	r->sim->read_rowtasks += r->l->x.nrt - before;
}

/* Every DTile of tensor t is in DRAM (a layer reads its input only once
 * it is whole). */
static bool tensor_written(const struct nna_sim *sim, int t)
{
	return sim->tensor_left[t] == 0;
}

static void submit(struct nna_sim *sim, struct load *l)
{
	sg_mutex_lock(sim->mutex);
	nna_dma_submit(sim->dma, &l->x);
	changed(sim);
	sg_mutex_unlock(sim->mutex);
}

/* ---- the prefetcher: each step's reads, as soon as a buffer is free ---- */

static void prefetcher(void *arg)
{
	struct nna_sim *sim = arg;
	const struct nna_tiles *x = sim->x;
	const struct nna_schedule *s = sim->s;
	long prev_w = 0, prev_i = 0;	/* first user of the tile loaded last */
	int layer = 0;

	for (long j = 0; j < s->nsteps; j++) {
		const int *at = s->step[j].at;

		while (j >= s->first[layer + 1])
			layer++;
		if (s->flags[j] & NNA_READ_WEIGHT) {
			struct load *l = new_load(sim, false, j, READY_WEIGHT);

			/* Its buffer frees when the last user of the tile before
			 * the one in use is done. */
			WAIT_UNTIL(sim, sim->computed >= prev_w);
			if (nna_xfer_add(&l->x, sim->dma, nna_weight_dtile(x, layer, at), 0,
					 nna_blocks(x, x->d[nna_weight_dtile(x, layer, at)].bytes)))
				dl_sim_fail();
			sim->read_pieces++;
			sim->read_rowtasks += l->x.nrt;
			submit(sim, l);
			prev_w = j;
		}
		if (s->flags[j] & NNA_READ_IFMAP) {
			struct load *l = new_load(sim, false, j, READY_IFMAP);
			struct reader r = { sim, l };
			int in = x->net->layer[layer].in;

			WAIT_UNTIL(sim, sim->computed >= prev_i && tensor_written(sim, in));
			nna_ifmap_pieces(x, layer, nna_ifmap_group(x, layer, at), at[DLASIM_LOOP_Y],
					 read_piece, &r);
			submit(sim, l);
			prev_i = j;
		}
	}
}

/* ---- the systolic array ---- */

/* SCALE-Sim's weight-stationary fold: 2T + U + N - 2 cycles for N output
 * pixels streamed (docs/nna.md). */
static double step_seconds(const struct nna_sim *sim, int layer, const int *at)
{
	const struct nna_layer *l = &sim->x->net->layer[layer];
	int p0, p1, t = sim->x->a.size;
	double pixels = 1;

	if (l->kind != DLASIM_DF_FC) {
		nna_band_rows(sim->x, layer, at[DLASIM_LOOP_Y], &p0, &p1);
		pixels = (double)(p1 - p0) * l->Q;
	}
	return (2.0 * t + t + pixels - 2) / sim->clock_hz;
}

static void array(void *arg)
{
	struct nna_sim *sim = arg;
	const struct nna_schedule *s = sim->s;
	long load_w = 0, load_i = 0;
	int layer = 0;

	for (long i = 0; i < s->nsteps; i++) {
		double dt;

		while (i >= s->first[layer + 1]) {
			sim->lt[layer].end_s = simgrid_get_clock();
			layer++;
			sim->lt[layer].start_s = simgrid_get_clock();
		}
		if (s->flags[i] & NNA_READ_WEIGHT)
			load_w = i;
		if (s->flags[i] & NNA_READ_IFMAP)
			load_i = i;
		WAIT_UNTIL(sim, (sim->ready[load_w] & READY_WEIGHT) && (sim->ready[load_i] & READY_IFMAP));
		dt = step_seconds(sim, layer, s->step[i].at);
		sim->sa_wake = simgrid_get_clock() + dt;
		sg_actor_sleep_for(dt);
		sim->lt[layer].compute_s += dt;
		sim->sa_wake = INFINITY;
		sim->computed = i + 1;
		if (s->flags[i] & NNA_FINAL) {
			/* One finished tile drains at a time (the output buffer). */
			WAIT_UNTIL(sim, sim->final_step < 0);
			sim->final_step = i;
		}
		sg_mutex_lock(sim->mutex);
		changed(sim);
		sg_mutex_unlock(sim->mutex);
	}
}

/* ---- the writer: skip operand in, finished tile out ---- */

static void release_inputs(struct nna_sim *sim, int layer)
{
	const struct nna_tiles *x = sim->x;

	for (int t = 0; t < x->net->ntensors; t++) {
		const struct nna_layout *lay = &x->lay[t];

		if (x->net->tensor[t].last_reader != layer)
			continue;
		for (long d = lay->base; d < lay->base + (long)lay->groups * lay->nbands; d++) {
			struct dlasim_dtile dt;

			nna_dtile_describe(x, d, &dt);
			if (nna_dram_placed(sim->dram, d))
				nna_dram_release(sim->dram, d, &dt);
		}
	}
}

static void write_tile(struct nna_sim *sim, int layer, int k, int y)
{
	const struct nna_tiles *x = sim->x;
	long d = nna_ofmap_dtile(x, layer, k, y);
	struct dlasim_dtile t;
	struct load *l;

	nna_dtile_describe(x, d, &t);
	if (x->net->layer[layer].skip >= 0) {
		struct reader r = { sim, new_load(sim, false, -1, 0) };

		WAIT_UNTIL(sim, tensor_written(sim, x->net->layer[layer].skip));
		nna_skip_pieces(x, layer, k, y, read_piece, &r);
		sim->waiting++;
		submit(sim, r.l);
		WAIT_UNTIL(sim, sim->waiting == 0);
	}
	if (t.blocks > 0) {
		if (nna_dram_place(sim->dram, d, &t))
			dl_sim_fail();
		sim->written_dtiles++;
		sim->written_rowtasks += sim->dram->count[d];
		l = new_load(sim, true, -1, 0);
		if (nna_xfer_add(&l->x, sim->dma, d, 0, t.blocks))
			dl_sim_fail();
		sim->waiting++;
		submit(sim, l);
		WAIT_UNTIL(sim, sim->waiting == 0);
	}
	sim->tensor_left[x->d[d].tensor]--;
}

static void writer(void *arg)
{
	struct nna_sim *sim = arg;
	const struct nna_schedule *s = sim->s;
	int layer = 0;

	for (;;) {
		long i;

		WAIT_UNTIL(sim, sim->final_step >= 0);
		i = sim->final_step;
		while (i >= s->first[layer + 1])
			layer++;
		write_tile(sim, layer, s->step[i].at[DLASIM_LOOP_K], s->step[i].at[DLASIM_LOOP_Y]);
		if (i == s->first[layer + 1] - 1)
			release_inputs(sim, layer);
		sg_mutex_lock(sim->mutex);
		sim->final_step = -1;
		if (i == s->nsteps - 1) {
			sim->done = true;
			sim->end_s = simgrid_get_clock();
			sim->lt[layer].end_s = sim->end_s;
		}
		changed(sim);
		sg_mutex_unlock(sim->mutex);
		if (sim->done)
			return;
	}
}

/* ---- the memory: DMA request order and DRAM, in plain C ---- */

struct memory {
	struct nna_sim *sim;
	double now;		/* of the DRAM model */
	double next_issue;	/* the DMA may send from then on */
	bool held;		/* req is chosen and waits for room */
	struct nna_req req;
	struct nna_mem_req *q;	/* req, for the DRAM */
};

static void served(struct nna_rowtask *rt, int blocks, void *arg)
{
	nna_dma_served(rt, blocks);
}

/* Send what the DMA may send now. */
static void issue(struct memory *m)
{
	struct nna_sim *sim = m->sim;

	while (m->next_issue <= m->now && (m->held || !nna_dma_idle(sim->dma))) {
		if (!m->held) {
			if (nna_dma_next(sim->dma, &m->req))
				dl_sim_fail();
			m->q = nna_mem_prepare(sim->mem, &m->req);
			m->held = true;
		}
		if (!nna_mem_room(sim->mem, m->q))
			return;
		nna_mem_send(sim->mem, m->q, m->now);
		m->held = false;
		m->next_issue = m->now + m->req.blocks * ISSUE_S;
	}
}

/*
 * Advance the DRAM and the DMA until a transfer completes (another actor
 * may then act) or until `horizon` (the array's next action, which may
 * free a buffer).  Returns the time reached.
 */
static double advance(struct memory *m, double horizon)
{
	struct nna_sim *sim = m->sim;

	for (;;) {
		double t;

		issue(m);
		if (sim->finished)
			return m->now;
		t = nna_mem_next(sim->mem);
		if ((m->held || !nna_dma_idle(sim->dma)) && m->next_issue > m->now &&
		    m->next_issue < t)
			t = m->next_issue;
		if (t > horizon || isinf(t))
			return isinf(t) ? m->now : horizon;
		m->now = t;
		nna_mem_advance(sim->mem, t, served, NULL);
		if (sim->finished)
			sim->last_transfer_end_s = t;
	}
}

static bool memory_idle(const struct memory *m)
{
	return !m->held && nna_dma_idle(m->sim->dma) && isinf(nna_mem_next(m->sim->mem));
}

static void memory(void *arg)
{
	struct memory m = { .sim = arg };
	struct nna_sim *sim = m.sim;

	for (;;) {
		double t;

		sg_mutex_lock(sim->mutex);
		while (memory_idle(&m) && !sim->done)
			wait_until_locked(sim);
		sg_mutex_unlock(sim->mutex);
		if (sim->done)
			return;
		/* Every actor woken at this instant acts first (an empty
		 * execution ends only once no actor can run at this date):
		 * the array's next step sets the horizon and the transfers
		 * submitted now are in the DMA before the DRAM runs ahead. */
		sg_actor_execute(0);
		if (m.now < simgrid_get_clock())
			m.now = simgrid_get_clock();
		t = advance(&m, sim->sa_wake);
		if (t > simgrid_get_clock())
			sg_actor_sleep_until(t);
		else
			sg_actor_yield();
		if (sim->finished) {
			sg_mutex_lock(sim->mutex);
			apply_finished(sim);
			changed(sim);
			sg_mutex_unlock(sim->mutex);
		}
	}
}

int nna_sim_run(struct nna_sim *sim)
{
	const struct nna_schedule *s = sim->s;
	sg_host_t host = sg_host_by_name("nna");
	int ret = -1;

	sim->ready = calloc((size_t)s->nsteps, 1);
	sim->tensor_left = calloc((size_t)sim->x->net->ntensors, sizeof(*sim->tensor_left));
	sim->lt = calloc((size_t)sim->x->net->nlayers, sizeof(*sim->lt));
	if (!sim->ready || !sim->tensor_left || !sim->lt) {
		dl_err("out of memory");
		goto out;
	}
	for (int t = 0; t < sim->x->net->ntensors; t++)
		if (sim->x->net->tensor[t].producer >= 0)
			sim->tensor_left[t] = sim->x->lay[t].groups * sim->x->lay[t].nbands;
	sim->mutex = sg_mutex_init();
	sim->changed = sg_cond_init();
	sim->sa_wake = INFINITY;
	sim->final_step = -1;
	dl_actor_start("memory", host, memory, sim);
	dl_actor_start("prefetcher", host, prefetcher, sim);
	dl_actor_start("writer", host, writer, sim);
	dl_actor_start("array", host, array, sim);
	dl_engine_run();
	if (!sim->done) {
		dl_err("internal error: the inference did not finish");
		goto out;
	}
	ret = 0;
out:
	if (sim->changed)
		sg_cond_destroy(sim->changed);
	if (sim->mutex)
		sg_mutex_destroy(sim->mutex);
	free(sim->ready);
	free(sim->tensor_left);
	sim->ready = NULL;
	sim->tensor_left = NULL;
	return ret;
}
