/* SPDX-License-Identifier: MIT */
/* The device of a transformer run, from the platform's descriptions. */
#include "device.h"

#include <stdlib.h>

#include "lib/dtype.h"

int llm_device_open(struct llm_device *out, const struct dl_platform *p, const char *name)
{
	struct dl_props props = { 0 };
	char *path = NULL;
	int ret;

	if (!name)
		return dl_devdesc_of_platform(p, &out->d);
	ret = dl_devfile_read(name, &props, &path, &out->d);
	dl_devfile_free(&props);
	free(path);
	return ret;
}

const char *llm_device_name(const struct llm_device *d)
{
	return d->d.name;
}

double llm_device_capacity(const struct llm_device *d)
{
	return d->d.hbm_bytes;
}

/* The workload's type as the descriptions name it. */
static enum dl_dtype dtype(enum llm_dtype t)
{
	enum dl_dtype dt = DL_FP32;

	dl_dtype_parse(llm_dtype_name(t), &dt);
	return dt;
}

double llm_device_peak(const struct llm_device *d, enum llm_dtype t)
{
	return dl_devdesc_has(&d->d, dtype(t)) ? d->d.peak[dtype(t)] : 0;
}

double llm_device_time(const struct llm_device *d, enum llm_dtype t, double flops)
{
	return dl_devdesc_roofline_s(&d->d, dtype(t), flops, 0);
}
