#!/usr/bin/env node
// A committed entry, so npm can link the command before the package is built.
import '../dist/cli.js';
