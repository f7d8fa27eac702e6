/* SPDX-License-Identifier: MIT */
/* The device descriptions of a platform's device hosts (devdesc.h). */
#include "platform.h"

#include <stdio.h>

#include "lib/diag.h"

#include "devdesc.h"
#include "platform_parts.h"

int dl_devdesc_of_host(const struct dl_platform *p, int host, struct dl_devdesc *d)
{
	const struct dl_host *h = &p->hosts[host];
	char where[512];

	snprintf(where, sizeof(where), "%s:%d: host '%s'", p->file, h->line, h->name);
	return dl_devdesc_from_props(d, &h->props, h->speed, where);
}

int dl_platform_check_devices(const struct dl_platform *p)
{
	struct dl_devdesc d;

	for (int r = 0; r < p->ndevices; r++)
		if (dl_devdesc_of_host(p, p->devices[r], &d))
			return -1;
	return 0;
}

/* The first field two descriptions disagree on, or NULL. */
static const char *differs(const struct dl_devdesc *a, const struct dl_devdesc *b)
{
	for (int t = 0; t < DL_DTYPES; t++)
		if (a->peak[t] != b->peak[t])
			return t == DL_FP32 ? "peak.fp32 (or speed)" : "a peak";
	if (a->model != b->model || a->pes != b->pes || a->macs_per_pe != b->macs_per_pe)
		return "model";
	if (a->hbm_Bps != b->hbm_Bps || a->hbm_latency_s != b->hbm_latency_s)
		return "hbm";
	if (a->sram_bytes != b->sram_bytes || a->efficiency != b->efficiency)
		return "sram or efficiency";
	return NULL;
}

int dl_devdesc_of_platform(const struct dl_platform *p, struct dl_devdesc *d)
{
	struct dl_devdesc x;
	const char *what;

	if (p->ndevices < 1)
		return dl_err("%s: no device hosts (dlasim.role=device)", p->file);
	if (dl_devdesc_of_host(p, p->devices[0], d))
		return -1;
	for (int r = 1; r < p->ndevices; r++) {
		const struct dl_host *h = &p->hosts[p->devices[r]];

		if (dl_devdesc_of_host(p, p->devices[r], &x))
			return -1;
		if ((what = differs(d, &x)))
			return dl_err("%s:%d: host '%s': its device description differs from '%s''s (%s); every device of a platform computes alike",
				      p->file, h->line, h->name, p->hosts[p->devices[0]].name, what);
	}
	return 0;
}
