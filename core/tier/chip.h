/* SPDX-License-Identifier: MIT */
/* The chip's actors: the MXUs, the DMA controller and the output writers. */
#ifndef DL_TIER_CHIP_H
#define DL_TIER_CHIP_H

#include "state.h"

void chip_start(struct dlasim_tier_ctx *run);

#endif
