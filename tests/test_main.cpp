// The one Catch2 main of the suite, compiled once and linked into every test program.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
