/* SPDX-License-Identifier: MIT */
/* The training iteration of a transformer: stage actors, data-parallel peers. */
#include "sim.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <simgrid/actor.h>
#include <simgrid/comm.h>
#include <simgrid/cond.h>
#include <simgrid/engine.h>
#include <simgrid/mailbox.h>
#include <simgrid/mutex.h>

#include "lib/diag.h"
#include "lib/grow.h"
#include "machine/engine.h"
#include "machine/traffic.h"
#include "results/outfile.h"
#include "coll/coll.h"
#include "offload.h"

enum kind { K_TP, K_PP, K_DP, K_EP, KINDS };

struct sim;

/* Stage j's end of backward, which its data-parallel peers wait for. */
struct stage_sync {
	sg_mutex_t mx;
	sg_cond_t cv;
	bool done;
};

struct worker {
	struct sim *s;
	long i, j, r;		/* tensor rank, stage, replica */
	int rank;
	sg_host_t host;
	sg_mailbox_t fwd_in, bwd_in, fwd_out, bwd_out;
	sg_comm_t *sends;
	int nsends, cap;
	struct llm_offload_dev *off;	/* NULL: its stage keeps everything */
	double compute_s, tp_s, ep_s, wait_s, dp_s, end_s;
	bool finished;
};

struct peer {
	struct sim *s;
	long j, r;
	double end_s;
	bool finished;
};

struct sim {
	const struct llm_cfg *cfg;
	const struct llm_model *m;
	const struct llm_par *c;
	struct dl_platform *p;
	struct llm_device dev;
	long replicas, mb;	/* replicas simulated, micro-batches */
	double t_fwd, t_logit;	/* one layer's, the logits' forward, one micro-batch */
	double t_attn;		/* the attention scores' forward (selective recomputation) */
	struct dl_coll **tp, **ep, **dp;
	struct dl_traffic *traffic[KINDS];
	struct stage_sync *sync;
	struct worker *w;
	int nw;
	struct peer *peer;
	int npeers;
	struct llm_offload *off;	/* NULL: nothing offloaded */
};

/* ---- one device's operations ---- */

static void compute(struct worker *w, double s)
{
	if (s > 0) {
		sg_actor_sleep_for(s);
		w->compute_s += s;
	}
}

static void collective(struct dl_coll *c, int rank, enum dlasim_coll_op op, double bytes,
		       int ranks, int rings, double *acc)
{
	struct dlasim_coll_call call = { .op = op, .bytes = bytes, .ranks = ranks, .rings = rings };
	double t0 = simgrid_get_clock();

	dl_coll_call(c, rank, &call);
	*acc += simgrid_get_clock() - t0;
}

static void tp_allreduce(struct worker *w)
{
	struct sim *s = w->s;

	if (s->c->tp > 1)
		collective(s->tp[w->r * s->c->pp + w->j], (int)w->i, DLASIM_COLL_ALLREDUCE,
			   llm_tp_message(s->m, s->c), (int)s->c->tp, s->p->nrings, &w->tp_s);
}

/* Expert groups: replicas r0 .. r0 + E - 1 of one tensor rank and stage. */
static long ep_group(const struct sim *s, long i, long j, long r)
{
	return ((r / s->c->ep) * s->c->pp + j) * s->c->tp + i;
}

static long ep_groups(const struct sim *s)
{
	return s->replicas / s->c->ep * s->c->pp * s->c->tp;
}

static void ep_alltoall(struct worker *w)
{
	struct sim *s = w->s;

	if (s->ep)
		collective(s->ep[ep_group(s, w->i, w->j, w->r)], (int)(w->r % s->c->ep), DLASIM_COLL_ALLTOALL,
			   llm_ep_message(s->m, s->c), (int)s->c->ep, s->p->nrings, &w->ep_s);
}

/* One layer's forward: attention then MLP, each ending in an all-reduce
 * of the tensor-parallel group; a mixture of experts dispatches its
 * tokens before the MLP and gathers them after. */
static void layer_forward(struct worker *w)
{
	compute(w, w->s->t_fwd);
	tp_allreduce(w);
	ep_alltoall(w);
	ep_alltoall(w);
	tp_allreduce(w);
}

static void recv_from(struct worker *w, sg_mailbox_t mb)
{
	double t0 = simgrid_get_clock();

	sg_mailbox_get(mb);
	w->wait_s += simgrid_get_clock() - t0;
}

