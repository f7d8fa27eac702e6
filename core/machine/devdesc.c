/* SPDX-License-Identifier: MIT */
/* Device descriptions from properties (docs/devices.md). */
#include "devdesc.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/diag.h"
#include "lib/units.h"

#include "platform.h"

bool dl_devdesc_has(const struct dl_devdesc *d, enum dl_dtype t)
{
	return d->peak[t] > 0;
}

double dl_devdesc_roofline_s(const struct dl_devdesc *d, enum dl_dtype t, double flops,
			     double bytes)
{
	if (flops <= 0 && bytes <= 0)
		return 0;
	return fmax(flops / (d->peak[t] * d->efficiency), bytes / d->hbm_Bps) + d->hbm_latency_s;
}

/* Table II of the memory-centric paper; latency 100 cycles at 1 GHz. */
void dl_devdesc_table2(struct dl_devdesc *d, double speed)
{
	*d = (struct dl_devdesc){
		.model = DL_DEV_PE_ARRAY, .dtype = DL_FP32,
		.hbm_Bps = 900e9, .hbm_bytes = 16e9, .hbm_latency_s = 100 / 1e9,
		.sram_bytes = 1024 * 32768.0, .efficiency = 1,
		.links = 6, .link_Bps = 25e9, .pes = 1024, .macs_per_pe = 125,
	};
	snprintf(d->name, sizeof(d->name), "table2");
	d->peak[DL_FP32] = speed;
}

/* ---- fields ---- */

enum kind { NAME, MODEL, DTYPE, SPEED, BANDWIDTH, SIZE, TIME, FRACTION, COUNT, LINKS, TEXT };

struct field {
	const char *key;	/* after DL_DEVDESC_PREFIX */
	enum kind kind;
	size_t off;
};

#define F(key, kind, member) { key, kind, offsetof(struct dl_devdesc, member) }
static const struct field fields[] = {
	F("name", NAME, name),
	F("model", MODEL, model),
	F("dtype", DTYPE, dtype),
	F("peak.fp32", SPEED, peak[DL_FP32]),
	F("peak.bf16", SPEED, peak[DL_BF16]),
	F("peak.fp16", SPEED, peak[DL_FP16]),
	F("peak.fp8", SPEED, peak[DL_FP8]),
	F("hbm.bandwidth", BANDWIDTH, hbm_Bps),
	F("hbm.capacity", SIZE, hbm_bytes),
	F("hbm.latency", TIME, hbm_latency_s),
	F("sram", SIZE, sram_bytes),
	F("efficiency", FRACTION, efficiency),
	F("efficiency.source", TEXT, efficiency_source),
	F("links", LINKS, links),
	F("pe.count", COUNT, pes),
	F("pe.macs", COUNT, macs_per_pe),
	F("c2c.bandwidth", BANDWIDTH, c2c_Bps),
	F("cpu-memory.capacity", SIZE, cpu_mem_bytes),
};

static const struct field *find_field(const char *key)
{
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		if (strcmp(key, fields[i].key) == 0)
			return &fields[i];
	return NULL;
}

/* "18x50GBps": count and bandwidth of each. */
static const char *parse_links(const char *v, struct dl_devdesc *d)
{
	char *end;
	long n = strtol(v, &end, 10);

	if (end == v || (*end != 'x' && *end != 'X') || n < 1 || n > 4096)
		return "not COUNTxBANDWIDTH (e.g. \"18x50GBps\")";
	d->links = (int)n;
	return dl_parse_bandwidth(end + 1, &d->link_Bps);
}

static const char *parse_value(const struct field *f, const char *v, struct dl_devdesc *d)
{
	double *x = (double *)((char *)d + f->off);	/* the numeric kinds */
	const char *why;

	switch (f->kind) {
	case NAME:
		if (!*v || strlen(v) >= sizeof(d->name) || strpbrk(v, " \t/"))
			return "not a name (1 to 63 characters, no blanks or '/')";
		snprintf(d->name, sizeof(d->name), "%s", v);
		return NULL;
	case MODEL:
		if (strcmp(v, "pe-array") == 0)
			d->model = DL_DEV_PE_ARRAY;
		else if (strcmp(v, "roofline") == 0)
			d->model = DL_DEV_ROOFLINE;
		else
			return "not pe-array or roofline";
		return NULL;
	case DTYPE:
		return dl_dtype_parse(v, &d->dtype) ? "not fp32, bf16, fp16 or fp8" : NULL;
	case SPEED:
		return dl_parse_speed(v, x);
	case BANDWIDTH:
		return dl_parse_bandwidth(v, x);
	case SIZE:
		return dl_parse_size(v, x);
	case TIME:
		if ((why = dl_parse_time(v, x)))
			return why;
		return dl_platform_latency_range(*x);
	case FRACTION:
		if ((why = dl_parse_number(v, 0, x)))
			return why;
		return *x > 0 && *x <= 1 ? NULL : "not in (0, 1]";
	case COUNT:
		return dl_parse_number(v, 1, x);
	case LINKS:
		return parse_links(v, d);
	case TEXT:
		if (!*v || strlen(v) >= sizeof(d->efficiency_source))
			return "empty or longer than 159 characters";
		snprintf((char *)d + f->off, sizeof(d->efficiency_source), "%s", v);
		return NULL;
	}
	return "unreadable";
}

