/* SPDX-License-Identifier: MIT */
/*
 * Every number TM-Training (Park et al., ACM TOS 2025) states about its
 * Figures 2-15 (and the setting and savings they rest on), beside the
 * same quantity from study tm's runs.  docs/validation/tm.md explains each.
 */
#ifndef DL_TIER_PAPER_H
#define DL_TIER_PAPER_H

#include "figures.h"

struct tm_claim {
	const char *id;		/* figure.quantity */
	const char *what;	/* what is compared, and the paper's words */
	double paper;		/* NAN: the paper states a relation, no number */
	double ours;
};

#define TM_MAXCLAIMS 80

/* Fill c[] (TM_MAXCLAIMS) from the study's runs; returns the count. */
int paper_claims(const struct tm_study *s, struct tm_claim *c);

#endif
