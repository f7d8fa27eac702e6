/* SPDX-License-Identifier: MIT */
/* Closed forms of a training iteration: FLOPs, memory, communication. */
#include "cost.h"

#include <math.h>

static double kv_ratio(const struct llm_model *m)
{
	return (double)m->kv_heads / m->heads;
}

static double mlp_matrices(const struct llm_model *m)
{
	return m->gated_ffn ? 3 : 2;
}

/* One expert's MLP: its matrices and biases. */
static double expert_params(const struct llm_model *m)
{
	double h = m->hidden, f = m->ffn;

	return mlp_matrices(m) * h * f + (mlp_matrices(m) - 1) * f + h;
}

/* Attention (Q, K, V, output with biases), two layer norms, the router. */
static double dense_layer_params(const struct llm_model *m)
{
	double h = m->hidden, kv = kv_ratio(m);
	double router = m->experts > 1 ? h * m->experts : 0;

	return 2 * h * h + 2 * h * h * kv + 2 * h + 2 * h * kv + 4 * h + router;
}

double llm_layer_params(const struct llm_model *m)
{
	return dense_layer_params(m) + m->experts * expert_params(m);
}

/* Token and position embeddings (the output layer shares the former). */
static double embedding_params(const struct llm_model *m)
{
	return (double)m->vocab * m->hidden + (double)m->seq * m->hidden;
}

double llm_params(const struct llm_model *m)
{
	return m->layers * llm_layer_params(m) + embedding_params(m) + 2.0 * m->hidden;
}

long llm_microbatches(const struct llm_model *m, const struct llm_par *c)
{
	return c->global_batch / (c->dp * c->micro_batch);
}

/* Matrix parameters a token meets in one layer (top-k experts). */
static double active_matrix_params(const struct llm_model *m)
{
	double h = m->hidden;

	return 2 * h * h + 2 * h * h * kv_ratio(m) + m->topk * mlp_matrices(m) * h * m->ffn;
}

/* Q K^T and attention x V: 2 b s^2 h each. */
static double attention_flops(const struct llm_model *m, double batch)
{
	return 4 * batch * (double)m->seq * m->seq * m->hidden;
}

double llm_layer_fwd_flops(const struct llm_model *m, double batch)
{
	return 2 * batch * m->seq * active_matrix_params(m) + attention_flops(m, batch);
}

double llm_logit_fwd_flops(const struct llm_model *m, double batch)
{
	return 2 * batch * (double)m->seq * m->hidden * m->vocab;
}

/* Forward, backward (twice the forward) and what is recomputed. */
double llm_iteration_flops(const struct llm_model *m, const struct llm_par *c)
{
	double B = c->global_batch, layer = llm_layer_fwd_flops(m, B);
	double layers = 3 * layer;

	if (c->recompute == LLM_RECOMPUTE_FULL)
		layers += layer;
	else if (c->recompute == LLM_RECOMPUTE_SELECTIVE)
		layers += attention_flops(m, B);
	return m->layers * layers + 3 * llm_logit_fwd_flops(m, B);
}

double llm_stage_params(const struct llm_model *m, const struct llm_par *c, long stage)
{
	double experts = m->experts * expert_params(m);
	double per_layer = (dense_layer_params(m) + experts / c->ep) / c->tp;
	double params = per_layer * (m->layers / c->pp);

	if (stage == 0)
		params += (double)m->vocab * m->hidden / c->tp + (double)m->seq * m->hidden;
	else if (stage == c->pp - 1)
		params += (double)m->vocab * m->hidden / c->tp;	/* the output layer's copy */
	if (stage == c->pp - 1)
		params += 2.0 * m->hidden;
	return params;
}

double llm_layer_activations(const struct llm_model *m, const struct llm_par *c)
{
	double s = m->seq, b = c->micro_batch, h = m->hidden, a = m->heads, t = c->tp;
	double sbh = s * b * h, attn = c->recompute == LLM_RECOMPUTE_SELECTIVE ? 0 : 5 * a * s / h;

	if (c->recompute == LLM_RECOMPUTE_FULL)
		return c->seq_parallel ? 2 * sbh / t : 2 * sbh;
	if (c->seq_parallel)
		return sbh * (34 + attn) / t;
	if (t == 1)
		return sbh * (34 + attn);
	return sbh * (10 + 24 / t + attn / t);
}

