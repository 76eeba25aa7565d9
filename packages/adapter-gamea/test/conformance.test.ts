import { adapterConformance } from '@garrison/testkit';
import gamea from '@garrison/adapter-gamea';

// The suite any adapter runs in its own tests: gamea holds itself to it like everyone else.
adapterConformance(gamea, {
  validMissionFile: 'co10_Escape.Altis.pbo',
  sampleLogLines: ['12:00:01 Dedicated host created.', "12:00:02 Warning Message: No entry 'bin\\config.bin/CfgVehicles'."],
});
