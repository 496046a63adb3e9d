// pons_style.cpp -- reference Connect Four solver for benchmarking.
//
// This is an INDEPENDENT implementation, written from the published
// description of the algorithm in Pascal Pons' Connect Four solver tutorial
// (final version: bitboards, negamax with alpha-beta, null-window search with
// a dichotomic/"half towards zero" probe sequence, anticipation of
// non-losing moves, move ordering by number of created threats with centre
// columns first among ties, and a transposition table holding both upper and
// lower bounds in one byte). It does NOT use an opening book. No code was
// copied from his (AGPL) sources; only the algorithm is reproduced so that
// node counts are comparable with his published figures.
//
// Build: g++ -O3 -march=native -std=c++17 -o pons_style pons_style.cpp
//   (another board: add -DWIDTH=9 -DHEIGHT=5; at most 56 key bits, W * (H + 1))
// Usage: pons_style [-w] [--keep-table] [--literal-order] < positions.txt
//   Each input line: "MOVES" or "MOVES SCORE" (columns 1..W). An empty line
//   or "-" is the empty board. With a SCORE column the result is checked.
//   -w             weak solve (win/draw/loss only: score in {-1,0,1})
//   --keep-table   do not clear the transposition table between positions
//                  (default: clear before each position, like the tutorial's
//                  benchmark driver)
//   --literal-order  add moves to the sorter in centre-first order
//                  (3,2,4,1,5,0,6) instead of the reverse; because the sorter
//                  returns the last-added among equal scores first, this makes
//                  ties come out edge-first (diagnostic only).
// Output per line: MOVES SCORE NODES MICROSECONDS [ok|MISMATCH ref=X]
// followed by totals.

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace c4 {

// The board: 7 x 6 unless built with -DWIDTH=W -DHEIGHT=H (other boards, as Pons' BOARD constants).
#ifndef WIDTH
#define WIDTH 7
#endif
#ifndef HEIGHT
#define HEIGHT 6
#endif
constexpr int W = WIDTH;
constexpr int H = HEIGHT;
constexpr int MIN_SCORE = -(W * H) / 2 + 3;    // -18 on 7 x 6
constexpr int MAX_SCORE = (W * H + 1) / 2 - 3; //  18 on 7 x 6
static_assert(W * (H + 1) <= 64, "board must fit in 64 bits");

constexpr uint64_t bottomMaskAll() {
    uint64_t m = 0;
    for (int c = 0; c < W; ++c) m |= uint64_t(1) << (c * (H + 1));
    return m;
}
constexpr uint64_t BOTTOM = bottomMaskAll();
constexpr uint64_t BOARD = BOTTOM * ((uint64_t(1) << H) - 1);

constexpr uint64_t colMask(int c) { return ((uint64_t(1) << H) - 1) << (c * (H + 1)); }
constexpr uint64_t colBottom(int c) { return uint64_t(1) << (c * (H + 1)); }
constexpr uint64_t colTop(int c) { return uint64_t(1) << (H - 1 + c * (H + 1)); }

// Empty cells that would complete an alignment of four for the stones in `pos`.
inline uint64_t winningCells(uint64_t pos, uint64_t mask) {
    // vertical: three stones directly below
    uint64_t r = (pos << 1) & (pos << 2) & (pos << 3);
    // the other three directions: shift s = H+1 (horizontal), H (one diagonal),
    // H+2 (the other diagonal)
    const int shifts[3] = {H + 1, H, H + 2};
    for (int s : shifts) {
        uint64_t a = (pos << s) & (pos << (2 * s));
        r |= a & (pos << (3 * s));
        r |= a & (pos >> s);
        uint64_t b = (pos >> s) & (pos >> (2 * s));
        r |= b & (pos << s);
        r |= b & (pos >> (3 * s));
    }
    return r & (BOARD ^ mask);
}

inline int popcount(uint64_t x) { return __builtin_popcountll(x); }

struct Position {
    uint64_t current = 0; // stones of the player to move
    uint64_t mask = 0;    // all stones
    int moves = 0;

    uint64_t key() const { return current + mask; }
    uint64_t possible() const { return (mask + BOTTOM) & BOARD; }
    uint64_t winningPosition() const { return winningCells(current, mask); }
    uint64_t opponentWinningPosition() const { return winningCells(current ^ mask, mask); }
    bool canWinNext() const { return (winningPosition() & possible()) != 0; }
    bool canPlay(int c) const { return (mask & colTop(c)) == 0; }
    bool isWinningMove(int c) const { return (winningPosition() & possible() & colMask(c)) != 0; }

    void play(uint64_t move) {
        current ^= mask;
        mask |= move;
        ++moves;
    }
    void playCol(int c) { play((mask + colBottom(c)) & colMask(c)); }

    // Moves that do not give the opponent an immediate win (0 if every move loses).
    uint64_t possibleNonLosingMoves() const {
        uint64_t possibleMask = possible();
        const uint64_t oppWin = opponentWinningPosition();
        const uint64_t forced = possibleMask & oppWin;
        if (forced) {
            if (forced & (forced - 1)) return 0; // two threats at once: lost
            possibleMask = forced;
        }
        return possibleMask & ~(oppWin >> 1); // never play below an opponent threat
    }

    int moveScore(uint64_t move) const { return popcount(winningCells(current | move, mask)); }

    // Plays a sequence of columns '1'..'7'. Returns false on an invalid move
    // (bad character, full column, or a move that would end the game).
    bool playSequence(const std::string& seq) {
        for (char ch : seq) {
            int c = ch - '1';
            if (c < 0 || c >= W || !canPlay(c) || isWinningMove(c)) return false;
            playCol(c);
        }
        return true;
    }
};

// Always-replace transposition table, 32-bit partial keys. With an odd table
// size and keys < size * 2^32, (key % SIZE, key mod 2^32) identifies the key.
class TransTable {
public:
    static constexpr uint64_t SIZE = 16777259; // the first prime above 2^24, as in the tutorial's final solver (84 MB)
    static_assert(SIZE % 2 == 1, "size must be odd for partial keys to be exact");
    static_assert(W * (H + 1) <= 32 + 24, "partial keys not unique for this size");

    TransTable() : keys(SIZE), vals(SIZE) { reset(); }
    void reset() {
        std::memset(keys.data(), 0, keys.size() * sizeof(uint32_t));
        std::memset(vals.data(), 0, vals.size() * sizeof(uint8_t));
    }
    void put(uint64_t key, uint8_t v) {
        const uint64_t i = key % SIZE;
        keys[i] = uint32_t(key);
        vals[i] = v;
    }
    uint8_t get(uint64_t key) const {
        const uint64_t i = key % SIZE;
        return keys[i] == uint32_t(key) ? vals[i] : 0;
    }

private:
    std::vector<uint32_t> keys;
    std::vector<uint8_t> vals;
};

// Insertion-sorted list; getNext() pops the highest score, and among equal
// scores the most recently added entry.
class MoveSorter {
public:
    void add(uint64_t move, int score) {
        int pos = n++;
        while (pos && entries[pos - 1].score > score) {
            entries[pos] = entries[pos - 1];
            --pos;
        }
        entries[pos].move = move;
        entries[pos].score = score;
    }
    uint64_t getNext() { return n ? entries[--n].move : 0; }

private:
    struct Entry {
        uint64_t move;
        int score;
    };
    Entry entries[W];
    int n = 0;
};

class Solver {
public:
    uint64_t nodes = 0;
    bool literalOrder = false;
    // A position whose search passes this many nodes is given up (Budget is thrown): for rating positions.
    uint64_t maxNodes = ~uint64_t(0);
    struct Budget {};

    Solver() {
        for (int i = 0; i < W; ++i) order[i] = W / 2 + (1 - 2 * (i % 2)) * (i + 1) / 2; // 3,2,4,1,5,0,6
    }
    void reset() {
        nodes = 0;
        table.reset();
    }

    int solve(const Position& P, bool weak) {
        if (P.canWinNext()) return (W * H + 1 - P.moves) / 2;
        int lo = -(W * H - P.moves) / 2;
        int hi = (W * H + 1 - P.moves) / 2;
        if (weak) {
            lo = -1;
            hi = 1;
        }
        while (lo < hi) {
            int med = lo + (hi - lo) / 2;
            if (med <= 0 && lo / 2 < med) med = lo / 2;
            else if (med >= 0 && hi / 2 > med) med = hi / 2;
            const int r = negamax(P, med, med + 1);
            if (r <= med) hi = r;
            else lo = r;
        }
        return lo;
    }

private:
    TransTable table;
    int order[W];

    int negamax(const Position& P, int alpha, int beta) {
        // precondition: alpha < beta and !P.canWinNext()
        if (++nodes > maxNodes) throw Budget{};
        const uint64_t next = P.possibleNonLosingMoves();
        if (next == 0) return -(W * H - P.moves) / 2;
        if (P.moves >= W * H - 2) return 0;

        int lo = -(W * H - 2 - P.moves) / 2;
        if (alpha < lo) {
            alpha = lo;
            if (alpha >= beta) return alpha;
        }
        int hi = (W * H - 1 - P.moves) / 2;
        if (beta > hi) {
            beta = hi;
            if (alpha >= beta) return beta;
        }

        const uint64_t key = P.key();
        if (int v = table.get(key)) {
            if (v > MAX_SCORE - MIN_SCORE + 1) { // lower bound
                lo = v + 2 * MIN_SCORE - MAX_SCORE - 2;
                if (alpha < lo) {
                    alpha = lo;
                    if (alpha >= beta) return alpha;
                }
            } else { // upper bound
                hi = v + MIN_SCORE - 1;
                if (beta > hi) {
                    beta = hi;
                    if (alpha >= beta) return beta;
                }
            }
        }

        MoveSorter moves;
        if (literalOrder) {
            for (int i = 0; i < W; ++i)
                if (uint64_t m = next & colMask(order[i])) moves.add(m, P.moveScore(m));
        } else {
            // reverse order, so that among equal scores centre columns come out first
            for (int i = W; i--;)
                if (uint64_t m = next & colMask(order[i])) moves.add(m, P.moveScore(m));
        }

        while (uint64_t m = moves.getNext()) {
            Position P2(P);
            P2.play(m);
            const int score = -negamax(P2, -beta, -alpha);
            if (score >= beta) {
                table.put(key, uint8_t(score + MAX_SCORE - 2 * MIN_SCORE + 2));
                return score;
            }
            if (score > alpha) alpha = score;
        }
        table.put(key, uint8_t(alpha - MIN_SCORE + 1));
        return alpha;
    }
};

} // namespace c4

