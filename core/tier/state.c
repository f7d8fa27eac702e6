/* SPDX-License-Identifier: MIT */
#include "state.h"

#include <stdarg.h>
#include <stdio.h>

#include <simgrid/cond.h>

#include "kernel/engine.h"

void run_changed(struct dlasim_tier_ctx *run)
{
	sg_cond_notify_all(run->changed);
}

void run_plugin_fail(struct dlasim_tier_ctx *run, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	dl_sim_plugin_error(run->plugin, "", "%s", msg);
}
