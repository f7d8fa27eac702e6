/* SPDX-License-Identifier: MIT */
/* Building the per-device schedule of a training iteration. */
#include "plan.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/diag.h"
#include "machine/engine.h"
#include "lib/units.h"

/* A cheap layer whose output fans out to several layers (the block
 * boundaries of GoogLeNet and ResNet) is kept like a heavy layer's, so that
 * no backward step recomputes a whole chain of blocks. */
static bool layer_stashed(const struct mc_workload *w, int j, const int *consumers)
{
	const struct mc_layer *l = &w->layer[j];

	return l->kind == MC_INPUT || mc_layer_heavy(l) || consumers[j] > 1;
}

struct builder {
	struct mc_plan *plan;
	const struct mc_workload *w;
	int *first_op;		/* per layer */
	int *consumers;		/* per layer */
	bool *stashed;		/* per layer */
};

static void add_need(struct mc_op *op, int e)
{
	for (int i = 0; i < op->nneed; i++)
		if (op->need[i] == e)
			return;
	/* A bounded set: block boundaries are stashed (layer_stashed). */
	if (op->nneed < MC_MAX_NEED)
		op->need[op->nneed++] = e;
}

/* Stash entries from which layer j's output at step t can be rebuilt. */
static void resolve(struct builder *b, struct mc_op *op, int j, int t)
{
	const struct mc_layer *l = &b->w->layer[j];

	if (b->stashed[j]) {
		int k = l->steps > 1 ? t : 0;

		add_need(op, b->plan->op[b->first_op[j] + k].stash);
		return;
	}
	for (int i = 0; i < l->nin; i++)
		resolve(b, op, l->in[i], t);
}

static double elem_bytes(double E, double elems, double batch, int split)
{
	return E * elems * batch / split;
}

/* Bytes of one step of layer j's output on a device: its split, or the
 * whole network input, which every device is given. */
static double out_bytes(const struct mc_plan *plan, const struct mc_layer *l)
{
	return elem_bytes(plan->elem, l->out_elems, plan->batch, l->kind == MC_INPUT ? 1 : plan->split);
}

/* Bytes of layer l's inputs that live split across devices (all but the
 * network input, which every device holds whole). */
static double split_input_bytes(const struct mc_workload *w, const struct mc_layer *l, double batch)
{
	double s = 0;

	for (int i = 0; i < l->nin; i++)
		if (w->layer[l->in[i]].kind != MC_INPUT)
			s += elem_bytes(w->elem_bytes, w->layer[l->in[i]].out_elems, batch, 1);
	return s;
}

/*
 * Data-parallel: the weight gradients are all-reduced once per layer.
 * Model-parallel (Krizhevsky): a heavy layer gathers its split inputs
 * before forward and all-reduces their gradient after backward; its
 * weight gradient dW = X^T dY needs all of X again, which the device
 * holds only its split of, so X is gathered again before it.
 */
static void op_collectives(struct builder *b, struct mc_op *op, const struct mc_layer *l,
			   enum mc_parallel mode)
{
	const struct mc_plan *plan = b->plan;
	double x;

	if (mode == MC_DATA_PARALLEL) {
		if (l->weights > 0 && op->step == 0)
			op->dw_reduce_bytes = plan->elem * l->weights;
		return;
	}
	if (!mc_layer_heavy(l))
		return;
	x = split_input_bytes(b->w, l, plan->batch);
	if (mc_layer_recurrent(l) && op->step > 0)
		x += elem_bytes(plan->elem, l->c, plan->batch, 1);	/* h(t-1) */
	op->gather_bytes = x;
	op->dx_reduce_bytes = x;
	op->bwd_gather_bytes = x;
}

