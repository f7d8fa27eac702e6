/* SPDX-License-Identifier: MIT */
/*
 * The whole controller checked against I1-I6 (<dlasim/persist.h>), as if
 * the power failed now: `dlasim nvm --check` runs it after every event.
 */
#ifndef DL_NVM_AUDIT_H
#define DL_NVM_AUDIT_H

struct dlasim_pm_ctx;

/* 0, or -1 after recording the first broken invariant. */
int pm_audit(struct dlasim_pm_ctx *c);

#endif
