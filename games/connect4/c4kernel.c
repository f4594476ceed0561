/*
 * Connect Four's exact score search in C, after Pascal Pons's solver
 * (http://blog.gamesolver.org): the same search as games/connect4/score_search.py,
 * which stays the fallback and the test oracle.
 *
 * - Bitboards in the Pons layout: column c holds bits c*(rows+1) .. c*(rows+1)+rows-1,
 *   bottom first, one empty sentinel bit on top. A position is (cur, mask): the mover's
 *   discs and all discs. Boards with (rows+1)*cols <= 64 and four in a row only.
 * - The score is Pons's: a win whose last disc is the board's m-th scores
 *   (cells + 2 - m) / 2 for the winner, the negation for the loser, a draw 0.
 * - Null-window probes narrowing [lo, hi] (c4_solve), anticipation of losing moves
 *   (never play below an opponent's winning spot; block the one playable spot; two
 *   playable spots lose), moves ordered by the winning spots they create, centre first
 *   among equals, and the move that was best here before tried first.
 * - Enhanced transposition cutoffs (a child's stored bound ending a node before any
 *   search, away from the last plies) and Allis's claimeven (when every column has an
 *   even number of empty cells the other side can take every cell of its rows by
 *   answering on top: a mover who cannot line up four on the rest cannot win): together
 *   about a quarter fewer nodes on 7x6 positions of 7-9 discs, the same values.
 * - A fixed-size transposition table (16-byte slots, replaced on collision) with a
 *   lower and an upper bound per position.
 * - Every call has a node budget, a deadline and a cancel flag (an int another thread
 *   may set), looked at every 4096 nodes: a search that stops returns a status, never a
 *   wrong score, and stores nothing it did not finish.
 *
 * Plain C99, no dependencies: built by engine/core/native.py with the machine's C
 * compiler (or bundled prebuilt in the executable), loaded with ctypes.
 */
#ifndef _WIN32
#define _POSIX_C_SOURCE 199309L /* clock_gettime under -std=c99 */
#endif
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifdef _WIN32
#include <windows.h>
#define C4_EXPORT __declspec(dllexport)
static double now_seconds(void) { return (double)GetTickCount64() / 1000.0; }
#else
#include <time.h>
#define C4_EXPORT __attribute__((visibility("default")))
static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
#endif

#define C4_OK 0
#define C4_BUDGET 1
#define C4_CANCELLED 2
#define C4_TIMEOUT 3
#define C4_BAD 4
#define NO_MOVE 255
#define POLL_MASK 4095u
/* Transposition cutoffs are looked for while more than this many cells are empty (near
 * the end the extra look-ups cost more than they save: measured on 7x6, 8 was best). */
#define ETC_LEFT 8

typedef struct {
    uint64_t key;   /* cur + mask + 1; 0 is an empty slot */
    int8_t lo, hi;  /* bounds on the score */
    uint8_t move;   /* index into order[] of the best or refuting move */
    uint8_t pad[5];
} Entry;

typedef struct {
    int cols, rows, h1, cells, late;
    uint64_t bottom, board;
    uint64_t xrows, yrows;  /* claimeven: the rows the mover / the other side gets */
    uint64_t colmask[16];  /* in search order: centre first */
    int order[16];
    Entry *table;
    uint64_t length;
    /* the running call */
    uint64_t nodes, budget;
    volatile int32_t *cancel;
    double deadline;
    int status;
} C4;

static int popcount64(uint64_t x) {
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_popcountll(x);
#else
    int n = 0;
    while (x) { x &= x - 1; n++; }
    return n;
#endif
}

/* Every cell that would complete four in a row for discs p (not restricted to empty cells). */
static inline uint64_t spots(const C4 *s, uint64_t p) {
    const int h = s->h1;
    uint64_t r = (p << 1) & (p << 2) & (p << 3);
    uint64_t q;
    /* across */
    q = (p << h) & (p << 2 * h);
    r |= q & (p << 3 * h);
    r |= q & (p >> h);
    q = (p >> h) & (p >> 2 * h);
    r |= q & (p << h);
    r |= q & (p >> 3 * h);
    /* diagonal going down to the right */
    q = (p << (h - 1)) & (p << 2 * (h - 1));
    r |= q & (p << 3 * (h - 1));
    r |= q & (p >> (h - 1));
    q = (p >> (h - 1)) & (p >> 2 * (h - 1));
    r |= q & (p << (h - 1));
    r |= q & (p >> 3 * (h - 1));
    /* diagonal going up to the right */
    q = (p << (h + 1)) & (p << 2 * (h + 1));
    r |= q & (p << 3 * (h + 1));
    r |= q & (p >> (h + 1));
    q = (p >> (h + 1)) & (p >> 2 * (h + 1));
    r |= q & (p << (h + 1));
    r |= q & (p >> 3 * (h + 1));
    return r;
}

