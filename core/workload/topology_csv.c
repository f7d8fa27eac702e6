/* SPDX-License-Identifier: MIT */
/*
 * Reading SCALE-Sim topology CSVs, conv and GEMM forms (docs/workloads.md,
 * "SCALE-Sim topologies"): each row becomes the layers a .dnn would state,
 * which the .dnn reader's rules then shape and check.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/diag.h"
#include "reader.h"
#include "workload.h"

#define MAX_COLS 16
#define MAX_DIM (1L << 30)
#define VAL_LEN 48
#define MAX_NAME 4200		/* a row's name and a suffix */

enum csv_form { CSV_CONV, CSV_GEMM };

/* The columns after the layer name, as SCALE-Sim's headers name them. */
enum { C_IH, C_IW, C_FH, C_FW, C_CH, C_NF, C_SH, C_SW };
static const char *const conv_cols[] = {
	"IFMAP Height", "IFMAP Width", "Filter Height", "Filter Width",
	"Channels", "Num Filter", "Strides", "Stride width",
};
enum { G_M, G_N, G_K };
static const char *const gemm_cols[] = { "M", "N", "K" };

struct csv {
	struct mc_reader *r;
	const char *file;
	int no;
	enum csv_form form;
	int ncols;			/* the header's, the name included */
	char *field[MAX_COLS];
	int nfields;
	long v[MAX_COLS];		/* v[i]: column i + 2 */
	int rows;
};

