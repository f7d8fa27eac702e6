/* SPDX-License-Identifier: MIT */
/* The iteration of every device as a Chakra trace, in schedule order. */
#include "emit.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/cleanup.h"
#include "lib/diag.h"
#include "config.h"
#include "etwrite.h"
#include "schedule.h"

#define OPT "--emit-et"

/* One device's program: what sim.c's stage actor does, as nodes. */
struct prog {
	const struct llm_model *m;
	const struct llm_par *c;
	long i, j, r, chunk;
	struct llm_et w;
	const char *dtype;
	char tp[24], dp[24], ep[24];	/* process groups, "" none */
	uint64_t last_send;
	bool sent;
};

/* ---- process groups: numbered from 1 (0 is every rank) ---- */

static long ntp(const struct llm_par *c)
{
	return c->tp > 1 ? c->dp * c->pp : 0;
}

static long ndp(const struct llm_par *c)
{
	return c->dp > 1 ? c->pp * c->tp : 0;
}

static bool has_ep(const struct prog *g)
{
	return g->m->experts > 1 && g->c->ep > 1;
}

static void name_groups(struct prog *g)
{
	const struct llm_par *c = g->c;

	g->tp[0] = g->dp[0] = g->ep[0] = '\0';
	if (c->tp > 1)
		snprintf(g->tp, sizeof(g->tp), "%ld", 1 + g->r * c->pp + g->j);
	if (c->dp > 1)
		snprintf(g->dp, sizeof(g->dp), "%ld", 1 + ntp(c) + g->j * c->tp + g->i);
	if (has_ep(g))
		snprintf(g->ep, sizeof(g->ep), "%ld",
			 1 + ntp(c) + ndp(c) + ((g->r / c->ep) * c->pp + g->j) * c->tp + g->i);
}

/* The groups of the device as PyTorch's converter lists them. */
static char *groups_json(const struct prog *g)
{
	const struct llm_par *c = g->c;
	size_t cap = (size_t)(c->tp + c->dp + c->ep) * 12 + 256, n = 0;
	char *s = malloc(cap);

	if (!s)
		return NULL;
	n += snprintf(s + n, cap - n, "[");
	if (g->tp[0]) {
		n += snprintf(s + n, cap - n, "{\"pg_name\": \"%s\", \"pg_desc\": \"tensor\", \"ranks\": [", g->tp);
		for (long i = 0; i < c->tp; i++)
			n += snprintf(s + n, cap - n, "%s%d", i ? ", " : "", llm_rank(c, i, g->j, g->r));
		n += snprintf(s + n, cap - n, "]}");
	}
	if (g->dp[0]) {
		n += snprintf(s + n, cap - n, "%s{\"pg_name\": \"%s\", \"pg_desc\": \"data\", \"ranks\": [",
			      n > 1 ? ", " : "", g->dp);
		for (long r = 0; r < c->dp; r++)
			n += snprintf(s + n, cap - n, "%s%d", r ? ", " : "", llm_rank(c, g->i, g->j, r));
		n += snprintf(s + n, cap - n, "]}");
	}
	if (g->ep[0]) {
		long r0 = g->r / c->ep * c->ep;

		n += snprintf(s + n, cap - n, "%s{\"pg_name\": \"%s\", \"pg_desc\": \"expert\", \"ranks\": [",
			      n > 1 ? ", " : "", g->ep);
		for (long r = 0; r < c->ep; r++)
			n += snprintf(s + n, cap - n, "%s%d", r ? ", " : "", llm_rank(c, g->i, g->j, r0 + r));
		n += snprintf(s + n, cap - n, "]}");
	}
	snprintf(s + n, cap - n, "]");
	return s;
}

/* ---- one layer, the logits ---- */

static double el(const struct prog *g)
{
	return llm_dtype_bytes(g->m->dtype);
}

/* A layer's bytes: its parameters on the device and its input and
 * output activations (docs/llm.md). */
static double layer_bytes(const struct prog *g)
{
	const struct llm_model *m = g->m;
	double act = (double)g->c->micro_batch * m->seq * m->hidden;

	return (llm_layer_params(m) / g->c->tp + 2 * act) * el(g);
}

