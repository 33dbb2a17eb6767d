/* cardbot plugins — belief: weighting sampled worlds by how well they explain the other seats'
 * past choices (policy-based inference).
 *
 * cb_worlds (worlds.h) deals worlds that the public record does not rule out; every such world
 * is equally likely to it. But a seat's choices say more than what they rule out: a player
 * who led a lone 4 rarely holds a pair of 4s. Belief replays the deal inside each world — the
 * hands as they were dealt are the world's hands plus everything each seat has played — and
 * asks an opponent model (the shared heuristic, level 6 by default) what each other seat would
 * have done at each of its past decisions that offered a choice (cb_heur_explains: is the
 * recorded play the model's choice? — the same answer for fewer exact scores). A world's
 * weight is eps^(decisions the model would have made differently): 1 for a world in which
 * every past choice was the model's own, less for each one it explains only as a deviation.
 * eps = 1 turns the weighting off; eps close to 0 trusts the model completely (right against
 * a level-6 heuristic, wrong against anyone else: the default keeps a real weight on
 * deviations).
 *
 * The fixed eps assumes the other seats ARE the model. Fitted weights (b->fit) assume less: each
 * other seat o plays the model's choice with probability mu_o and otherwise something we cannot
 * predict, which says nothing about the world — at chance among the k options a seat has there
 * (k: the geometric mean of its legal-play counts over the pool's decisions), the same in every
 * world. Against that stranger, a world's choice by choice likelihood ratio is 1 + mu_o (k - 1)
 * for a choice the model makes there and 1 - mu_o for one it does not; a world's weight is the
 * product over its choices and both seats. mu_o is fitted per seat from the pool itself: the
 * pool is uniform worlds, so the mean of its worlds' ratios is the record's likelihood ratio at
 * mu_o; mu_o is its posterior mean under a uniform prior on 0..0.99 (a grid). A seat the model
 * explains no better than chance gets mu_o near 0 — every world weighs about alike for it —
 * and a short record, which says little, a moderate mu_o; against the model's own play mu_o
 * reaches about 0.95, a factor 0.05 / (1 + 0.95 (k - 1)), about 0.01 at k = 5, per unexplained
 * choice: the fixed weights' sharpest. Why not "else one of the other k - 1 options at random":
 * that makes a stranger's deviations say something about the world (a world in which it had
 * more options explains a deviation less), which is true of random players, not of strangers,
 * and it is not uniform at chance.
 *
 * Two models (b->rule_model): the heuristic at level 6 and the rule agent of rule.h, each
 * fitted as above, mixed per seat with equal prior weight — a world's factor for seat o is the
 * mean of its two likelihood ratios, so the model that explains the seat's record better (in
 * the pool's worlds on the whole) carries its weights without a threshold, and a seat neither
 * explains gets both mu near 0, the uniform weights. Why the rule agent: its family (play the
 * lowest group of a fewest-plays decomposition) is what most public rule bots and many casual
 * players do, and it differs from level 6 where level 6 counts cards and spends control cards.
 *
 * The searcher then draws its worlds from a pool of n sampled worlds in proportion to their
 * weights (importance resampling). Worlds are sampled from per-world seeds, so the pool
 * depends only on the seed, never on the thread count or the order of building.
 * Ref.: the inference step of determinized search in trick-taking games (e.g. Buro, Long,
 * Furtak & Sturtevant 2009 for Skat); written here from that idea, not from any code.
 */
#ifndef CARDBOT_PLUGIN_BELIEF_H
#define CARDBOT_PLUGIN_BELIEF_H

#include <stdbool.h>
#include <stdint.h>

#include "cardbot/bot.h"
#include "policy.h"
#include "rng.h"
#include "worlds.h"

/* One other seat's past choices in one world (the fitted weights' data: 8 bytes). Seat index
 * 0 is the seat after the deciding one, 1 the seat before it. */
typedef struct cb_belief_seat {
    int16_t miss;              /* choices the model would have made otherwise */
    int16_t dec;               /* decisions with a choice */
    float logk;                /* sum over those decisions of ln(legal plays) */
    int16_t miss_rule;         /* the same for the rule model (b->rule_model; else 0) */
} cb_belief_seat;

/* The fitted model's grid: mu = 0, .., 0.99 in CB_BELIEF_GRID even steps (0.03), a uniform prior. */
#define CB_BELIEF_GRID 34
#define CB_BELIEF_MU_MAX 0.99

