// The student's functions, each with one classic mistake of this exercise (README.md, "Hints"):
// what a student's co_rank_student, merge_basic_student, merge_tiled_student or sort_student
// really outputs when it makes that mistake. Each comment says the mistake as the student made it.
// The merges and sorts are instantiated for every key type (MERGE_SORT_FOR_EACH_KEY). Every one
// stays inside the arrays it is given: the check, not a crash, must report the mistake.
#pragma once

#include "../merge_sort.h"

#include <cstddef>

namespace wrong {

// ---- task 1, co-rank (host and device) ---------------------------------------------------------

// My search moves left when A's element is not before B's, `!less(a[mid], b[k - 1 - mid])`: on a
// tie B's element goes first.
template <class Key, class Less>
PMPP_HD std::size_t co_rank_ties_from_b(std::size_t k, const Key* a, std::size_t na, const Key* b, std::size_t nb,
                                        Less less) {
    std::size_t lo = k > nb ? k - nb : 0;
    std::size_t hi = k < na ? k : na;
    while (lo < hi) {
        const std::size_t mid = lo + (hi - lo) / 2;
        if (!less(a[mid], b[k - 1 - mid]))
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

// My search starts at lo = k - nb, as the book's int code does: with std::size_t that wraps
// around when k < nb.
template <class Key, class Less>
PMPP_HD std::size_t co_rank_lower_bound_wraps(std::size_t k, const Key* a, std::size_t na, const Key* b, std::size_t nb,
                                              Less less) {
    std::size_t lo = k - nb;
    std::size_t hi = k < na ? k : na;
    while (lo < hi) {
        const std::size_t mid = lo + (hi - lo) / 2;
        if (less(b[k - 1 - mid], a[mid]))
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

// ---- task 2, the basic merge (8 outputs per thread) ----------------------------------------------

// Each thread starts its part of A at co_rank(k0 - 1) + 1, one past the part of the output before
// its slice, where co_rank(k0) is right: when output k0 - 1 came from B, the slice skips an
// element of A and repeats that element of B.
template <class Key>
void merge_basic_slice_starts_one_late(const Key* a, std::size_t na, const Key* b, std::size_t nb, Key* c,
                                       std::size_t* splits);
// One thread per 8 outputs, counted total / 8: rounded down, so the last total % 8 outputs (all of
// them below 8) have no thread.
template <class Key>
void merge_basic_grid_rounded_down(const Key* a, std::size_t na, const Key* b, std::size_t nb, Key* c,
                                   std::size_t* splits);
// Each thread copies its piece of A and then its piece of B, without merging the two.
template <class Key>
void merge_basic_pieces_not_merged(const Key* a, std::size_t na, const Key* b, std::size_t nb, Key* c,
                                   std::size_t* splits);

// ---- task 3, the tiled merge (tiles of 1024, block ranges of 4096 outputs) ------------------------

// After each step A and B advance by the whole tiles loaded ("the step used its tiles"), not by
// what the step consumed (co-rank of the tile's end).
template <class Key>
void merge_tiled_advancing_whole_tiles(const Key* a, std::size_t na, const Key* b, std::size_t nb, Key* c,
                                       std::size_t* splits);

// ---- task 4, the sort (tiles of 1024 sorted in shared memory, then merge passes) ----------------

// The tile sort writes keys_scratch and the passes alternate from there (keys_out, keys_scratch,
// ...) whatever their number: with an even number of passes (none for n <= 1024) the result ends
// in keys_scratch.
template <class Key, class Value>
void sort_ping_pong_from_scratch(const merge_sort::SortArgs<Key, Value>& args, std::size_t n);
// The passes are counted while 2 * width < n, not while width < n: one pass short, so the last
// two runs are never merged.
template <class Key, class Value>
void sort_one_pass_short(const merge_sort::SortArgs<Key, Value>& args, std::size_t n);
// The pass loop runs while the run width is below the number of tiles, not below n: up to 2^20
// keys no pass runs, and the sorted tiles are never merged.
template <class Key, class Value>
void sort_passes_counted_in_tiles(const merge_sort::SortArgs<Key, Value>& args, std::size_t n);
// The merge passes let the run on the right win ties (B's element first on equal keys).
template <class Key, class Value>
void sort_passes_take_ties_from_b(const merge_sort::SortArgs<Key, Value>& args, std::size_t n);

}  // namespace wrong
