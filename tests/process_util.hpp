// Moved into tests/test_util.hpp, the one header of shared test helpers; this name stays only for
// tests written against it before the move. New tests include tests/test_util.hpp.
#pragma once

#include "tests/test_util.hpp"
