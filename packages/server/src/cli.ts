#!/usr/bin/env node
import 'reflect-metadata';
import { main } from './cli/main.js';

main(process.argv.slice(2));
