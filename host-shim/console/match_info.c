/* cardbot match — what identifies a run (config, rules, games, duplicate, seed, landlord,
 * seating, deals, shard): the "Match:" line that opens the results, and which deal and shard
 * a game belongs to. cardbot merge rebuilds the same line from the shards' results headers,
 * so a merged run opens exactly as the single run would. The identity's members that the
 * results header and the replay header write alike are written here once. */
#include <glib.h>
#include <json-glib/json-glib.h>
#include <stdio.h>
#include <string.h>

#include "match.h"
#include "match_json.h"

void cb_match_info_clear(cb_match_info *m)
{
    g_free(m->config);
    g_free(m->config_sha256);
    g_free(m->rules);
    g_free(m->table);
    g_free(m->deals);
    g_free(m->deals_sha256);
    g_free(m->version);
    g_free(m->config_abs);
    memset(m, 0, sizeof *m);
}

void cb_match_print_header(FILE *f, const cb_match_info *m, int shard_games)
{
    /* The concurrency is printed on a timing line: nothing here may depend on it. */
    fprintf(f, "Match: %s, rules %s, %d game%s%s, ", m->config, m->rules, m->games, m->games == 1 ? "" : "s",
            m->duplicate ? " (duplicate: each deal with hands rotated over 3 seats)" : "");
    if (m->random_seed)
        fprintf(f, "seed chosen at random (printed at the end)");
    else
        fprintf(f, "seed %llu", (unsigned long long)m->seed);
    if (m->landlord >= 0)
        fprintf(f, ", landlord fixed at seat %d", m->landlord);
    if (m->deals)
        fprintf(f, ", deals from %s", m->deals);
    if (m->nshards > 1)
        fprintf(f, ", shard %d/%d (%d of the games)", m->shard, m->nshards, shard_games);
    fprintf(f, "\n");
}

void cb_match_info_json_members(JsonBuilder *b, const cb_match_info *m)
{
    cb_match_json_int(b, "landlord", m->landlord);
    cb_match_json_str(b, "table", m->table);
    cb_match_json_str(b, "deals", m->deals);
    cb_match_json_str(b, "deals_sha256", m->deals_sha256);
    cb_match_json_int(b, "shard", m->shard);
    cb_match_json_int(b, "shards", m->nshards);
}

int cb_match_deal_of(const cb_match_info *m, int g)
{
    return m->duplicate ? g / 3 : g;
}

/* Whole deals go to one shard, so the three rotations of a duplicate deal (which cancel
 * each other's luck) are never split; deal d goes to shard d mod N + 1. */
int cb_match_shard_of(const cb_match_info *m, int g)
{
    return m->nshards > 1 ? cb_match_deal_of(m, g) % m->nshards + 1 : 1;
}
