#include "app/dlbench_main.h"

int main(int argc, char** argv) { return dlbench::app::Main(argc, argv); }
