/* SPDX-License-Identifier: MIT */
#include "csv.h"

#include <stdlib.h>
#include <string.h>

void dl_csv_field(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

void dl_csv_free(char **fields, int n)
{
	for (int i = 0; i < n; i++)
		free(fields[i]);
	free(fields);
}

/* The field at *p, unquoted, into out (room for strlen(*p) + 1); *p then
 * at the separator or the end. */
static const char *one_field(const char **p, char *out)
{
	const char *s = *p;

	if (*s != '"') {
		size_t len = strcspn(s, ",\r\n");

		if (memchr(s, '"', len))
			return "a quote inside an unquoted field";
		memcpy(out, s, len);
		out[len] = '\0';
		*p = s + len;
		return NULL;
	}
	for (s++;; s++) {
		if (*s == '\0' || *s == '\r' || *s == '\n')
			return "a quoted field is not closed on its line";
		if (*s == '"') {
			if (s[1] != '"')
				break;
			s++;
		}
		*out++ = *s;
	}
	*out = '\0';
	s++;
	if (*s && *s != ',' && *s != '\r' && *s != '\n')
		return "text after a quoted field's closing quote";
	*p = s;
	return NULL;
}

const char *dl_csv_split(const char *line, char ***fields, int *n)
{
	const char *p = line, *why = NULL;
	char **v = NULL, *field = malloc(strlen(line) + 1);	/* one field unquoted */
	int k = 0;

	if (!field)
		return "out of memory";
	for (;;) {
		char **nv;

		if ((why = one_field(&p, field)))
			break;
		nv = realloc(v, (k + 1) * sizeof(*v));
		if (!nv || !(nv[k] = strdup(field))) {
			v = nv ? nv : v;
			why = "out of memory";
			break;
		}
		v = nv;
		k++;
		if (*p != ',')
			break;
		p++;
	}
	free(field);
	if (why) {
		dl_csv_free(v, k);
		return why;
	}
	*fields = v;
	*n = k;
	return NULL;
}
