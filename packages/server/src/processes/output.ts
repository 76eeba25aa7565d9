/** Where a game's stdout and stderr go, in its server folder: a file, never a pipe, so the game does not depend on the service. */
export const OUTPUT_FILE = 'output.log';