static int sign(int x) { return (x > 0) - (x < 0); }

int main(int argc, char** argv) {
    bool weak = false, keep = false, literal = false;
    unsigned long long maxNodes = ~0ULL;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "-w") weak = true;
        else if (a == "--keep-table") keep = true;
        else if (a == "--literal-order") literal = true;
        else if (a == "--max-nodes" && i + 1 < argc) maxNodes = std::strtoull(argv[++i], nullptr, 10);
        else {
            std::fprintf(stderr, "usage: %s [-w] [--keep-table] [--literal-order] [--max-nodes N] < file\n",
                         argv[0]);
            return 2;
        }
    }

    static c4::Solver solver; // ~84 MB table
    solver.literalOrder = literal;
    solver.maxNodes = maxNodes;

    std::string line;
    long lineNo = 0, positions = 0, invalid = 0, checked = 0, mismatches = 0;
    unsigned long long totalNodes = 0, totalNs = 0;
    while (std::getline(std::cin, line)) {
        ++lineNo;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        std::istringstream in(line);
        std::string seq, refTok;
        in >> seq >> refTok;
        if (seq == "-") seq.clear();
        c4::Position P;
        if (!P.playSequence(seq)) {
            std::fprintf(stderr, "line %ld: invalid sequence '%s'\n", lineNo, seq.c_str());
            ++invalid;
            continue;
        }
        if (keep) solver.nodes = 0;
        else solver.reset(); // reset is outside the timed region
        const auto t0 = std::chrono::steady_clock::now();
        int score = 0;
        try {
            score = solver.solve(P, weak);
        } catch (const c4::Solver::Budget&) {
            // Over the node budget: no score, and the position counts in no total.
            std::printf("%s over %llu\n", seq.empty() ? "-" : seq.c_str(), (unsigned long long)solver.nodes - 1);
            std::fflush(stdout);
            continue;
        }
        const auto t1 = std::chrono::steady_clock::now();
        // Nanoseconds: an easy position takes a few microseconds, whole microseconds would round its time away.
        const unsigned long long ns =
            std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count();
        const unsigned long long us = ns / 1000;
        ++positions;
        totalNodes += solver.nodes;
        totalNs += ns;
        std::printf("%s %d %llu %llu", seq.empty() ? "-" : seq.c_str(), score,
                    (unsigned long long)solver.nodes, us);
        if (!refTok.empty()) {
            const int ref = std::atoi(refTok.c_str());
            ++checked;
            const bool ok = weak ? sign(ref) == score : ref == score;
            if (ok) std::printf(" ok");
            else {
                std::printf(" MISMATCH ref=%d", ref);
                ++mismatches;
            }
        }
        std::printf("\n");
        std::fflush(stdout);
    }
    std::printf("# positions %ld  invalid %ld  checked %ld  mismatches %ld\n", positions, invalid,
                checked, mismatches);
    if (positions) {
        std::printf("# total solve time %.6f s  mean time/position %.3f us (%.6f s)\n",
                    totalNs / 1e9, double(totalNs) / positions / 1e3, double(totalNs) / positions / 1e9);
        std::printf("# total nodes %llu  mean nodes/position %.1f\n", totalNodes,
                    double(totalNodes) / positions);
    }
    return mismatches ? 1 : 0;
}
