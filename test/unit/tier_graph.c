/* SPDX-License-Identifier: MIT */
/*
 * The workloads and the op sequence of an iteration: parameter counts
 * against the published ones, MACs and network bytes against the closed
 * forms of the per-chip slice, the fit in 32 GiB, bad workload files.
 */
#include <stdio.h>
#include <stdlib.h>

#include "tmgraph/graph.h"
#include "tmgraph/npu.h"
#include "tmgraph/workload.h"
#include "check.h"

#define AS (32.0 * 1073741824)

/* Stated counts: BERT-Large 340M, T5 11B (T5-11B has 11.3B: 3 %),
 * Chinchilla 70B (its Table 4 dimensions give 64.7B with a 32k
 * vocabulary: docs/tier.md), GPT-3 175B, PaLM 540B. */
static void params_match_papers(void)
{
	static const struct { const char *file; double stated, tol; } w[] = {
		{ "workloads/tm/bert-large.tm", 340e6, 0.03 },
		{ "workloads/tm/t5.tm", 11e9, 0.03 },
		{ "workloads/tm/chinchilla.tm", 70e9, 0.08 },
		{ "workloads/tm/gpt3.tm", 175e9, 0.01 },
		{ "workloads/tm/palm.tm", 540e9, 0.01 },
	};
	struct tier_workload wl;

	for (size_t i = 0; i < sizeof(w) / sizeof(w[0]); i++) {
		CHECK(tier_workload_read(&wl, w[i].file) == 0);
		CHECK_CLOSE(tier_workload_params(&wl), w[i].stated, w[i].tol);
		tier_workload_free(&wl);
	}
}

static void build(const char *file, double cap, struct tier_workload *w, struct tier_graph *g)
{
	CHECK(tier_workload_read(w, file) == 0);
	CHECK(tier_graph_build(g, w, 1, cap) == 0);
}

/* PaLM on one chip: 2048 / (2 pods x 256) = 4 sequences of 2048; 12-way
 * model parallelism leaves 4 heads of 256, the one key/value head, 6144
 * of d_ff (SwiGLU: ff1 writes 2 x 6144) and 21334 of the vocabulary.
 * Per layer the linear MACs (q, k, v, o, ff1, ff2) and the attention
 * products (att, b h s^2 dh each): forward 1 linear + 2 att, recompute
 * the same but ff2, backward 2 linear + 5 att (scores again, dP, dV, dQ,
 * dK); the language-model head three times. */
static void macs_closed_form(void)
{
	const double b = 4, s = 2048, bs = b * s, d = 18432, dc = 4 * 256.0, dkv = 256;
	const double ffc = 6144, vc = 21334, att = b * 4 * s * s * 256;
	const double ff2 = bs * ffc * d, lin = bs * (2 * d * dc + 2 * d * dkv + 2 * d * ffc) + ff2;
	struct tier_workload w;
	struct tier_graph g;
	double R;

	build("workloads/tm/palm.tm", AS, &w, &g);
	R = (double)g.dims.recomputed;
	CHECK(R > 0 && R < 118);
	CHECK_CLOSE(g.macs, 118 * (lin + 2 * att) + R * (lin - ff2 + 2 * att) +
			    118 * (2 * lin + 5 * att) + 3 * bs * d * vc, 1e-9);
	tier_graph_free(&g);
	tier_workload_free(&w);
}

/* PaLM's collectives: each layer's weights (1/12 of them) gathered from
 * the 256 data-parallel shards twice and their gradients reduce-scattered
 * once, the embedding's likewise (gathered for the lookup and the head);
 * an all-reduce of a b s d activation after o and ff2 forward, o of each
 * recomputed layer, ff1_dx and qkv_dx backward, the lookup and lm_dx;
 * each recomputed layer's input gathered from its 12 sequence slices. */
