/* SPDX-License-Identifier: MIT */
/*
 * The line that reports a plugin's failure, ended with the reason the
 * plugin logged for it (diag.h): one piece for both reporters, the
 * loader's (plugin.c, returns -1) and the simulation's (below, ends
 * the run), which call it and nothing of each other.
 */
#include <stdbool.h>
#include <stdio.h>

#include "lib/diag.h"
#include "machine/engine.h"
#include "plugin.h"

void dl_plugin_vfailure(char *buf, size_t len, const struct dl_plugin *p, const char *where,
			const char *fmt, va_list ap)
{
	char msg[1024], why[1024];
	bool reason;

	vsnprintf(msg, sizeof(msg), fmt, ap);
	reason = dl_take_reason(p->desc->name, why, sizeof(why));
	snprintf(buf, len, "%s plugin '%s' (%s)%s: %s%s%s", p->kind_name, p->desc->name, p->path,
		 where, msg, reason ? ": " : "", reason ? why : "");
}

void dl_sim_plugin_error(const struct dl_plugin *p, const char *where, const char *fmt, ...)
{
	char line[DL_PLUGIN_FAILURE_MAX];
	va_list ap;

	va_start(ap, fmt);
	dl_plugin_vfailure(line, sizeof(line), p, where, fmt, ap);
	va_end(ap);
	dl_sim_error("%s", line);
}
