/*
 * train_ckpt.h - trainer checkpoints (float weights and Adam state) and the
 * -init start net (a checkpoint, or a .nnue file dequantised).
 *
 * Checkpoint file (version 2), little-endian:
 *   0   8 bytes magic "XQCKPT\0\2"
 *   8   uint32 hidden
 *   12  uint32 epochs trained when written
 *   16  uint64 Adam step count
 *   24  uint32 1 if the Adam moments follow, else 0
 *   28  uint32 virtual rows (TRAIN_VIRTUAL_ROWS, 280)
 *   32  float32 params[size] (train_model.h's layout: real rows, virtual rows, dense parts), then
 *       m[size] and v[size] if present, where size = (1260 + 280) * hidden + hidden + 8 * 2 * hidden + 8
 * Version 1 ("XQCKPT\0\1", offset 28 reserved 0) has no virtual rows (size without the 280 * hidden);
 * it loads with zero virtual rows and zero moments for them.
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
