/* cardbot ismcts — the exact endgame: every legal play of mine solved in each sampled world.
 *
 * With few cards left the per-world game is small enough to solve exactly (solve.c); a play's
 * value is the share of sampled worlds in which it wins against best play. This is the
 * determinized answer (each world solved with every hand open), which is what "the exact solver
 * decided" means in the explanation's ENDGAME flag.
 */
#include <string.h>

#include "ismcts.h"

int is_endgame(is_inst *m, const is_setup *S, const cb_move *moves, int nmoves, int want_worlds, uint64_t node_budget,
               uint64_t deadline_ns, int *wins_out)
{
    is_thread *t = m->th[0];
    cb_worlds w = *S->worlds; /* a copy: its statistics are this search's own */
    cb_rng rng;
    cb_rng_seed(&rng, cb_rng_mix(S->seed, 0xE6D9A3Eull));
    is_solver_reset(&t->solver, S->rules, S->side);
    for (int j = 0; j < nmoves; j++)
        wins_out[j] = 0;
    uint64_t used = 0;
    int got = 0;
    for (int k = 0; k < want_worlds; k++) {
        cb_cards hands[3];
        /* Two worlds in three come from the belief pool (weighted by how well they explain the
         * record), one in three uniformly from every consistent world: when several plays win
         * in the worlds the opponent model believes, the one that also wins where the model is
         * wrong is preferred (a play that wins in every world beats one that needs the model). */
        if (S->belief && S->belief->n > 0 && k % 3 != 2)
            cb_belief_draw(S->belief, &rng, hands);
        else if (cb_worlds_sample(&w, &rng, hands, NULL) != 0)
            return got > 0 ? got : -1;
        is_pos p;
        is_pos_of_deal(&S->root, hands, &p);
        for (int j = 0; j < nmoves; j++) {
            is_pos c = p;
            int winner = is_pos_apply(S->rules, &c, &moves[j]);
            int v;
            if (winner >= 0) {
                v = S->side[winner] ? 1 : 0;
            } else {
                /* past either budget the search decides (time_ms: the time left is its own) */
                if (used >= node_budget || (deadline_ns && cb_now_ns() >= deadline_ns))
                    return 0;
                v = is_solve(&t->solver, &c, node_budget - used);
                used += t->solver.nodes;
                if (v < 0)
                    return 0;
            }
            wins_out[j] += v;
        }
        got++;
    }
    return got;
}