/* Whether discs p hold four in a row. */
static inline int aligned(const C4 *s, uint64_t p) {
    const int steps[4] = {1, s->h1, s->h1 - 1, s->h1 + 1};
    for (int i = 0; i < 4; i++) {
        uint64_t m = p & (p >> steps[i]);
        if (m & (m >> (2 * steps[i]))) return 1;
    }
    return 0;
}

static void poll(C4 *s) {
    if (s->cancel && *s->cancel) { s->status = C4_CANCELLED; return; }
    if (s->budget && s->nodes >= s->budget) { s->status = C4_BUDGET; return; }
    if (s->deadline > 0 && now_seconds() >= s->deadline) { s->status = C4_TIMEOUT; return; }
}

/* Fail-soft score of the mover (who cannot win at once) within (alpha, beta). */
static int negamax(C4 *s, uint64_t cur, uint64_t mask, int n, int alpha, int beta) {
    s->nodes++;
    if (!(s->nodes & POLL_MASK)) {
        poll(s);
    }
    if (s->status) return 0;
    const int cells = s->cells;
    const uint64_t board = s->board;
    const uint64_t empty = board ^ mask;
    const uint64_t playable = (mask + s->bottom) & board;
    uint64_t possible = playable;
    const uint64_t opp0 = cur ^ mask;
    const uint64_t theirs = spots(s, opp0) & empty;
    uint64_t forced = possible & theirs;
    if (forced) {
        if (forced & (forced - 1)) return -((cells - n) / 2);
        possible = forced;
    }
    possible &= ~(theirs >> 1);
    if (!possible) return -((cells - n) / 2);
    if (n >= cells - 2) return 0;
    /* Neither side can end the game within the next two plies. */
    int lo = -((cells - 2 - n) / 2);
    int hi = (cells - 1 - n) / 2;
    const uint64_t key = cur + mask + 1;
    Entry *e = &s->table[key % s->length];
    int first = NO_MOVE;
    if (e->key == key) {
        first = e->move;
        if (e->lo > lo) lo = e->lo;
        if (e->hi < hi) hi = e->hi;
    }
    /* Claimeven (Allis): every column has an even number of empty cells, so the other
     * side can answer each move on top of it and take every empty cell of the rows
     * yrows; the mover then only ever gets the rest. */
    if (!(playable & s->yrows) && hi > -1) {
        if (!aligned(s, cur | (empty & s->xrows))) {
            if (hi > 0) hi = 0;
            if (aligned(s, opp0 | (empty & s->yrows))) hi = -1;
        }
    }
    if (lo >= beta) return lo;
    if (hi <= alpha) return hi;
    if (lo >= hi) return lo;
    /* A side with no line left free of the other's discs cannot win. */
    if (n >= s->late && alpha >= 0 && hi > 0 && !aligned(s, cur | empty)) return 0;
    if (n >= s->late && beta <= 0 && lo < 0 && !aligned(s, (cur ^ mask) | empty)) return 0;
    int a = alpha > lo ? alpha : lo;
    const int b = beta < hi ? beta : hi;
    const int a0 = a;
    const uint64_t opp = cur ^ mask;

    /* Moves: the remembered one first, then by winning spots created (stable: centre first). */
    uint64_t bits[16];
    int idx[16];
    int score[16];
    int count = 0;
    for (int i = 0; i < s->cols; i++) {
        uint64_t bit = possible & s->colmask[i];
        if (!bit) continue;
        int sc = (i == first) ? 1000 : popcount64(spots(s, cur | bit) & (empty ^ bit));
        int j = count++;
        while (j > 0 && score[j - 1] < sc) {
            bits[j] = bits[j - 1]; idx[j] = idx[j - 1]; score[j] = score[j - 1];
            j--;
        }
        bits[j] = bit; idx[j] = i; score[j] = sc;
    }
    /* Enhanced transposition cutoff: a child whose stored upper bound already proves
     * this node's fail-high ends it before any search. */
    if (n < s->cells - ETC_LEFT) {
        for (int j = 0; j < count; j++) {
            const uint64_t m2 = mask | bits[j];
            const uint64_t ck = opp + m2 + 1;
            const Entry *ce = &s->table[ck % s->length];
            if (ce->key == ck && -ce->hi >= b) {
                const int v = -ce->hi;
                e->key = key;
                e->lo = (int8_t)v;
                e->hi = (int8_t)hi;
                e->move = (uint8_t)idx[j];
                return v;
            }
        }
    }
    int best = -64;
    int best_i = NO_MOVE;
    for (int j = 0; j < count; j++) {
        int v = -negamax(s, opp, mask | bits[j], n + 1, -b, -a);
        if (s->status) return 0;
        if (v > best) {
            best = v;
            best_i = idx[j];
            if (v >= b) break;
            if (v > a) a = v;
        }
    }
    if (best >= b) {
        lo = best;
    } else if (best > a0) {
        lo = hi = best;
    } else {
        hi = best;
    }
    e->key = key;
    e->lo = (int8_t)lo;
    e->hi = (int8_t)hi;
    e->move = (uint8_t)best_i;
    return best;
}

