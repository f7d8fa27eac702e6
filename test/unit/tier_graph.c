/* SPDX-License-Identifier: MIT */
/*
 * The workloads and the op sequence of an iteration: parameter counts
 * against the published ones, MACs against the closed form of forward +
 * recompute + backward, a PaLM layer's data and the data of an iteration
 * against TM-Training's statements, bad workload files.
 */
#include <stdio.h>
#include <stdlib.h>

#include "tier/graph.h"
#include "tier/npu.h"
#include "tier/workload.h"
#include "check.h"

static void params_match_papers(void)
{
	static const struct { const char *file; double stated, tol; } w[] = {
		{ "workloads/tm/bert-large.tm", 340e6, 0.03 },
		{ "workloads/tm/gpt3.tm", 175e9, 0.01 },
		{ "workloads/tm/chinchilla.tm", 70e9, 0.08 },	/* docs/tier.md */
	};
	struct tier_workload wl;

	for (size_t i = 0; i < sizeof(w) / sizeof(w[0]); i++) {
		CHECK(tier_workload_read(&wl, w[i].file) == 0);
		CHECK_CLOSE(tier_workload_params(&wl), w[i].stated, w[i].tol);
		tier_workload_free(&wl);
	}
	/* PaLM's 540B less the SwiGLU gate it is simulated without. */
	CHECK(tier_workload_read(&wl, "workloads/tm/palm.tm") == 0);
	CHECK_CLOSE(tier_workload_params(&wl) + 118 * 18432 * 73728.0, 540e9, 0.01);
	tier_workload_free(&wl);
}

/* PaLM, 2048 / 256 = 8 sequences of 2048 through layers of full width:
 * per layer the projections and feed-forward (linear) and the attention
 * products (att, b h s^2 dh each); forward 1 linear + 2 att, recompute
 * the same but ff2, backward 2 linear + 5 att (the scores again, dP, dV,
 * dQ, dK); the language-model head three times. */
static void macs_closed_form(void)
{
	const double b = 8, s = 2048, bs = b * s, d = 18432, dc = 48 * 256.0, dkv = 256;
	const double ff = 73728, v = 256000, att = b * 48 * s * s * 256;
	double linear = bs * (2 * d * dc + 2 * d * dkv + 2 * d * ff);
	struct tier_workload w;
	struct tier_graph g;

	CHECK(tier_workload_read(&w, "workloads/tm/palm.tm") == 0);
	CHECK(tier_graph_build(&g, &w, 1) == 0);
	CHECK_CLOSE(g.macs, 118 * (4 * linear - bs * ff * d + 9 * att) + 3 * bs * d * v, 1e-9);
	CHECK(g.peak_bytes > 0 && g.peak_bytes < 32.0 * 1073741824);
	tier_graph_free(&g);
	tier_workload_free(&w);
}

/* Data one layer's ops in one phase create or use: its tensors once each
 * and the attention scores it keeps on chip. */
static double layer_data(const struct tier_graph *g, int layer, enum dlasim_tier_phase ph)
{
	char *seen = calloc((size_t)g->nt, 1);
	double bytes = 0;

	for (int i = 0; seen && i < g->nops; i++) {
		const struct tg_op *o = &g->ops[i];

		if (o->pub.layer != layer || o->pub.phase != ph)
			continue;
		bytes += o->onchip_bytes;
		for (int k = 0; k < o->pub.ninputs + o->pub.noutputs; k++) {
			int t = k < o->pub.ninputs ? o->in[k].tensor : o->out[k - o->pub.ninputs];

			if (!seen[t])
				bytes += g->t[t].pub.bytes;
			seen[t] = 1;
		}
	}
	free(seen);
	return bytes;
}

/* Sections 2 and 5.2: a PaLM layer creates or uses about 9 GB in the
 * forward pass and 22.5 GB in the backward pass, per chip.  Tolerance 30 %:
 * "about", and without SwiGLU's gate our backward pass lacks the gate's
 * activation and gradient, 2 x 2.4 GB (docs/validation/tm.md). */
static void palm_layer_data(void)
{
	struct tier_workload w;
	struct tier_graph g;

	CHECK(tier_workload_read(&w, "workloads/tm/palm.tm") == 0);
	CHECK(tier_graph_build(&g, &w, 1) == 0);
	CHECK_CLOSE(layer_data(&g, 60, DLASIM_TIER_FORWARD), 9e9, 0.3);
	CHECK_CLOSE(layer_data(&g, 60, DLASIM_TIER_BACKWARD), 22.5e9, 0.3);
	tier_graph_free(&g);
	tier_workload_free(&w);
}

/* Table 3, "Data Size per Iteration": 86 GB, 316 GB, 1.5 TB, 3.3 TB,
 * 3.1 TB, within 30 % (what the paper counts is not stated exactly). */
static void iteration_data_table3(void)
{
	static const struct { const char *file; double bytes; } w[] = {
		{ "workloads/tm/bert-large.tm", 86e9 },
		{ "workloads/tm/t5.tm", 316e9 },
		{ "workloads/tm/chinchilla.tm", 1.5e12 },
		{ "workloads/tm/gpt3.tm", 3.3e12 },
		{ "workloads/tm/palm.tm", 3.1e12 },
	};

	for (size_t i = 0; i < sizeof(w) / sizeof(w[0]); i++) {
		struct tier_workload wl;
		struct tier_graph g;

		CHECK(tier_workload_read(&wl, w[i].file) == 0);
		CHECK(tier_graph_build(&g, &wl, 1) == 0);
		CHECK_CLOSE(g.data_bytes, w[i].bytes, 0.3);
		tier_graph_free(&g);
		tier_workload_free(&wl);
	}
}

static void bad_file(const char *text)
{
	char path[] = "/tmp/dlasim-wl-XXXXXX";
	struct tier_workload w;
	FILE *f;
	int fd = mkstemp(path);

	f = fdopen(fd, "w");
	fputs(text, f);
	fclose(f);
	CHECK(tier_workload_read(&w, path) != 0);
	tier_workload_free(&w);
	remove(path);
}

static void bad_workloads(void)
{
	bad_file("layers 2\nbogus 3\n");
	bad_file("layers two\n");
	bad_file("layers 2\nd_model 8\nheads 2\nhead_dim 2\nd_ff 8\nvocab 8\nseq 4\nbatch 5\n"
		 "model_parallel 2\ndata_parallel 2\n");	/* 5 sequences over 2 chips */
	bad_file("layers 2\n");	/* missing keys */
}

int main(void)
{
	RUN(params_match_papers);
	RUN(macs_closed_form);
	RUN(palm_layer_data);
	RUN(iteration_data_table3);
	RUN(bad_workloads);
	CHECK_EXIT();
}
