/*
 * train_ckpt.h - trainer checkpoints (float weights and Adam state) and the
 * -init start net (a checkpoint, or a .nnue file dequantised).
 *
 * Checkpoint file (version 3), little-endian:
 *   0   8 bytes magic "XQCKPT\0\3"
 *   8   uint32 hidden
 *   12  uint32 epochs trained when written
 *   16  uint64 Adam step count
 *   24  uint32 1 if the Adam moments follow, else 0
 *   28  uint32 virtual rows (train_model.h: 280 in feature set 1, 1260 + 280 in feature set 2)
 *   32  uint32 feature set, 36 uint32 inputs (1260 or 7560)
 *   40  float32 params[size] (train_model.h's layout: real rows, virtual rows, dense parts), then
 *       m[size] and v[size] if present, where size = (inputs + virtual) * hidden + hidden + 8 * 2 * hidden + 8
 * Versions 1 and 2 have a 32-byte header (the fields up to offset 28) and feature set 1. Version 2 has the
 * 280 virtual rows; version 1 ("XQCKPT\0\1", offset 28 reserved 0) none (size without the 280 * hidden): it
 * loads with zero virtual rows and zero moments for them.
 */
#ifndef XQ_TRAIN_CKPT_H
#define XQ_TRAIN_CKPT_H

#include "train_opt.h"

/* Writes a checkpoint of net and its Adam state after `epoch` epochs. */
bool ckpt_save(const char *path, const Net *net, const Adam *adam, int epoch, XqError *err);
/*
 * Loads a start net from a checkpoint (weights, and Adam state when present) or a .nnue file
 * (dequantised; Adam starts afresh). Allocates net and adam; false with err on failure.
 */
bool init_from_file(const char *path, Net *net, Adam *adam, XqError *err);

#endif
