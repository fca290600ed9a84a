// The source of pyk_execution_headers (tests/execution/CMakeLists.txt), the
// target whose precompiled headers every execution test program reuses.
// It compiles nothing of its own.
