/* SPDX-License-Identifier: MIT */
/*
 * The workloads and the op sequence of an iteration: parameter counts
 * against the published ones, MACs against the closed form of forward +
 * recompute + backward, bad workload files.
 */
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "tier/graph.h"
#include "tier/workload.h"


static void params_match_papers(void)
{
	static const struct { const char *file; double stated, tol; } w[] = {
		{ "workloads/tm/bert-large.tm", 340e6, 0.03 },
		{ "workloads/tm/gpt3.tm", 175e9, 0.01 },
		{ "workloads/tm/palm.tm", 540e9, 0.01 },
		{ "workloads/tm/chinchilla.tm", 70e9, 0.08 },	/* docs/tier.md */
	};

	for (size_t i = 0; i < sizeof(w) / sizeof(w[0]); i++) {
		struct tier_workload wl;

		CHECK(tier_workload_read(&wl, w[i].file) == 0);
		CHECK_CLOSE(tier_workload_params(&wl), w[i].stated, w[i].tol);
		tier_workload_free(&wl);
	}
}

/* Per layer and chip: projections, attention, feed-forward; the
 * iteration runs each layer's GEMMs four times (forward, recompute, two
 * in backward) and the head three times. */
static void macs_closed_form(void)
{
	struct tier_workload w;
	struct tier_graph g;
	double bs, dc, dkv, layer, head;

	CHECK(tier_workload_read(&w, "workloads/tm/palm.tm") == 0);
	CHECK(tier_graph_build(&g, &w, 1) == 0);
	bs = 4.0 * 2048;	/* 2048 / (256 x 2) sequences of 2048 */
	dc = 4.0 * 256;		/* 48 / 12 heads */
	dkv = 256;		/* one key/value head */
	layer = bs * (2 * 18432 * dc + 2 * 18432 * dkv + 3 * 18432 * 6144.0) +
		2 * 4.0 * 4 * 2048.0 * 2048 * 256;
	head = bs * 18432 * 21334.0;
	CHECK_CLOSE(g.macs, 4 * 118 * layer + 3 * head, 1e-9);
	CHECK(g.peak_bytes > 0 && g.peak_bytes < 32.0 * 1073741824);
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
	bad_file("layers 2\nbogus 3\n");
	bad_file("layers two\n");
	bad_file("layers 2\nd_model 8\nheads 3\nhead_dim 2\nd_ff 8\nvocab 8\nseq 4\nbatch 4\n"
		 "model_parallel 2\ndata_parallel 1\n");	/* 3 heads over 2 chips */
	bad_file("layers 2\n");	/* missing keys */
}

int main(void)
{
	RUN(params_match_papers);
	RUN(macs_closed_form);
	RUN(bad_workloads);
	CHECK_EXIT();
}
