// board.hpp — the device memory each running program holds, for `gpulab smi`
// (board.cpp; the reader is tools/gpulab_smi.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace gpulab_sim
{

constexpr int board_devices = 16;
constexpr uint64_t board_magic = 0x67706c6230310001ULL; // the layout below, version 1

// One program's file: written by the program, read by `gpulab smi`.
struct board_entry {
    uint64_t magic;
    int64_t pid;
    uint64_t used[board_devices]; // bytes of device memory held on each device
    char name[4096];              // the program's path
};

// Where the files are.
std::string board_dir();
// Device `device` now holds `bytes` of this program's allocations.
void board_set_used(int device, size_t bytes);

} // namespace gpulab_sim
