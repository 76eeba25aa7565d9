export interface ConsoleCommand {
  words: string[];
  /** The command's text after its first word, as typed (`say` and `echo` print it whole). */
  args: string;
}

/**
 * The console's command syntax, as srcds reads a `.cfg` file and an RCON command: words separated by
 * blanks, `"…"` a single word (blanks and `//` inside kept), `//` outside quotes starts a comment, and
 * `;` outside quotes separates commands on one line.
 */
export function splitCommands(text: string): ConsoleCommand[] {
  const commands: ConsoleCommand[] = [];
  for (const line of text.split(/\r?\n/)) {
    let words: string[] = [];
    let start = 0;
    const end = (at: number) => {
      if (words.length) commands.push({ words, args: argsText(line.slice(start, at)) });
      words = [];
      start = at + 1;
    };
    let i = 0;
    while (i < line.length) {
      const c = line[i];
      if (c === ' ' || c === '\t') {
        i += 1;
      } else if (c === '/' && line[i + 1] === '/') {
        break;
      } else if (c === ';') {
        end(i);
        i += 1;
      } else if (c === '"') {
        const close = line.indexOf('"', i + 1);
        words.push(line.slice(i + 1, close < 0 ? line.length : close)); // an unclosed quote runs to the end of the line
        i = close < 0 ? line.length : close + 1;
      } else {
        let j = i;
        while (j < line.length && !' \t;"'.includes(line[j]) && !(line[j] === '/' && line[j + 1] === '/')) j += 1;
        words.push(line.slice(i, j));
        i = j;
      }
    }
    end(i);
  }
  return commands;
}

function argsText(command: string): string {
  const m = /^\s*\S+\s+([\s\S]*)$/.exec(command);
  return m ? m[1].trim() : '';
}
