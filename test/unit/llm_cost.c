/* SPDX-License-Identifier: MIT */
/*
 * The transformer closed forms against the papers' own formulas and hand
 * calculations: Megatron's FLOP count (Narayanan et al., SC'21, Section
 * 5.1) and parameter count, the parameter column of its Table 1,
 * Korthikanti et al.'s activation memory, ZeRO's memory and traffic, the
 * communication volumes of each parallelism, and what offload puts in the
 * backing store and moves there.
 */
#include "check.h"

#include <stdlib.h>
#include <unistd.h>

#include "llm/cost.h"
#include "llm/model.h"

static struct llm_model gpt(long l, long h, long a)
{
	return (struct llm_model){ .name = "t", .layers = l, .hidden = h, .heads = a,
				   .kv_heads = a, .seq = 2048, .vocab = 51200, .ffn = 4 * h,
				   .experts = 1, .topk = 1, .dtype = LLM_FP16 };
}

static struct llm_par par(long t, long p, long d, long B, long b)
{
	return (struct llm_par){ .tp = t, .pp = p, .dp = d, .ep = 1, .global_batch = B,
				 .micro_batch = b, .recompute = LLM_RECOMPUTE_FULL };
}

/* 96 B s l h^2 (1 + s/6h + V/16lh) with recomputation, 72 without. */
static void megatron_flops(void)
{
	struct llm_model m = gpt(24, 2304, 24);
	struct llm_par c = par(1, 1, 32, 512, 4);
	double B = 512, s = 2048, l = 24, h = 2304, V = 51200;
	double paper = 96 * B * s * l * h * h * (1 + s / (6 * h) + V / (16 * l * h));

	CHECK_CLOSE(llm_iteration_flops(&m, &c), paper, 1e-12);
	c.recompute = LLM_RECOMPUTE_NONE;
	CHECK_CLOSE(llm_iteration_flops(&m, &c),
		    72 * B * s * l * h * h * (1 + s / (6 * h)) + 6 * B * s * h * V, 1e-12);
	m = gpt(128, 25600, 160);
	c = par(8, 64, 6, 3072, 1);
	B = 3072, l = 128, h = 25600;
	CHECK_CLOSE(llm_iteration_flops(&m, &c),
		    96 * B * s * l * h * h * (1 + s / (6 * h) + V / (16 * l * h)), 1e-12);
}

/* Megatron's P = 12 l h^2 (1 + 13/12h + (V + s)/12lh) (Section 5.1), and
 * Table 1's parameter column (billions, rounded to 0.1). */
static void megatron_params(void)
{
	static const struct { const char *file; double billions; } rows[] = {
		{ "workloads/llm/megatron-1.7b.llm", 1.7 }, { "workloads/llm/megatron-3.6b.llm", 3.6 },
		{ "workloads/llm/megatron-7.5b.llm", 7.5 }, { "workloads/llm/megatron-18.4b.llm", 18.4 },
		{ "workloads/llm/megatron-39.1b.llm", 39.1 }, { "workloads/llm/megatron-76.1b.llm", 76.1 },
		{ "workloads/llm/megatron-145.6b.llm", 145.6 },
		{ "workloads/llm/megatron-310.1b.llm", 310.1 },
		{ "workloads/llm/megatron-529.6b.llm", 529.6 },
		{ "workloads/llm/megatron-1t.llm", 1008.0 },
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct llm_model m;
		double l, h, V, s, P;

		CHECK(llm_model_read(&m, rows[i].file) == 0);
		l = m.layers, h = m.hidden, V = m.vocab, s = m.seq;
		P = 12 * l * h * h * (1 + 13 / (12 * h) + (V + s) / (12 * l * h));
		/* dlasim counts the final layer norm (2h) too. */
		CHECK_CLOSE(llm_params(&m), P + 2 * h, 1e-12);
		CHECK(fabs(P / 1e9 - rows[i].billions) <= 0.05 + 1e-9);
	}
}

