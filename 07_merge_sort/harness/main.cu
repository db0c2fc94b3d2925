// main.cu: exercise 07's harness. Everything it does is in merge_sort_harness.cu and common/.
#include "merge_sort_harness.h"

int main(int argc, char** argv) { return pmpp::run_exercise(merge_sort::exercise().erase(), argc, argv); }
