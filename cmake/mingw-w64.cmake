# Cross-compiling Jiangjun for 64-bit Windows with MinGW-w64 (Debian: gcc-mingw-w64-x86-64).
#   cmake -S . -B build-win -DCMAKE_TOOLCHAIN_FILE=cmake/mingw-w64.cmake -DXQ_TESTS=OFF
#   cmake --build build-win -j        # -> build-win/jiangjun.exe (static, runs under wine)
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(XQ_MINGW_PREFIX x86_64-w64-mingw32)
# Debian ships a -posix variant (winpthreads threading model); either works for a C program.
find_program(CMAKE_C_COMPILER NAMES ${XQ_MINGW_PREFIX}-gcc-posix ${XQ_MINGW_PREFIX}-gcc REQUIRED)
find_program(CMAKE_RC_COMPILER NAMES ${XQ_MINGW_PREFIX}-windres)
set(CMAKE_FIND_ROOT_PATH /usr/${XQ_MINGW_PREFIX})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