static void send_to(struct worker *w, sg_mailbox_t mb, long to_stage)
{
	struct sim *s = w->s;
	double bytes = llm_pp_message(s->m, s->c);
	int dst = s->p->devices[llm_rank(s->c, w->i, to_stage, w->r)];

	if (dl_grow((void **)&w->sends, &w->cap, w->nsends + 1, sizeof(*w->sends)))
		dl_sim_error("out of memory");
	dl_traffic_add(s->traffic[K_PP], w->host, s->p->hosts[dst].sg, bytes);
	w->sends[w->nsends++] = sg_mailbox_put_async(mb, w, (long)llround(bytes));
}

static void forward(struct worker *w)
{
	struct sim *s = w->s;
	long layers = s->m->layers / s->c->pp;

	if (w->j > 0)
		recv_from(w, w->fwd_in);
	for (long l = 0; l < layers; l++) {
		llm_offload_before_layer(w->off, false);
		layer_forward(w);
		llm_offload_forward_done(w->off);
	}
	if (w->j == s->c->pp - 1)
		compute(w, s->t_logit);
	else
		send_to(w, w->fwd_out, w->j + 1);
}

/* Backward is twice the forward's FLOPs (Section 5.1), with the same
 * collectives; full recomputation runs the forward again first. */
static void backward(struct worker *w)
{
	struct sim *s = w->s;
	long layers = s->m->layers / s->c->pp;

	if (w->j < s->c->pp - 1)
		recv_from(w, w->bwd_in);
	else
		compute(w, 2 * s->t_logit);
	for (long l = 0; l < layers; l++) {
		llm_offload_before_layer(w->off, true);
		if (s->c->recompute == LLM_RECOMPUTE_FULL)
			layer_forward(w);
		else if (s->c->recompute == LLM_RECOMPUTE_SELECTIVE)
			compute(w, s->t_attn);
		compute(w, 2 * s->t_fwd);
		tp_allreduce(w);
		ep_alltoall(w);
		ep_alltoall(w);
		tp_allreduce(w);
	}
	if (w->j > 0)
		send_to(w, w->bwd_out, w->j - 1);
}

/* ---- data parallelism ---- */

static double stage_grad_bytes(const struct sim *s, long j)
{
	return llm_stage_params(s->m, s->c, j) * llm_dtype_bytes(s->m->dtype);
}

/* ZeRO-3 gathers the parameters for forward and for backward; dlasim
 * issues both before the schedule (docs/llm.md). */
static void dp_gather_params(struct sim *s, long j, long r, double *acc)
{
	if (s->c->zero < 3 || s->c->dp == 1)
		return;
	for (int k = 0; k < 2; k++)
		collective(s->dp[j], (int)r, DLASIM_COLL_ALLGATHER, stage_grad_bytes(s, j),
			   (int)s->c->dp, s->p->nrings, acc);
}

/* ZeRO 0: one all-reduce; 1-2: reduce-scatter, then the updated
 * parameters gathered (the same bytes); 3: the reduce-scatter alone, each
 * device keeping its partition until the next iteration gathers it. */
static void dp_reduce_grads(struct sim *s, long j, long r, double *acc)
{
	double bytes = stage_grad_bytes(s, j);
	int n = (int)s->c->dp;

	if (n == 1)
		return;
	if (s->c->zero == 0) {
		collective(s->dp[j], (int)r, DLASIM_COLL_ALLREDUCE, bytes, n, s->p->nrings, acc);
		return;
	}
	collective(s->dp[j], (int)r, DLASIM_COLL_REDUCESCATTER, bytes, n, s->p->nrings, acc);
	if (s->c->zero < 3)
		collective(s->dp[j], (int)r, DLASIM_COLL_ALLGATHER, bytes, n, s->p->nrings, acc);
}

static void stage_done(struct stage_sync *y)
{
	sg_mutex_lock(y->mx);
	y->done = true;
	sg_cond_notify_all(y->cv);
	sg_mutex_unlock(y->mx);
}

static void stage_wait(struct stage_sync *y)
{
	sg_mutex_lock(y->mx);
	while (!y->done)
		sg_cond_wait(y->cv, y->mx);
	sg_mutex_unlock(y->mx);
}

/* A data-parallel replica that is not simulated: its stage ends backward
 * when the representative's does (identical work, docs/llm.md). */
