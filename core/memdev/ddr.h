/* SPDX-License-Identifier: MIT */
/*
 * The DDR4 model behind memdev.h (kind MEMDEV_DDR): commands (ACT, PRE,
 * RD, WR, REF) issued by a controller with per-bank command queues,
 * first-ready in queue order, each constrained by the JEDEC timing
 * (docs/memdev.md).  memdev.c hands its calls for a DDR device here.
 */
#ifndef DL_MEMDEV_DDR_H
#define DL_MEMDEV_DDR_H

#include <stdbool.h>
#include <stddef.h>

#include "device.h"

struct ddr;

/* NULL with a reason in why[] when the configuration is not usable. */
struct ddr *ddr_open(const struct memdev_config *cfg, char *why, size_t len);
void ddr_close(struct ddr *m);

int ddr_banks(const struct ddr *m);
int ddr_bank_of(const struct ddr *m, long addr);
int ddr_channel_of(const struct ddr *m, int bank);
int ddr_bank_pending(const struct ddr *m, int bank);
void ddr_bank_counts(const struct ddr *m, int bank, long *reads, long *writes);
long ddr_address(const struct ddr *m, int ch, int rk, int bank, int row, int block);

bool ddr_will_accept(const struct ddr *m, long addr, int blocks);
void ddr_enqueue(struct ddr *m, struct memdev_req *r, double now);
double ddr_next_event(struct ddr *m, int channel);
void ddr_advance(struct ddr *m, int channel, double now,
		 void (*done)(void *arg, struct memdev_req *r), void *arg);
void ddr_stats(const struct ddr *m, double now, struct memdev_stats *s);

#endif
