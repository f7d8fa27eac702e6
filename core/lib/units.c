/* SPDX-License-Identifier: MIT */
#include "units.h"

#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct unit {
	const char *suffix;
	double scale;
};

#define KILO 1e3
#define KIBI 1024.0

static const struct unit size_units[] = {
	{ "", 1 }, { "B", 1 },
	{ "kB", KILO }, { "KB", KILO }, { "MB", 1e6 }, { "GB", 1e9 },
	{ "TB", 1e12 }, { "PB", 1e15 },
	{ "KiB", KIBI }, { "MiB", KIBI * KIBI }, { "GiB", KIBI * KIBI * KIBI },
	{ "TiB", KIBI * KIBI * KIBI * KIBI },
	{ "PiB", KIBI * KIBI * KIBI * KIBI * KIBI },
	{ NULL, 0 }
};

/* SimGrid: B and b (bits), with k/M/G/T/P/E and Ki/Mi/... prefixes. */
static const struct unit sg_size_units[] = {
	{ "B", 1 }, { "kB", KILO }, { "MB", 1e6 }, { "GB", 1e9 },
	{ "TB", 1e12 }, { "PB", 1e15 }, { "EB", 1e18 },
	{ "KiB", KIBI }, { "MiB", KIBI * KIBI }, { "GiB", KIBI * KIBI * KIBI },
	{ "TiB", KIBI * KIBI * KIBI * KIBI },
	{ "b", 0.125 }, { "kb", KILO / 8 }, { "Mb", 1e6 / 8 }, { "Gb", 1e9 / 8 },
	{ "Tb", 1e12 / 8 },
	{ NULL, 0 }
};

static const struct unit sg_bw_units[] = {
	{ "Bps", 1 }, { "kBps", KILO }, { "MBps", 1e6 }, { "GBps", 1e9 },
	{ "TBps", 1e12 }, { "PBps", 1e15 }, { "EBps", 1e18 },
	{ "KiBps", KIBI }, { "MiBps", KIBI * KIBI },
	{ "GiBps", KIBI * KIBI * KIBI }, { "TiBps", KIBI * KIBI * KIBI * KIBI },
	{ "bps", 0.125 }, { "kbps", KILO / 8 }, { "Mbps", 1e6 / 8 },
	{ "Gbps", 1e9 / 8 }, { "Tbps", 1e12 / 8 },
	{ "Kibps", KIBI / 8 }, { "Mibps", KIBI * KIBI / 8 },
	{ "Gibps", KIBI * KIBI * KIBI / 8 },
	{ NULL, 0 }
};

static const struct unit cli_bw_extra[] = {
	{ "B/s", 1 }, { "kB/s", KILO }, { "KB/s", KILO }, { "MB/s", 1e6 },
	{ "GB/s", 1e9 }, { "TB/s", 1e12 }, { "KiB/s", KIBI },
	{ "MiB/s", KIBI * KIBI }, { "GiB/s", KIBI * KIBI * KIBI },
	{ "KBps", KILO },
	{ NULL, 0 }
};

static const struct unit time_units[] = {
	{ "w", 7 * 86400 }, { "d", 86400 }, { "h", 3600 }, { "m", 60 },
	{ "s", 1 }, { "ms", 1e-3 }, { "us", 1e-6 }, { "ns", 1e-9 },
	{ "ps", 1e-12 },
	{ NULL, 0 }
};

static const struct unit sg_speed_units[] = {
	{ "f", 1 }, { "flops", 1 }, { "kf", 1e3 }, { "Mf", 1e6 }, { "Gf", 1e9 },
	{ "Tf", 1e12 }, { "Pf", 1e15 }, { "Ef", 1e18 }, { "Zf", 1e21 },
	{ "Yf", 1e24 },
	{ NULL, 0 }
};

static const struct unit power_units[] = {
	{ "W", 1 }, { "mW", 1e-3 }, { "kW", 1e3 },
	{ NULL, 0 }
};

static const struct unit *find_unit(const char *suffix, const struct unit *table,
				     const struct unit *extra)
{
	for (const struct unit *u = table; u && u->suffix; u++)
		if (strcmp(suffix, u->suffix) == 0)
			return u;
	for (const struct unit *u = extra; u && u->suffix; u++)
		if (strcmp(suffix, u->suffix) == 0)
			return u;
	return NULL;
}

/*
 * Split s into a number and a unit suffix found in `table` or `extra`;
 * a zero needs no unit.  The value in base units must be finite and, if
 * not zero, a normal double: SimGrid refuses what strtod() finds out of
 * range, and a subnormal bandwidth or speed divides into infinity.
 */
