/* SPDX-License-Identifier: MIT */
/*
 * The device a run computes on: the platform's device description
 * (machine/devdesc.h, docs/devices.md), or one named by --device.
 * Compute time is its roofline of the FLOPs alone: flops / (peak x
 * efficiency), the description's one efficiency constant.
 */
#ifndef LLM_DEVICE_H
#define LLM_DEVICE_H

#include "machine/devdesc.h"
#include "machine/platform.h"
#include "model.h"

struct llm_device {
	struct dl_devdesc d;
};

/* The description `name` names (a shipped device or a device file), or,
 * name NULL, the one every device of p shares.  -1 after one line. */
int llm_device_open(struct llm_device *out, const struct dl_platform *p, const char *name);
const char *llm_device_name(const struct llm_device *d);
/* HBM capacity, bytes; 0: the description gives none. */
double llm_device_capacity(const struct llm_device *d);
/* Peak of data type t; 0 if the device has none. */
double llm_device_peak(const struct llm_device *d, enum llm_dtype t);
/* Seconds to compute `flops` of type t (the device has a peak for t). */
double llm_device_time(const struct llm_device *d, enum llm_dtype t, double flops);

#endif
