/* SPDX-License-Identifier: MIT */
/*
 * `dlasim llm --emit-et DIR` (docs/llm.md, "Chakra traces"): the run as
 * per-rank Chakra execution traces DIR/NAME.RANK.et, one per device,
 * that `dlasim train --workload DIR` and ASTRA-sim read.
 */
#ifndef LLM_EMIT_H
#define LLM_EMIT_H

#include "cost.h"
#include "model.h"

/* Can DIR take the traces (absent or an empty directory, in a writable
 * one)?  -1 after one line if not; checked before any simulation. */
int llm_emit_check(const char *dir);

/* Write every rank's trace, whole or not at all: into a new directory
 * beside DIR, renamed to DIR once all are written. */
int llm_emit_et(const char *dir, const struct llm_model *m, const struct llm_par *c);

#endif
