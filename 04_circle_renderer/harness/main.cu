// main.cu: exercise 04's harness. Everything it does is in the other files of harness/ and common/.
#include "render_harness.h"

int main(int argc, char** argv) { return pmpp::run_exercise(render::exercise().erase(), argc, argv); }
