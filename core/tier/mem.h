/* SPDX-License-Identifier: MIT */
/* The two memory tiers of a run: what is where, room, moves, victims. */
#ifndef DL_TIER_MEM_H
#define DL_TIER_MEM_H

#include <stdbool.h>

#include "state.h"

int mem_init(struct dlasim_tier_ctx *run);
void mem_free_state(struct dlasim_tier_ctx *run);
/* Reserve room for a tensor being written: `ratio` of it in tier 1 if
 * room can be made (vertical: as much as fits), the rest in tier 2. */
void mem_place(struct dlasim_tier_ctx *run, int id, double ratio);
void mem_written(struct dlasim_tier_ctx *run, int id);
void mem_release(struct dlasim_tier_ctx *run, int id);
double mem_promote(struct dlasim_tier_ctx *run, int id, double bytes, unsigned flags);
/* Bytes of a tensor that tier 1 lacks: neither there to stay nor on their
 * way in (bytes being demoted are lacking: they are leaving). */
double mem_missing(const struct dlasim_tier_ctx *run, int id);
/* Bring all of a tensor into tier 1: bytes being demoted are kept there
 * (their demotion no longer frees their room), the rest is promoted.
 * Returns the bytes kept and promoted. */
double mem_promote_missing(struct dlasim_tier_ctx *run, int id, unsigned flags);
double mem_evict(struct dlasim_tier_ctx *run, int id, double bytes, unsigned flags);
double mem_make_room(struct dlasim_tier_ctx *run, double bytes, unsigned flags);
double mem_tier1_free(const struct dlasim_tier_ctx *run);
bool mem_evictable(const struct dlasim_tier_ctx *run, int id);
int mem_lru_victim(const struct dlasim_tier_ctx *run, unsigned flags);
int mem_belady_victim(const struct dlasim_tier_ctx *run, unsigned flags);
double mem_spared(const struct dlasim_tier_ctx *run);
double mem_evictable_after(const struct dlasim_tier_ctx *run, int op);
/* The chip reaches tier 2 through tier 1: a vertical tier 1 caches it,
 * and horizontal policies that stage their misses (Section 2: tier 1
 * "fetches new data if a miss occurs") copy them there for the use. */
bool mem_through_tier1(const struct dlasim_tier_ctx *run);
/* Move accounting into the result. */
void mem_account_move(struct dlasim_tier_ctx *run, double bytes, bool promotion);

#endif
