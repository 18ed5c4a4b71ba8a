#!/usr/bin/env node
// The bin exists before the first build, so npm links it on install; the code is the built CLI.
require('../dist/cli/agp-rego.js');
