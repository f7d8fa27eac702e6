/* SPDX-License-Identifier: MIT */
/* The services persist plugins receive, each request checked (pmsvc.c). */
#ifndef DL_NVM_PMSVC_H
#define DL_NVM_PMSVC_H

#include <dlasim/persist.h>

#include <stdbool.h>

extern const struct dlasim_persist_services nvm_pm_services;

/* The loader's check of a persist plugin's ops. */
bool pm_ops_ok(const void *ops, const char **why);

/* "the ADR", "the staging buffer", ... for messages. */
const char *pm_place_name(enum dlasim_pm_place p);

#endif