typedef struct cb_belief {
    int n, cap;                /* worlds in the pool */
    cb_cards (*hands)[3];      /* the pool's worlds */
    int *mismatch;             /* per world: past choices the model would have made otherwise
                                  (both other seats) */
    cb_belief_seat (*seat)[2]; /* per world: the same per other seat (fitted weights) */
    int *dec;                  /* per slot while filling: decisions compared */
    int *slot;                 /* per world after finish: the slot it was filled in */
    double *cum;               /* cumulative weights (cum[n-1] = total) */
    int decisions;             /* other seats' past decisions with a choice (per world) */
    int min_mismatch;          /* the best explained world's count */
    double ess;                /* effective sample size of the weights (1..n) */
    cb_hcfg model;             /* the opponent model's configuration */
    cb_hws ws;
    int chains;                /* 0: importance resampling of n uniform worlds; else a
                                  Metropolis walk (see cb_belief_build) in this many chains */
    uint64_t steps, accepted;  /* the walk's statistics */
    uint64_t deadline_ns;      /* CLOCK_MONOTONIC time past which the pool stops growing (it
                                  keeps the worlds it has, at least one); 0: none */
    bool cut;                  /* the last build stopped at the deadline */
    bool fit;                  /* finish weighs with the fitted per-seat model, not eps (not
                                  for walks, which need a fixed eps) */
    double mu[2];              /* the fitted mu per other seat (0: weight 1 for it) */
    bool rule_model;           /* fit: a second model per seat, the rule agent (rule.h); set
                                  before filling (the replay asks both) */
    double mu_rule[2];         /* its fitted mu per other seat */
    double p_rule[2];          /* the posterior share of the rule model per other seat */
    struct rb_ws *rws;         /* the rule model's workspace (allocated when first asked) */
    double fa[2][2], fc[2][2]; /* the fit's log ratio terms per other seat and model: a world
                                  scores fa per explained choice, fc per unexplained one */
    double beta;               /* the likelihood exponent of cb_belief_temper (1: untempered) */
    double k[2];               /* the chance level's option count per other seat */
    cb_play_rec *hist;         /* scratch: the replayed record */
    cb_counts *hint;           /* scratch, [record step]: the play that proved the recorded one
                                  not the model's in an earlier world (cb_heur_explains' hint:
                                  speed only) */
    int hist_cap;
    int *seen;                 /* scratch of cb_belief_fill: its share's slots by world (an
                                  open-addressing table, -1 empty) */
    int seen_cap;
    int reused;                /* scratch: worlds of the last fill that repeated an earlier
                                  draw of its share (by rank counts) and took its record */
    bool ready;
} cb_belief;

int cb_belief_init(cb_belief *b);
void cb_belief_free(cb_belief *b);

/* Fill the pool with n worlds from the sampler w (built from v) and weigh them with eps
 * (0 < eps <= 1; 1 = equal weights, no replay). World i is sampled with a generator seeded by
 * (seed, i). Returns the number of worlds in the pool (worlds the sampler could not find are
 * skipped), or -1 on failure (out of memory, a history the replay cannot follow).
 * With b->chains = c > 0 (and eps < 1) the pool is instead the path of c Metropolis walks over
 * the worlds, each started from a uniform world: a step swaps one card between the two other
 * seats (a symmetric proposal; cards known to be with a seat never move), a world that breaks a
 * proof of the record is refused, and a step from k to k' mismatches is accepted with
 * probability min(1, eps^(k'-k)). The walks' worlds are then distributed by the weights
 * themselves and enter the pool with equal weights: where uniform samples that the model
 * explains are rare (late in a deal), the walk still finds them. */
int cb_belief_build(cb_belief *b, const cb_view *v, cb_worlds *w, int n, double eps, uint64_t seed);

/* The pieces of cb_belief_build without walks, for building a pool on several threads:
 * reserve n slots; fill the slots first, first + stride, ... (< n) of `pool`, replaying with
 * the scratch belief s (s may be pool itself; each thread needs its own s and its own copy of
 * the sampler w) — a slot whose world was not found, or that came after pool->deadline_ns
 * (slot 0 always comes), stays empty and sets s->cut in the latter case; then finish: keep the
 * filled slots in slot order and weigh them. The pool is the same whatever the stride, unless
 * the deadline cut it. A world whose hands hold the same rank counts as one drawn before
 * within the fill's share (late in a deal, when few cards remain unknown, most draws repeat)
 * takes that draw's record instead of a replay: the replay reads ranks only, so the pool is the
 * same (s->reused counts them). fill returns 0 or -1 (a history the replay cannot follow); finish
 * returns the pool's size. */