static double logit_bytes(const struct prog *g)
{
	const struct llm_model *m = g->m;
	double tok = (double)g->c->micro_batch * m->seq;

	return ((double)m->vocab * m->hidden / g->c->tp + tok * m->hidden +
		tok * m->vocab / g->c->tp) * el(g);
}

static void tp_allreduce(struct prog *g)
{
	if (g->tp[0])
		llm_et_coll(&g->w, "tp_allreduce", LLM_ET_ALLREDUCE, llm_tp_message(g->m, g->c), g->tp);
}

static void ep_alltoall(struct prog *g, const char *name)
{
	if (g->ep[0])
		llm_et_coll(&g->w, name, LLM_ET_ALLTOALL, llm_ep_message(g->m, g->c), g->ep);
}

static void layer_comm(struct prog *g)
{
	tp_allreduce(g);
	ep_alltoall(g, "ep_dispatch");
	ep_alltoall(g, "ep_combine");
	tp_allreduce(g);
}

static void layer_forward(struct prog *g, const char *name)
{
	llm_et_comp(&g->w, name, llm_layer_fwd_flops(g->m, g->c->micro_batch) / g->c->tp,
		    layer_bytes(g), g->dtype);
	layer_comm(g);
}

static void layer_backward(struct prog *g)
{
	const struct llm_model *m = g->m;
	double b = g->c->micro_batch;

	if (g->c->recompute == LLM_RECOMPUTE_FULL)
		layer_forward(g, "recompute");
	else if (g->c->recompute == LLM_RECOMPUTE_SELECTIVE)
		llm_et_comp(&g->w, "recompute_attention",
			    4 * b * (double)m->seq * m->seq * m->hidden / g->c->tp,
			    2 * b * m->seq * m->hidden * el(g), g->dtype);
	llm_et_comp(&g->w, "layer_bwd", 2 * llm_layer_fwd_flops(m, b) / g->c->tp,
		    2 * layer_bytes(g), g->dtype);
	layer_comm(g);
}

/* ---- the pipeline ---- */

static long vstages(const struct prog *g)
{
	return g->c->pp * llm_chunks(g->c);
}

static long vstage(const struct prog *g)
{
	return g->chunk * g->c->pp + g->j;
}

/* A message's tag: micro-batch, receiving virtual stage, direction. */
static int tag(const struct prog *g, long mb, long to, bool backward)
{
	return (int)((mb * vstages(g) + to) * 2 + backward);
}

static int neighbour(const struct prog *g, long step)
{
	long p = g->c->pp;

	return llm_rank(g->c, g->i, ((g->j + step) % p + p) % p, g->r);
}

static void send(struct prog *g, const char *name, long mb, long to, bool backward, long step)
{
	g->last_send = llm_et_send(&g->w, name, llm_pp_message(g->m, g->c), neighbour(g, step),
				   tag(g, mb, to, backward));
	g->sent = true;
}

static void forward(struct prog *g, long mb)
{
	long vs = vstage(g), layers = g->m->layers / vstages(g);
	double b = g->c->micro_batch;

	if (vs > 0)
		llm_et_recv(&g->w, "recv_activations", llm_pp_message(g->m, g->c), neighbour(g, -1),
			    tag(g, mb, vs, false));
	for (long l = 0; l < layers; l++)
		layer_forward(g, "layer_fwd");
	if (vs == vstages(g) - 1)
		llm_et_comp(&g->w, "logits_fwd", llm_logit_fwd_flops(g->m, b) / g->c->tp,
			    logit_bytes(g), g->dtype);
	else
		send(g, "send_activations", mb, vs + 1, false, 1);
}

