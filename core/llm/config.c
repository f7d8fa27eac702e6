/* SPDX-License-Identifier: MIT */
/* Checks of a configuration, each one line naming what is wrong. */
#include "config.h"

#include <math.h>

#include "lib/diag.h"

int llm_check_shape(const struct llm_model *m, const struct llm_par *c)
{
	long replicas = c->dp * c->micro_batch;

	if (m->heads % c->tp)
		return dl_err("llm: --tp %ld does not divide the %ld heads of %s", c->tp, m->heads,
			      m->name);
	if (m->kv_heads % c->tp)
		return dl_err("llm: --tp %ld does not divide the %ld key/value heads of %s", c->tp,
			      m->kv_heads, m->name);
	if (m->layers % c->pp)
		return dl_err("llm: --pp %ld does not divide the %ld layers of %s", c->pp, m->layers,
			      m->name);
	if (c->ep > 1 && m->experts % c->ep)
		return dl_err("llm: --ep %ld does not divide the %ld experts of %s", c->ep,
			      m->experts, m->name);
	if (c->dp % c->ep)
		return dl_err("llm: --ep %ld does not divide --dp %ld (experts are spread over data-parallel replicas)",
			      c->ep, c->dp);
	if (c->global_batch % replicas)
		return dl_err("llm: --global-batch %ld does not split into %ld replicas x micro-batch %ld",
			      c->global_batch, c->dp, c->micro_batch);
	return 0;
}

int llm_check_devices(const struct llm_par *c, int ndevices, const char *platform)
{
	double need = (double)c->tp * c->pp * c->dp;

	if (need > ndevices)
		return dl_err("llm: tp %ld x pp %ld x dp %ld = %.0f devices, %s has %d", c->tp, c->pp,
			      c->dp, need, platform, ndevices);
	return 0;
}

/* The stage whose device needs the most memory, and its needs. */
static long fullest_stage(const struct llm_model *m, const struct llm_par *c,
			  struct llm_memory *worst)
{
	struct llm_memory mem;
	long stage = 0;

	*worst = (struct llm_memory){ 0 };
	for (long j = 0; j < c->pp; j++) {
		llm_memory(m, c, j, &mem);
		if (mem.total > worst->total)
			*worst = mem, stage = j;
	}
	return stage;
}

static int check_peak(const struct llm_model *m, const struct llm_device *d)
{
	if (llm_device_peak(d, m->dtype) > 0)
		return 0;
	return dl_err("llm: device %s has no %s peak (%s computes in %s)", llm_device_name(d),
		      llm_dtype_name(m->dtype), m->name, llm_dtype_name(m->dtype));
}

/* `what` names the memory: the device's name, or --device-memory. */
static int check_cap(const struct llm_model *m, const struct llm_par *c, double cap,
		     const char *what)
{
	struct llm_memory worst;
	long stage = fullest_stage(m, c, &worst);

	if (cap <= 0 || worst.total <= cap)
		return 0;
	return dl_err("llm: %s does not fit: stage %ld needs %.2f GB per device (parameters %.2f, gradients %.2f, optimizer %.2f, activations %.2f), %s has %.2f GB: %.2f GB over",
		      m->name, stage, worst.total / 1e9, worst.params / 1e9, worst.grads / 1e9,
		      worst.optimizer / 1e9, worst.activations / 1e9, what, cap / 1e9,
		      (worst.total - cap) / 1e9);
}

int llm_check_fit(const struct llm_model *m, const struct llm_par *c, const struct llm_device *d)
{
	if (check_peak(m, d))
		return -1;
	return check_cap(m, c, llm_device_capacity(d), llm_device_name(d));
}

double llm_memory_limit(const struct llm_cfg *cfg, const struct llm_device *d)
{
	return cfg->device_memory > 0 ? cfg->device_memory : llm_device_capacity(d);
}

/* With offload: every stage's gradients stay on its device. */
static int check_offloadable(const struct llm_model *m, const struct llm_par *c, double cap)
{
	for (long j = 0; j < c->pp; j++) {
		struct llm_memory mem;
		struct llm_offloaded off;

		llm_memory(m, c, j, &mem);
		if (!llm_offload_split(&mem, cap, &off))
			return dl_err("llm: %s does not fit even with --offload: stage %ld keeps its gradients on the device, %.2f GB, device memory is %.2f GB: %.2f GB over",
				      m->name, j, mem.grads / 1e9, cap / 1e9, (mem.grads - cap) / 1e9);
	}
	return 0;
}

int llm_check_memory(const struct llm_cfg *cfg, const struct llm_model *m,
		     const struct llm_device *d)
{
	double cap = llm_memory_limit(cfg, d);

	if (check_peak(m, d))
		return -1;
	if (isinf(cap))
		return 0;
	if (cfg->offload)
		return cap > 0 ? check_offloadable(m, &cfg->par, cap) : 0;
	return check_cap(m, &cfg->par, cap,
			 cfg->device_memory > 0 ? "a device of --device-memory" : llm_device_name(d));
}