long llm_inflight(const struct llm_model *m, const struct llm_par *c, long stage)
{
	long inflight = c->pp - stage, mb = llm_microbatches(m, c);

	return inflight < mb ? inflight : mb;
}

void llm_memory(const struct llm_model *m, const struct llm_par *c, long stage,
		struct llm_memory *out)
{
	double phi = llm_stage_params(m, c, stage), el = llm_dtype_bytes(m->dtype);
	/* Mixed-precision Adam: fp32 master copy, momentum and variance
	 * (ZeRO, Rajbhandari et al., 2020: K = 12); in fp32 no copy. */
	double opt = m->dtype == LLM_FP32 ? 8 : 12;
	long inflight = llm_inflight(m, c, stage);

	out->params = phi * el / (c->zero >= 3 ? c->dp : 1);
	out->grads = phi * el / (c->zero >= 2 ? c->dp : 1);
	out->optimizer = phi * opt / (c->zero >= 1 ? c->dp : 1);
	out->activations = llm_layer_activations(m, c) * (m->layers / c->pp) * inflight;
	out->total = out->params + out->grads + out->optimizer + out->activations;
}

/* Take up to `*over` bytes of a kind holding `have`. */
static double take(double have, double *over)
{
	double t = fmin(have, *over);

	*over -= t;
	return t;
}

bool llm_offload_split(const struct llm_memory *mem, double cap, struct llm_offloaded *out)
{
	double over = fmax(0, mem->total - cap);

	out->optimizer = take(mem->optimizer, &over);
	out->activations = take(mem->activations, &over);
	out->params = take(mem->params, &over);
	out->total = out->optimizer + out->activations + out->params;
	return over <= 0;
}

double llm_offload_traffic(const struct llm_model *m, const struct llm_par *c, long stage,
			   const struct llm_offloaded *off)
{
	double mb = llm_microbatches(m, c);

	return 2 * off->optimizer + 2 * off->activations * mb / llm_inflight(m, c, stage) +
	       (2 * mb + 1) * off->params;
}

double llm_tp_message(const struct llm_model *m, const struct llm_par *c)
{
	return (double)c->micro_batch * m->seq * m->hidden * llm_dtype_bytes(m->dtype);
}

int llm_tp_allreduces(const struct llm_par *c)
{
	return c->recompute == LLM_RECOMPUTE_FULL ? 6 : 4;
}

double llm_pp_message(const struct llm_model *m, const struct llm_par *c)
{
	return llm_tp_message(m, c) / c->tp;
}

double llm_ep_message(const struct llm_model *m, const struct llm_par *c)
{
	return llm_tp_message(m, c) * m->topk / c->tp;
}

static double ring_share(long n)
{
	return (double)(n - 1) / n;
}

void llm_comm_volume(const struct llm_model *m, const struct llm_par *c, long stage,
		     struct llm_comm *out)
{
	double mb = llm_microbatches(m, c), layers = m->layers / c->pp;
	double grads = llm_stage_params(m, c, stage) * llm_dtype_bytes(m->dtype);
	int passes = llm_tp_allreduces(c);

	out->tp = layers * mb * passes * 2 * ring_share(c->tp) * llm_tp_message(m, c);
	out->pp = mb * llm_pp_message(m, c) * ((stage < c->pp - 1) + (stage > 0));
	/* ZeRO 1-2: reduce-scatter then all-gather, an all-reduce's bytes;
	 * ZeRO 3 gathers the parameters once more for backward. */
	out->dp = (c->zero >= 3 ? 3 : 2) * ring_share(c->dp) * grads;
	out->ep = 0;
	if (m->experts > 1 && c->ep > 1)
		out->ep = layers * mb * passes * ring_share(c->ep) * llm_ep_message(m, c);
}
