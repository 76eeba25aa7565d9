// BattlEye RCon lives in core (several games speak it, and the testkit's fake server needs it without
// this adapter); this path stays for code that imported it from here.
export * from '@garrison/battleye';
