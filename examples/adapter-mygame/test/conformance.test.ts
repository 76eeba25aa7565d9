import { adapterConformance } from '@garrison/testkit';
import adapter from '../src/index.js';

adapterConformance(adapter, { validMissionFile: 'desert_storm.map', sampleLogLines: ['[INFO] Server started', '[ERROR] Map not found'] });