static bool described(const struct dl_props *props)
{
	for (int i = 0; i < props->n; i++)
		if (strncmp(props->v[i].key, DL_DEVDESC_PREFIX, strlen(DL_DEVDESC_PREFIX)) == 0)
			return true;
	return false;
}

static int read_fields(struct dl_devdesc *d, const struct dl_props *props, const char *where)
{
	size_t np = strlen(DL_DEVDESC_PREFIX);

	for (int i = 0; i < props->n; i++) {
		const char *key = props->v[i].key, *v = props->v[i].value, *why;
		const struct field *f;

		if (strcmp(key, "dlasim.tdp") == 0) {
			if ((why = dl_parse_power(v, &d->tdp_w)))
				return dl_err("%s: dlasim.tdp '%s': %s", where, v, why);
			continue;
		}
		if (strncmp(key, DL_DEVDESC_PREFIX, np) != 0)
			continue;
		if (!(f = find_field(key + np)))
			return dl_err("%s: %s: not a field of a device description (docs/devices.md)",
				      where, key);
		if ((why = parse_value(f, v, d)))
			return dl_err("%s: %s '%s': %s", where, key, v, why);
	}
	return 0;
}

static const char *prop(const struct dl_props *props, const char *field)
{
	size_t np = strlen(DL_DEVDESC_PREFIX);

	for (int i = 0; i < props->n; i++)
		if (strncmp(props->v[i].key, DL_DEVDESC_PREFIX, np) == 0 &&
		    strcmp(props->v[i].key + np, field) == 0)
			return props->v[i].value;
	return NULL;
}

/* What a description must say for its model; speed and peaks agree. */
static int check(struct dl_devdesc *d, const struct dl_props *props, double speed,
		 const char *where)
{
	const char *t = dl_dtype_name(d->dtype);

	if (d->peak[d->dtype] > 0 && speed > 0 &&
	    fabs(d->peak[d->dtype] - speed) > 1e-9 * speed)
		return dl_err("%s: " DL_DEVDESC_PREFIX "peak.%s %g flop/s contradicts the host's speed %g flop/s (the peak of its default type %s): give one",
			      where, t, d->peak[d->dtype], speed, t);
	if (d->peak[d->dtype] <= 0)
		d->peak[d->dtype] = speed;
	if (d->peak[d->dtype] <= 0)
		return dl_err("%s: " DL_DEVDESC_PREFIX "peak.%s: missing (the peak of its default type %s)",
			      where, t, t);
	if (!prop(props, "hbm.bandwidth"))
		return dl_err("%s: " DL_DEVDESC_PREFIX "hbm.bandwidth: missing", where);
	if (prop(props, "efficiency") && !prop(props, "efficiency.source"))
		return dl_err("%s: " DL_DEVDESC_PREFIX "efficiency.source: missing (where the efficiency comes from)",
			      where);
	if (d->model == DL_DEV_ROOFLINE) {
		if (prop(props, "pe.count") || prop(props, "pe.macs"))
			return dl_err("%s: " DL_DEVDESC_PREFIX "pe.count: a roofline device has no PE array (model pe-array)",
				      where);
		if (!prop(props, "efficiency"))
			return dl_err("%s: " DL_DEVDESC_PREFIX "efficiency: missing (a roofline needs its efficiency and source)",
				      where);
		return 0;
	}
	if (!prop(props, "pe.count") || !prop(props, "pe.macs") || !prop(props, "sram"))
		return dl_err("%s: " DL_DEVDESC_PREFIX "%s: missing (a pe-array device needs pe.count, pe.macs and sram)",
			      where, !prop(props, "pe.count") ? "pe.count" :
			      !prop(props, "pe.macs") ? "pe.macs" : "sram");
	return 0;
}

int dl_devdesc_from_props(struct dl_devdesc *d, const struct dl_props *props, double speed,
			  const char *where)
{
	if (!described(props)) {
		dl_devdesc_table2(d, speed);
		if (speed > 0)
			return 0;
		return dl_err("%s: not a device description (no " DL_DEVDESC_PREFIX "* field)",
			      where);
	}
	*d = (struct dl_devdesc){ .dtype = DL_FP32, .efficiency = 1 };
	snprintf(d->name, sizeof(d->name), "custom");
	if (read_fields(d, props, where))
		return -1;
	d->model = prop(props, "model") ? d->model :
		   prop(props, "pe.count") ? DL_DEV_PE_ARRAY : DL_DEV_ROOFLINE;
	return check(d, props, speed, where);
}
