/**
 * The game's start command as people keep it (a shell script, a .bat file, a panel's field): split into
 * words as a shell would (double and single quotes anywhere in a word, `\` or `^` continuing a line),
 * then read as the game reads its `-name=value` parameters, in any case.
 */
export interface StartCommand {
  /** Each `-parameter`, by its lower-case name: its value, or true for a bare switch. The last one wins. */
  parameters: Map<string, string | true>;
  /** `-mod=` and `-serverMod=` as folder lists (`;`-separated, several parameters added up). */
  mods: string[];
  serverMods: string[];
  /** Words that are not parameters (the executable, `start`, `/wait`…), in order. */
  others: string[];
}

export function splitWords(text: string): string[] {
  const joined = text.replace(/[\\^]\r?\n/g, ' ');
  const words: string[] = [];
  let word = '';
  let quote: '"' | "'" | null = null;
  let inWord = false;
  for (const c of joined) {
    if (quote) {
      if (c === quote) quote = null;
      else word += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}

const folders = (value: string) =>
  value
    .split(';')
    .map((f) => f.trim())
    .filter(Boolean);

export function readStartCommand(text: string): StartCommand {
  const command: StartCommand = { parameters: new Map(), mods: [], serverMods: [], others: [] };
  for (const word of splitWords(text)) {
    const m = /^-([A-Za-z][A-Za-z0-9_]*)(?:=(.*))?$/s.exec(word);
    if (!m) {
      command.others.push(word);
      continue;
    }
    const name = m[1].toLowerCase();
    const value = m[2] ?? true;
    if (name === 'mod' && typeof value === 'string') command.mods.push(...folders(value));
    else if (name === 'servermod' && typeof value === 'string') command.serverMods.push(...folders(value));
    command.parameters.set(name, value);
  }
  return command;
}
