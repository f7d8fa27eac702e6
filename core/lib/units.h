/* SPDX-License-Identifier: MIT */
/*
 * Quantities with units.  Inside dlasim everything is in bytes, seconds,
 * bytes per second and flop per second; these parsers are the only place
 * where text with a unit becomes a number.  Each returns NULL on success or
 * a static string saying what is wrong, for the caller to report along with
 * the file or option it came from.
 */
#ifndef DL_UNITS_H
#define DL_UNITS_H

#include <stdbool.h>
#include <stddef.h>

/* A byte count > 0: "4096", "1GB" (1e9), "64MiB" (2^26), "1.5kB". */
const char *dl_parse_size(const char *s, double *bytes);
/* Bandwidth > 0: "25GBps", "25GB/s", "100Gbps" (bits), "1GiBps". */
const char *dl_parse_bandwidth(const char *s, double *bps);
/* Duration >= 0: "1us", "0.5ms", "2s", "0". */
const char *dl_parse_time(const char *s, double *seconds);
/* Computing speed > 0: "1Gf", "125Tf", "1flops". */
const char *dl_parse_speed(const char *s, double *flops);
/* Power >= 0: "29W", "684mW". */
const char *dl_parse_power(const char *s, double *watts);
/* A plain number >= min: "0.5", "3". */
const char *dl_parse_number(const char *s, double min, double *v);
/* An integer in [min, max]. */
const char *dl_parse_int(const char *s, long min, long max, long *v);

/*
 * SimGrid's own unit grammar, which is stricter than the command line's
 * (no "/s", no unit-less values): used to check platform files before
 * SimGrid reads them, since SimGrid aborts on what it cannot parse.
 */
const char *dl_parse_sg_bandwidth(const char *s, double *bps);
const char *dl_parse_sg_time(const char *s, double *seconds);
const char *dl_parse_sg_speed(const char *s, double *flops);
const char *dl_parse_sg_size(const char *s, double *bytes);

/* A number for a table or CSV cell: `fmt` (one double conversion) of v,
 * or `na` when v is not finite (what a failed run leaves). */
const char *dl_format_num(char *buf, size_t len, const char *fmt, double v, const char *na)
	__attribute__((format(printf, 3, 0)));

/* Format `bytes` with a binary or decimal unit into buf, e.g. "64MiB". */
const char *dl_format_size(double bytes, char *buf, size_t len);

#endif
