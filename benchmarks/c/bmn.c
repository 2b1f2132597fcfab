/*
 * bmn.c - the speed anchor of beggarstats: a small, tight, single-threaded C simulator of
 * two-player Beggar-My-Neighbour under the standard rules of docs/RULES.md (end convention
 * `trick`, no variants, no cut-off), playing exactly the random games beggarstats plays.
 *
 * Deals: game g of the table seeded S draws from its own stream, xoshiro256** seeded through
 * splitmix64 from (S, g) as in beggarstats/rng.py; the 52 cards in canonical order (36 number
 * cards, then 4 each of J Q K A) go through the same Fisher-Yates shuffle (two bounded draws per
 * 64-bit output) and card i goes to seat i mod 2, as in beggarstats/deals.py. So the C and the
 * Python engines can be compared game by game (tests/scripts/test_anchor.py).
 *
 * Hands: three bit-planes of the tribute (bit i = the i-th card from the top) and a length per
 * hand, kept by role (the leader's hand first), so that a trick runs in registers. A run of
 * number cards costs one count-trailing-zeros; a pile goes under a hand with three shifts and ORs.
 * Every trick boundary is checked for a repeated state with Brent's algorithm (exact comparison
 * of leader and both hands); a loop is then located exactly by a second pass.
 *
 * Build:  gcc -O3 -march=native -o bmn bmn.c
 * Usage:  bmn GAMES SEED          time games 0..GAMES-1, print one summary line of key/value pairs
 *         bmn --games SEED FIRST COUNT   one result line per game FIRST..FIRST+COUNT-1
 *         bmn --deal-only GAMES SEED     time the deals of games 0..GAMES-1 alone: ns per deal and
 *                                 a checksum of the hands
 *         bmn --deals             one result line per deal read from stdin ("hand/hand" per line,
 *                                 top card first, '-' number card, J Q K A; at most 63 cards)
 * A result line: outcome (win|loop) winner (0|1|-) cards tricks loop_start_tricks
 * loop_start_cards loop_tricks loop_cards (the four loop figures are - for a win).
 */
#define _POSIX_C_SOURCE 199309L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef __BMI2__
#include <immintrin.h>
#endif

#define DECK 52
#define MAX_CARDS 63 /* bit 63 is the "no penalty card" sentinel */