static void peer_main(void *arg)
{
	struct peer *q = arg;
	struct sim *s = q->s;
	double t = 0;

	dp_gather_params(s, q->j, q->r, &t);
	stage_wait(&s->sync[q->j]);
	dp_reduce_grads(s, q->j, q->r, &t);
	q->end_s = simgrid_get_clock();
	q->finished = true;
}

/* ---- the 1F1B schedule (Narayanan et al., Section 2.2) ---- */

static void worker_main(void *arg)
{
	struct worker *w = arg;
	struct sim *s = w->s;
	long warm = s->c->pp - w->j - 1, k;
	bool dp_rank = w->i == 0;

	sg_mailbox_set_receiver(sg_mailbox_get_name(w->fwd_in));
	sg_mailbox_set_receiver(sg_mailbox_get_name(w->bwd_in));
	if (warm > s->mb)
		warm = s->mb;
	if (dp_rank)
		dp_gather_params(s, w->j, w->r, &w->dp_s);
	for (k = 0; k < warm; k++)
		forward(w);
	for (k = 0; k < s->mb - warm; k++) {
		forward(w);
		backward(w);
	}
	for (k = 0; k < warm; k++)
		backward(w);
	sg_comm_wait_all(w->sends, w->nsends);
	if (dp_rank) {
		if (w->r == 0)
			stage_done(&s->sync[w->j]);
		dp_reduce_grads(s, w->j, w->r, &w->dp_s);
	}
	llm_offload_step(w->off);
	w->end_s = simgrid_get_clock();
	w->finished = true;
}

/* ---- set-up ---- */

static const char *group_coll(const struct sim *s, const int *members, int n,
			      enum dlasim_coll_op op)
{
	int nodes = 0, last = -2;

	if (op == DLASIM_COLL_ALLTOALL)
		return dl_coll_default_op(s->p, op);
	if (s->cfg->coll)
		return s->cfg->coll;
	for (int k = 0; k < n; k++) {
		int node = s->p->hosts[s->p->devices[members[k]]].node;

		if (node != last)
			nodes++, last = node;
	}
	if (nodes > 1 || !s->p->nnodes)
		return dl_coll_default_for(n, s->p->nnodes ? nodes : 0, dl_coll_full_duplex(s->p));
	/* Inside one node: the ring as one flow per phase, which times a
	 * ring exactly as the step-by-step one does in the fluid model
	 * (docs/llm.md) at a twentieth of the cost. */
	return dl_coll_full_duplex(s->p) ? "ring_flow:bidir=1" : "ring_flow";
}

static int open_group(struct sim *s, struct dl_coll **out, int *members, int n,
		      enum dlasim_coll_op op, enum kind k, char *name, size_t len)
{
	const char *spec = group_coll(s, members, n, op);

	if (dl_coll_open_group(out, s->p, spec, "--coll", members, n))
		return -1;
	if (dl_coll_require(*out, op, "--coll"))
		return -1;
	dl_coll_set_traffic(*out, s->traffic[k]);
	if (name && !name[0])
		snprintf(name, len, "%s", spec);
	return 0;
}

static int open_comms(struct sim *s, struct llm_result *res)
{
	const struct llm_par *c = s->c;
	long n = c->tp > c->dp ? c->tp : c->dp;
	int *mem = calloc(n, sizeof(int)), ret = -1;

	s->tp = calloc(s->replicas * c->pp, sizeof(*s->tp));
	s->dp = calloc(c->pp, sizeof(*s->dp));
	if (!mem || !s->tp || !s->dp)
		goto out;
	for (long r = 0; c->tp > 1 && r < s->replicas; r++)
		for (long j = 0; j < c->pp; j++) {
			for (long i = 0; i < c->tp; i++)
				mem[i] = llm_rank(c, i, j, r);
			if (open_group(s, &s->tp[r * c->pp + j], mem, (int)c->tp,
				       DLASIM_COLL_ALLREDUCE, K_TP, res->coll_tp, sizeof(res->coll_tp)))
				goto out;
		}
	for (long j = 0; c->dp > 1 && j < c->pp; j++) {
		for (long r = 0; r < c->dp; r++)
			mem[r] = llm_rank(c, 0, j, r);
		if (open_group(s, &s->dp[j], mem, (int)c->dp, DLASIM_COLL_ALLREDUCE, K_DP,
			       res->coll_dp, sizeof(res->coll_dp)))
			goto out;
	}
	if (s->m->experts > 1 && c->ep > 1) {
		if (!(s->ep = calloc(ep_groups(s), sizeof(*s->ep))))
			goto out;
		for (long r0 = 0; r0 < s->replicas; r0 += c->ep)
			for (long j = 0; j < c->pp; j++)
				for (long i = 0; i < c->tp; i++) {
					for (long r = 0; r < c->ep; r++)
						mem[r] = llm_rank(c, i, j, r0 + r);
					if (open_group(s, &s->ep[ep_group(s, i, j, r0)], mem, (int)c->ep,
						       DLASIM_COLL_ALLTOALL, K_EP, NULL, 0))
						goto out;
				}
	}
	ret = 0;
out:
	if (ret && !mem)
		dl_err("out of memory");
	free(mem);
	return ret;
}

