/* SPDX-License-Identifier: MIT */
/* libFuzzer target: every unit and number parser (lib/units.c), the
 * size and cell formatters on what they return, and the message
 * sanitizer (lib/diag.c). */
#include "fuzz.h"

#include <math.h>

#include "lib/diag.h"
#include "lib/units.h"

typedef const char *(*parse_fn)(const char *s, double *v);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const parse_fn parsers[] = {
		dl_parse_size, dl_parse_bandwidth, dl_parse_time, dl_parse_speed, dl_parse_power,
		dl_parse_sg_bandwidth, dl_parse_sg_time, dl_parse_sg_speed, dl_parse_sg_size,
	};
	char *s = fuzz_string(data, size), buf[128], out[256];
	double v;
	long i;

	if (!s)
		return 0;
	for (size_t k = 0; k < sizeof(parsers) / sizeof(parsers[0]); k++) {
		/* Accepted: finite, and a normal double or zero. */
		if (!parsers[k](s, &v) && (!isfinite(v) || (v != 0 && fabs(v) < 2.2250738585072014e-308)))
			__builtin_trap();
		if (!parsers[k](s, &v) && v > 0)
			dl_format_size(v, buf, sizeof(buf));
	}
	dl_parse_number(s, 0, &v);
	dl_format_num(buf, sizeof(buf), "%.9g", v, "n/a");
	dl_parse_int(s, -5, 1L << 40, &i);
	dl_printable(out, sizeof(out), s);
	if (strlen(out) >= sizeof(out))
		__builtin_trap();
	free(s);
	return 0;
}
