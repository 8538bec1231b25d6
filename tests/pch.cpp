// The translation unit that compiles tests/pch.hpp once for every test (tests/CMakeLists.txt).
