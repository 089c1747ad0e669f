#!/usr/bin/env node
// Runs the built dist/cli.js. npm links a workspace's bins before the root `prepare` builds
// dist/, and skips a bin whose file is missing, so the bin is this file, which is always there.
import '../dist/cli.js';
