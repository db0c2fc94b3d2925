// main.cu: exercise 03's harness. Everything it does is in find_repeats_harness.cu and common/.
#include "find_repeats_harness.h"

int main(int argc, char** argv) { return pmpp::run_exercise(find_repeats::exercise().erase(), argc, argv); }
