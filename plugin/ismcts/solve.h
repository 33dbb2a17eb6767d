/* cardbot ismcts — exact perfect-information endgame solver.
 *
 * Inside one world (all hands known) and with few cards left, the game is solved exactly: an
 * AND-OR search over every legal play from core's cb_legal_moves, with a transposition table.
 *
 * Value model: two sides and a win/loss outcome. DDZ: the landlord against the two farmers
 * (the game's own teams). PDK: the searching seat (with a 包庄 declaration: the declarer's
 * side, as the rules make teams of the others) against the rest — "paranoid" win/loss: only
 * the first seat out wins, so for the searcher any other seat going out is the same loss, and
 * treating both opponents as one side makes the game a two-sided win/loss game that this
 * search answers exactly (the tree's opponent nodes use the same model, so both agree).
 *
 * The search stops at a node limit: it then answers "unknown" and the caller plays the position
 * out instead. No answer is ever a guess.
 */
#ifndef CARDBOT_ISMCTS_SOLVE_H
#define CARDBOT_ISMCTS_SOLVE_H

#include <stdbool.h>
#include <stdint.h>

#include "cardbot/game.h"

/* A perfect-information position, by ranks. */
typedef struct is_pos {
    cb_counts h[3];
    cb_move table;        /* valid when tseat >= 0 */
    int8_t turn;
    int8_t tseat;         /* seat whose play is to beat, -1 when `turn` leads */
    int8_t npass;         /* passes since the table play */
    int8_t pad[5];
} is_pos;

typedef struct is_tt_entry {
    cb_counts k[4];
    uint32_t meta;
    uint32_t gen;         /* entry valid when gen == the solver's generation */
    uint8_t win;
    uint8_t pad[7];
} is_tt_entry;

typedef struct is_solver {
    const cb_rules *rules;
    uint8_t side[3];      /* 1 = the searcher's side */
    is_tt_entry *tt;
    uint32_t tt_mask;
    uint32_t gen;
    cb_move *stack;
    int stack_cap;
    uint64_t nodes, limit;
    bool aborted;
    uint64_t solves, unknown, tt_hits, total_nodes;
} is_solver;

/* Allocate (2^log2_tt entries, a move stack of stack_cap). Returns 0 or -1 (out of memory). */
int is_solver_init(is_solver *s, int log2_tt, int stack_cap);
void is_solver_free(is_solver *s);
/* A new decision: the rules and the sides (side[s] = 1 for the searcher's side). Forgets the
 * transposition table (in O(1)). */
void is_solver_reset(is_solver *s, const cb_rules *r, const uint8_t side[3]);
/* Does the searcher's side win from p with best play by both sides? 1 yes, 0 no, -1 unknown
 * (node limit reached or the move stack overflowed). */
int is_solve(is_solver *s, const is_pos *p, uint64_t node_limit);
/* Apply a play (shape CB_PASS = pass) to a position. Returns the seat that went out (the
 * winner), or -1 when the game goes on. */
int is_pos_apply(const cb_rules *r, is_pos *p, const cb_move *m);
/* The rules' context of the seat to act. */
void is_pos_ctx(const is_pos *p, cb_ctx *ctx);
/* The packed position of a deal's play state (turn, trick), with hands (NULL: g's own). The
 * solver keeps its own position for speed: rank counts only, no record; tests step it side by
 * side with cb_deal (test_ismcts_replay). Never the deal's first play (is_pos_ctx). */
void is_pos_of_deal(const cb_deal *g, const cb_cards hands[3], is_pos *p);

#endif
