/* SPDX-License-Identifier: MIT */
/* CSV fields: written and read back as RFC 4180 (sections 2.5-2.7) has them. */
#include "check.h"

#include "results/csv.h"

/* s written as a field, into buf. */
static const char *written(const char *s, char *buf, size_t len)
{
	FILE *f;

	memset(buf, 0, len);
	f = fmemopen(buf, len - 1, "w");
	if (!f)
		return "";
	dl_csv_field(f, s);
	fclose(f);
	return buf;
}

static void writing(void)
{
	char buf[128];

	CHECK_STR(written("plain", buf, sizeof(buf)), "plain");
	CHECK_STR(written("", buf, sizeof(buf)), "");
	CHECK_STR(written("tste:logpar=8,blom=1", buf, sizeof(buf)), "\"tste:logpar=8,blom=1\"");
	CHECK_STR(written("say \"hi\"", buf, sizeof(buf)), "\"say \"\"hi\"\"\"");
	CHECK_STR(written("two\nlines", buf, sizeof(buf)), "\"two\nlines\"");
}

/* The fields of `line`, joined by '|', or the reason it is refused. */
static const char *split(const char *line, char *buf, size_t len)
{
	char **v;
	int n;
	const char *why = dl_csv_split(line, &v, &n);

	if (why)
		return why;
	buf[0] = '\0';
	for (int i = 0; i < n; i++) {
		if (i)
			strncat(buf, "|", len - strlen(buf) - 1);
		strncat(buf, v[i], len - strlen(buf) - 1);
	}
	dl_csv_free(v, n);
	return buf;
}

static void reading(void)
{
	char buf[256];

	CHECK_STR(split("run,op,bytes\n", buf, sizeof(buf)), "run|op|bytes");
	CHECK_STR(split("1,\"allreduce,broadcast\",1e6\r\n", buf, sizeof(buf)),
		  "1|allreduce,broadcast|1e6");
	CHECK_STR(split("\"a \"\"b\"\"\",c", buf, sizeof(buf)), "a \"b\"|c");
	/* Empty fields are fields (a tokenizer that skips them would give 2). */
	CHECK_STR(split("a,,c", buf, sizeof(buf)), "a||c");
	CHECK_STR(split(",", buf, sizeof(buf)), "|");
	CHECK_STR(split("\"\"", buf, sizeof(buf)), "");
	CHECK_STR(split("x\"y", buf, sizeof(buf)), "a quote inside an unquoted field");
	CHECK_STR(split("\"open,field", buf, sizeof(buf)), "a quoted field is not closed on its line");
	CHECK_STR(split("\"a\"b", buf, sizeof(buf)), "text after a quoted field's closing quote");
}

/* Any text without line breaks comes back from a write and a read whole,
 * commas and quotes included. */
static void round_trip(void)
{
	static const char alphabet[] = "ab,\" =:";
	char field[3][16], line[256];
	unsigned seed = 12345;
	int bad = 0;

	for (int t = 0; t < 2000; t++) {
		FILE *f;
		char **v;
		int n;

		memset(line, 0, sizeof(line));
		f = fmemopen(line, sizeof(line) - 1, "w");
		if (!f) {
			bad++;
			break;
		}
		for (int k = 0; k < 3; k++) {
			int len = (int)((seed = seed * 1103515245 + 12345) >> 16) % 12;

			for (int i = 0; i < len; i++)
				field[k][i] = alphabet[((seed = seed * 1103515245 + 12345) >> 16) %
						       (sizeof(alphabet) - 1)];
			field[k][len] = '\0';
			if (k)
				fputc(',', f);
			dl_csv_field(f, field[k]);
		}
		fclose(f);
		if (dl_csv_split(line, &v, &n)) {
			bad++;
			continue;
		}
		for (int k = 0; k < 3; k++)
			bad += n == 3 ? strcmp(v[k], field[k]) != 0 : k == 0;
		dl_csv_free(v, n);
	}
	CHECK(bad == 0);
}

int main(void)
{
	RUN(writing);
	RUN(reading);
	RUN(round_trip);
	CHECK_EXIT();
}
