#!/usr/bin/env node
// The `toolwire` command runs the built dist/bin.js. npm links a workspace's bins before the root
// `prepare` builds dist/, and skips a bin whose file is missing, so the bin is this file, which
// is always there: `npx toolwire` works right after `npm install` in a fresh clone.
import '../dist/bin.js';
