// main.cu: exercise 05's harness. Everything it does is in bitonic_harness.cu, bitonic_check.cu and common/.
#include "bitonic_harness.h"

int main(int argc, char** argv) { return pmpp::run_exercise(bitonic::exercise().erase(), argc, argv); }
