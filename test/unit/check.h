/* SPDX-License-Identifier: MIT */
/*
 * Minimal unit-test harness: each TEST is a function; RUN() prints
 * "ok - FILE: NAME" or "FAIL - FILE: NAME: what" lines that test/run.sh
 * counts.  A binary exits non-zero if any check failed.
 */
#ifndef DL_CHECK_H
#define DL_CHECK_H

#include <math.h>
#include <stdio.h>
#include <string.h>

static int check_failed_in_test;
static int check_failed_tests;

#define CHECK(cond) \
	do { \
		if (!(cond)) { \
			printf("    %s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
			check_failed_in_test++; \
		} \
	} while (0)

/* |a - b| <= tol * |b| (relative), printing both values on failure. */
#define CHECK_CLOSE(a, b, tol) \
	do { \
		double check_a_ = (a), check_b_ = (b); \
		if (!(fabs(check_a_ - check_b_) <= (tol) * fabs(check_b_))) { \
			printf("    %s:%d: %s = %.12g, expected %s = %.12g (tolerance %g)\n", \
			       __FILE__, __LINE__, #a, check_a_, #b, check_b_, (double)(tol)); \
			check_failed_in_test++; \
		} \
	} while (0)

#define CHECK_STR(a, b) \
	do { \
		const char *check_a_ = (a), *check_b_ = (b); \
		if (!check_a_ || !check_b_ || strcmp(check_a_, check_b_) != 0) { \
			printf("    %s:%d: %s = \"%s\", expected \"%s\"\n", __FILE__, __LINE__, \
			       #a, check_a_ ? check_a_ : "(null)", check_b_ ? check_b_ : "(null)"); \
			check_failed_in_test++; \
		} \
	} while (0)

#define RUN(fn) \
	do { \
		check_failed_in_test = 0; \
		fn(); \
		if (check_failed_in_test) { \
			printf("FAIL - %s: %s\n", __FILE__, #fn); \
			check_failed_tests++; \
		} else { \
			printf("ok - %s: %s\n", __FILE__, #fn); \
		} \
		fflush(stdout); \
	} while (0)

#define CHECK_EXIT() return check_failed_tests ? 1 : 0

#endif
