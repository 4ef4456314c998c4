/* runmerge.h - joins the JSON Lines of a run split with `run --shard K/N` into the lines
 * one run of every case gives, in its order: target by target, the cases in the order
 * the whole run lists them. Each shard's file opens with a line naming the shard and
 * its case files, so a shard that is missing is named, and ends with a line saying its
 * run reached its end, so a shard cut short (killed, out of time) is named too. */
#ifndef CLH_RUNMERGE_H
#define CLH_RUNMERGE_H

#include <stddef.h>

#include "base/diag.h"
#include "base/shard.h"
#include "base/util.h"

/* The line a shard's JSON output opens with. */
void run_shard_header(struct strbuf *out, const struct shard *s, char *const *files, size_t n);
/* The line a shard's JSON output ends with, written only when its run reached its end. */
void run_shard_footer(struct strbuf *out, const struct shard *s);

/* Merges the shards' files at paths[0..n) into `out`. Returns 0, or -1 with every
 * missing, repeated, unfinished or unreadable shard in diags. */
int run_merge(char *const *paths, size_t n, struct strbuf *out, struct diag_list *diags);

#endif
