/* host — a minimal card-server host for cardbot: one PDK game and one DDZ game, every seat
 * played by a bot through the shim, every action printed.
 *
 *   make && ./host pdk.ini ddz.ini [SEED]
 *
 * The two libraries a host links (pkg-config --libs cardbot):
 *   libcardbot       the rules and a game engine (cardbot/game.h): it deals, runs the bidding,
 *                    checks and applies every action, and builds the exact view each bot sees;
 *   libcardbot-shim  the bots (cardbot/shim.h): it reads a config, loads the strategy plugins
 *                    seated there, asks them and checks their answers, falling back when a
 *                    plugin fails, so the host always gets a legal answer in time.
 * A server with its own state machine skips the engine and fills cb_view itself (bot.h says
 * member by member what each means; cb_view_check tells what is wrong with one).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cardbot/game.h>
#include <cardbot/shim.h>

/* Play one game on the table a config describes. 0 on success. */
static int play_game(const char *config, uint64_t seed)
{
    char err[1024];
    /* 1. The config names the rules ([game], [rules]) and who sits where ([strategy.*],
     *    [seats]); a shim is shared by all the tables of a server. */
    cb_shim *shim = cb_shim_open(config, err, sizeof err);
    if (!shim) {
        fprintf(stderr, "%s\n", err); /* names the file, the group and the key */
        return -1;
    }
    /* 2. A table: one plugin instance per seat. Use it from one thread at a time. */
    cb_table *table = cb_table_new(shim, NULL, err, sizeof err);
    if (!table) {
        fprintf(stderr, "%s\n", err);
        cb_shim_free(shim);
        return -1;
    }
    const cb_rules *rules = cb_shim_rules(shim);

    /* 3. A game. The key names the deal and every view's seed (a keyed stream: a seed never
     *    reveals the deal). Same key, same game: keep it to replay a game. */
    cb_engine_opts o;
    memset(&o, 0, sizeof o);
    o.struct_size = sizeof o;
    o.key = seed;
    o.first_bidder = -1; /* DDZ: drawn from the key */
    o.landlord = -1;     /* DDZ: bid for it */
    cb_engine *e = cb_engine_new(rules, &o, err, sizeof err);
    if (!e) {
        fprintf(stderr, "engine: %s\n", err);
        cb_table_free(table);
        cb_shim_free(shim);
        return -1;
    }
    printf("== %s: seats %s, %s, %s\n", rules->preset, cb_table_strategy(table, 0),
           cb_table_strategy(table, 1), cb_table_strategy(table, 2));

    /* 4. The loop: whoever is to act gets its view, the shim asks its bot, the engine applies
     *    the answer. Bids (DDZ 叫分 with redeals, PDK 包庄) first, then the play. */
    int fallbacks = 0, rc = 0;
    while (rc == 0 && cb_engine_phase(e) != CB_PHASE_OVER) {
        int seat = cb_engine_turn(e), phase = cb_engine_phase(e);
        cb_view v;
        cb_engine_view(e, seat, 1000 /* ms for this decision */, &v);
        cb_decision d;
        memset(&d, 0, sizeof d);
        d.struct_size = sizeof d; /* the shim writes no more than the host knows */
        int code = phase == CB_PHASE_BID ? cb_decide_bid(table, &v, &d) : cb_decide_play(table, &v, &d);
        if (code < 0) { /* the call itself was refused: a bad view or argument (a host bug) */
            fprintf(stderr, "seat %d: %s: %s\n", seat, cb_strerror(code), cb_table_last_error(table));
            rc = -1;
            break;
        }
        if (code > 0) /* the bot failed; d holds the fallback's legal answer and says why */
            fallbacks++;
        char cards[64];
        cb_cards_format(d.cards, true, cards, sizeof cards);
        if (phase == CB_PHASE_BID) {
            printf("seat %d bids %d\n", seat, (int)d.bid);
            rc = cb_engine_bid(e, d.bid, err, sizeof err);
        } else {
            if (d.cards)
                printf("seat %d plays %s\t(%s)\n", seat, cards, d.explain);
            else
                printf("seat %d passes\t(%s)\n", seat, d.explain);
            rc = cb_engine_play(e, d.cards, err, sizeof err);
        }
        if (rc != 0) /* the shim answers legally, so the engine never refuses it */
            fprintf(stderr, "engine refused seat %d: %s\n", seat, err);
    }

    /* 5. Settlement: points per seat (they sum to zero); DDZ returns the multiplier. */
    if (rc == 0) {
        int pts[3];
        int mult = cb_engine_points(e, pts);
        printf("result %s winner %d landlord %d multiplier %d points %d %d %d fallbacks %d\n",
               rules->preset, cb_engine_winner(e), cb_engine_landlord(e), mult, pts[0], pts[1], pts[2],
               fallbacks);
    }
    cb_engine_free(e);
    cb_table_free(table);
    cb_shim_free(shim);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 3 || argc > 4) {
        fprintf(stderr, "usage: %s PDK_CONFIG DDZ_CONFIG [SEED]\n", argv[0]);
        return 2;
    }
    if (strcmp(cb_version(), CB_VERSION) != 0) /* the library loaded vs the headers built with */
        printf("note: built with cardbot %s, running %s\n", CB_VERSION, cb_version());
    uint64_t seed = 1;
    if (argc == 4) { /* a seed is all digits: "xyz" or "-1" is a mistake, not seed 0 */
        char *end;
        errno = 0;
        seed = strtoull(argv[3], &end, 10);
        if (end == argv[3] || *end || errno || argv[3][0] == '-') {
            fprintf(stderr, "%s: SEED '%s': not a number 0..%llu\n", argv[0], argv[3], (unsigned long long)UINT64_MAX);
            return 2;
        }
    }
    if (play_game(argv[1], seed) != 0 || play_game(argv[2], seed) != 0)
        return 1;
    return 0;
}