/* Compute times of a step run over its batch in `op->tiles` tiles. */
static void op_times(const struct mc_plan *plan, const struct mc_workload *w, struct mc_op *op,
		     const struct mc_device *d)
{
	bool stashed = op->stash >= 0;
	const struct mc_layer *l = &w->layer[op->layer];
	double tile = ceil(plan->batch / op->tiles), tiles = ceil(plan->batch / tile);
	struct mc_layer_time t;

	mc_layer_times(d, w, l, tile, plan->split, &t);
	op->fwd_s = tiles * t.fwd_s;
	op->bwd_s = tiles * t.bwd_data_s;
	/* Cheap layers that are not kept are recomputed in backward. */
	if (!stashed)
		op->bwd_s += tiles * t.fwd_s;
	/* A layer's weight gradients once, after the backward of its first
	 * step (recurrent layers: one GEMM over all steps, as cuDNN's
	 * backward-weights call). */
	op->wgrad_s = op->step == 0 ? tiles * t.bwd_weight_s : 0;
}

/* What a device keeps of a step's output for backward: its split, or
 * the whole network input (every device is given it, and the first
 * layer's dW reads all of it); a recurrent step's gate activations and
 * h(t). */
static double stash_bytes(const struct builder *b, const struct mc_layer *l)
{
	const struct mc_plan *plan = b->plan;

	if (mc_layer_recurrent(l))
		return elem_bytes(plan->elem, (mc_layer_gates(l) + 1.0) * l->c, plan->batch, plan->split);
	return out_bytes(plan, l);
}

static int build_ops(struct builder *b, const struct mc_device *d, enum mc_parallel mode)
{
	struct mc_plan *plan = b->plan;
	const struct mc_workload *w = b->w;
	int n = 0;

	for (int j = 0; j < w->nlayers; j++) {
		const struct mc_layer *l = &w->layer[j];

		b->first_op[j] = n;
		for (int t = 0; t < l->steps; t++, n++) {
			struct mc_op *op = &plan->op[n];

			memset(op, 0, sizeof(*op));
			op->layer = j;
			op->step = t;
			op->stash = -1;
			op->tiles = 1;
			if (b->stashed[j]) {
				op->stash = plan->nstash;
				plan->stash[plan->nstash++] = (struct mc_stash){
					.bytes = stash_bytes(b, l), .producer = n,
					.last_fwd_use = n, .first_bwd_use = -1, .last_bwd_use = -1,
				};
			}
			for (int i = 0; i < l->nin; i++)
				resolve(b, op, l->in[i], t);
			if (mc_layer_recurrent(l)) {
				add_need(op, op->stash);
				if (t > 0)
					add_need(op, plan->op[n - 1].stash);
			}
			op_times(plan, w, op, d);
			op_collectives(b, op, l, mode);
		}
	}
	plan->nops = n;
	return 0;
}

/* Forward and backward uses of every stash entry, and the prefetch order. */
static void stash_uses(struct mc_plan *plan)
{
	int k = 0;

	for (int i = 0; i < plan->nops; i++) {
		for (int j = 0; j < plan->op[i].nneed; j++) {
			struct mc_stash *s = &plan->stash[plan->op[i].need[j]];

			s->last_fwd_use = i > s->last_fwd_use ? i : s->last_fwd_use;
			s->first_bwd_use = i;
			if (s->last_bwd_use < 0)
				s->last_bwd_use = i;
		}
	}
	for (int i = plan->nops - 1; i >= 0; i--) {
		for (int j = 0; j < plan->op[i].nneed; j++) {
			int e = plan->op[i].need[j];

			if (plan->stash[e].first_bwd_use == i)
				plan->prefetch_order[k++] = e;
		}
	}
	plan->nprefetch = k;
}

/*
 * Working buffers of a step beside the stash entries: the gathered X
 * (model-parallel), activations that are not kept (inputs and output of
 * cheap layers, recomputed in backward), and in backward the gradients dY
 * and dX (dX as large as the X the step read) with X gathered again.
 */
