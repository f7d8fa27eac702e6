/* SPDX-License-Identifier: MIT */
/*
 * Reading a .dnn workload and building its per-device plan, timed apart
 * from the simulation: the parts that were quadratic in the layer count
 * (layer lookup, peak of live feature maps).  Usage: workload_plan FILE;
 * prints "layers steps read_s plan_s".
 */
#include <stdio.h>
#include <time.h>

#include "mcdla/device.h"
#include "mcdla/plan.h"
#include "workload/workload.h"

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	struct mc_workload *w;
	struct mc_device d;
	struct mc_plan plan;
	double t0, t1, t2, budget;

	if (argc != 2)
		return 2;
	mc_device_defaults(&d);
	t0 = now();
	if (mc_workload_read(&w, argv[1]))
		return 1;
	t1 = now();
	if (mc_plan_build(&plan, w, &d, 512, 8, MC_DATA_PARALLEL))
		return 1;
	mc_plan_fit(&plan, w, &d, 16e9, "--device-memory", &budget);
	t2 = now();
	printf("%d %d %.4f %.4f\n", w->nlayers, plan.nops, t1 - t0, t2 - t1);
	mc_plan_free(&plan);
	mc_workload_free(w);
	return 0;
}
