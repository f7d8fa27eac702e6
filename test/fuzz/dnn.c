/* SPDX-License-Identifier: MIT */
/* libFuzzer target: .dnn workloads (workload/workload.c) and, for those it
 * accepts, the plan of a data- and a model-parallel iteration (plan.c)
 * with the capacity check. */
#include "fuzz.h"

#include "mcdla/device.h"
#include "mcdla/plan.h"
#include "workload/workload.h"

/* Plans of up to this many steps: the reader allows 2^24 (gigabytes of
 * plan), which would only slow the search down. */
#define MAX_FUZZ_STEPS 100000

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum mc_parallel modes[] = { MC_DATA_PARALLEL, MC_MODEL_PARALLEL };
	struct mc_workload *w;
	struct mc_device d;
	char path[64];
	int fd = fuzz_file(data, size, path, sizeof(path));

	if (fd < 0)
		return 0;
	if (mc_workload_read(&w, path) == 0) {
		mc_device_defaults(&d);
		for (int m = 0; m < 2 && w->nsteps <= MAX_FUZZ_STEPS; m++) {
			struct mc_plan plan;
			double budget;

			if (mc_plan_build(&plan, w, &d, 512, 8, modes[m]) == 0) {
				mc_plan_fit(&plan, w, &d, 16e9, "--device-memory", &budget);
				mc_plan_compute(&plan);
				mc_plan_free(&plan);
			}
		}
		mc_workload_weights(w);
		mc_workload_free(w);
	}
	close(fd);
	return 0;
}