/* Korthikanti et al., Table 2, by hand: s = 2048, b = 1. */
static void activations(void)
{
	struct llm_model m = gpt(24, 2304, 24);
	struct llm_par c = par(1, 1, 1, 1, 1);

	c.recompute = LLM_RECOMPUTE_NONE;
	/* sbh = 4,718,592; 5as/h = 320/3; sbh (34 + 320/3) = 663,748,608. */
	CHECK_CLOSE(llm_layer_activations(&m, &c), 663748608.0, 1e-15);
	m = gpt(40, 6144, 48);
	c = par(8, 1, 1, 1, 1);
	c.recompute = LLM_RECOMPUTE_NONE;
	/* sbh = 12,582,912; 10 + 24/8 + 5 x 48 x 2048 / (6144 x 8) = 23. */
	CHECK(llm_layer_activations(&m, &c) == 289406976.0);
	c.seq_parallel = true;
	/* sbh/8 (34 + 80) = 179,306,496 */
	CHECK(llm_layer_activations(&m, &c) == 179306496.0);
	c.recompute = LLM_RECOMPUTE_SELECTIVE;
	CHECK(llm_layer_activations(&m, &c) == 53477376.0);	/* 34 sbh / 8 */
	c.seq_parallel = false;
	CHECK(llm_layer_activations(&m, &c) == 163577856.0);	/* 13 sbh */
	c.recompute = LLM_RECOMPUTE_FULL;
	CHECK(llm_layer_activations(&m, &c) == 25165824.0);	/* 2 sbh */
}

/* ZeRO (Rajbhandari et al., 2020): 2 + 2 + 12 bytes per parameter,
 * partitioned over d by stage; 1F1B's first stage holds p micro-batches. */
static void memory(void)
{
	struct llm_model m = gpt(24, 2304, 24);
	struct llm_par c = par(1, 1, 4, 64, 1);
	struct llm_memory mem;
	double P = llm_params(&m);

	for (int z = 0; z <= 3; z++) {
		c.zero = z;
		llm_memory(&m, &c, 0, &mem);
		CHECK_CLOSE(mem.params, 2 * P / (z >= 3 ? 4 : 1), 1e-12);
		CHECK_CLOSE(mem.grads, 2 * P / (z >= 2 ? 4 : 1), 1e-12);
		CHECK_CLOSE(mem.optimizer, 12 * P / (z >= 1 ? 4 : 1), 1e-12);
		CHECK_CLOSE(mem.activations, 24 * 2 * 2048.0 * 2304, 1e-12);
	}
	c = par(2, 4, 1, 64, 1);
	c.recompute = LLM_RECOMPUTE_NONE;
	llm_memory(&m, &c, 0, &mem);
	/* 6 layers of stage 0, 4 micro-batches in flight: 24 layers' worth. */
	CHECK_CLOSE(mem.activations, 24 * llm_layer_activations(&m, &c), 1e-12);
	llm_memory(&m, &c, 3, &mem);
	CHECK_CLOSE(mem.activations, 6 * llm_layer_activations(&m, &c), 1e-12);
}

static void communication(void)
{
	struct llm_model m = gpt(40, 6144, 48);
	struct llm_par c = par(8, 2, 4, 64, 2);
	struct llm_comm v, v1;
	double S = 2.0 * 2048 * 6144 * 2;	/* b s h x 2 bytes */
	double mb = 64 / (4 * 2), grads;

	llm_comm_volume(&m, &c, 0, &v);
	/* 20 layers x 8 micro-batches x 6 all-reduces x 2 (7/8) S */
	CHECK_CLOSE(v.tp, 20 * mb * 6 * 2 * 7.0 / 8 * S, 1e-12);
	CHECK_CLOSE(v.pp, mb * S / 8, 1e-12);	/* stage 0 sends forward only */
	grads = 2 * llm_stage_params(&m, &c, 0);
	CHECK_CLOSE(v.dp, 2 * 3.0 / 4 * grads, 1e-12);
	CHECK(v.ep == 0);
	c.zero = 1;
	llm_comm_volume(&m, &c, 0, &v1);
	CHECK_CLOSE(v1.dp, v.dp, 1e-12);
	c.zero = 3;
	llm_comm_volume(&m, &c, 0, &v);
	CHECK_CLOSE(v.dp, 1.5 * v1.dp, 1e-12);	/* ZeRO-3 moves more than ZeRO-1 */
	m.experts = 8, m.topk = 2;
	c = par(1, 1, 8, 64, 2);
	c.ep = 8;
	llm_comm_volume(&m, &c, 0, &v);
	/* 40 layers x 4 micro-batches x 6 all-to-alls x 7/8 x 2 S (top-2) */
	CHECK_CLOSE(v.ep, 40 * 4 * 6 * 7.0 / 8 * 2 * S, 1e-12);
}