static sg_mailbox_t mailbox(const char *dir, int rank)
{
	char name[48];

	snprintf(name, sizeof(name), "llm-%s-%d", dir, rank);
	return sg_mailbox_by_name(name);
}

static int check_route(const struct sim *s, int a, int b)
{
	int ha = s->p->devices[a], hb = s->p->devices[b];

	if (dl_route_exists(s->p, ha, hb) && dl_route_exists(s->p, hb, ha))
		return 0;
	return dl_err("%s: no route between pipeline neighbours '%s' and '%s'", s->p->file,
		      s->p->hosts[ha].name, s->p->hosts[hb].name);
}

static int make_workers(struct sim *s)
{
	const struct llm_par *c = s->c;
	int k = 0;

	s->nw = (int)(s->replicas * c->pp * c->tp);
	if (!(s->w = calloc(s->nw, sizeof(*s->w))))
		return dl_err("out of memory");
	for (long r = 0; r < s->replicas; r++)
		for (long j = 0; j < c->pp; j++)
			for (long i = 0; i < c->tp; i++, k++) {
				struct worker *w = &s->w[k];

				*w = (struct worker){ .s = s, .i = i, .j = j, .r = r,
						      .rank = llm_rank(c, i, j, r) };
				w->host = s->p->hosts[s->p->devices[w->rank]].sg;
				w->fwd_in = mailbox("fwd", w->rank);
				w->bwd_in = mailbox("bwd", w->rank);
				if (j + 1 < c->pp) {
					w->fwd_out = mailbox("fwd", llm_rank(c, i, j + 1, r));
					if (check_route(s, w->rank, llm_rank(c, i, j + 1, r)))
						return -1;
				}
				if (j > 0)
					w->bwd_out = mailbox("bwd", llm_rank(c, i, j - 1, r));
			}
	return 0;
}

static int make_peers(struct sim *s)
{
	const struct llm_par *c = s->c;
	int k = 0;

	s->sync = calloc(c->pp, sizeof(*s->sync));
	s->npeers = (int)(c->pp * (c->dp - s->replicas));
	s->peer = calloc(s->npeers ? s->npeers : 1, sizeof(*s->peer));
	if (!s->sync || !s->peer)
		return dl_err("out of memory");
	for (long j = 0; j < c->pp; j++) {
		s->sync[j].mx = sg_mutex_init();
		s->sync[j].cv = sg_cond_init();
		for (long r = s->replicas; r < c->dp; r++)
			s->peer[k++] = (struct peer){ .s = s, .j = j, .r = r };
	}
	return 0;
}

static void start_actors(struct sim *s)
{
	for (int k = 0; k < s->nw; k++)
		dl_actor_start("llm-stage", s->w[k].host, worker_main, &s->w[k]);
	for (int k = 0; k < s->npeers; k++) {
		struct peer *q = &s->peer[k];
		int rank = llm_rank(s->c, 0, q->j, q->r);

		dl_actor_start("llm-dp-peer", s->p->hosts[s->p->devices[rank]].sg, peer_main, q);
	}
}

/* The devices whose stage does not fit get their DMA actors. */
static int open_offload(struct sim *s)
{
	if (llm_offload_open(&s->off, s->cfg, s->m, s->p, llm_memory_limit(s->cfg, &s->dev)))
		return -1;
	for (int k = 0; s->off && k < s->nw; k++)
		s->w[k].off = llm_offload_attach(s->off, s->w[k].rank, s->w[k].j, s->w[k].host);
	return llm_offload_start(s->off);
}

