/**
 * The game's config syntax (cfg files, as the console reads them): one command per line, or several split
 * by `;`; words split by spaces, a quoted word running to its closing quote (there is no escape: a quote
 * cannot be inside one); `//` starts a comment that runs to the end of the line. A cvar is set by its
 * name and value: `hostname "My Server"`, `sv_maxrate 0`, or unquoted words (`hostname My Server`).
 */

/** A value as the game reads it back in quotes: quotes and control characters cannot be written, each becomes a space. */
export function quote(value: string): string {
  // eslint-disable-next-line no-control-regex
  return `"${value.replace(/["\u0000-\u001f\u007f\u2028\u2029]/g, ' ')}"`;
}

/** `name "value"` for text, `name 0` for a number. */
export function cvarLine(name: string, value: string | number): string {
  return `${name} ${typeof value === 'number' ? String(value) : quote(value)}`;
}

export interface Statement {
  /** The command or cvar name as written. */
  name: string;
  /** The words after it, quotes removed. */
  args: string[];
  /** What a cvar is set to: the one word after the name, or all the rest (quotes of a whole value removed). */
  value: string;
  /** Whether a quote was opened and not closed on the line. */
  unclosedQuote: boolean;
}

/** The text of a line before its `//` comment (a `//` inside quotes is part of a value, as in a URL). */
function withoutComment(line: string): string {
  let quoted = false;
  for (let i = 0; i < line.length; i += 1) {
    if (line[i] === '"') quoted = !quoted;
    else if (!quoted && line.startsWith('//', i)) return line.slice(0, i);
  }
  return line;
}

/** The `;`-separated statements of one line (its comment removed first), blank ones left out. */
export function statementsOf(line: string): Statement[] {
  const text = withoutComment(line.replace(/\r$/, ''));
  const parts: string[] = [];
  let quoted = false;
  let start = 0;
  for (let i = 0; i < text.length; i += 1) {
    if (text[i] === '"') quoted = !quoted;
    else if (!quoted && text[i] === ';') {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts
    .map((p) => p.trim())
    .filter((p) => p.length > 0)
    .map(statementOf);
}

function statementOf(text: string): Statement {
  const words: string[] = [];
  let i = 0;
  let unclosedQuote = false;
  let restStart = -1;
  while (i < text.length) {
    while (i < text.length && /\s/.test(text[i])) i += 1;
    if (i >= text.length) break;
    if (words.length === 1 && restStart < 0) restStart = i;
    if (text[i] === '"') {
      const end = text.indexOf('"', i + 1);
      if (end < 0) unclosedQuote = true;
      words.push(text.slice(i + 1, end < 0 ? text.length : end));
      i = end < 0 ? text.length : end + 1;
    } else {
      let j = i;
      while (j < text.length && !/\s/.test(text[j]) && text[j] !== '"') j += 1;
      words.push(text.slice(i, j));
      i = j;
    }
  }
  const [name = '', ...args] = words;
  const rest = restStart < 0 ? '' : text.slice(restStart).trim();
  const value = args.length <= 1 ? (args[0] ?? '') : /^"[^"]*"$/.test(rest) ? rest.slice(1, -1) : rest;
  return { name, args, value, unclosedQuote };
}