static double work_bytes(struct builder *b, const struct mc_op *op)
{
	const struct mc_plan *plan = b->plan;
	const struct mc_layer *l = &b->w->layer[op->layer];
	double x = 0, transient = b->stashed[op->layer] ? 0 : out_bytes(plan, l);

	for (int k = 0; k < l->nin; k++) {
		const struct mc_layer *in = &b->w->layer[l->in[k]];

		x += out_bytes(plan, in);
		if (!b->stashed[l->in[k]])
			transient += out_bytes(plan, in);
	}
	return out_bytes(plan, l) + fmax(x, op->gather_bytes) + op->bwd_gather_bytes + transient;
}

static int op_collective_count(const struct mc_op *op)
{
	return op->tiles * ((op->gather_bytes > 0) + (op->dx_reduce_bytes > 0) +
			    (op->bwd_gather_bytes > 0)) + (op->dw_reduce_bytes > 0);
}

static void sizes(struct builder *b)
{
	struct mc_plan *plan = b->plan;

	plan->static_bytes = 2 * plan->elem * mc_workload_weights(b->w) / plan->split;
	plan->workspace_bytes = 0;
	plan->collectives = 0;
	for (int i = 0; i < plan->nops; i++) {
		struct mc_op *op = &plan->op[i];

		op->work_bytes = work_bytes(b, op);
		plan->workspace_bytes = fmax(plan->workspace_bytes, op->work_bytes);
		plan->collectives += op_collective_count(op);
	}
}

/* Every size the iteration transfers fits one SimGrid transfer. */
static int check_transfers(const struct mc_plan *plan, const struct mc_workload *w)
{
	for (int i = 0; i < plan->nops; i++) {
		const struct mc_op *op = &plan->op[i];
		const struct mc_layer *l = &w->layer[op->layer];
		const struct { const char *what; double bytes; } t[] = {
			{ "all-gather of its input", op->gather_bytes },
			{ "all-reduce of its input gradient", op->dx_reduce_bytes },
			{ "all-reduce of its weight gradients", op->dw_reduce_bytes },
			{ "feature maps kept for backward", op->stash >= 0 ? plan->stash[op->stash].bytes : 0 },
		};

		for (size_t k = 0; k < sizeof(t) / sizeof(t[0]); k++)
			if (!(t[k].bytes <= DL_MAX_TRANSFER_BYTES))
				return dl_err("%s:%d: layer '%s': its %s is %.3g bytes per device, more than the 2^62 bytes (4.6e18) a transfer can carry",
					      w->file, l->line, l->name, t[k].what, t[k].bytes);
	}
	return 0;
}

static int check_batch(double batch, int devices, enum mc_parallel mode)
{
	if (!(batch >= 1) || batch != floor(batch))
		return dl_err("--batch %g: a whole number of samples >= 1", batch);
	if (mode == MC_DATA_PARALLEL && fmod(batch, devices) != 0)
		return dl_err("--batch %.0f does not divide across %d devices (data-parallel training gives each device batch/%d samples)",
			      batch, devices, devices);
	return 0;
}

/* Outputs a model-parallel layer splits over the devices: its channels
 * (an fc layer's outputs), or a recurrent layer's gates x hidden units. */
static double split_width(const struct mc_layer *l)
{
	return mc_layer_recurrent(l) ? (double)mc_layer_gates(l) * l->c : (double)l->c;
}

/*
 * A layer narrower than the devices that split it leaves each device a
 * fraction of an output, which the model computes as if it could (its
 * times scale with 1 / split).  Said once per plan, naming the first such
 * layer and how many there are.
 */
static void warn_narrow(const struct mc_workload *w, int split)
{
	int first = -1, n = 0;

	for (int j = 0; j < w->nlayers; j++) {
		if (!mc_layer_heavy(&w->layer[j]) || split_width(&w->layer[j]) >= split)
			continue;
		if (first < 0)
			first = j;
		n++;
	}
	if (first >= 0)
		dl_warn("%s:%d: layer '%s' has %.0f outputs to split over %d devices (%d such layer%s): each device computes a fraction of an output, as if that divided evenly",
			w->file, w->layer[first].line, w->layer[first].name,
			split_width(&w->layer[first]), split, n, n == 1 ? "" : "s");
}