static int prepare(struct sim *s, struct llm_result *res)
{
	const struct llm_model *m = s->m;
	const struct llm_par *c = s->c;
	enum llm_dtype t = m->dtype;
	double b = c->micro_batch;

	s->replicas = s->m->experts > 1 && c->ep > 1 ? c->ep : 1;
	if (s->cfg->all_replicas)	/* the check of the representatives */
		s->replicas = c->dp;
	s->mb = llm_microbatches(m, c);
	s->t_fwd = llm_device_time(&s->dev, t, llm_layer_fwd_flops(m, b) / c->tp);
	s->t_logit = llm_device_time(&s->dev, t, llm_logit_fwd_flops(m, b) / c->tp);
	s->t_attn = llm_device_time(&s->dev, t,
				    4 * b * (double)m->seq * m->seq * m->hidden / c->tp);
	for (int k = 0; k < KINDS; k++)
		if (dl_traffic_open(&s->traffic[k], s->p))
			return -1;
	snprintf(res->coll_tp, sizeof(res->coll_tp), "%s", c->tp > 1 ? "" : "none");
	snprintf(res->coll_dp, sizeof(res->coll_dp), "%s", c->dp > 1 ? "" : "none");
	if (open_comms(s, res) || make_workers(s) || make_peers(s))
		return -1;
	return open_offload(s);
}

static void close_comms(struct sim *s)
{
	const struct llm_par *c = s->c;

	for (long k = 0; s->tp && k < s->replicas * c->pp; k++)
		dl_coll_close(s->tp[k]);
	for (long k = 0; s->dp && k < c->pp; k++)
		dl_coll_close(s->dp[k]);
	for (long k = 0; s->ep && k < ep_groups(s); k++)
		dl_coll_close(s->ep[k]);
	free(s->tp);
	free(s->dp);
	free(s->ep);
}

static void teardown(struct sim *s)
{
	close_comms(s);
	for (int k = 0; s->w && k < s->nw; k++)
		free(s->w[k].sends);
	for (long j = 0; s->sync && j < s->c->pp; j++) {
		if (s->sync[j].mx)
			sg_mutex_destroy(s->sync[j].mx);
		if (s->sync[j].cv)
			sg_cond_destroy(s->sync[j].cv);
	}
	free(s->sync);
	free(s->w);
	free(s->peer);
	for (int k = 0; k < KINDS; k++)
		dl_traffic_close(s->traffic[k]);
	llm_offload_close(s->off);
	dl_platform_free(s->p);
}

/* ---- results ---- */

static int check_finished(const struct sim *s)
{
	for (int k = 0; k < s->nw; k++)
		if (!s->w[k].finished)
			return dl_err("llm: stage %ld (device %d) never finished the iteration (a collective plugin deadlocked)",
				      s->w[k].j, s->w[k].rank);
	for (int k = 0; k < s->npeers; k++)
		if (!s->peer[k].finished)
			return dl_err("llm: the data-parallel group of stage %ld never finished",
				      s->peer[k].j);
	return 0;
}

/* Bytes of every simulated link by class, each kind scaled to the whole
 * machine: tensor, pipeline and expert groups exist dp / replicas times
 * over, data-parallel groups tp times (one per tensor rank). */
static void class_bytes(const struct sim *s, struct llm_result *r)
{
	double scale[KINDS] = {
		[K_TP] = (double)s->c->dp / s->replicas, [K_PP] = (double)s->c->dp / s->replicas,
		[K_EP] = (double)s->c->dp / s->replicas, [K_DP] = (double)s->c->tp,
	};
	const struct dl_traffic *off = llm_offload_traffic_ledger(s->off);

	for (int k = 0; k < KINDS; k++)
		for (int l = 0; l < s->p->nlinks; l++)
			for (int d = 0; d < 2; d++)
				r->class_bytes[s->p->links[l].cls] +=
					scale[k] * dl_traffic_bytes(s->traffic[k], l, d);
	/* The backing store's traffic: every simulated device's, its
	 * pipeline's copies too. */
	for (int l = 0; off && l < s->p->nlinks; l++)
		for (int d = 0; d < 2; d++)
			r->class_bytes[s->p->links[l].cls] +=
				scale[K_TP] * dl_traffic_bytes(off, l, d);
}

/*
 * The breakdown is the last device's (the iteration ends with it): its
 * time blocked on pipeline neighbours is the bubble (Narayanan et al.,
 * Section 2.2.1: (p - 1) (t_f + t_b), its own compute per micro-batch)
 * and, above it, what the pipeline adds: transfers, and stages of unequal
 * work (the last one also computes the logits), so the parts add up to
 * the iteration.
 */
