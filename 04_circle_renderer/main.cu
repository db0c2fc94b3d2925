// main.cu: exercise 04's harness. Everything it does is in render_harness.cu and common/.
#include "render_harness.h"

int main(int argc, char** argv) { return pmpp::run_exercise(circles::exercise(), argc, argv); }
