/**
 * Writer for the game's config syntax (`key = value;`, `key[] = {…};`, `class Name {…};`).
 *
 * Strings are the only values a user controls freely, so they are where injection would happen.
 * The game doubles a quote inside a string (`""`) and has no other escape; a line break cannot be
 * written inside a string at all, so line breaks and every other control character become a space.
 * Keys and class names never come from users.
 */
export function quote(value: string): string {
  // eslint-disable-next-line no-control-regex
  const flat = value.replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, ' ');
  return `"${flat.replace(/"/g, '""')}"`;
}

/** A value or name the game's syntax cannot hold (an infinite number, a name that is not an identifier). */
export class NotWritable extends RangeError {}

/**
 * A number as the game reads it: plain decimal digits, never exponent notation, and never rounded. The
 * shortest text that reads back as the same double (what String() gives) is kept digit for digit, so
 * `0.000099999997` stays that and does not become `0.0001`.
 */
function formatNumber(value: number): string {
  if (!Number.isFinite(value)) throw new NotWritable(`not a finite number: ${value}`);
  const text = String(value);
  const exp = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!exp) return text;
  const [, sign, first, rest = '', power] = exp as unknown as [string, string, string, string | undefined, string];
  const digits = first + rest;
  const point = 1 + Number(power); // where the decimal point goes within `digits`
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return sign + digits + '0'.repeat(point - digits.length);
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

export type Scalar = string | number | boolean;
/** A value of the game's syntax: a scalar, or an array of values (arrays nest: `{{0,-1},{1,180}}`). */
export type Value = Scalar | readonly Value[];

function formatValue(value: Value): string {
  if (Array.isArray(value)) return `{${value.map(formatValue).join(', ')}}`;
  if (typeof value === 'string') return quote(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return formatNumber(value as number);
}

/** Letters, digits and `_`, at least one not a digit: the game takes a digit first (basic.cfg's `3D_Performance`). */
const IDENTIFIER = /^(?=[0-9]*[A-Za-z_])[A-Za-z0-9_]+$/;

function checkIdentifier(name: string): string {
  if (!IDENTIFIER.test(name)) throw new NotWritable(`not a config identifier: ${name}`);
  return name;
}

export class ConfigWriter {
  private readonly lines: string[] = [];
  private depth = 0;

  comment(text: string): this {
    for (const line of text.split('\n')) this.line(`// ${line}`);
    return this;
  }

  set(key: string, value: Scalar): this {
    return this.line(`${checkIdentifier(key)} = ${formatValue(value)};`);
  }

  array(key: string, values: readonly Value[]): this {
    return this.line(`${checkIdentifier(key)}[] = ${formatValue(values)};`);
  }

  /** `key[] += {…};`: adds to a list the game has already (as a file read for an import may say). */
  append(key: string, values: readonly Value[]): this {
    return this.line(`${checkIdentifier(key)}[] += ${formatValue(values)};`);
  }

  /** Lines written as they are, without indentation: checked beforehand by whoever lets them in. */
  verbatim(lines: readonly string[]): this {
    this.lines.push(...lines);
    return this;
  }

  open(className: string): this {
    this.line(`class ${checkIdentifier(className)}`).line('{');
    this.depth += 1;
    return this;
  }

  close(): this {
    this.depth -= 1;
    return this.line('};');
  }

  blank(): this {
    this.lines.push('');
    return this;
  }

  toString(): string {
    return this.lines.join('\n') + '\n';
  }

  private line(text: string): this {
    this.lines.push('    '.repeat(this.depth) + text);
    return this;
  }
}
