/* SPDX-License-Identifier: MIT */
/*
 * ROMA: ROMANet's DRAM mapping (Putra, Hanif, Shafique, IEEE TVLSI 2021;
 * the dissertation's Algorithm 1 and Section 2.2.7).  Data are mapped in
 * the loop nest ch -> rk -> ro -> bk -> co, column innermost: a DTile
 * fills the columns of a row, then the same row of the next bank, then
 * the next row, then the next rank, then the next channel.  One cursor
 * runs through that nest for the whole inference and packs the DTiles
 * back to back, block by block, so that small DTiles share rows and banks
 * (Figure 5.5 (a)); the mapping is made ahead of time, so freed space is
 * not reused.  Below 512 MiB of data everything lands in channel 0, rank 0.
 *
 * The DMA sends a DTile's requests round-robin over the banks it
 * occupies (ROMANet's multi-bank burst), which is the host's default
 * issue order: no next_bank().
 *
 * Option: banks=bg (default: consecutive banks of the nest alternate bank
 * groups, as the robabgrachco address order has them) or banks=ba (the
 * four banks of one bank group first).
 */
#include <stdlib.h>
#include <string.h>

#include <dlasim/dram_placement.h>

struct roma {
	const struct dlasim_dram_services *svc;
	const struct dlasim_host_api *host;
	long cursor;		/* next block in nest order */
	bool group_first;	/* banks=ba */
};

static int refuse(char *err, size_t errlen, const char *why)
{
	if (errlen) {
		strncpy(err, why, errlen - 1);
		err[errlen - 1] = '\0';
	}
	return DLASIM_ERR;
}

static int init(const struct dlasim_host_api *host, const char *options, void **state,
		char *err, size_t errlen)
{
	const char *cursor = options;
	char key[32], value[64];
	struct roma *r;
	int rc;

	if (!DLASIM_HAS_MEMBER(host, struct dlasim_host_api, dram) || !host->dram)
		return refuse(err, errlen, "this dlasim has no DRAM placement services");
	r = calloc(1, sizeof(*r));
	if (!r)
		return refuse(err, errlen, "out of memory");
	r->svc = host->dram;
	r->host = host;
	while ((rc = host->next_option(&cursor, key, sizeof(key), value, sizeof(value))) > 0) {
		if (strcmp(key, "banks") == 0 && strcmp(value, "bg") == 0) {
			r->group_first = false;
		} else if (strcmp(key, "banks") == 0 && strcmp(value, "ba") == 0) {
			r->group_first = true;
		} else {
			free(r);
			return refuse(err, errlen, "unknown option (known: banks=bg or banks=ba)");
		}
	}
	if (rc < 0) {
		free(r);
		return refuse(err, errlen, value);
	}
	*state = r;
	return DLASIM_OK;
}

static void fini(void *state)
{
	free(state);
}

/* Bank number of the j-th bank of the nest. */
static int nest_bank(const struct roma *r, const struct dlasim_dram_geometry *g, int j)
{
	int per_group = g->banks / g->bankgroups;

	return r->group_first ? (j % per_group) * g->bankgroups + j / per_group : j;
}

static int place(void *state, struct dlasim_dram_ctx *ctx, const struct dlasim_dtile *t,
		 struct dlasim_dram_extent *ext, int max, int *n)
{
	struct roma *r = state;
	const struct dlasim_dram_geometry *g = r->svc->geometry(ctx);
	long cols = g->blocks_per_row, per_row = cols * g->banks;
	long per_rank = per_row * g->rows, end = per_rank * g->ranks * g->channels;
	long left = t->blocks, at = r->cursor;

	if (left > end - at) {
		r->host->log(DLASIM_LOG_ERROR, "roma", "DRAM full: DTile %ld needs %ld blocks, %ld are left",
			     t->gid, left, end - at);
		return DLASIM_ERR;
	}
	*n = 0;
	while (left > 0) {
		long rank = at / per_rank, in_rank = at % per_rank;
		struct dlasim_dram_extent e = {
			.ch = (int)(rank / g->ranks),
			.rk = (int)(rank % g->ranks),
			.row = (int)(in_rank / per_row),
			.bank = nest_bank(r, g, (int)(in_rank % per_row / cols)),
			.col = (int)(in_rank % cols),
		};

		e.blocks = (int)(cols - e.col < left ? cols - e.col : left);
		if (*n == max) {
			r->host->log(DLASIM_LOG_ERROR, "roma", "DTile %ld needs more than %d extents",
				     t->gid, max);
			return DLASIM_ERR;
		}
		ext[(*n)++] = e;
		left -= e.blocks;
		at += e.blocks;
	}
	r->cursor = at;
	return DLASIM_OK;
}

static const struct dlasim_dram_ops ops = {
	.size = sizeof(ops),
	.place = place,
};

DLASIM_PLUGIN_EXPORT = {
	.abi_version = DLASIM_ABI_VERSION,
	.kind = DLASIM_KIND_DRAM_PLACEMENT,
	.ops_version = DLASIM_DRAM_OPS_VERSION,
	.name = "roma",
	.description = "ROMANet's mapping: ch, rank, row, bank, column nest; DTiles packed back to back",
	.init = init,
	.fini = fini,
	.ops = &ops,
};
