import { adapterConformance } from '@garrison/testkit';
import minimal from './fixtures/minimal-adapter.js';

// The smallest adapter the plugin tests load (one capability) passes the same suite as gamea.
adapterConformance(minimal);
