// main.cu: exercise 01's harness. Everything it does is in saxpy_harness.cu and common/.
#include "saxpy_harness.h"

int main(int argc, char** argv) { return pmpp::run_exercise(saxpy::exercise().erase(), argc, argv); }
