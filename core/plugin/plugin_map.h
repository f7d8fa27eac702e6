/* SPDX-License-Identifier: MIT */
/*
 * Where the open plugins are mapped in memory, to name the plugin behind a
 * code address: the one that crashed (plugin/crash.h), the one that called
 * a host service wrongly (its return address).
 */
#ifndef DL_PLUGIN_MAP_H
#define DL_PLUGIN_MAP_H

struct dl_plugin;

/* From dl_plugin_open() to dl_plugin_close(): `p`, loaded from the shared
 * object that holds address `inside` (its descriptor).  At most
 * DL_PLUGIN_MAP_MAX are known at once; the others go unnamed. */
#define DL_PLUGIN_MAP_MAX 64
void dl_plugin_map_add(const struct dl_plugin *p, const void *inside);
void dl_plugin_map_remove(const struct dl_plugin *p);

/* The open plugin whose object holds address `pc`, or NULL.  Reads only
 * what was recorded when it opened: safe in a signal handler. */
const struct dl_plugin *dl_plugin_at(const void *pc);

#endif
