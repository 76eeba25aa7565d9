import { Type } from '../typebox.js';

export const RconCommandRequest = Type.Object(
  {
    // One line of printable text: remote admin commands are single lines, and a datagram is no place for more.
    command: Type.String({ minLength: 1, maxLength: 4096, pattern: '^[^\\x00-\\x1f\\x7f]+$' }),
  },
  { additionalProperties: false },
);

export const RconCommandResponse = Type.Object({ response: Type.String() }, { $id: 'RconCommandResponse' });
