// merge_sort_student.cu: YOUR FILE. Tasks 1-4 (README.md), then `make run`.
//
// The harness calls co_rank_student, merge_basic_student, merge_tiled_student and sort_student
// (declared in merge_sort.h) for five key types: uint32, int32, float, uint64 and Event (a struct
// ordered by its time field only). Write each once, as a template, and compare keys only with
// `less`, never with <. The last line of this file instantiates them for every type: keep it.
//
// Until you write them, the check rejects this file: outputs are filled with 0xFF bytes before
// every run, so an output you never write is reported as never written.
#include "merge_sort.h"

#include "common/cuda_check.h"

namespace merge_sort {

// Given (PMPP 12.2): c[0, na + nb) = merge of a[0, na) and b[0, nb). On equal keys a's element
// goes first: that makes the merge, and a merge sort built on it, stable. Values move with their
// keys; for keys only, Value is NoValues and the value pointers are null (the keys-only overload).
template <class Key, class Value, class Less>
__host__ __device__ void merge_sequential_student(const Key* a, const Value* av, std::size_t na, const Key* b,
                                                  const Value* bv, std::size_t nb, Key* c, Value* cv, Less less) {
    std::size_t i = 0, j = 0;
    for (std::size_t k = 0; k < na + nb; ++k) {
        const bool take_b = i == na || (j < nb && less(b[j], a[i]));  // b[j] only if strictly before a[i]
        if (take_b) {
            c[k] = b[j];
            if constexpr (kHasValues<Value>) cv[k] = bv[j];
            ++j;
        } else {
            c[k] = a[i];
            if constexpr (kHasValues<Value>) cv[k] = av[i];
            ++i;
        }
    }
}
template <class Key, class Less>
__host__ __device__ void merge_sequential_student(const Key* a, std::size_t na, const Key* b, std::size_t nb, Key* c,
                                                  Less less) {
    merge_sequential_student(a, static_cast<const NoValues*>(nullptr), na, b, static_cast<const NoValues*>(nullptr), nb,
                             c, static_cast<NoValues*>(nullptr), less);
}

// Task 1 (PMPP 12.3-12.4): the co-rank. Return i, the number of elements of a among the first k
// outputs of the merge, so that c[0, k) is the merge of a[0, i) and b[0, k - i). i lies in
// [max(0, k - nb), min(k, na)]: search that range (a binary search, or the book's loop). Ties as in
// merge_sequential_student: a[i] goes before b[j] unless less(b[j], a[i]). The harness checks it on
// the host against every k of its merge cases before it runs your kernels.
template <class Key, class Less>
__host__ __device__ std::size_t co_rank_student(std::size_t k, const Key* a, std::size_t na, const Key* b,
                                                std::size_t nb, Less less) {
    // TODO(task 1)
    (void)k, (void)a, (void)na, (void)b, (void)nb, (void)less;
    return 0;
}

// Task 2 (PMPP 12.5): the basic merge kernel. Each thread owns a contiguous slice of c: two calls
// of co_rank_student give where the slice starts and ends in a and in b, and
// merge_sequential_student merges it. Use std::size_t for indices: na + nb may exceed 2^31.
template <class Key, class Less>
__global__ void merge_basic_kernel(const Key* a, std::size_t na, const Key* b, std::size_t nb, Key* c, Less less) {
    // TODO(task 2)
}

// Launch merge_basic_kernel with enough threads for na + nb outputs (you choose how many outputs
// each thread merges; handle na + nb == 0), then PMPP_CHECK_LAUNCH(). `splits` is scratch you may
// use or ignore: split_capacity(na + nb) entries.
template <class Key, class Less>
void merge_basic_student(const Key* a, std::size_t na, const Key* b, std::size_t nb, Key* c, std::size_t* splits,
                         Less less) {
    // TODO(task 2)
    (void)a, (void)na, (void)b, (void)nb, (void)c, (void)splits, (void)less;
}

// Task 3 (PMPP 12.6): the tiled merge. Each block owns a contiguous range of c and finds its
// pieces of a and b with co_rank_student (one thread each for the start and the end, shared with
// the block). Then, until its range is done: load a tile of a and a tile of b into shared memory
// (coalesced: consecutive threads, consecutive elements), let every thread merge its share of the
// next tile-size outputs from shared memory, and advance a and b by how much that step consumed
// (co-rank once more). Reuse merge_sequential_student and co_rank_student on shared memory.
template <class Key, class Less>
__global__ void merge_tiled_kernel(const Key* a, std::size_t na, const Key* b, std::size_t nb, Key* c, Less less) {
    // TODO(task 3)
}

template <class Key, class Less>
void merge_tiled_student(const Key* a, std::size_t na, const Key* b, std::size_t nb, Key* c, std::size_t* splits,
                         Less less) {
    // TODO(task 3)
    (void)a, (void)na, (void)b, (void)nb, (void)c, (void)splits, (void)less;
}

// Task 4 (PMPP 13.7): a stable merge sort of args.keys_in into args.keys_out (and values), built
// on your merge. A plan that works (README.md):
//  1. sort tiles: each block loads a tile (say 1024 keys) into shared memory and sorts it there
//     by merging runs of 1, 2, 4, ... pairwise, co-rank giving every thread an equal slice of each
//     level; it writes sorted runs of the tile size;
//  2. merge passes of width w = tile, 2 tile, 4 tile, ...: runs 2p and 2p + 1 merge into one,
//     and the whole pass is split evenly among blocks by co-rank, as in your tiled merge;
//  3. alternate between keys_out and keys_scratch so that the last step writes keys_out (count
//     the passes first). keys_in must stay unchanged.
// When Value is not NoValues, values[i] goes wherever keys[i] goes.
template <class Key, class Value, class Less>
void sort_student(const SortArgs<Key, Value>& args, std::size_t n, Less less) {
    // TODO(task 4)
    (void)args, (void)n, (void)less;
}

MERGE_SORT_FOR_EACH_KEY(MERGE_SORT_INSTANTIATE_STUDENT)

}  // namespace merge_sort