/* ---- the per-game random stream (beggarstats/rng.py) ---------------------------------------- */
static inline uint64_t splitmix(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static inline void seed_game(uint64_t s[4], uint64_t seed, uint64_t game)
{
    uint64_t x = seed;
    x = splitmix(&x) ^ (game * 0xD1B54A32D192ED03ull);
    for (int i = 0; i < 4; i++) s[i] = splitmix(&x);
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t next_u64(uint64_t s[4])
{
    uint64_t out = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return out;
}

/* uniform in [0, m) from 32 random bits: multiply-shift, drawing again in the biased sliver */
static inline uint32_t below(uint64_t s[4], uint32_t bits, uint32_t m)
{
    uint64_t prod = (uint64_t)bits * m;
    if ((uint32_t)prod < m) {
        uint32_t thresh = (0u - m) % m;
        while ((uint32_t)prod < thresh) prod = (uint64_t)(uint32_t)next_u64(s) * m;
    }
    return (uint32_t)(prod >> 32);
}

/* ---- hands ------------------------------------------------------------------------------------ */
typedef struct { uint64_t b0, b1, b2; uint32_t n; } hand_t;     /* tribute bit-planes, length */
typedef struct { hand_t h[2]; uint32_t lead, cards, tricks; } game_t;  /* h[0]: the leader's hand */
typedef struct { int loop, winner; uint32_t cards, tricks, ls_tricks, ls_cards, l_tricks, l_cards; } result_t;

static inline uint32_t first_penalty(const hand_t *h)   /* 63 when the hand holds none */
{
    return (uint32_t)__builtin_ctzll(h->b0 | h->b1 | h->b2 | (1ull << 63));
}
static inline uint32_t tribute_at(const hand_t *h, uint32_t i)
{
    return (uint32_t)(((h->b0 >> i) & 1) | ((h->b1 >> i) & 1) << 1 | ((h->b2 >> i) & 1) << 2);
}
static inline void drop(hand_t *h, uint32_t k)          /* k <= n <= 63 */
{
    h->b0 >>= k; h->b1 >>= k; h->b2 >>= k; h->n -= k;
}
static inline int same_state(const game_t *a, const game_t *b)
{
    return a->lead == b->lead && a->h[0].n == b->h[0].n
        && a->h[0].b0 == b->h[0].b0 && a->h[0].b1 == b->h[0].b1 && a->h[0].b2 == b->h[0].b2
        && a->h[1].b0 == b->h[1].b0 && a->h[1].b1 == b->h[1].b1 && a->h[1].b2 == b->h[1].b2;
}

/* ---- one trick -------------------------------------------------------------------------------- */
/* Plays the trick led by g->lead. Returns the taker (who leads next) while the game goes on, or
 * 2 + the winner when it ends. A player who must play and has no card is out and the other wins,
 * taking the pile (a trick if it holds a card); after a trick, a player left with no card is out.
 * The two hands are held by role (o: played the last penalty card, p: owes its tribute) in local
 * variables, so that the whole trick runs in registers. */
static inline int trick(game_t *g)
{
    hand_t o = g->h[0], p = g->h[1];            /* h[0] is the leader's hand */
    uint32_t seat = g->lead;                    /* o's seat */
    /* number cards alternate, the leader first: its k-th card is play 2k, the other's play 2k+1,
     * until one of them meets a penalty card or runs out (its "event") */
    uint32_t eo = first_penalty(&o), ep = first_penalty(&p);
    eo = eo < o.n ? eo : o.n;
    ep = ep < p.n ? ep : p.n;
    uint32_t len;                               /* cards on the pile */
    if (eo <= ep) {
        len = 2 * eo;
        drop(&o, eo);
        drop(&p, eo);
    } else {
        len = 2 * ep + 1;
        drop(&o, ep + 1);
        drop(&p, ep);
        hand_t t = o; o = p; p = t;
        seat ^= 1;
    }
    if (__builtin_expect(o.n == 0, 0)) {        /* o must play and cannot */
        g->cards += len;
        g->tricks += len != 0;
        return 2 + (int)(seat ^ 1);
    }
    uint64_t q0 = 0, q1 = 0, q2 = 0;            /* the pile's planes, bit i = i-th card played */
    uint32_t owed = tribute_at(&o, 0);
    for (;;) {                                  /* o has just played a penalty card worth `owed` */
        q0 |= (uint64_t)(owed & 1) << len;
        q1 |= (uint64_t)(owed >> 1 & 1) << len;
        q2 |= (uint64_t)(owed >> 2) << len;
        len++;
        drop(&o, 1);
        uint32_t c = first_penalty(&p);
        if (c < owed) {                         /* p meets a penalty card while paying: roles swap */
            len += c;
            drop(&p, c);
            owed = tribute_at(&p, 0);
            hand_t t = o; o = p; p = t;
            seat ^= 1;
            continue;
        }
        if (__builtin_expect(p.n < owed, 0)) {  /* p runs out paying: o wins, takes the pile */
            g->cards += len + p.n;
            g->tricks += 1;
            return 2 + (int)seat;
        }
        len += owed;                            /* paid in number cards: o takes the pile */
        drop(&p, owed);
        o.b0 |= q0 << o.n;
        o.b1 |= q1 << o.n;
        o.b2 |= q2 << o.n;
        o.n += len;
        g->cards += len;
        g->tricks += 1;
        g->h[0] = o;
        g->h[1] = p;
        g->lead = seat;
        return p.n == 0 ? 2 + (int)seat : (int)seat;
    }
}

/* ---- one game --------------------------------------------------------------------------------- */
static void play(const game_t *deal, result_t *r)
{
    game_t g = *deal, saved = *deal;
    uint32_t power = 1, since = 0;              /* Brent: tricks since `saved` */
    for (;;) {
        int t = trick(&g);
        if (t >= 2) {
            r->loop = 0;
            r->winner = t - 2;
            r->cards = g.cards;
            r->tricks = g.tricks;
            return;
        }
        since++;
        if (__builtin_expect(same_state(&g, &saved), 0)) break;
        if (since == power) {
            saved = g;
            power <<= 1;
            since = 0;
        }
    }
    /* a loop of `since` tricks: find where it starts by walking two copies `since` tricks apart */
    game_t a = *deal, b = *deal;
    for (uint32_t i = 0; i < since; i++) trick(&b);
    while (!same_state(&a, &b)) {
        trick(&a);
        trick(&b);
    }
    r->loop = 1;
    r->winner = -1;
    r->cards = b.cards;
    r->tricks = b.tricks;
    r->ls_tricks = a.tricks;
    r->ls_cards = a.cards;
    r->l_tricks = b.tricks - a.tricks;
    r->l_cards = b.cards - a.cards;
}

/* ---- random deals (beggarstats/deals.py) ------------------------------------------------------ */
static const uint64_t EVEN = 0x5555555555555555ull, ODD = 0xAAAAAAAAAAAAAAAAull;

static inline uint64_t take_bits(uint64_t x, uint64_t mask)    /* the bits of x under mask, packed */
{
#ifdef __BMI2__
    return _pext_u64(x, mask);
#else
    uint64_t out = 0;
    for (int k = 0; mask; mask &= mask - 1, k++) out |= ((x >> __builtin_ctzll(mask)) & 1) << k;
    return out;
#endif
}

static void random_deal(game_t *g, uint64_t seed, uint64_t game)
{
    uint8_t d[56] = {0};                        /* padded to whole 8-byte words */
    uint64_t s[4];
    seed_game(s, seed, game);
    for (int i = 0; i < 16; i++) d[36 + i] = (uint8_t)(1 + i / 4);
    /* Fisher-Yates from the top, two positions per 64-bit output (low half first), as
     * rng.shuffle_words: the swaps unconditional, the only branches the loop's and the rare redraw */
    uint32_t i = DECK - 1;
    for (; i > 1; i -= 2) {
        uint64_t r = next_u64(s);
        uint32_t j = below(s, (uint32_t)r, i + 1);
        uint8_t t = d[i]; d[i] = d[j]; d[j] = t;
        j = below(s, (uint32_t)(r >> 32), i);
        t = d[i - 1]; d[i - 1] = d[j]; d[j] = t;
    }
    if (i == 1) {                               /* an odd count left: the output's high half unused */
        uint32_t j = below(s, (uint32_t)next_u64(s), 2);
        uint8_t t = d[1]; d[1] = d[j]; d[j] = t;
    }
    /* plane k of the whole deck (bit i = bit k of card i), eight cards per multiply-gather */
    uint64_t plane[3] = {0, 0, 0};
    for (int w = 0; w < 7; w++) {
        uint64_t v;
        memcpy(&v, d + 8 * w, 8);
        for (int k = 0; k < 3; k++)
            plane[k] |= ((((v >> k) & 0x0101010101010101ull) * 0x0102040810204080ull) >> 56) << (8 * w);
    }
    for (int seat = 0; seat < 2; seat++) {      /* seat 0 leads, so h[seat] is by role too */
        uint64_t m = seat ? ODD : EVEN;
        g->h[seat].b0 = take_bits(plane[0], m);
        g->h[seat].b1 = take_bits(plane[1], m);
        g->h[seat].b2 = take_bits(plane[2], m);
        g->h[seat].n = DECK / 2;
    }
    g->lead = g->cards = g->tricks = 0;
}

/* ---- driver ----------------------------------------------------------------------------------- */
static void print_result(const result_t *r)
{
    if (!r->loop)
        printf("win %d %u %u - - - -\n", r->winner, r->cards, r->tricks);
    else
        printf("loop - %u %u %u %u %u %u\n", r->cards, r->tricks, r->ls_tricks, r->ls_cards,
               r->l_tricks, r->l_cards);
}

/* "hand/hand" -> g; 0 or an error message naming the position */
static const char *parse_deal(const char *line, game_t *g, char *err, size_t errlen)
{
    memset(g, 0, sizeof *g);
    int seat = 0, total = 0;
    for (const char *c = line; *c && *c != '\n' && *c != '\r'; c++) {
        if (*c == '/') {
            if (++seat > 1) return "a deal has exactly two hands";
            continue;
        }
        uint64_t v;
        switch (*c) {
        case '-': v = 0; break;
        case 'J': v = 1; break;
        case 'Q': v = 2; break;
        case 'K': v = 3; break;
        case 'A': v = 4; break;
        default:
            snprintf(err, errlen, "hand %d position %u: '%c' is not one of - J Q K A", seat,
                     g->h[seat].n + 1, *c);
            return err;
        }
        if (++total > MAX_CARDS) return "a deal has at most 63 cards";
        hand_t *h = &g->h[seat];
        h->b0 |= (v & 1) << h->n;
        h->b1 |= (v >> 1 & 1) << h->n;
        h->b2 |= (v >> 2) << h->n;
        h->n++;
    }
    if (seat != 1) return "a deal has exactly two hands";
    return 0;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int usage(const char *prog)
{
    fprintf(stderr, "usage: %s GAMES SEED | %s --games SEED FIRST COUNT | %s --deal-only GAMES SEED | "
            "%s --deals < deals\n", prog, prog, prog, prog);
    return 2;
}

static int whole(const char *text, uint64_t *out)
{
    char *end;
    if (!*text || *text == '-') return 0;
    *out = strtoull(text, &end, 10);
    return *end == 0;
}

int main(int argc, char **argv)
{
    game_t g;
    result_t r;
    uint64_t seed, first, count;
    if (argc == 2 && !strcmp(argv[1], "--deals")) {
        char line[4096], err[128];
        int status = 0;
        for (unsigned long no = 1; fgets(line, sizeof line, stdin); no++) {
            const char *bad = parse_deal(line, &g, err, sizeof err);
            if (bad) {
                fprintf(stderr, "line %lu: %s\n", no, bad);
                printf("error\n");
                status = 2;
                continue;
            }
            memset(&r, 0, sizeof r);
            play(&g, &r);
            print_result(&r);
        }
        return status;
    }
    if (argc == 5 && !strcmp(argv[1], "--games")) {
        if (!whole(argv[2], &seed) || !whole(argv[3], &first) || !whole(argv[4], &count))
            return usage(argv[0]);
        for (uint64_t k = 0; k < count; k++) {
            random_deal(&g, seed, first + k);
            memset(&r, 0, sizeof r);
            play(&g, &r);
            print_result(&r);
        }
        return 0;
    }
    uint64_t games;
    if (argc == 4 && !strcmp(argv[1], "--deal-only")) {
        if (!whole(argv[2], &games) || !whole(argv[3], &seed)) return usage(argv[0]);
        uint64_t check = 0;
        double t0 = now();
        for (uint64_t k = 0; k < games; k++) {
            random_deal(&g, seed, k);
            check += g.h[0].b0 ^ (g.h[1].b1 << 1) ^ g.h[1].b2;
        }
        double sec = now() - t0;
        printf("deals %llu ns/deal %.1f check %llu\n", (unsigned long long)games,
               games ? sec * 1e9 / games : 0.0, (unsigned long long)check);
        return 0;
    }
    if (argc != 3 || !whole(argv[1], &games) || !whole(argv[2], &seed)) return usage(argv[0]);
    uint64_t cards = 0, tricks = 0, seat0 = 0, loops = 0;
    double t0 = now();
    for (uint64_t k = 0; k < games; k++) {
        random_deal(&g, seed, k);
        play(&g, &r);
        cards += r.cards;
        tricks += r.tricks;
        seat0 += r.winner == 0;
        loops += r.loop;
    }
    double sec = now() - t0;
    printf("games %llu cards %llu tricks %llu seat0_wins %llu loops %llu seconds %.3f games/s %.0f "
           "cards/s %.0f avg_cards %.4f\n",
           (unsigned long long)games, (unsigned long long)cards, (unsigned long long)tricks,
           (unsigned long long)seat0, (unsigned long long)loops, sec, sec > 0 ? games / sec : 0.0,
           sec > 0 ? cards / sec : 0.0, games ? (double)cards / games : 0.0);
    return 0;
}
