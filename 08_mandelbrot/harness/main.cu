// main.cu: exercise 08's harness. Everything it does is in mandelbrot_harness.cu and common/.
#include "mandelbrot_harness.h"

int main(int argc, char** argv) { return pmpp::run_exercise(mandelbrot::exercise().erase(), argc, argv); }
