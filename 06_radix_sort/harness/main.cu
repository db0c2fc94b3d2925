// main.cu: exercise 06's harness. Everything it does is in radix_sort_harness.cu (and the files
// beside it) and common/.
#include "radix_sort_harness.h"

int main(int argc, char** argv) { return pmpp::run_exercise(radix_sort::exercise().erase(), argc, argv); }
