import { useState } from 'preact/hooks';
import { MASK, type WidgetHint } from '@garrison/core';

/** What the game's config schema says of a field beyond its widget: what it does, its default, its unit. */
export interface FieldHelp {
  description?: string;
  default?: unknown;
  unit?: string;
  /** A secret that may be emptied (the game's schema says so; a secret the service needs is not). */
  clearable?: boolean;
}

/** The help text under a field: what it does, then its default (with its unit) and its bounds. */
function helpSentence(hint: WidgetHint, help: FieldHelp): string {
  const unit = help.unit ? ` ${help.unit}` : '';
  const shown = (value: unknown): string | null => {
    if (value === undefined || hint.widget === 'password' || hint.widget === 'hidden') return null;
    if (hint.widget === 'toggle') return value ? 'on' : 'off';
    if (hint.widget === 'select') return (hint.options ?? []).map(optionOf).find((o) => o.value === value)?.label ?? String(value);
    if (Array.isArray(value)) return value.length ? value.join(', ') : 'none';
    return value === '' ? 'empty' : `${String(value)}${unit}`;
  };
  const parts = [help.description?.replace(/\.?$/, '.') ?? ''];
  const byDefault = shown(help.default);
  if (byDefault !== null) parts.push(`Default: ${byDefault}.`);
  if (hint.widget === 'number' && hint.min !== undefined && hint.max !== undefined) parts.push(`From ${hint.min} to ${hint.max}${unit}.`);
  return parts.filter(Boolean).join(' ');
}

/** An option of a `select` hint: `"2 - Always"` stands for the number 2, any other text for itself. */
export function optionOf(option: string): { value: string | number; label: string } {
  const m = /^(-?\d+(?:\.\d+)?) - (.*)$/.exec(option);
  return m ? { value: Number(m[1]), label: option } : { value: option, label: option };
}

/**
 * One config field, drawn from its widget hint. The value keeps the type the service gave it: a toggle
 * over 0/1 answers 0/1, a textarea over a list of lines answers a list.
 */
export function ConfigField({
  id,
  hint,
  help,
  value,
  saved,
  secretSet,
  onChange,
}: {
  id: string;
  hint: WidgetHint;
  help?: FieldHelp;
  value: unknown;
  saved: unknown;
  /** For a secret: whether it holds a value (the read masks it either way); unknown from an older service. */
  secretSet?: boolean;
  onChange: (value: unknown) => void;
}) {
  const helpId = `${id}-help`;
  const helpText = help && helpSentence(hint, help);
  const described = helpText ? helpId : undefined;
  const helpLine = helpText && (
    <small id={helpId} class="help">
      {helpText}
    </small>
  );
  const label = (control: preact.ComponentChildren, wide = false) => (
    <div class={`field${wide ? ' field-wide' : ''}`}>
      <label for={id}>{hint.label}</label>
      {control}
      {helpLine}
    </div>
  );
  switch (hint.widget) {
    case 'hidden':
      return null;
    case 'toggle':
      return (
        <div class="field field-toggle">
          <input
            id={id}
            aria-describedby={described}
            type="checkbox"
            checked={Boolean(value)}
            onChange={(e) => onChange(typeof saved === 'number' ? Number(e.currentTarget.checked) : e.currentTarget.checked)}
          />
          <label for={id}>{hint.label}</label>
          {helpLine}
        </div>
      );
    case 'number':
      return label(
        <input
          id={id}
          aria-describedby={described}
          type="number"
          min={hint.min}
          max={hint.max}
          step={Number.isInteger(saved) && (hint.max ?? 2) > 1 ? 1 : 'any'}
          value={value === null || value === undefined ? '' : String(value)}
          onInput={(e) => onChange(e.currentTarget.value === '' ? null : Number(e.currentTarget.value))}
        />,
      );
    case 'select':
      return label(
        <select
          id={id}
          aria-describedby={described}
          value={String(value)}
          onChange={(e) => onChange((hint.options ?? []).map(optionOf).find((o) => String(o.value) === e.currentTarget.value)?.value)}
        >
          {(hint.options ?? []).map(optionOf).map((o) => (
            <option key={o.label} value={String(o.value)}>
              {o.label}
            </option>
          ))}
        </select>,
      );
    case 'password': {
      // The service never shows a secret: the field stays empty, and only what is typed in it is sent.
      // `***` means "keep it"; an empty string, sent only through Clear, empties it.
      const set = secretSet ?? saved === MASK;
      const clearing = value === '' && set;
      return label(
        <div class="secret-input">
          <input
            id={id}
            aria-describedby={described}
            type="password"
            autoComplete="new-password"
            value={typeof value === 'string' && value !== MASK ? value : ''}
            placeholder={clearing ? 'Cleared when saved' : set ? 'Set (type to replace)' : 'Not set'}
            onInput={(e) => onChange(e.currentTarget.value === '' ? MASK : e.currentTarget.value)}
          />
          {set && help?.clearable !== false && !clearing && (value === MASK || value === saved) && (
            <button type="button" class="quiet" aria-label={`Clear ${hint.label}`} onClick={() => onChange('')}>
              Clear
            </button>
          )}
          {clearing && (
            <button type="button" class="quiet" aria-label={`Keep ${hint.label}`} onClick={() => onChange(MASK)}>
              Keep
            </button>
          )}
        </div>,
      );
    }
    case 'textarea':
      return label(
        <textarea
          id={id}
          aria-describedby={described}
          rows={4}
          value={Array.isArray(value) ? value.join('\n') : String(value ?? '')}
          // Every line as typed, the empty one being started included; empty lines are dropped when saved.
          onInput={(e) => onChange(Array.isArray(saved) ? e.currentTarget.value.split('\n') : e.currentTarget.value)}
        />,
        true,
      );
    case 'tag-list':
      return label(
        <TagList
          id={id}
          describedBy={described}
          tags={Array.isArray(value) ? (value as string[]) : []}
          placeholder={hint.placeholder}
          onChange={onChange}
        />,
        true,
      );
    default:
      return label(
        <input
          id={id}
          aria-describedby={described}
          value={String(value ?? '')}
          placeholder={hint.placeholder}
          onInput={(e) => onChange(e.currentTarget.value)}
        />,
      );
  }
}

/** A list of short strings: each a chip with a remove button, and a box that adds one on Enter. */
function TagList({
  id,
  describedBy,
  tags,
  placeholder,
  onChange,
}: {
  id: string;
  describedBy?: string;
  tags: string[];
  placeholder?: string;
  onChange: (tags: string[]) => void;
}) {
  const [text, setText] = useState('');
  const add = () => {
    const tag = text.trim();
    if (tag && !tags.includes(tag)) onChange([...tags, tag]);
    setText('');
  };
  return (
    <div class="tag-list">
      <ul>
        {tags.map((tag) => (
          <li key={tag}>
            {tag}
            <button type="button" class="quiet" onClick={() => onChange(tags.filter((t) => t !== tag))} aria-label={`Remove ${tag}`}>
              ×
            </button>
          </li>
        ))}
      </ul>
      <input
        id={id}
        aria-describedby={describedBy}
        value={text}
        placeholder={placeholder ?? 'Type, then Enter'}
        onInput={(e) => setText(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            add();
          }
        }}
        onBlur={add}
      />
    </div>
  );
}
