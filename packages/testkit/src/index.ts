/** @garrison/testkit — fakes of the game for tests: see README.md. */
export {};