static uint64_t largest_prime_at_most(uint64_t n) {
    if (n < 2) return 2;
    for (;; n--) {
        if (n < 4) return n;
        if (!(n & 1)) continue;
        int prime = 1;
        for (uint64_t d = 3; d * d <= n; d += 2) {
            if (n % d == 0) { prime = 0; break; }
        }
        if (prime) return n;
    }
}

/* A solver for a cols x rows board with a table of at most table_bytes; NULL if the board
 * does not fit 64 bits or memory is short. */
C4_EXPORT C4 *c4_new(int cols, int rows, uint64_t table_bytes) {
    if (cols < 1 || rows < 1 || cols > 16 || (rows + 1) * cols > 64 || 3 * (rows + 2) >= 64)
        return NULL;
    C4 *s = (C4 *)calloc(1, sizeof(C4));
    if (!s) return NULL;
    s->cols = cols;
    s->rows = rows;
    s->h1 = rows + 1;
    s->cells = cols * rows;
    s->late = s->cells / 2;
    uint64_t column = (((uint64_t)1) << rows) - 1;
    for (int c = 0; c < cols; c++) s->bottom |= ((uint64_t)1) << (c * s->h1);
    s->board = s->bottom * column;
    for (int r = 0; r < rows; r++) {
        if (r % 2 == rows % 2) s->xrows |= s->bottom << r; else s->yrows |= s->bottom << r;
    }
    /* centre first, then outwards, left before right */
    int k = 0;
    for (int d = 0; d <= cols; d++) {
        for (int c = 0; c < cols; c++) {
            int dist = 2 * c - (cols - 1);
            if (dist < 0) dist = -dist;
            if (dist == d) s->order[k++] = c;
        }
    }
    for (int i = 0; i < cols; i++) s->colmask[i] = column << (s->order[i] * s->h1);
    uint64_t slots = table_bytes / sizeof(Entry);
    if (slots < 1031) slots = 1031;
    s->length = largest_prime_at_most(slots);
    s->table = (Entry *)calloc((size_t)s->length, sizeof(Entry));
    if (!s->table) { free(s); return NULL; }
    return s;
}

C4_EXPORT void c4_free(C4 *s) {
    if (!s) return;
    free(s->table);
    free(s);
}

/* Forget every stored bound. */
C4_EXPORT void c4_clear(C4 *s) {
    memset(s->table, 0, (size_t)s->length * sizeof(Entry));
}

C4_EXPORT uint64_t c4_table_slots(const C4 *s) { return s->length; }

/*
 * The exact score of (cur, mask) with n discs played, for its mover, clamped into
 * [lowest, highest] (pass -1000 / 1000 for no clamp). The game must not be over.
 * budget: nodes at most (0: none); seconds: a time limit (<= 0: none); cancel: an int
 * that stops the search once nonzero (may be NULL). Returns a C4_* status; the score
 * and the nodes searched are written to *score and *nodes.
 */
C4_EXPORT int c4_solve(C4 *s, uint64_t cur, uint64_t mask, int n, int lowest, int highest,
                       uint64_t budget, double seconds, volatile int32_t *cancel,
                       int32_t *score, uint64_t *nodes) {
    const int cells = s->cells;
    const uint64_t empty = s->board ^ mask;
    const uint64_t possible = (mask + s->bottom) & s->board;
    *nodes = 0;
    if ((cur & ~mask) || (mask & ~s->board) || n < 0 || n >= cells || popcount64(mask) != n)
        return C4_BAD;
    int lo, hi;
    if ((spots(s, cur) & empty & possible) || n >= cells - 1) {
        /* a win at once, or one cell left that wins nothing: no search */
        int v = (spots(s, cur) & empty & possible) ? (cells + 1 - n) / 2 : 0;
        if (v < lowest) v = lowest;
        if (v > highest) v = highest;
        *score = v;
        return C4_OK;
    }
    lo = -((cells - n) / 2);
    hi = (cells - 1 - n) / 2;
    if (lo < lowest) lo = lowest;
    if (hi > highest) hi = highest;
    s->nodes = 0;
    s->budget = budget;
    s->cancel = cancel;
    s->deadline = seconds > 0 ? now_seconds() + seconds : 0;
    s->status = C4_OK;
    while (lo < hi) {
        int med = lo + (hi - lo) / 2;
        if (med <= 0 && lo / 2 < med) med = lo / 2;
        else if (med >= 0 && hi / 2 > med) med = hi / 2;
        int r = negamax(s, cur, mask, n, med, med + 1);
        if (s->status) break;
        if (r <= med) hi = r > lo ? r : lo;
        else lo = r < hi ? r : hi;
    }
    *nodes = s->nodes;
    *score = lo;
    return s->status;
}