static int csv_err(const struct csv *c, int col, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* "file:line: column N (Name): ..." */
static int csv_err(const struct csv *c, int col, const char *fmt, ...)
{
	const char *const *names = c->form == CSV_CONV ? conv_cols : gemm_cols;
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return dl_err("%s:%d: column %d (%s): %s", c->file, c->no, col,
		      col == 1 ? "Layer name" : names[col - 2], msg);
}

static char *trim(char *s)
{
	char *e = s + strlen(s);

	while (*s == ' ' || *s == '\t' || *s == '\r')
		s++;
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		*--e = '\0';
	return s;
}

/* Split on commas; a trailing comma (SCALE-Sim writes one) ends the row. */
static int split(struct csv *c, char *text)
{
	char *p = text;

	c->nfields = 0;
	for (;;) {
		char *comma = strchr(p, ',');

		if (c->nfields == MAX_COLS)
			return dl_err("%s:%d: more than %d columns", c->file, c->no, MAX_COLS);
		if (comma)
			*comma = '\0';
		c->field[c->nfields++] = trim(p);
		if (!comma)
			break;
		p = comma + 1;
	}
	if (c->nfields > 1 && !*c->field[c->nfields - 1])
		c->nfields--;
	return 0;
}

bool mc_csv_is_header(const char *text)
{
	size_t n = strcspn(text, ",");
	char first[32];

	if (!text[n] || n >= sizeof(first))
		return false;
	memcpy(first, text, n);
	first[n] = '\0';
	return !strcasecmp(trim(first), "Layer") || !strcasecmp(trim(first), "Layer name");
}

/* The form the header names; one line naming the column that differs. */
static int read_header(struct csv *c, char *text)
{
	bool conv;
	int want;

	if (split(c, text))
		return -1;
	conv = c->nfields > 4 || (c->nfields > 1 && strcasecmp(c->field[1], "M") != 0);
	c->form = conv ? CSV_CONV : CSV_GEMM;
	want = conv ? 8 : 4;
	for (int i = 1; i < c->nfields && i < want + (conv ? 1 : 0); i++) {
		const char *name = conv ? conv_cols[i - 1] : gemm_cols[i - 1];

		/* Stride columns: "Strides", or SCALE-Sim's own writer's
		 * "Stride height" and "Stride width". */
		if (conv && i == 7 && !strcasecmp(c->field[i], "Stride height"))
			continue;
		if (strcasecmp(c->field[i], name) != 0)
			return dl_err("%s:1: column %d: '%s' where SCALE-Sim's %s topology header has '%s'",
				      c->file, i + 1, c->field[i], conv ? "conv" : "GEMM", name);
	}
	if (c->nfields < want)
		return dl_err("%s:1: column %d (%s) is missing from the header",
			      c->file, c->nfields + 1, conv ? conv_cols[c->nfields - 1] : gemm_cols[c->nfields - 1]);
	if (c->nfields > want + (conv ? 1 : 0))
		return dl_err("%s:1: column %d: '%s' is not a column of SCALE-Sim's %s topology",
			      c->file, c->nfields, c->field[c->nfields - 1], conv ? "conv" : "GEMM");
	c->ncols = c->nfields;
	return 0;
}

static int read_numbers(struct csv *c)
{
	if (c->nfields < c->ncols)
		return csv_err(c, c->nfields + 1, "missing (the header has %d columns)", c->ncols);
	if (c->nfields > c->ncols)
		return dl_err("%s:%d: column %d: '%s' beyond the header's %d columns", c->file, c->no,
			      c->ncols + 1, c->field[c->ncols], c->ncols);
	if (!*c->field[0])
		return csv_err(c, 1, "empty");
	if (dl_strmap_get(&c->r->w->by_name, c->field[0]) >= 0)
		return csv_err(c, 1, "'%s' names an earlier layer too", c->field[0]);
	for (int i = 1; i < c->ncols; i++) {
		char *end;

		errno = 0;
		c->v[i - 1] = strtol(c->field[i], &end, 10);
		if (errno || end == c->field[i] || *end || c->v[i - 1] < 1 || c->v[i - 1] > MAX_DIM)
			return csv_err(c, i + 1, "'%s' is not an integer from 1 to %ld", c->field[i], MAX_DIM);
	}
	if (c->form == CSV_CONV && c->ncols == 8)
		c->v[C_SW] = c->v[C_SH];	/* one stride for both axes */
	return 0;
}

/* A layer line under construction: values kept beside it. */
struct row_line {
	struct mc_line ln;
	char val[MC_LINE_KEYS][VAL_LEN];
};

static void put(struct row_line *rl, const char *key, const char *fmt, long a, long b)
{
	int i = rl->ln.nkeys++;

	snprintf(rl->val[i], VAL_LEN, fmt, a, b);
	rl->ln.key[i] = (char *)key;
	rl->ln.val[i] = rl->val[i];
	rl->ln.used[i] = false;
}

static void start(struct row_line *rl, const struct csv *c, const char *kind, char *name)
{
	rl->ln = (struct mc_line){ .file = c->file, .no = c->no, .nwords = 2 };
	rl->ln.word[0] = (char *)kind;
	rl->ln.word[1] = name;
}

/* The row's own input: a map of its IFMAP shape. */
static int add_input(struct csv *c, long ch, long h, long w)
{
	struct row_line rl;
	char name[MAX_NAME];

	snprintf(name, sizeof(name), "%s.ifmap", c->field[0]);
	start(&rl, c, "input", name);
	put(&rl, "channels", "%ld", ch, 0);
	put(&rl, "height", "%ld", h, 0);
	put(&rl, "width", "%ld", w, 0);
	return mc_reader_add(c->r, &rl.ln);
}

/* The layer before, when this row is not the first. */
static const struct mc_layer *previous(const struct csv *c)
{
	const struct mc_workload *w = c->r->w;

	return c->rows ? &w->layer[w->nlayers - 1] : NULL;
}

/*
 * A conv row reads the previous row's output when its IFMAP is that map
 * padded evenly (the format has no padding column: a padded input is
 * written padded); otherwise a map of its own.
 */
static int add_conv(struct csv *c)
{
	const struct mc_layer *p = previous(c);
	long *v = c->v, ph = 0, pw = 0, groups = 1, out = v[C_NF];
	struct row_line rl;

	if (v[C_FH] > v[C_IH])
		return csv_err(c, 4, "%ld is larger than the IFMAP Height %ld (column 2)", v[C_FH], v[C_IH]);
	if (v[C_FW] > v[C_IW])
		return csv_err(c, 5, "%ld is larger than the IFMAP Width %ld (column 3)", v[C_FW], v[C_IW]);
	if (p && p->c == v[C_CH] && v[C_IH] >= p->h && v[C_IW] >= p->w &&
	    (v[C_IH] - p->h) % 2 == 0 && (v[C_IW] - p->w) % 2 == 0) {
		ph = (v[C_IH] - p->h) / 2;
		pw = (v[C_IW] - p->w) / 2;
	} else if (add_input(c, v[C_CH], v[C_IH], v[C_IW])) {
		return -1;
	}
	/* SCALE-Sim's rule: "DP" in the name makes a layer depthwise, its
	 * Num Filter filters per channel. */
	if (strstr(c->field[0], "DP")) {
		groups = v[C_CH];
		out = v[C_CH] * v[C_NF];
		if (out > MAX_DIM)
			return csv_err(c, 7, "%ld filters per channel on %ld channels: more than %ld outputs",
				       v[C_NF], v[C_CH], MAX_DIM);
	}
	start(&rl, c, "conv", c->field[0]);
	put(&rl, "out", "%ld", out, 0);
	put(&rl, "kernel", "%ldx%ld", v[C_FH], v[C_FW]);
	put(&rl, "stride", "%ldx%ld", v[C_SH], v[C_SW]);
	put(&rl, "pad", "%ldx%ld", ph, pw);
	put(&rl, "groups", "%ld", groups, 0);
	return mc_reader_add(c->r, &rl.ln);
}

/* A GEMM row reads the previous row's output when that holds K features
 * at M positions, otherwise an M x 1 map of K channels of its own. */
static int add_gemm(struct csv *c)
{
	const struct mc_layer *p = previous(c);
	long *v = c->v;
	struct row_line rl;

	if (!(p && p->c == v[G_K] && (double)p->h * p->w == (double)v[G_M]) &&
	    add_input(c, v[G_K], v[G_M], 1))
		return -1;
	start(&rl, c, "gemm", c->field[0]);
	put(&rl, "m", "%ld", v[G_M], 0);
	put(&rl, "n", "%ld", v[G_N], 0);
	put(&rl, "k", "%ld", v[G_K], 0);
	return mc_reader_add(c->r, &rl.ln);
}

/* The network's name: the file's, without directory and extension (as
 * SCALE-Sim names its runs). */
static int set_name(struct mc_workload *w)
{
	const char *base = strrchr(w->file, '/') ? strrchr(w->file, '/') + 1 : w->file;
	const char *dot = strrchr(base, '.');
	size_t n = dot && dot != base ? (size_t)(dot - base) : strlen(base);

	w->name = strndup(base, n);
	return w->name ? 0 : dl_err("out of memory");
}

int mc_csv_read(struct mc_reader *r, struct dl_lines *in, char *header)
{
	struct csv c = { .r = r, .file = r->w->file, .no = 1 };
	char *text;
	int rc;

	if (read_header(&c, header))
		return -1;
	while ((rc = dl_lines_next(in, &text)) > 0) {
		c.no = in->no;
		if (!*trim(text))
			continue;
		if (split(&c, text) || read_numbers(&c) ||
		    (c.form == CSV_CONV ? add_conv(&c) : add_gemm(&c)))
			return -1;
		c.rows++;
	}
	if (rc < 0)
		return -1;
	if (!c.rows)
		return dl_err("%s: a SCALE-Sim topology with a header and no layer rows", c.file);
	return set_name(r->w);
}
