/* SPDX-License-Identifier: MIT */
/* A small streaming JSON writer: objects, arrays, numbers, strings. */
#ifndef DL_JSON_H
#define DL_JSON_H

#include <stdbool.h>
#include <stdio.h>

#define DL_JSON_MAX_DEPTH 32

struct dl_json {
	FILE *f;
	int depth;
	bool has_items[DL_JSON_MAX_DEPTH];
};

void dl_json_init(struct dl_json *j, FILE *f);
/* Start a result document on f: init, open the top-level object and write
 * "dlasim_version" first, so that every result names what produced it. */
void dl_json_result_begin(struct dl_json *j, FILE *f);
/* "dlasim_version" as a member of the open object: each element of a
 * result that is a top-level array names what produced it. */
void dl_json_version(struct dl_json *j);
/* `key` is the member name inside an object, NULL inside an array or at top. */
void dl_json_object_begin(struct dl_json *j, const char *key);
void dl_json_object_end(struct dl_json *j);
void dl_json_array_begin(struct dl_json *j, const char *key);
void dl_json_array_end(struct dl_json *j);
void dl_json_num(struct dl_json *j, const char *key, double v);
void dl_json_int(struct dl_json *j, const char *key, long long v);
/* A byte count, to the nearest byte: ledgers sum shares of transfers (a
 * chunk split over three rings), whose fractions no reader wants to see. */
void dl_json_bytes(struct dl_json *j, const char *key, double v);
void dl_json_str(struct dl_json *j, const char *key, const char *v);
void dl_json_bool(struct dl_json *j, const char *key, bool v);
void dl_json_null(struct dl_json *j, const char *key);
/* Write `s` as a JSON string literal (quotes included). */
void dl_json_write_string(FILE *f, const char *s);

#endif
