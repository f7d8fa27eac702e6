/* SPDX-License-Identifier: MIT */
/*
 * A device description (docs/devices.md): what a device host computes
 * with, read from its `dlasim.device.*` properties, or from a device file
 * (platforms/devices/NAME.xml holds the same <prop> elements).  A device
 * host without any is the memory-centric paper's Table II device, its
 * peak for the default type being the host's `speed`.
 */
#ifndef DL_DEVDESC_H
#define DL_DEVDESC_H

#include <stdbool.h>

#include "lib/dtype.h"

#include "props.h"


/* How a layer's time follows from the description. */
enum dl_devmodel {
	DL_DEV_PE_ARRAY,	/* the paper's PE array and its mapping search */
	DL_DEV_ROOFLINE,	/* max(flops / (peak x eff), bytes / bw) + latency */
};

struct dl_devdesc {
	char name[64];
	enum dl_devmodel model;
	enum dl_dtype dtype;		/* the type `speed` is the peak of */
	double peak[DL_DTYPES];		/* flop/s (2 per MAC); 0: unsupported */
	double hbm_Bps;			/* local memory bandwidth */
	double hbm_bytes;		/* its capacity; 0: not given */
	double hbm_latency_s;		/* paid once per pass */
	double sram_bytes;		/* on-chip SRAM, the whole device */
	double efficiency;		/* of the arithmetic peak, (0, 1] */
	double tdp_w;			/* 0: not given */
	int links;			/* device-side links, 0: not given */
	double link_Bps;		/* each, per direction */
	double pes, macs_per_pe;	/* DL_DEV_PE_ARRAY only */
	double c2c_Bps;			/* CPU memory over a chip-to-chip link */
	double cpu_mem_bytes;		/* that CPU memory; 0: none */
	char efficiency_source[160];	/* where `efficiency` comes from */
};

/* The key prefix of every field. */
#define DL_DEVDESC_PREFIX "dlasim.device."

/* The paper's Table II device at `speed` flop/s of fp32. */
void dl_devdesc_table2(struct dl_devdesc *d, double speed);

/*
 * The description `props` hold (`speed`: the host's, the default type's
 * peak when no dlasim.device.peak.TYPE gives it; 0 when there is no
 * host).  `where` prefixes each error ("FILE:LINE: host 'd0'"); reports
 * the field and why, returns -1.
 */
int dl_devdesc_from_props(struct dl_devdesc *d, const struct dl_props *props, double speed,
			  const char *where);

/* A platform's devices: dl_devdesc_of_host(), dl_devdesc_of_platform()
 * (platform.h). */

/*
 * The roofline of `flops` operations of type `t` over `bytes` of local
 * memory: max(flops / (peak_t x efficiency), bytes / hbm bandwidth) +
 * latency, seconds (0 for no work).  The description must have a peak
 * for `t` (dl_devdesc_has()).
 */
double dl_devdesc_roofline_s(const struct dl_devdesc *d, enum dl_dtype t, double flops,
			     double bytes);

/* Is the type computed by the device (a peak for it)? */
bool dl_devdesc_has(const struct dl_devdesc *d, enum dl_dtype t);

/*
 * A device file: a shipped description by name ("h100-sxm") or a path.
 * Its <prop> elements in *props (the caller frees them with
 * dl_devfile_free()), checked as a description; the path read in *path
 * (malloc'd, may be NULL).
 */
int dl_devfile_read(const char *name, struct dl_props *props, char **path,
		    struct dl_devdesc *d);
void dl_devfile_free(struct dl_props *props);

/* The shipped descriptions' names, sorted; *n of them (free each and the
 * array). */
int dl_devfile_list(char ***names, int *n);

#endif
