/* SPDX-License-Identifier: MIT */
/* Unit parsers: values from the definitions of the units (SI and IEC). */
#include "check.h"

#include <limits.h>

#include "lib/units.h"

static void sizes(void)
{
	double v;

	CHECK(!dl_parse_size("4096", &v) && v == 4096);
	CHECK(!dl_parse_size("1GB", &v) && v == 1e9);
	CHECK(!dl_parse_size("64MiB", &v) && v == 64.0 * 1024 * 1024);
	CHECK(!dl_parse_size("1.5kB", &v) && v == 1500);
	CHECK(!dl_parse_size("2KiB", &v) && v == 2048);
	CHECK(!dl_parse_size("1TB", &v) && v == 1e12);
	CHECK_STR(dl_parse_size("0", &v), "must be greater than zero");
	CHECK_STR(dl_parse_size("-1GB", &v), "must be greater than zero");
	CHECK_STR(dl_parse_size("lots", &v), "not a number");
	CHECK_STR(dl_parse_size("3XB", &v), "unknown unit");
	CHECK_STR(dl_parse_size("", &v), "empty value");
	CHECK_STR(dl_parse_size("inf", &v), "not a finite number");
	CHECK_STR(dl_parse_size("nan", &v), "not a finite number");
	CHECK(dl_parse_size(" 1GB", &v) != NULL);
}

static void bandwidths(void)
{
	double v;

	CHECK(!dl_parse_bandwidth("25GBps", &v) && v == 25e9);
	CHECK(!dl_parse_bandwidth("25GB/s", &v) && v == 25e9);
	CHECK(!dl_parse_bandwidth("100Gbps", &v) && v == 12.5e9);	/* bits */
	CHECK(!dl_parse_bandwidth("1GiBps", &v) && v == 1024.0 * 1024 * 1024);
	CHECK_STR(dl_parse_bandwidth("25", &v), "missing unit");
	CHECK_STR(dl_parse_bandwidth("0GBps", &v), "must be greater than zero");
	/* SimGrid's grammar has no "/s" and no "KBps". */
	CHECK_STR(dl_parse_sg_bandwidth("25GB/s", &v), "unknown unit");
	CHECK_STR(dl_parse_sg_bandwidth("25KBps", &v), "unknown unit");
	CHECK(!dl_parse_sg_bandwidth("25kBps", &v) && v == 25e3);
}

static void times(void)
{
	double v;

	CHECK(!dl_parse_time("1us", &v) && v == 1e-6);
	CHECK(!dl_parse_time("0.5ms", &v) && v == 5e-4);
	CHECK(!dl_parse_time("2s", &v) && v == 2);
	CHECK(!dl_parse_time("0", &v) && v == 0);
	CHECK(!dl_parse_time("1m", &v) && v == 60);
	CHECK_STR(dl_parse_time("-1us", &v), "must not be negative");
	CHECK_STR(dl_parse_sg_time("1", &v), "missing unit");
	CHECK(!dl_parse_sg_time("100ns", &v) && fabs(v - 1e-7) < 1e-20);
	/* A duration needs its unit, as a bandwidth does; only zero is
	 * the same in every unit (SimGrid reads a bare 0 too). */
	CHECK_STR(dl_parse_time("1", &v), "missing unit");
	CHECK(!dl_parse_sg_time("0", &v) && v == 0);
	/* 1e-320 is below DBL_MIN (2.2e-308): strtod says ERANGE, and
	 * SimGrid refuses it; so is 1e-300 ps once in seconds. */
	CHECK_STR(dl_parse_sg_time("1e-320ps", &v), "too small");
	CHECK_STR(dl_parse_sg_time("1e-300ps", &v), "too small");
	CHECK_STR(dl_parse_sg_time("1e400s", &v), "too large");
}

/* Finiteness is checked once the unit is applied: 1e308 EB/s is 1e326. */
static void limits(void)
{
	double v;

	CHECK_STR(dl_parse_sg_bandwidth("1e308EBps", &v), "too large");
	CHECK_STR(dl_parse_bandwidth("1e308TB/s", &v), "too large");
	CHECK(!dl_parse_sg_bandwidth("1e308Bps", &v) && v == 1e308);
	CHECK_STR(dl_parse_sg_bandwidth("1e-320Bps", &v), "too small");
	CHECK_STR(dl_parse_sg_speed("1e300Yf", &v), "too large");
	CHECK_STR(dl_parse_size("1e306PiB", &v), "too large");
	CHECK_STR(dl_parse_size("infinity", &v), "not a finite number");
	CHECK_STR(dl_parse_bandwidth("0", &v), "must be greater than zero");
}

static void speeds_powers_numbers(void)
{
	double v;
	long i;

	CHECK(!dl_parse_speed("256Tf", &v) && v == 256e12);
	CHECK_STR(dl_parse_sg_speed("1Gflops", &v), "unknown unit");
	CHECK(!dl_parse_power("684mW", &v) && fabs(v - 0.684) < 1e-12);
	CHECK(!dl_parse_number("0.25", 0, &v) && v == 0.25);
	CHECK_STR(dl_parse_number("-1", 0, &v), "out of range");
	CHECK_STR(dl_parse_number("0", 1e-300, &v), "must be greater than zero");
	CHECK(!dl_parse_int("42", 0, 100, &i) && i == 42);
	CHECK_STR(dl_parse_int("4.2", 0, 100, &i), "not an integer");
	CHECK_STR(dl_parse_int("101", 0, 100, &i), "out of range (0 to 100)");
	CHECK_STR(dl_parse_int("99999999999999999999", 0, LONG_MAX, &i),
		  "out of range (0 to 9223372036854775807)");
	CHECK_STR(dl_parse_int(" 4", 0, 100, &i), "leading space");
}

static void formatting(void)
{
	char buf[64];

	CHECK_STR(dl_format_size(64.0 * 1024 * 1024, buf, sizeof(buf)), "64MiB");
	CHECK_STR(dl_format_size(1e9, buf, sizeof(buf)), "1GB");
	CHECK_STR(dl_format_size(1000, buf, sizeof(buf)), "1kB");
	CHECK_STR(dl_format_size(1234, buf, sizeof(buf)), "1234B");
	CHECK_STR(dl_format_size(4.43767e9, buf, sizeof(buf)), "4.44GB");
	CHECK_STR(dl_format_size(1.2e9, buf, sizeof(buf)), "1.2GB");
}

int main(void)
{
	RUN(sizes);
	RUN(bandwidths);
	RUN(times);
	RUN(limits);
	RUN(speeds_powers_numbers);
	RUN(formatting);
	CHECK_EXIT();
}
