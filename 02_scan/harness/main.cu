// main.cu: exercise 02's harness. Everything it does is in scan_harness.cu and common/.
#include "scan_harness.h"

int main(int argc, char** argv) { return pmpp::run_exercise(scan::exercise().erase(), argc, argv); }
