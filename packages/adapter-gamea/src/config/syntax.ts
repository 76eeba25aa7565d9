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

export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) throw new RangeError(`not a finite number: ${value}`);
  if (Number.isInteger(value)) return value.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 0 });
  // The game's parser reads plain decimals; avoid the exponent notation String() gives small numbers.
  return value.toFixed(10).replace(/0+$/, '').replace(/\.$/, '');
}

export type Scalar = string | number | boolean;

function formatScalar(value: Scalar): string {
  if (typeof value === 'string') return quote(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return formatNumber(value);
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

function checkIdentifier(name: string): string {
  if (!IDENTIFIER.test(name)) throw new Error(`not a config identifier: ${name}`);
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
    return this.line(`${checkIdentifier(key)} = ${formatScalar(value)};`);
  }

  array(key: string, values: readonly Scalar[]): this {
    return this.line(`${checkIdentifier(key)}[] = {${values.map(formatScalar).join(', ')}};`);
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
