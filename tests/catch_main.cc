// The one Catch2 main, compiled once into the object library pbem_catch_main and linked into
// every Catch2 test executable (see pbem_add_catch_test in cmake/PbemHelpers.cmake).
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