/* A file that is not a model: one line naming the file and the key. */
static void bad_files(void)
{
	static const char *const bad[] = {
		"layers 2\nhidden 64\nheads 3\nseq 8\nvocab 10\nffn 256\n",	/* 64 % 3 */
		"layers 2\nhidden 64\nheads 4\nseq 8\nvocab 10\n",		/* no ffn */
		"layers 2\nlayers 2\nhidden 64\nheads 4\nseq 8\nvocab 10\nffn 9\n",
		"layers 0\nhidden 64\nheads 4\nseq 8\nvocab 10\nffn 9\n",
		"layers 2\nhidden 64\nheads 4\nseq 8\nvocab 10\nffn 9\ncolour red\n",
		"layers 2\nhidden 64\nheads 4\nseq 8\nvocab 10\nffn 9\ndtype fp7\n",
		"layers 2\nhidden 64\nheads 4\nseq 8\nvocab 10\nffn 9\nexperts 2\ntopk 3\n",
	};
	char path[] = "/tmp/llm_cost_XXXXXX";
	struct llm_model m;
	int fd = mkstemp(path);

	CHECK(fd >= 0);
	close(fd);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		FILE *f = fopen(path, "w");

		fputs(bad[i], f);
		fclose(f);
		CHECK(llm_model_read(&m, path) == -1);
	}
	unlink(path);
}

/* Offload, by hand: a device of 10 (parameters) + 10 (gradients) + 60
 * (optimizer) + 20 (activations) = 100 bytes. */
static void offload_split(void)
{
	struct llm_memory mem = { .params = 10, .grads = 10, .optimizer = 60,
				  .activations = 20, .total = 100 };
	struct llm_offloaded off;

	/* Fits: nothing leaves. */
	CHECK(llm_offload_split(&mem, 100, &off) && off.total == 0);
	/* 30 over: the optimizer states alone. */
	CHECK(llm_offload_split(&mem, 70, &off));
	CHECK(off.optimizer == 30 && off.activations == 0 && off.params == 0 && off.total == 30);
	/* 70 over: all the optimizer, then 10 of the activations. */
	CHECK(llm_offload_split(&mem, 30, &off));
	CHECK(off.optimizer == 60 && off.activations == 10 && off.params == 0);
	/* 85 over: then 5 of the parameters. */
	CHECK(llm_offload_split(&mem, 15, &off));
	CHECK(off.optimizer == 60 && off.activations == 20 && off.params == 5 && off.total == 85);
	/* The gradients stay: 9 bytes cannot hold them. */
	CHECK(!llm_offload_split(&mem, 9, &off));
	CHECK(llm_offload_split(&mem, 10, &off) && off.total == 90);
}

/* Per iteration 2 O + 2 A m / k + (2 m + 1) W: m = 8 micro-batches; the
 * first of 4 stages holds k = 4 in flight, the last 1. */
static void offload_traffic(void)
{
	struct llm_model m = gpt(24, 2304, 24);
	struct llm_par c = par(1, 4, 1, 8, 1);
	struct llm_offloaded off = { .optimizer = 100, .activations = 40, .params = 3 };

	CHECK(llm_inflight(&m, &c, 0) == 4 && llm_inflight(&m, &c, 3) == 1);
	CHECK_CLOSE(llm_offload_traffic(&m, &c, 0, &off), 200 + 2 * 40 * 8 / 4 + 17 * 3, 1e-15);
	CHECK_CLOSE(llm_offload_traffic(&m, &c, 3, &off), 200 + 2 * 40 * 8 + 17 * 3, 1e-15);
	/* Two micro-batches: stage 0 holds both. */
	c.global_batch = 2;
	CHECK(llm_inflight(&m, &c, 0) == 2);
	CHECK_CLOSE(llm_offload_traffic(&m, &c, 0, &off), 200 + 2 * 40 + 5 * 3, 1e-15);
}

int main(void)
{
	RUN(megatron_flops);
	RUN(megatron_params);
	RUN(activations);
	RUN(memory);
	RUN(communication);
	RUN(offload_split);
	RUN(offload_traffic);
	RUN(bad_files);
	CHECK_EXIT();
}
