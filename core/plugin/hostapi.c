/* SPDX-License-Identifier: MIT */
/* The services every plugin receives in init(). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>

#include <simgrid/actor.h>
#include <simgrid/engine.h>

#include <string.h>

#include "lib/diag.h"
#include "machine/engine.h"
#include "plugin.h"
#include "plugin_map.h"
#include "lib/units.h"

static void host_log(enum dlasim_log_level level, const char *plugin,
		     const char *fmt, ...)
{
	static const char *const names[] = { "debug", "info", "warning", "error" };
	char prefix[256], who[128];
	va_list ap;

	if (level < DLASIM_LOG_WARNING && !dl_verbose)
		return;
	dl_printable(who, sizeof(who), plugin ? plugin : "plugin");
	snprintf(prefix, sizeof(prefix), "%s: %s: ", who,
		 names[level <= DLASIM_LOG_ERROR && level >= 0 ? level : DLASIM_LOG_ERROR]);
	va_start(ap, fmt);
	if (level >= DLASIM_LOG_ERROR)	/* the reason for a failure, if one follows */
		dl_hold_reason(plugin ? plugin : "plugin", prefix, fmt, ap);
	else
		dl_vmessage(prefix, fmt, ap);
	va_end(ap);
}

static double host_now(void)
{
	return simgrid_get_clock();
}

/* SimGrid aborts on a duration that is not finite: name the plugin (the
 * caller of this service) and end the run instead. */
static void host_sleep(double seconds)
{
	const struct dl_plugin *p;

	if (isfinite(seconds)) {
		if (seconds > 0)
			sg_actor_sleep_for(seconds);
		return;
	}
	p = dl_plugin_at(__builtin_return_address(0));
	if (p)
		dl_sim_plugin_error(p, "", "sleep(%g): a duration must be a finite number of seconds",
				    seconds);
	dl_sim_error("a plugin called sleep(%g): a duration must be a finite number of seconds",
		     seconds);
}

static int host_next_option(const char **cursor, char *key, size_t keylen,
			    char *value, size_t valuelen)
{
	const char *s = *cursor, *end, *eq;
	size_t klen, vlen;

	if (!s)
		return 0;
	while (*s == ',')
		s++;
	if (!*s) {
		*cursor = s;
		return 0;
	}
	end = strchr(s, ',');
	if (!end)
		end = s + strlen(s);
	eq = memchr(s, '=', (size_t)(end - s));
	if (!eq || eq == s) {
		snprintf(value, valuelen, "'%.*s' is not key=value", (int)(end - s), s);
		return -1;
	}
	klen = (size_t)(eq - s);
	vlen = (size_t)(end - eq - 1);
	if (klen >= keylen || vlen >= valuelen) {
		snprintf(value, valuelen, "option '%.*s' is too long", (int)(end - s), s);
		return -1;
	}
	memcpy(key, s, klen);
	key[klen] = '\0';
	memcpy(value, eq + 1, vlen);
	value[vlen] = '\0';
	*cursor = end;
	return 1;
}

struct dlasim_host_api dl_host_api = {
	.abi_version = DLASIM_ABI_VERSION,
	.size = sizeof(struct dlasim_host_api),
	.log = host_log,
	.now = host_now,
	.sleep = host_sleep,
	.next_option = host_next_option,
	.parse_size = dl_parse_size,
	.parse_time = dl_parse_time,
	.parse_bandwidth = dl_parse_bandwidth,
	.parse_number = dl_parse_number,
};
