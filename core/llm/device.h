/* SPDX-License-Identifier: MIT */
/*
 * The device a run computes on: its peak for the workload's data type,
 * its memory, and the one compute-efficiency constant of its description
 * (docs/llm.md, "Devices").  Compute time is flops / (peak x efficiency).
 */
#ifndef LLM_DEVICE_H
#define LLM_DEVICE_H

#include "model.h"

struct llm_device {
	const char *name;
	double peak[4];		/* FLOP/s per enum llm_dtype; 0: not supported */
	double hbm_bw;		/* B/s */
	double hbm_bytes;
	double efficiency;	/* achieved / peak of a transformer layer */
	const char *source;
};

/* A shipped description by name; NULL if there is none. */
const struct llm_device *llm_device_find(const char *name);
/* The names, for --help and messages ("a100-40gb, a100-80gb"). */
const char *llm_device_names(void);
/* Peak of data type t; 0 if the device has none. */
double llm_device_peak(const struct llm_device *d, enum llm_dtype t);
/* Seconds to compute `flops` of type t. */
double llm_device_time(const struct llm_device *d, enum llm_dtype t, double flops);

#endif