int cb_belief_reserve(cb_belief *pool, const cb_view *v, int n);
int cb_belief_fill(cb_belief *pool, cb_belief *s, const cb_view *v, cb_worlds *w, int first, int stride, int n,
                   double eps, uint64_t seed);
int cb_belief_finish(cb_belief *pool, int n, double eps);

/* Grow a finished pool of `slots` slots (no walk) to n2 > slots slots, keeping what was filled:
 * finish moved the worlds together, this moves them back to their slots. Filling slots
 * slots..n2-1 (cb_belief_fill with first >= slots) and finishing n2 then give the pool a fresh
 * build of n2 would — same worlds, order and weights — at the cost of the new slots only
 * (unless a deadline cut either pool). Returns 0 or -1 (out of memory). */
int cb_belief_extend(cb_belief *pool, const cb_view *v, int slots, int n2);

/* Weigh the pool's worlds again with eps (same worlds, same order; not for a walk's pool,
 * whose worlds are already distributed by the weights). The searcher uses it to trust the
 * model more when some world explains every past choice (ismcts key belief_fit). With the rule
 * model and fixed weights (b->rule_model, not b->fit: ismcts inference = fixed_mix) a seat's
 * factor is the mean of eps^(level 6's misses) and eps^(the rule agent's) — the fitted mix's
 * formula with mu fixed — and p_rule and cb_belief_rule_chance follow those terms. */
void cb_belief_weigh(cb_belief *b, double eps);

/* Weigh the pool's worlds again with the fitted model (see above; b->mu and b->k get the fit).
 * The pool must have been filled with eps < 1 (replayed). */
void cb_belief_weigh_fit(cb_belief *b);

/* Temper the fitted weights (after cb_belief_weigh_fit) so that at least `target` worlds carry
 * them: each world's likelihood ratio is raised to the largest power beta <= 1 whose weights
 * have an effective sample size >= target (bisection; b->beta gets it, 1 when the fitted
 * weights already had it or target <= 1). Why: a pool of a few hundred uniform worlds weighed
 * over a long record leaves two or three worlds with all the weight — the search then plays
 * against those hands as if it had seen them, while the posterior it stands for holds many
 * more worlds that the pool never drew. Tempering is the standard remedy of sequential Monte
 * Carlo (an adaptive likelihood exponent): the model's direction is kept, its confidence is
 * capped at what the pool can carry. b->ess is the tempered pool's. */
void cb_belief_temper(cb_belief *b, double target);

/* The fit alone: mu for one seat from n worlds' records of it (rec[0], rec[stride], ..; k: its
 * chance level's option count, > 1), the posterior mean on the grid (see above). */
double cb_belief_fit_mu(const cb_belief_seat *rec, int stride, int n, double k);

/* The mismatches of one world (hands[3] consistent with w): how many of the other seats' past
 * decisions with a choice the model would have made differently. -1 when the history cannot be
 * replayed in it. `decisions` (may be NULL) gets how many decisions were compared. */
int cb_belief_mismatches(cb_belief *b, const cb_view *v, const cb_cards hands[3], int *decisions);

/* The same, per other seat (seat[0]: the seat after v->seat, seat[1]: the one before); returns
 * the total mismatches or -1. With the rule model and fixed weights the total counts, per seat,
 * the misses of whichever model misses fewer (what "explains the record as well as the best"
 * and belief_fit's "every past choice explained" then read). */
int cb_belief_record(cb_belief *b, const cb_view *v, const cb_cards hands[3], cb_belief_seat seat[2]);

/* Draw a world from the pool by weight. The pool must not be empty. Returns the world's index. */
int cb_belief_draw(const cb_belief *b, cb_rng *rng, cb_cards hands[3]);

/* The fitted pool with the rule model: the chance that other seat o (0: the seat after the
 * deciding one, 1: the one before) plays the rule agent rather than level 6, given a world
 * whose record of that seat is r (the pool's world i: &b->seat[i][o]) — its two likelihood
 * ratios there under b's weights (fitted, or fixed with the rule model), normalised (equal prior). 0 without the rule model. The search
 * plays each seat by the rule agent in the worlds where this exceeds 1/2 (ismcts key
 * opponent_model). */
double cb_belief_rule_chance(const cb_belief *b, const cb_belief_seat *r, int o);

/* Free the pool's worlds and the replay's scratch (the arrays a build sized), keeping the
 * model, its workspace and the settings (chains, deadline_ns): the pool is empty and the next
 * reserve or build allocates again. For a pool kept between decisions (ismcts's is_release). */
void cb_belief_release(cb_belief *b);

#endif
