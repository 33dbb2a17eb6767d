/* cardbot tests — the independent settlement oracle (see oracle_settle.h). */
#include "oracle_settle.h"

#include <string.h>

int cbt_oracle_ddz(const cb_rules *r, const cb_ddz_result *res, int delta[3])
{
    (void)r;
    int mult = res->bid;
    for (int i = 0; i < res->bombs; i++)
        mult *= 2;
    bool landlord_out = res->winner == res->landlord;
    bool spring = landlord_out && res->farmer_plays == 0;
    bool anti_spring = !landlord_out && res->landlord_plays == 1;
    if (spring || anti_spring)
        mult *= 2;
    /* +1 when the landlord won: it takes 2 x mult, each farmer gives 1 x mult */
    int sign = landlord_out ? 1 : -1;
    for (int s = 0; s < 3; s++)
        delta[s] = s == res->landlord ? 2 * sign * mult : -sign * mult;
    return mult;
}

void cbt_oracle_pdk(const cb_rules *r, const cb_pdk_result *res, int delta[3])
{
    int w = res->winner;
    bool bao = r->bao && res->bao >= 0;
    for (int s = 0; s < 3; s++) {
        int pts = 0;
        if (bao) {
            /* the declarer against the two others, all or nothing */
            bool declarer_won = w == res->bao;
            if (s == res->bao)
                pts = (declarer_won ? 2 : -2) * r->bao_points;
            else
                pts = declarer_won ? -r->bao_points : r->bao_points;
        } else if (s != w) {
            int left = res->cards_left[s];
            int owe = left > 1 ? left * r->card_points : 0;
            if (res->plays[s] == 0 && r->spring_double)
                owe *= 2;
            pts = -owe;
        } else {
            for (int o = 0; o < 3; o++) {
                if (o == w)
                    continue;
                int left = res->cards_left[o];
                int owe = left > 1 ? left * r->card_points : 0;
                if (res->plays[o] == 0 && r->spring_double)
                    owe *= 2;
                pts += owe;
            }
        }
        /* winning bombs: mine earn from both others, each other seat's cost me */
        for (int b = 0; b < 3; b++) {
            if (b == s)
                pts += 2 * res->bomb_tricks[b] * r->bomb_points;
            else
                pts -= res->bomb_tricks[b] * r->bomb_points;
        }
        delta[s] = pts;
    }
}

/* A bomb read off the cards as the rules text names them: four of a rank (never the
 * jokers), the rocket (both jokers, DDZ), three As under PDK's aaa_bomb. */
static bool is_bomb(const cb_rules *r, cb_cards c)
{
    int n = cb_cards_size(c);
    cb_cards jokers = cb_card_bit(CB_CARD_X) | cb_card_bit(CB_CARD_D);
    if (c == jokers)
        return r->game != CB_GAME_PDK;
    if (c & jokers)
        return false;
    int rank = cb_card_rank(__builtin_ctzll(c));
    bool one_rank = cb_cards_of_rank(c, rank) == c;
    if (one_rank && n == 4)
        return true;
    return r->game == CB_GAME_PDK && r->aaa_bomb && one_rank && n == 3 && rank == CB_RANK_A;
}

int cbt_oracle_settle_record(const cb_rules *r, const cb_cards hands[3], int landlord, int stake,
                             const cb_play_rec *hist, int n, int delta[3], int *winner)
{
    cb_cards h[3] = {hands[0], hands[1], hands[2]};
    int plays[3] = {0}, btricks[3] = {0}, bombs = 0, w = -1;
    int passes = 0, table_seat = -1;
    bool table_bomb = false;
    for (int i = 0; i < n; i++) {
        int s = hist[i].seat;
        cb_cards c = hist[i].cards;
        if (w >= 0 || s < 0 || s > 2 || (c & ~h[s]))
            return -1;
        if (!c) {
            /* the trick ends when both other seats passed on the table play */
            if (++passes == 2) {
                if (table_bomb)
                    btricks[table_seat]++;
                table_seat = -1;
                table_bomb = false;
                passes = 0;
            }
            continue;
        }
        h[s] &= ~c;
        plays[s]++;
        passes = 0;
        table_seat = s;
        table_bomb = is_bomb(r, c);
        bombs += table_bomb;
        if (!h[s]) {
            w = s;
            if (table_bomb)
                btricks[s]++; /* the last play ends the game and so wins its trick */
        }
    }
    if (w < 0)
        return -1;
    if (winner)
        *winner = w;
    if (r->game == CB_GAME_DDZ) {
        if (landlord < 0 || landlord > 2)
            return -1;
        cb_ddz_result res = {.landlord = landlord, .bid = stake, .bombs = bombs, .winner = w,
                             .landlord_plays = plays[landlord]};
        for (int s = 0; s < 3; s++)
            if (s != landlord)
                res.farmer_plays += plays[s];
        return cbt_oracle_ddz(r, &res, delta);
    }
    cb_pdk_result res = {.winner = w, .bao = landlord};
    for (int s = 0; s < 3; s++) {
        res.cards_left[s] = cb_cards_size(h[s]);
        res.plays[s] = plays[s];
        res.bomb_tricks[s] = btricks[s];
    }
    cbt_oracle_pdk(r, &res, delta);
    return 1;
}