static void backward(struct prog *g, long mb)
{
	long vs = vstage(g), layers = g->m->layers / vstages(g);
	double b = g->c->micro_batch;

	if (vs < vstages(g) - 1)
		llm_et_recv(&g->w, "recv_gradients", llm_pp_message(g->m, g->c), neighbour(g, 1),
			    tag(g, mb, vs, true));
	else
		llm_et_comp(&g->w, "logits_bwd", 2 * llm_logit_fwd_flops(g->m, b) / g->c->tp,
			    logit_bytes(g), g->dtype);
	for (long l = 0; l < layers; l++)
		layer_backward(g);
	if (vs > 0)
		send(g, "send_gradients", mb, vs - 1, true, -1);
}

/* ---- data parallelism (sim.c's dp_gather_params, dp_reduce_grads) ---- */

static double grad_bytes(const struct prog *g)
{
	return llm_stage_params(g->m, g->c, g->j) * el(g);
}

static void dp_gather_params(struct prog *g)
{
	if (!g->dp[0] || g->c->zero < 3)
		return;
	llm_et_coll(&g->w, "zero3_gather_fwd", LLM_ET_ALLGATHER, grad_bytes(g), g->dp);
	llm_et_coll(&g->w, "zero3_gather_bwd", LLM_ET_ALLGATHER, grad_bytes(g), g->dp);
}

static void dp_reduce_grads(struct prog *g)
{
	if (!g->dp[0])
		return;
	if (g->sent)	/* after the pipeline's last transfer, as the stage actor */
		llm_et_also_wait(&g->w, g->last_send);
	if (g->c->zero == 0) {
		llm_et_coll(&g->w, "dp_allreduce", LLM_ET_ALLREDUCE, grad_bytes(g), g->dp);
		return;
	}
	llm_et_coll(&g->w, "dp_reducescatter", LLM_ET_REDUCESCATTER, grad_bytes(g), g->dp);
	if (g->c->zero < 3)
		llm_et_coll(&g->w, "dp_allgather", LLM_ET_ALLGATHER, grad_bytes(g), g->dp);
}

static int write_program(struct prog *g, struct llm_op *ops, long nops)
{
	char *json = groups_json(g);

	if (!json)
		return dl_err("out of memory");
	llm_et_groups(&g->w, json);
	free(json);
	dp_gather_params(g);
	llm_schedule_ops(g->c->schedule, g->c->pp, llm_chunks(g->c), llm_microbatches(g->m, g->c),
			 g->j, ops);
	for (long k = 0; k < nops; k++) {
		g->chunk = ops[k].chunk;
		if (ops[k].backward)
			backward(g, ops[k].mb);
		else
			forward(g, ops[k].mb);
	}
	dp_reduce_grads(g);
	return 0;
}

/* ---- the directory, whole or not at all ---- */

int llm_emit_check(const char *dir)
{
	char parent[PATH_MAX], *slash;
	struct stat st;
	struct dirent *e;
	DIR *d;

	if (stat(dir, &st) == 0) {
		if (!S_ISDIR(st.st_mode))
			return dl_err("llm: %s %s: exists and is no directory", OPT, dir);
		if (!(d = opendir(dir)))
			return dl_err("llm: %s %s: %s", OPT, dir, strerror(errno));
		while ((e = readdir(d)))
			if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
				break;
		closedir(d);
		if (e)
			return dl_err("llm: %s %s: not empty (the traces go into a new or empty directory)",
				      OPT, dir);
	} else if (errno != ENOENT) {
		return dl_err("llm: %s %s: %s", OPT, dir, strerror(errno));
	}
	snprintf(parent, sizeof(parent), "%s", dir);
	while ((slash = strrchr(parent, '/')) && slash[1] == '\0' && slash > parent)
		*slash = '\0';
	slash = strrchr(parent, '/');
	if (!slash)
		snprintf(parent, sizeof(parent), ".");
	else if (slash == parent)
		parent[1] = '\0';	/* in the root */
	else
		*slash = '\0';
	if (stat(parent, &st) || !S_ISDIR(st.st_mode))
		return dl_err("llm: %s %s: no directory %s to create it in", OPT, dir, parent);
	if (access(parent, W_OK | X_OK))
		return dl_err("llm: %s %s: %s: %s", OPT, dir, parent, strerror(errno));
	return 0;
}

