// merge_sort_solution.cu: the reference answer in the student's slot. `make` links it into
// build/merge_sort_solution, which must pass every check: proof that the harness accepts a right
// answer. Tasks 1-3 are the textbook references (merge_sort_1_basic.cuh, variants 1 and 2); task
// 4 is the fast sort (variant 4).
#include "merge_sort_1_basic.cuh"

namespace merge_sort {

template <class Key, class Less>
PMPP_HD_EXTERN std::size_t co_rank_student(std::size_t k, const Key* a, std::size_t na, const Key* b, std::size_t nb,
                                           Less less) {
    return co_rank(k, a, na, b, nb, less);
}

template <class Key, class Less>
void merge_basic_student(const Key* a, std::size_t na, const Key* b, std::size_t nb, Key* c, std::size_t* splits,
                         Less less) {
    merge_basic(a, na, b, nb, c, splits, less);
}

template <class Key, class Less>
void merge_tiled_student(const Key* a, std::size_t na, const Key* b, std::size_t nb, Key* c, std::size_t* splits,
                         Less less) {
    merge_tiled(a, na, b, nb, c, splits, less);
}

template <class Key, class Value, class Less>
void sort_student(const SortArgs<Key, Value>& args, std::size_t n, Less less) {
    sort_fast(args, n, less);
}

MERGE_SORT_FOR_EACH_KEY(MERGE_SORT_INSTANTIATE_STUDENT)

}  // namespace merge_sort
