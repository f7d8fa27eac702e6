/* SPDX-License-Identifier: MIT */
/*
 * JSON results read back: a file read whole (a result is text, under a
 * size bound) and parsed into a tree of values.  Numbers keep the text
 * they were written with (merge copies them as they are), strings are
 * unescaped, members keep their order.  Errors are one message naming
 * the file and the byte.
 */
#ifndef DL_JSONREAD_H
#define DL_JSONREAD_H

enum dl_jv_type { DL_JV_NULL, DL_JV_BOOL, DL_JV_NUM, DL_JV_STR, DL_JV_ARR, DL_JV_OBJ };

struct dl_jv {
	enum dl_jv_type type;
	char *key;		/* the member's name inside an object, else NULL */
	char *text;		/* number as written, string unescaped, "true"/"false" */
	struct dl_jv *item;	/* an array's elements or an object's members */
	int n;
};

/* The largest result read (a bound on an endless input such as /dev/zero). */
#define DL_JSON_READ_MAX (64 << 20)

/* The whole file as a string, or NULL after a message (too large, a NUL
 * byte: a result is text, and the string would end there; unreadable). */
char *dl_json_slurp(const char *file);

/* Parse `text` into *v (free with dl_jv_free); -1 after one message
 * "FILE: byte N: what is wrong". */
int dl_jv_parse(struct dl_jv *v, const char *text, const char *file);
void dl_jv_free(struct dl_jv *v);

/* Member `key` of object `o`, NULL when o is no object or has none. */
const struct dl_jv *dl_jv_get(const struct dl_jv *o, const char *key);
/* The number `v` holds; NAN for null, a missing value or another type. */
double dl_jv_num(const struct dl_jv *v);
/* The string `v` holds, NULL for anything else. */
const char *dl_jv_str(const struct dl_jv *v);

#endif
