/* SPDX-License-Identifier: MIT */
/* libFuzzer target: .tm workloads (tmgraph/workload.c) and, for those it
 * accepts, the op sequence of an iteration (tmgraph/graph.c). */
#include "fuzz.h"

#include "tmgraph/graph.h"
#include "tmgraph/npu.h"
#include "tmgraph/workload.h"

/* The reader allows 4096 layers; graphs of a few hundred MB would only
 * slow the search down. */
#define MAX_FUZZ_LAYERS 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tier_workload w;
	struct tier_graph g;
	char path[64];
	int fd = fuzz_file(data, size, path, sizeof(path));

	if (fd < 0)
		return 0;
	if (tier_workload_read(&w, path) == 0) {
		tier_workload_params(&w);
		if (w.layers <= MAX_FUZZ_LAYERS && tier_graph_build(&g, &w, 1, NPU_ADDRESS_SPACE) == 0) {
			if (g.nt > 0)
				tier_graph_next_use(&g, 0, 0);
			tier_graph_free(&g);
		}
		tier_workload_free(&w);
	}
	close(fd);
	return 0;
}