int mc_plan_build(struct mc_plan *plan, const struct mc_workload *w,
		  const struct mc_device *d, double batch, int devices,
		  enum mc_parallel mode)
{
	struct builder b = { .plan = plan, .w = w };
	double steps = 0;
	int nops, ret = -1;

	memset(plan, 0, sizeof(*plan));
	if (check_batch(batch, devices, mode))
		return -1;
	plan->batch = mode == MC_DATA_PARALLEL ? batch / devices : batch;
	plan->split = mode == MC_DATA_PARALLEL ? 1 : devices;
	plan->elem = w->elem_bytes;
	for (int j = 0; j < w->nlayers; j++)
		steps += (double)w->layer[j].steps;
	/* The reader caps it; a workload built otherwise is checked here. */
	if (steps < 1 || steps > MC_MAX_STEPS)
		return dl_err("%s: %.0f steps per iteration (1 to %d supported)", w->file, steps,
			      MC_MAX_STEPS);
	nops = (int)steps;
	plan->op = calloc((size_t)nops, sizeof(*plan->op));
	plan->stash = calloc((size_t)nops, sizeof(*plan->stash));
	plan->prefetch_order = calloc((size_t)nops, sizeof(int));
	b.first_op = calloc(w->nlayers, sizeof(int));
	b.consumers = calloc(w->nlayers, sizeof(int));
	b.stashed = calloc(w->nlayers, sizeof(bool));
	if (!plan->op || !plan->stash || !plan->prefetch_order || !b.first_op || !b.consumers ||
	    !b.stashed) {
		dl_err("out of memory");
		goto out;
	}
	for (int j = 0; j < w->nlayers; j++)
		for (int i = 0; i < w->layer[j].nin; i++)
			b.consumers[w->layer[j].in[i]]++;
	for (int j = 0; j < w->nlayers; j++)
		b.stashed[j] = layer_stashed(w, j, b.consumers);
	if (plan->split > 1)
		warn_narrow(w, plan->split);
	build_ops(&b, d, mode);
	stash_uses(plan);
	sizes(&b);
	ret = check_transfers(plan, w);
out:
	free(b.first_op);
	free(b.consumers);
	free(b.stashed);
	if (ret)
		mc_plan_free(plan);
	return ret;
}

void mc_plan_free(struct mc_plan *plan)
{
	free(plan->op);
	free(plan->stash);
	free(plan->prefetch_order);
	memset(plan, 0, sizeof(*plan));
}

/*
 * The device memory the entries need at each point of the iteration:
 * forward step i is position i, backward step i position 2n - 1 - i.  An
 * entry that leaves is live over [producer, last forward use] and, back,
 * over its backward uses; one kept, over everything between as well.
 */
static void timeline_add(double *diff, double bytes, int lo, int hi)
{
	if (lo > hi)
		return;
	diff[lo] += bytes;
	diff[hi + 1] -= bytes;
}

double mc_plan_keep(struct mc_plan *plan, double budget)
{
	int n = plan->nops, len = 2 * n;
	double *load = calloc((size_t)len + 1, sizeof(double)), kept = 0, run = 0;

	if (!load)
		return 0;	/* nothing kept: the all-out overlay */
	for (int e = 0; e < plan->nstash; e++) {
		const struct mc_stash *s = &plan->stash[e];

		if (s->first_bwd_use < 0)
			continue;
		timeline_add(load, s->bytes, s->producer, s->last_fwd_use);
		timeline_add(load, s->bytes, len - 1 - s->first_bwd_use, len - 1 - s->last_bwd_use);
	}
	for (int i = 0; i < len; i++) {
		run += load[i];
		load[i] = run;
	}
	for (int k = 0; k < plan->nprefetch; k++) {
		struct mc_stash *s = &plan->stash[plan->prefetch_order[k]];
		int lo = s->last_fwd_use + 1, hi = len - 2 - s->first_bwd_use;
		double peak = 0;

		for (int i = lo; i <= hi; i++)
			peak = fmax(peak, load[i]);
		if (peak + s->bytes > budget)
			continue;
		for (int i = lo; i <= hi; i++)
			load[i] += s->bytes;
		s->kept = true;
		kept += s->bytes;
	}
	free(load);
	return kept;
}

