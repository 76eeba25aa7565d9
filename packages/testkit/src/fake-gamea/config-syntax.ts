/**
 * A reader for the game's config syntax, written from the format's description, as the fake game
 * server reads its config files (and as tests check what the adapter writes):
 * `key = value;`, `key[] = {…};` (and `+=`), `class Name {…};` (`class Name: Base {…};`, `class Name;`),
 * strings with `""` for a quote, bare words as strings, `//` and `/* *\/` comments, `#` directive lines.
 * It refuses anything else, and a key set twice in one class, so output that parses here is output the
 * game can read, and reads one way.
 */
export type CfgValue = string | number | boolean | CfgValue[] | CfgClass;
export interface CfgClass {
  [key: string]: CfgValue;
}

/** Parses a whole file; throws, naming the offset, on anything the game would not load. */
export function parseCfg(text: string): CfgClass {
  let i = 0;
  const fail = (what: string): never => {
    throw new Error(`${what} at offset ${i}: ${JSON.stringify(text.slice(i, i + 30))}`);
  };
  const skip = () => {
    for (;;) {
      while (i < text.length && /\s/.test(text[i])) i += 1;
      const lineStart = i === 0 || text[i - 1] === '\n';
      if (text.startsWith('//', i) || (text[i] === '#' && lineStart)) while (i < text.length && text[i] !== '\n') i += 1;
      else if (text.startsWith('/*', i)) {
        const end = text.indexOf('*/', i + 2);
        if (end < 0) fail('unterminated comment');
        i = end + 2;
      } else return;
    }
  };
  const expect = (s: string) => {
    skip();
    if (!text.startsWith(s, i)) fail(`expected ${s}`);
    i += s.length;
  };
  const ident = () => {
    skip();
    const m = /^(?=[0-9]*[A-Za-z_])[A-Za-z0-9_]+/.exec(text.slice(i)) ?? fail('expected identifier');
    i += m[0].length;
    return m[0];
  };
  const value = (): CfgValue => {
    skip();
    if (text[i] === '"') {
      let out = '';
      i += 1;
      for (;;) {
        if (i >= text.length) fail('unterminated string');
        const c = text[i];
        if (c === '\n' || c === '\r') fail('line break inside a string');
        if (c === '"') {
          if (text[i + 1] === '"') {
            out += '"';
            i += 2;
            continue;
          }
          i += 1;
          return out;
        }
        out += c;
        i += 1;
      }
    }
    if (text[i] === '{') {
      i += 1;
      const items: CfgValue[] = [];
      skip();
      if (text[i] === '}') {
        i += 1;
        return items;
      }
      for (;;) {
        items.push(value());
        skip();
        if (text[i] === ',') i += 1;
        else if (text[i] === '}') {
          i += 1;
          return items;
        } else fail('expected , or }');
      }
    }
    const m = /^-?\d+(\.\d+)?(?=\s*[;,}])/.exec(text.slice(i));
    if (m) {
      i += m[0].length;
      return Number(m[0]);
    }
    // A bare word is a string to the game (`template = MP_Marksmen_01.Altis;`), true and false booleans.
    const bare = /^[^;,{}"\n]+/.exec(text.slice(i)) ?? fail('expected a value');
    i += bare[0].length;
    const word = bare[0].trim();
    if (word === 'true' || word === 'false') return word === 'true';
    return word;
  };
  const body = (closing: boolean): CfgClass => {
    const out: CfgClass = {};
    for (;;) {
      skip();
      if (i >= text.length) {
        if (closing) fail('missing };');
        return out;
      }
      if (closing && text[i] === '}') {
        i += 1;
        expect(';');
        return out;
      }
      const name = ident();
      if (name === 'class') {
        const cls = ident();
        skip();
        if (text[i] === ':') {
          i += 1;
          ident();
          skip();
        }
        if (text[i] === ';') {
          i += 1;
          continue; // declared, not defined
        }
        expect('{');
        if (cls in out) fail(`duplicate ${cls}`);
        out[cls] = body(true);
        continue;
      }
      skip();
      const isArray = text.startsWith('[]', i);
      if (isArray) i += 2;
      skip();
      if (isArray && text.startsWith('+=', i)) i += 1;
      expect('=');
      const v = value();
      if (isArray !== Array.isArray(v)) fail(`array mismatch for ${name}`);
      expect(';');
      if (name in out) fail(`duplicate key ${name}`);
      out[name] = v;
    }
  };
  return body(false);
}
