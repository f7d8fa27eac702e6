/* SPDX-License-Identifier: MIT */
/*
 * SimGrid options passed through `--cfg NAME:VALUE`: the ones dlasim's
 * models tolerate, with their types and values, checked here because
 * SimGrid aborts with a backtrace on a name or value it does not know.
 * The list and why each one is there: docs/traces.md.
 */
#ifndef DL_SGCFG_H
#define DL_SGCFG_H

#include <stdio.h>

/* NULL if `nameval` ("name:value") is an option dlasim passes to SimGrid,
 * else a static string saying what is wrong. */
const char *dl_sgcfg_check(const char *nameval);
/* One line per option, "name  type  what it does", on f. */
void dl_sgcfg_list(FILE *f);

#endif
