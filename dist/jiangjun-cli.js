#!/usr/bin/env node
// jiangjun-cli.js - the npm package's command: runs the WebAssembly engine (jiangjun.js + jiangjun.wasm) under
// node with the command line and stdin/stdout of this process. Emscripten's loader fetches the .wasm with
// fetch() when it exists, which node 18+ has but cannot use on a file path: without it the loader reads the
// file from disk.
'use strict';
delete globalThis.fetch;
require('./jiangjun.js');