static const char *parse_with_unit(const char *s, const struct unit *table,
				   const struct unit *extra, double *out)
{
	const struct unit *u;
	char *end;
	double v;

	*out = 0;
	if (!s || !*s)
		return "empty value";
	if (isspace((unsigned char)s[0]))
		return "leading space";
	errno = 0;
	v = strtod(s, &end);
	if (end == s)
		return "not a number";
	if (isnan(v) || (isinf(v) && errno != ERANGE))
		return "not a finite number";
	if (errno == ERANGE)
		return fabs(v) > 1 ? "too large" : "too small";
	u = find_unit(end, table, extra);
	if (!u && !*end && v == 0)
		return NULL;
	if (!u)
		return *end ? "unknown unit" : "missing unit";
	*out = v * u->scale;
	if (!isfinite(*out))
		return "too large";
	if (*out != 0 && fabs(*out) < DBL_MIN)
		return "too small";
	return NULL;
}

/* The parse's error, else the range error; the value is read after the parse. */
static const char *positive(const char *why, const double *v)
{
	if (why)
		return why;
	return *v > 0 ? NULL : "must be greater than zero";
}

static const char *non_negative(const char *why, const double *v)
{
	if (why)
		return why;
	return *v >= 0 ? NULL : "must not be negative";
}

const char *dl_parse_size(const char *s, double *bytes)
{
	return positive(parse_with_unit(s, size_units, NULL, bytes), bytes);
}

const char *dl_parse_bandwidth(const char *s, double *bps)
{
	return positive(parse_with_unit(s, sg_bw_units, cli_bw_extra, bps), bps);
}

const char *dl_parse_time(const char *s, double *seconds)
{
	return non_negative(parse_with_unit(s, time_units, NULL, seconds), seconds);
}

const char *dl_parse_speed(const char *s, double *flops)
{
	return positive(parse_with_unit(s, sg_speed_units, NULL, flops), flops);
}

const char *dl_parse_power(const char *s, double *watts)
{
	return non_negative(parse_with_unit(s, power_units, NULL, watts), watts);
}

const char *dl_parse_number(const char *s, double min, double *v)
{
	static const struct unit bare[] = { { "", 1 }, { NULL, 0 } };
	const char *why = parse_with_unit(s, bare, NULL, v);

	if (why)
		return strcmp(why, "unknown unit") ? why : "not a number";
	return *v >= min ? NULL : (min > 0 ? "must be greater than zero" : "out of range");
}

const char *dl_parse_int(const char *s, long min, long max, long *v)
{
	static char range[96];
	char *end;

	if (!s || !*s)
		return "empty value";
	if (isspace((unsigned char)s[0]))
		return "leading space";
	errno = 0;
	*v = strtol(s, &end, 10);
	if (*end || end == s)
		return "not an integer";
	if (errno == ERANGE || *v < min || *v > max) {
		snprintf(range, sizeof(range), "out of range (%ld to %ld)", min, max);
		return range;
	}
	return NULL;
}

const char *dl_parse_sg_bandwidth(const char *s, double *bps)
{
	return positive(parse_with_unit(s, sg_bw_units, NULL, bps), bps);
}

const char *dl_parse_sg_time(const char *s, double *seconds)
{
	return non_negative(parse_with_unit(s, time_units, NULL, seconds), seconds);
}

const char *dl_parse_sg_speed(const char *s, double *flops)
{
	return positive(parse_with_unit(s, sg_speed_units, NULL, flops), flops);
}

const char *dl_parse_sg_size(const char *s, double *bytes)
{
	return positive(parse_with_unit(s, sg_size_units, NULL, bytes), bytes);
}

const char *dl_format_num(char *buf, size_t len, const char *fmt, double v, const char *na)
{
	if (isfinite(v))
		snprintf(buf, len, fmt, v);
	else
		snprintf(buf, len, "%s", na);
	return buf;
}

const char *dl_format_size(double bytes, char *buf, size_t len)
{
	static const char *const bin[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };
	static const char *const dec[] = { "B", "kB", "MB", "GB", "TB", "PB" };
	double b = bytes, d = bytes;
	int i = 0, j = 0;

	while (i < 5 && b >= 1024 && fmod(b, 1024) == 0) {
		b /= 1024;
		i++;
	}
	while (j < 5 && d >= 1000 && fmod(d, 1000) == 0) {
		d /= 1000;
		j++;
	}
	if (j > i || (i == 0 && bytes >= 1e4)) {
		/* Not a round binary size: three significant digits, decimal. */
		for (j = 0, d = bytes; j < 5 && d >= 1000; j++)
			d /= 1000;
		snprintf(buf, len, d == floor(d) ? "%.0f%s" : "%.3g%s", d, dec[j]);
	} else {
		snprintf(buf, len, "%g%s", b, bin[i]);
	}
	return buf;
}