struct staging {
	const char *dir;	/* where it goes */
	char *tmp;		/* the new directory */
	char **file;		/* written so far */
	long nfiles;
};

static void unstage(struct staging *s, bool keep)
{
	for (long k = 0; k < s->nfiles; k++) {
		if (!keep)
			unlink(s->file[k]);
		dl_cleanup_forget_path(s->file[k]);
		free(s->file[k]);
	}
	if (s->tmp) {
		if (!keep)
			rmdir(s->tmp);
		dl_cleanup_forget_path(s->tmp);
	}
	free(s->file);
	free(s->tmp);
}

static int write_rank(struct staging *s, const char *name, struct prog *g, struct llm_op *ops,
		      long nops)
{
	int rank = llm_rank(g->c, g->i, g->j, g->r);
	char *path = malloc(strlen(s->tmp) + strlen(name) + 32), *base;

	if (!path)
		return dl_err("out of memory");
	sprintf(path, "%s/%s.%d.et", s->tmp, name, rank);
	base = strrchr(path, '/') + 1;
	s->file[s->nfiles++] = path;
	if (dl_cleanup_add_path(path))
		return -1;
	if (llm_et_open(&g->w, path, rank))
		return dl_err("llm: %s %s: %s: %s", OPT, s->dir, base, strerror(errno));
	if (write_program(g, ops, nops)) {
		llm_et_close(&g->w);
		return -1;
	}
	if (llm_et_close(&g->w))
		return dl_err("llm: %s %s: %s: write failed: %s", OPT, s->dir, base, strerror(errno));
	return 0;
}

/* The trace's name: the model's, without what a file name cannot hold. */
static void trace_name(const struct llm_model *m, char *out, size_t len)
{
	snprintf(out, len, "%s", m->name[0] ? m->name : "llm");
	for (char *p = out; *p; p++)
		if (*p == '/' || *p == ' ')
			*p = '_';
}

static int stage(struct staging *s, const char *dir, long files)
{
	size_t n = strlen(dir);
	mode_t mask;

	s->dir = dir;
	while (n > 1 && dir[n - 1] == '/')
		n--;
	if (!(s->tmp = malloc(n + 16)) || !(s->file = calloc(files, sizeof(*s->file))))
		return dl_err("out of memory");
	sprintf(s->tmp, "%.*s.tmp-XXXXXX", (int)n, dir);
	if (!mkdtemp(s->tmp)) {
		int err = errno;

		free(s->tmp);
		s->tmp = NULL;
		return dl_err("llm: %s %s: %s", OPT, dir, strerror(err));
	}
	/* mkdtemp's 0700 would outlive the rename: a new directory's mode. */
	mask = umask(0);
	umask(mask);
	chmod(s->tmp, 0777 & ~mask);
	return dl_cleanup_add_path(s->tmp);
}

int llm_emit_et(const char *dir, const struct llm_model *m, const struct llm_par *c)
{
	long devices = c->tp * c->pp * c->dp;
	long nops = 2 * llm_microbatches(m, c) * llm_chunks(c);
	struct llm_op *ops = malloc(nops * sizeof(*ops));
	struct staging s = { 0 };
	char name[64];
	int ret = -1;

	if (!ops) {
		dl_err("out of memory");
		goto out;
	}
	trace_name(m, name, sizeof(name));
	if (stage(&s, dir, devices))
		goto out;
	for (long j = 0; j < c->pp; j++)
		for (long r = 0; r < c->dp; r++)
			for (long i = 0; i < c->tp; i++) {
				struct prog g = { .m = m, .c = c, .i = i, .j = j, .r = r,
						  .dtype = llm_dtype_name(m->dtype) };

				name_groups(&g);
				if (write_rank(&s, name, &g, ops, nops))
					goto out;
			}
	/* An empty DIR is replaced; rename() takes it or fails whole. */
	if (rename(s.tmp, dir)) {
		dl_err("llm: %s %s: %s", OPT, dir, strerror(errno));
		goto out;
	}
	ret = 0;
out:
	unstage(&s, ret == 0);
	free(ops);
	return ret;
}