double mc_plan_compute(const struct mc_plan *plan)
{
	double s = 0;

	for (int i = 0; i < plan->nops; i++)
		s += plan->op[i].fwd_s + plan->op[i].bwd_s + plan->op[i].wgrad_s;
	return s;
}

/*
 * Largest set of stash entries live at one step, forward or backward: an
 * entry is live in forward from its producer to its last forward use, in
 * backward from its first to its last backward use.  Summed by sweeping
 * the steps once (linear, not steps x entries).
 */
static double peak_live(const struct mc_plan *plan, int *at)
{
	double *fwd = calloc((size_t)plan->nops + 1, sizeof(double));
	double *bwd = calloc((size_t)plan->nops + 1, sizeof(double));
	double peak = 0, f = 0, g = 0;

	*at = 0;
	if (!fwd || !bwd) {
		free(fwd);
		free(bwd);
		return INFINITY;	/* reported as not fitting */
	}
	for (int e = 0; e < plan->nstash; e++) {
		const struct mc_stash *s = &plan->stash[e];

		fwd[s->producer] += s->bytes;
		fwd[s->last_fwd_use + 1] -= s->bytes;
		if (s->last_bwd_use >= 0) {
			bwd[s->last_bwd_use] += s->bytes;
			bwd[s->first_bwd_use + 1] -= s->bytes;
		}
	}
	for (int i = 0; i < plan->nops; i++) {
		f += fwd[i];
		g += bwd[i];
		if (fmax(f, g) > peak) {
			peak = fmax(f, g);
			*at = i;
		}
	}
	free(fwd);
	free(bwd);
	return peak;
}

/*
 * The working buffers of each step get what the weights, gradients and
 * the largest set of live feature maps leave; a step whose buffers are
 * larger runs over its batch in tiles (its collectives too), each tile's
 * buffers fitting.  Impossible when a single sample's buffers do not fit.
 */
int mc_plan_fit(struct mc_plan *plan, const struct mc_workload *w, const struct mc_device *d,
		double capacity, const char *option, double *budget)
{
	char cap[32], need[32], maps[32];
	int at;
	double live = peak_live(plan, &at), room = capacity - plan->static_bytes - live;

	*budget = INFINITY;
	if (isinf(capacity))
		return 0;
	if (room <= 0)
		return dl_err("%s %s cannot hold layer '%s' (%s): its weights and gradients (%s) and the feature maps live at that step (%s) exceed it",
			      option, dl_format_size(capacity, cap, sizeof(cap)),
			      w->layer[plan->op[at].layer].name, w->file,
			      dl_format_size(plan->static_bytes, need, sizeof(need)),
			      dl_format_size(live, maps, sizeof(maps)));
	plan->workspace_bytes = 0;
	plan->collectives = 0;
	for (int i = 0; i < plan->nops; i++) {
		struct mc_op *op = &plan->op[i];

		if (op->work_bytes > room) {
			if (op->work_bytes / plan->batch > room)
				return dl_err("%s %s cannot hold layer '%s' (%s): one sample's working buffers (%s) do not fit beside the weights, gradients and live feature maps",
					      option, dl_format_size(capacity, cap, sizeof(cap)),
					      w->layer[op->layer].name, w->file,
					      dl_format_size(op->work_bytes / plan->batch, need, sizeof(need)));
			/* As many samples per tile as fit. */
			op->tiles = (int)ceil(plan->batch / floor(room / (op->work_bytes / plan->batch)));
			op_times(plan, w, op, d);
		}
		plan->workspace_bytes = fmax(plan->workspace_bytes, op->work_bytes / plan->batch *
					     ceil(plan->batch / op->tiles));
		plan->collectives += op_collective_count(op);
	}
	*budget = capacity - plan->static_bytes - plan->workspace_bytes;
	return 0;
}
