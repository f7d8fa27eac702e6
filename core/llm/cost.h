/* SPDX-License-Identifier: MIT */
/*
 * Closed forms of one training iteration (docs/llm.md): a pure library,
 * no simulation.  b is the micro-batch, B the global batch, t, p, d, e
 * the tensor-, pipeline-, data- and expert-parallel degrees.
 */
#ifndef LLM_COST_H
#define LLM_COST_H

#include <stdbool.h>

#include "model.h"

enum llm_recompute { LLM_RECOMPUTE_NONE, LLM_RECOMPUTE_SELECTIVE, LLM_RECOMPUTE_FULL };

struct llm_par {
	long tp, pp, dp, ep;
	long global_batch, micro_batch;
	int zero;			/* ZeRO stage 0..3 */
	bool seq_parallel;		/* Korthikanti et al.'s sequence parallelism */
	enum llm_recompute recompute;
};

/* Parameters of one transformer layer (all experts) and of the model. */
double llm_layer_params(const struct llm_model *m);
double llm_params(const struct llm_model *m);
/* Micro-batches per pipeline per iteration: B / (d b). */
long llm_microbatches(const struct llm_model *m, const struct llm_par *c);

/* Forward FLOPs of one layer for `tokens` tokens, and of the logits. */
double llm_layer_fwd_flops(const struct llm_model *m, double batch);
double llm_logit_fwd_flops(const struct llm_model *m, double batch);
/*
 * Model FLOPs of one iteration, all devices (Narayanan et al., SC'21,
 * Section 5.1): 96 B s l h^2 (1 + s/6h + V/16lh) for a GPT with full
 * recomputation; 72 instead of 96 (three passes, not four) without.
 */
double llm_iteration_flops(const struct llm_model *m, const struct llm_par *c);

/* Memory per device, bytes, by kind. */
struct llm_memory {
	double params, grads, optimizer, activations;
	double total;
};
/* Parameters held by the device of pipeline stage `stage` before any
 * ZeRO partitioning (its layers' share / t, the embedding on the first
 * stage, the output layer on the last). */
double llm_stage_params(const struct llm_model *m, const struct llm_par *c, long stage);
/* Activation bytes of one layer, one micro-batch (Korthikanti et al.,
 * 2022, Section 4): s b h (34 + 5 a s / h) without parallelism, with t
 * (10 + 24/t + 5 a s / (h t)), with t and sequence parallelism
 * (34 + 5 a s / h) / t; selective recomputation drops the 5 a s / h
 * term; full recomputation keeps 2 s b h (/ t with sequence parallelism). */
double llm_layer_activations(const struct llm_model *m, const struct llm_par *c);
/* The device of stage 0 in 1F1B holds min(p, m) micro-batches in flight. */
void llm_memory(const struct llm_model *m, const struct llm_par *c, long stage,
		struct llm_memory *out);

/*
 * What a stage's device keeps in the backing store when its memory is
 * over `cap` (docs/llm.md, "Offload"): the optimizer states first
 * (ZeRO-Offload), then the activation checkpoints, then the parameters
 * (ZeRO-Infinity), each only as much as needed; the gradients stay.
 */
struct llm_offloaded {
	double optimizer, activations, params;
	double total;
};
/* False when even all three leave the device over `cap`. */
bool llm_offload_split(const struct llm_memory *mem, double cap, struct llm_offloaded *out);
/* Micro-batches stage `stage` holds in flight in 1F1B: min(p - stage, m). */
long llm_inflight(const struct llm_model *m, const struct llm_par *c, long stage);
/* Backing-store bytes that device moves per iteration, both ways: the
 * optimizer states read and written around the step (2 O), every
 * checkpoint's offloaded share written after its forward and read before
 * its backward (2 A m / in flight), the offloaded parameters read before
 * each forward and each backward of every micro-batch and written once
 * updated ((2 m + 1) P). */
double llm_offload_traffic(const struct llm_model *m, const struct llm_par *c, long stage,
			   const struct llm_offloaded *off);

/* Bytes each device sends per iteration, by parallelism (ring
 * collectives: all-reduce 2(n-1)/n S, all-gather and reduce-scatter
 * (n-1)/n S, all-to-all (n-1)/n S). */
struct llm_comm {
	double tp, pp, dp, ep;
};
/* Bytes of one tensor-parallel all-reduce (the activations of a micro-batch). */
double llm_tp_message(const struct llm_model *m, const struct llm_par *c);
/* Tensor-parallel all-reduces per layer per micro-batch (2 forward, 2
 * backward, 2 more to recompute the forward). */
int llm_tp_allreduces(const struct llm_par *c);
/* Bytes one device sends to the next stage per micro-batch (Megatron's
 * scatter/gather: each of the t devices sends its 1/t). */
double llm_pp_message(const struct llm_model *m, const struct llm_par *c);
/* Bytes of one expert all-to-all of a micro-batch (tokens x topk). */
double llm_ep_message(const struct llm_model *m, const struct llm_par *c);
void llm_comm_volume(const struct llm_model *m, const struct llm_par *c, long stage,
		     struct llm_comm *out);

#endif
