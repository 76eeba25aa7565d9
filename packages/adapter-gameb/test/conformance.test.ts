import { adapterConformance } from '@garrison/testkit';
import gameb from '../src/index.js';

// The suite every adapter runs in its own tests.
adapterConformance(gameb, {
  validMissionFile: 'de_dust2.bsp',
  sampleLogLines: ['L 11/27/2026 - 02:07:19: Loading map "de_dust2"', 'L 11/27/2026 - 02:07:20: Error: something broke'],
});