static void breakdown(const struct sim *s, const struct worker *w, struct llm_result *r)
{
	double per_mb, off = llm_offload_wait_s(w->off);
	double blocked = fmax(0, w->end_s - w->compute_s - w->tp_s - w->ep_s - w->dp_s - off);

	per_mb = w->compute_s / s->mb;
	r->offload_s = off;
	r->compute_s = w->compute_s;
	r->tp_s = w->tp_s;
	r->ep_s = w->ep_s;
	r->dp_s = w->dp_s;
	r->bubble_s = fmin(blocked, (s->c->pp - 1) * per_mb);
	r->pp_s = blocked - r->bubble_s;
}

static void collect(const struct sim *s, struct llm_result *r)
{
	const struct llm_par *c = s->c;
	const struct worker *last = NULL;
	double worst = 0;
	long fullest = 0;

	/* Tensor ranks are alike; rank 0 also reduces the gradients. */
	for (int k = 0; k < s->nw; k++)
		if (!s->w[k].i && (!last || s->w[k].end_s > last->end_s))
			last = &s->w[k];
	r->iteration_s = last->end_s;
	for (int k = 0; k < s->nw; k++)
		r->iteration_s = fmax(r->iteration_s, s->w[k].end_s);
	for (int k = 0; k < s->npeers; k++)
		r->iteration_s = fmax(r->iteration_s, s->peer[k].end_s);
	breakdown(s, last, r);
	r->devices = (int)(c->tp * c->pp * c->dp);
	r->simulated = s->nw + s->npeers;
	r->model_flops = llm_iteration_flops(s->m, c);
	r->flops_per_device_s = r->model_flops / r->devices / r->iteration_s;
	r->mfu = r->flops_per_device_s / llm_device_peak(&s->dev, s->m->dtype);
	r->tokens_s = (double)c->global_batch * s->m->seq / r->iteration_s;
	for (long j = 0; j < c->pp; j++) {
		struct llm_memory mem;

		llm_memory(s->m, c, j, &mem);
		if (mem.total > worst)
			worst = mem.total, fullest = j, r->mem = mem;
	}
	for (int k = 0; k < s->nw; k++)
		if (!s->w[k].i && !s->w[k].r && s->w[k].j == fullest)
			r->offload_traffic_bytes = llm_offload_moved(s->w[k].off);
	r->offloaded_bytes = llm_offload_stage_bytes(s->off, fullest);
	class_bytes(s, r);
}

/* Every ledger's bytes on the links of the simulated devices, unscaled:
 * the copies' links are not simulated (docs/llm.md). */
static int write_link_stats(const struct sim *s, const struct llm_result *r,
			    struct dl_outfile *csv)
{
	const struct dl_traffic *t[KINDS + 1];
	int n = KINDS;

	for (int k = 0; k < KINDS; k++)
		t[k] = s->traffic[k];
	if (llm_offload_traffic_ledger(s->off))
		t[n++] = llm_offload_traffic_ledger(s->off);
	dl_traffic_write_csv(s->p, t, n, r->iteration_s, csv->f);
	return dl_outfile_commit(csv);
}

int llm_run(const struct llm_cfg *cfg, const struct llm_model *m, struct llm_result *r)
{
	struct sim s = { .cfg = cfg, .m = m, .c = &cfg->par };
	struct dl_outfile csv = { 0 };
	int ret = -1;

	memset(r, 0, sizeof(*r));
	if (dl_engine_start(cfg->platform, &s.p))
		return -1;
	if (dl_platform_require_devices(s.p) || llm_device_open(&s.dev, s.p, cfg->device) ||
	    llm_check_memory(cfg, m, &s.dev) || llm_check_devices(s.c, s.p->ndevices, cfg->platform))
		goto out;
	snprintf(r->device, sizeof(r->device), "%s", llm_device_name(&s.dev));
	r->device_memory = llm_memory_limit(cfg, &s.dev);
	if (prepare(&s, r))
		goto out;
	if (cfg->link_stats && dl_outfile_open(&csv, cfg->link_stats, "--link-stats"))
		goto out;
	start_actors(&s);
	if (dl_engine_run() || check_finished(&s))
		goto out;
	collect(&s, r);
	if (cfg->link_stats && write_link_stats(&s, r, &csv))
		goto out;
	ret = 0;
out:
	if (ret && cfg->link_stats && csv.f)
		dl_outfile_abort(&csv);
	teardown(&s);
	return ret;
}