static void network_closed_form(void)
{
	const double d = 18432, dc = 1024, dkv = 256, ffc = 6144, vc = 21334;
	const double x = 4 * 2048 * d * 2, wl = (2 * d * dc + 2 * d * dkv + 3 * d * ffc) * 2;
	const double e = vc * d * 2, fdp = 255.0 / 256, fmp = 11.0 / 12;
	struct tier_workload w;
	struct tier_graph g;
	double R;

	build("workloads/tm/palm.tm", AS, &w, &g);
	R = (double)g.dims.recomputed;
	CHECK(g.dims.fsdp);
	CHECK_CLOSE(g.network_bytes, fdp * (3 * 118 * wl + 3 * e) +
				     2 * fmp * x * (4 * 118 + R + 2) + R * fmp * x, 1e-9);
	tier_graph_free(&g);
	tier_workload_free(&w);
}

/* The iteration fits the address space, with as few layers recomputed as
 * fit: BERT-Large keeps everything (weights, gradients and activations
 * 19 GiB); T5's weights and gradients alone (2 x 22.6 GB) do not fit,
 * so it shards them; a smaller address space recomputes more. */
static void fits_address_space(void)
{
	struct tier_workload w;
	struct tier_graph g;
	long r32;

	build("workloads/tm/bert-large.tm", AS, &w, &g);
	CHECK(!g.dims.fsdp && g.dims.recomputed == 0 && g.peak_bytes <= AS);
	tier_graph_free(&g);
	CHECK(tier_graph_build(&g, &w, 1, AS / 4) == 0);
	CHECK(g.dims.recomputed > 0 && g.peak_bytes <= AS / 4);
	tier_graph_free(&g);
	tier_workload_free(&w);
	build("workloads/tm/t5.tm", AS, &w, &g);
	r32 = g.dims.recomputed;
	CHECK(g.dims.fsdp && g.peak_bytes <= AS);
	tier_graph_free(&g);
	CHECK(tier_graph_build(&g, &w, 1, AS / 2) == 0);
	CHECK(g.dims.recomputed > r32 && g.peak_bytes <= AS / 2);
	tier_graph_free(&g);
	tier_workload_free(&w);
}

/* T5: 24 encoder and 24 decoder layers; a decoder layer's cross-attention
 * reads the encoder's output, whose gradient the decoder layers add up. */
static void t5_cross_attention(void)
{
	struct tier_workload w;
	struct tier_graph g;
	int cross = 0, eo_reads = 0;

	build("workloads/tm/t5.tm", AS, &w, &g);
	CHECK(g.dims.layers == 48 && g.dims.enc_layers == 24);
	for (int i = 0; i < g.nops; i++) {
		const struct tg_op *o = &g.ops[i];

		if (strstr(o->name, ".fwd.cattn"))
			cross++;
		if (strstr(o->name, ".fwd.ck") || strstr(o->name, ".fwd.cv"))
			eo_reads += strcmp(g.t[o->in[0].tensor].name, "l24.fwd.X") == 0;
	}
	CHECK(cross == 24);
	CHECK(eo_reads == 2 * 24);
	tier_graph_free(&g);
	tier_workload_free(&w);
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
	const char *base = "layers 2\nd_model 8\nhead_dim 2\nd_ff 8\nvocab 8\nseq 4\n";
	char text[512];

	bad_file("layers 2\nbogus 3\n");
	bad_file("layers two\n");
	bad_file("layers 2\n");	/* missing keys */
	/* 5 sequences over 2 chips */
	snprintf(text, sizeof(text), "%sheads 2\nbatch 5\nmodel_parallel 1\ndata_parallel 2\n", base);
	bad_file(text);
	/* 4 sequences over 2 pods x 4 chips */
	snprintf(text, sizeof(text), "%sheads 2\nbatch 4\npods 2\nmodel_parallel 1\ndata_parallel 4\n", base);
	bad_file(text);
	/* 3 heads over 2 model-parallel chips */
	snprintf(text, sizeof(text), "%sheads 3\nbatch 4\nmodel_parallel 2\ndata_parallel 2\n", base);
	bad_file(text);
}

int main(void)
{
	RUN(params_match_papers);
	RUN(macs_closed_form);
	RUN(network_closed_form);
	RUN(fits_address_space);
	RUN(t5_cross_attention);
	RUN(bad_workloads);
	CHECK_EXIT();
}
