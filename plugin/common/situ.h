/* cardbot plugins — what one seat knows at a decision, and card counting.
 *
 * A cb_situ is the public situation plus the deciding seat's own hand, reduced to what strategy
 * code needs: rank counts, cards left, the play to beat, teams, and what is still out (cards
 * neither in my hand nor played yet — exactly the other seats' hands together). It is built
 * from a host's cb_view (plugins) or from a perfect-information cb_deal (rollouts, reading only
 * the public part and the seat's own hand), so both give the same decisions.
 */
#ifndef CARDBOT_PLUGIN_SITU_H
#define CARDBOT_PLUGIN_SITU_H

#include <stdbool.h>

#include "cardbot/bot.h"
#include "cardbot/game.h"

typedef struct cb_situ {
    const cb_rules *rules;
    int seat;                 /* the deciding seat */
    int landlord;             /* DDZ landlord / PDK 包庄 declarer (the others are a team), -1 */
    cb_counts hand;
    cb_cards hand_cards;      /* the actual cards (for cb_cards_pick by the caller) */
    cb_counts out;            /* card counting: not in my hand and not yet played */
    cb_counts unseen;         /* deck - my hand (what a seat that does not count assumes) */
    cb_counts known[3];       /* cards known to be in a seat's hand (DDZ: the landlord's
                                 unplayed bottom cards, seen by the farmers) */
    cb_counts played[3];      /* what each seat has played */
    int cards_left[3];
    int table_seat;           /* -1 when leading */
    cb_move table;            /* the play to beat (valid when table_seat >= 0) */
    bool first_play;          /* the deal's first play (spade-3 rule) */
    int nplays;               /* plays (not passes) so far, all seats */
    cb_voids voids;           /* what passes under must_beat prove */
} cb_situ;

static inline int cb_situ_next(int s) { return s == 2 ? 0 : s + 1; }
/* Is o my partner (same team, not me)? */
static inline bool cb_situ_partner(const cb_situ *s, int o)
{
    return s->landlord >= 0 && o != s->seat && o != s->landlord && s->seat != s->landlord;
}

/* From a host's view (play phase). Returns 0, or -1 when the view is unusable (no rules, bad
 * seat, a table play that does not classify). */
int cb_situ_from_view(const cb_view *v, cb_situ *s);

/* The replay of a public history (what was played, by whom, what passes prove), kept between
 * decisions so each decision reads only the new entries. */
typedef struct cb_replay {
    const cb_rules *rules;
    int n;                    /* entries consumed */
    uint64_t hash;            /* of those entries: a different history is noticed */
    cb_cards played_all;
    cb_counts played[3];
    int nplays;
    cb_voids voids;
    int left[3];              /* cards left per seat (from the hand size) */
    cb_cards trick;           /* the current trick's last play, 0 after it ends */
    int passes;
    bool classified;          /* tm holds trick's reading */
    cb_move tm;
} cb_replay;
void cb_replay_reset(cb_replay *rp, const cb_rules *r);
/* cb_situ_from_view through a cache (one per plugin instance; any content is safe). */
int cb_situ_from_view_cached(const cb_view *v, cb_replay *cache, cb_situ *s);
/* From a deal state, for g->turn, reading only what that seat may know. */
void cb_situ_from_deal(const cb_deal *g, cb_situ *s);
/* The rules' context for the decision (ctx->table points into s). */
void cb_situ_ctx(const cb_situ *s, cb_ctx *ctx);

#endif
